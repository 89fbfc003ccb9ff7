import { describe, expect, it } from 'vitest';
import { nulCharacterAt } from './nul-characters.ts';

describe('nulCharacterAt', () => {
  it('names the field of the first string with a NUL character', () => {
    expect(nulCharacterAt({ items: [{ state: 'AK' }, { state: 'a\0b' }] })).toBe('items.1.state');
    expect(nulCharacterAt({ FullName: '\0' })).toBe('FullName');
    expect(nulCharacterAt('\0', 'body')).toBe('body');
  });

  it('finds nothing in clean input, numbers, null or nothing', () => {
    expect(nulCharacterAt({ a: 'text', b: 1, c: null, d: [true, { e: 'ok' }] })).toBeNull();
    expect(nulCharacterAt(undefined)).toBeNull();
  });

  it('walks a deeply nested body without running out of stack', () => {
    let deep: unknown = 'x\0';
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(nulCharacterAt(deep)?.split('.')).toHaveLength(100_000);
  });
});
