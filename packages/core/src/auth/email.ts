import { z } from 'zod';
import { requiredString } from '../api/common.ts';
import { LIMITS } from '../limits.ts';

export const EMAIL_MESSAGES = {
  required: 'Email is required.',
  notText: 'Email must be text.',
  invalid: 'Email is not valid.',
  tooLong: `Email must not be more than ${LIMITS.emailMaxLength} characters.`,
} as const;

/** The "standard e-mail pattern" of the spec: something@domain.tld, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const EmailSchema = z
  .string({ error: requiredString('Email') })
  .trim()
  .min(1, EMAIL_MESSAGES.required)
  .max(LIMITS.emailMaxLength, EMAIL_MESSAGES.tooLong)
  .regex(EMAIL_PATTERN, EMAIL_MESSAGES.invalid);
