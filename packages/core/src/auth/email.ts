import { z } from 'zod';
import { requiredString } from '../api/common.ts';
import { LIMITS } from '../limits.ts';

export const EMAIL_MESSAGES = {
  required: 'Email is required.',
  notText: 'Email must be text.',
  invalid: 'Email is not valid.',
  tooLong: `Email must not be more than ${LIMITS.emailMaxLength} characters.`,
} as const;

/**
 * The "standard e-mail pattern" of the spec: something@domain.tld, no spaces. The lookahead checks
 * once that the rest has no space or second @: without it, `a@` followed by many dots and an @
 * made the pattern try every dot against the rest of the text, time growing with the square of
 * the length (a 100 kB sign-in name held the server for 9 s; ADR 0004, "Patterns").
 */
export const EMAIL_PATTERN = /^[^\s@]+@(?=[^\s@]+$)[^\s@]+\.[^\s@]{2,}$/;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const EmailSchema = z
  .string({ error: requiredString('Email') })
  .trim()
  .min(1, EMAIL_MESSAGES.required)
  // abort: a text past the limit is not matched against the pattern as well.
  .max(LIMITS.emailMaxLength, { error: EMAIL_MESSAGES.tooLong, abort: true })
  .regex(EMAIL_PATTERN, EMAIL_MESSAGES.invalid);
