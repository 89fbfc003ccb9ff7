import { describe, expect, it } from 'vitest';
import { ROLES, isAdmin } from './roles.ts';

describe('isAdmin', () => {
  it('is true for the administrators’ role only, and false with no role', () => {
    expect(isAdmin(ROLES.admin)).toBe(true);
    expect(isAdmin(ROLES.webUser)).toBe(false);
    expect(isAdmin(null)).toBe(false);
  });
});
