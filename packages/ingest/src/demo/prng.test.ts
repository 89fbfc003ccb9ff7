import { describe, expect, it } from 'vitest';
import { createRng } from './prng.ts';

describe('createRng', () => {
  it('repeats the same sequence for the same key', () => {
    const a = createRng('seed:1');
    const b = createRng('seed:1');
    const first = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(first);
  });

  it('gives a different sequence for a different key', () => {
    expect(createRng('seed:1').next()).not.toBe(createRng('seed:2').next());
  });

  it('draws integers within both inclusive bounds', () => {
    const rng = createRng('bounds');
    const seen = new Set(Array.from({ length: 500 }, () => rng.int(6, 12)));
    expect([...seen].sort((x, y) => x - y)).toEqual([6, 7, 8, 9, 10, 11, 12]);
  });
});
