import { describe, expect, it } from 'vitest';
import {
  EmailVerifyQuerySchema,
  RegisterFormSchema,
  RegisterRequestSchema,
  ResetPasswordFormSchema,
  TERMS_MESSAGE,
} from './contracts.ts';
import { PASSWORD_MESSAGES } from './password-policy.ts';

const good = 'Sunny-Day-42!';

describe('RegisterFormSchema', () => {
  it('accepts a complete form with the terms accepted', () => {
    expect(
      RegisterFormSchema.safeParse({
        email: 'a@example.com',
        password: good,
        confirmPassword: good,
        terms: true,
      }).success,
    ).toBe(true);
  });

  it('requires the terms checkbox', () => {
    const result = RegisterFormSchema.safeParse({
      email: 'a@example.com',
      password: good,
      confirmPassword: good,
      terms: false,
    });
    expect(result.error?.issues.map((i) => i.message)).toEqual([TERMS_MESSAGE]);
  });

  it('puts the mismatch message on the confirmation field', () => {
    const result = RegisterFormSchema.safeParse({
      email: 'a@example.com',
      password: good,
      confirmPassword: 'other',
      terms: true,
    });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['confirmPassword'], message: PASSWORD_MESSAGES.mismatch }),
    ]);
  });
});

describe('RegisterRequestSchema', () => {
  it('accepts and ignores any RoleName', () => {
    const result = RegisterRequestSchema.safeParse({
      email: 'a@example.com',
      RoleName: 'admin',
      Password: good,
      ConfirmPassword: good,
      altcha: 'x',
    });
    expect(result.success).toBe(true);
  });
});

describe('ResetPasswordFormSchema', () => {
  it('uses the spec’s confirmation message', () => {
    const result = ResetPasswordFormSchema.safeParse({ NewPassword: good, ConfirmPassword: 'x' });
    expect(result.error?.issues[0]?.message).toBe(PASSWORD_MESSAGES.mismatch);
  });
});

describe('EmailVerifyQuerySchema', () => {
  it('reads the JSON the client puts in UserEmail', () => {
    expect(
      EmailVerifyQuerySchema.parse({ UserEmail: '{"Email":"a@example.com"}' }).UserEmail.Email,
    ).toBe('a@example.com');
  });

  it('explains what UserEmail must look like when it is not JSON', () => {
    expect(
      EmailVerifyQuerySchema.safeParse({ UserEmail: 'a@example.com' }).error?.issues[0]?.message,
    ).toBe('UserEmail must be JSON such as {"Email":"you@example.com"}.');
  });
});
