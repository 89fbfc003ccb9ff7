import { describe, expect, it } from 'vitest';
import { roundToCents } from './money.ts';

describe('roundToCents', () => {
  it('rounds half a cent up despite binary floating point', () => {
    expect(roundToCents(1.005)).toBe(1.01);
    expect(roundToCents(87.84339005)).toBe(87.84);
  });

  it('rounds negative amounts away from zero', () => {
    expect(roundToCents(-1.005)).toBe(-1.01);
  });
});
