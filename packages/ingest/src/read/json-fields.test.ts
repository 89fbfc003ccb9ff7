import { describe, expect, it } from 'vitest';
import { keysIn } from './json-fields.ts';

/** A value nested `depth` deep: lists, or objects of one key, around `inner`. */
function nested(depth: number, kind: 'list' | 'object', inner: unknown): unknown {
  let value = inner;
  for (let k = 0; k < depth; k++) value = kind === 'list' ? [value] : { a: value };
  return value;
}

describe('keysIn', () => {
  it('counts the keys of every object in a value, in lists and objects alike', () => {
    expect(keysIn({ a: 1, b: [{ c: 2, d: { e: null } }, [{ f: 'x' }], 3], g: {} })).toBe(7);
    expect(keysIn([{ a: 1 }, { a: 2 }])).toBe(2);
    expect(keysIn('text')).toBe(0);
    expect(keysIn(null)).toBe(0);
  });

  it('walks lists and objects nested far deeper than the stack would allow', () => {
    // JSON.parse reads these; a field no schema defines may hold them (the file was refused).
    expect(keysIn(nested(100_000, 'list', { a: 1, b: 2 }))).toBe(2);
    expect(keysIn(nested(100_000, 'object', 1))).toBe(100_000);
    expect(keysIn(JSON.parse(`${'['.repeat(5_000)}{"a": 1}${']'.repeat(5_000)}`))).toBe(1);
  });
});
