import { describe, expect, it } from 'vitest';
import { arrayLiteral, copyLine } from './copy-text.ts';

describe('copyLine', () => {
  it('separates columns with tabs and writes NULL as \\N', () => {
    expect(copyLine(['a', 1.5, null, true, undefined])).toBe('a\t1.5\t\\N\tt\t\\N\n');
  });

  it('escapes backslash, tab, newline and carriage return', () => {
    expect(copyLine(['a\\b\tc\nd\re'])).toBe('a\\\\b\\tc\\nd\\re\n');
  });

  it('writes a non-finite number as NULL', () => {
    expect(copyLine([Number.NaN, Number.POSITIVE_INFINITY])).toBe('\\N\t\\N\n');
  });

  it('writes arrays as quoted text[] literals', () => {
    expect(arrayLiteral(['x', 'a "b"', 'c\\d', ''])).toBe('{"x","a \\"b\\"","c\\\\d",""}');
    expect(copyLine([['26', 'TC']])).toBe('{"26","TC"}\n');
  });
});
