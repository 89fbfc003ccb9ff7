import { describe, expect, it } from 'vitest';
import { NewPasswordSchema, PASSWORD_MESSAGES, passwordProblems } from './password-policy.ts';

describe('passwordProblems', () => {
  it('accepts a password with an uppercase and a lowercase letter, a digit and a listed special character', () => {
    expect(passwordProblems('Sunny-Day-42!')).toEqual([]);
  });

  it('lists every broken rule together, in the spec’s order', () => {
    expect(passwordProblems('abc')).toEqual([
      PASSWORD_MESSAGES.minLength,
      PASSWORD_MESSAGES.uppercase,
      PASSWORD_MESSAGES.digit,
      PASSWORD_MESSAGES.special,
    ]);
  });

  it('counts only the spec’s special characters !@#$%^&*', () => {
    expect(passwordProblems('Abcdefg1-')).toEqual([PASSWORD_MESSAGES.special]);
    for (const special of '!@#$%^&*') expect(passwordProblems(`Abcdefg1${special}`)).toEqual([]);
  });

  it('quotes the spec’s uppercase and special-character messages word for word', () => {
    expect(PASSWORD_MESSAGES.uppercase).toBe(
      "Password must have at least one uppercase ('A'-'Z').",
    );
    expect(PASSWORD_MESSAGES.special).toBe('Password must have at least one special character.');
    expect(PASSWORD_MESSAGES.mismatch).toBe('Password and Confirm Password must be same.');
    expect(PASSWORD_MESSAGES.resetMismatch).toBe('New Password and Confirm Password are not same.');
  });

  it('refuses a password longer than the ceiling', () => {
    expect(passwordProblems(`Aa1!${'x'.repeat(200)}`)).toEqual([PASSWORD_MESSAGES.maxLength]);
  });
});

describe('NewPasswordSchema', () => {
  it('reports each broken rule as its own issue', () => {
    const result = NewPasswordSchema.safeParse('ABCDEFGH');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      PASSWORD_MESSAGES.lowercase,
      PASSWORD_MESSAGES.digit,
      PASSWORD_MESSAGES.special,
    ]);
  });

  it('says a missing password is required and a number is not text', () => {
    expect(NewPasswordSchema.safeParse(undefined).error?.issues[0]?.message).toBe(
      'Password is required.',
    );
    expect(NewPasswordSchema.safeParse(12345678).error?.issues[0]?.message).toBe(
      'Password must be text.',
    );
    expect(NewPasswordSchema.safeParse('').error?.issues[0]?.message).toBe(
      PASSWORD_MESSAGES.required,
    );
  });
});
