import { z } from 'zod';
import { requiredString } from '../api/common.ts';
import { LIMITS } from '../limits.ts';

/** The spec's special characters (search-and-accounts §5): exactly these count. */
export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*';

export const PASSWORD_MESSAGES = {
  required: 'Password is required.',
  minLength: `Password must be at least ${LIMITS.passwordMinLength} characters long.`,
  maxLength: `Password must not be more than ${LIMITS.passwordMaxLength} characters.`,
  uppercase: "Password must have at least one uppercase ('A'-'Z').",
  lowercase: "Password must have at least one lowercase ('a'-'z').",
  digit: "Password must have at least one digit ('0'-'9').",
  special: 'Password must have at least one special character.',
  mismatch: 'Password and Confirm Password must be same.',
  resetMismatch: 'New Password and Confirm Password are not same.',
} as const;

interface PasswordRule {
  test: (password: string) => boolean;
  message: string;
}

const RULES: readonly PasswordRule[] = [
  { test: (p) => p.length >= LIMITS.passwordMinLength, message: PASSWORD_MESSAGES.minLength },
  { test: (p) => p.length <= LIMITS.passwordMaxLength, message: PASSWORD_MESSAGES.maxLength },
  { test: (p) => /[A-Z]/.test(p), message: PASSWORD_MESSAGES.uppercase },
  { test: (p) => /[a-z]/.test(p), message: PASSWORD_MESSAGES.lowercase },
  { test: (p) => /[0-9]/.test(p), message: PASSWORD_MESSAGES.digit },
  {
    test: (p) => [...PASSWORD_SPECIAL_CHARACTERS].some((c) => p.includes(c)),
    message: PASSWORD_MESSAGES.special,
  },
];

/** Every rule the password breaks, in the order the spec lists them ("messages are listed together"). */
export function passwordProblems(password: string): string[] {
  return RULES.filter((rule) => !rule.test(password)).map((rule) => rule.message);
}

/** A new password: a string that satisfies the whole policy, each broken rule its own issue. */
export const NewPasswordSchema = z
  .string({ error: requiredString('Password') })
  .superRefine((password, ctx) => {
    if (password.length === 0) {
      ctx.addIssue({ code: 'custom', message: PASSWORD_MESSAGES.required });
      return;
    }
    for (const message of passwordProblems(password)) ctx.addIssue({ code: 'custom', message });
  });
