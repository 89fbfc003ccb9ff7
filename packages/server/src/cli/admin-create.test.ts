import { passwordProblems } from '@ratelens/core';
import { describe, expect, it } from 'vitest';
import { generatePassword } from './admin-create.ts';

describe('generatePassword', () => {
  it('always satisfies the password policy and never repeats', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const password = generatePassword();
      expect(passwordProblems(password)).toEqual([]);
      seen.add(password);
    }
    expect(seen.size).toBe(50);
  });
});
