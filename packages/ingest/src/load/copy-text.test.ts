import { describe, expect, it } from 'vitest';
import { arrayLiteral, copyLine, copyNumber } from './copy-text.ts';

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

describe('copyNumber', () => {
  it('writes the same text as String() for amounts in cents and for every other number', () => {
    const values = [
      0,
      -0,
      0.01,
      0.1,
      0.3,
      1,
      9.99,
      10.5,
      100,
      3466.8,
      1234567.89,
      10737418.23,
      10737418.24,
      0.1 + 0.2,
      1 / 3,
      0.005,
      12.345,
      2.675,
      -5,
      -0.01,
      1e21,
      1e-7,
      Number.MAX_SAFE_INTEGER,
    ];
    // A deterministic spread of whole cents, tenths and arbitrary doubles.
    let seed = 42;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const r = seed / 2 ** 31;
      values.push(
        i % 3 === 0 ? Math.round(r * 1e8) / 100 : i % 3 === 1 ? Math.round(r * 1e5) / 10 : r * 1e4,
      );
    }
    for (const value of values) expect(copyNumber(value), String(value)).toBe(String(value));
  });

  it('writes null and non-finite numbers as NULL', () => {
    expect(copyNumber(null)).toBe('\\N');
    expect(copyNumber(Number.NaN)).toBe('\\N');
    expect(copyNumber(Number.NEGATIVE_INFINITY)).toBe('\\N');
  });
});
