import { z } from 'zod';
import { requiredString } from '../api/common.ts';

/*
 * The number "Text me a report" texts (search-and-accounts §2 "/ooprates", §5 "Other rules"): a
 * US number, the country code fixed at +1 (§9). The browser and the server read it with the same
 * schema, so the API cannot be used to text a number the popup would refuse.
 */

/** §5 "Other rules": the one message for a number that cannot be texted. */
export const INVALID_PHONE_NUMBER = 'Please Enter a Valid Number';

/** Spaces, dashes, dots and parentheses: how people write a number, not part of it. */
const PUNCTUATION = /[\s\-.()]/g;

/**
 * The North American Numbering Plan: a 3-digit area code and a 3-digit exchange, neither
 * starting with 0 or 1, then 4 digits. Anything else (0000000000, 1234567890) reaches no phone.
 */
const NANP = /^[2-9]\d{2}[2-9]\d{6}$/;

/**
 * The digits of a typed number, its punctuation ignored and the country code dropped: a leading
 * "+1" (a number pasted whole; "+" alone while it is being typed) or the 1 of an 11-digit entry
 * (people type a US number with its leading 1; +1 is already given).
 */
export function phoneNumberDigits(typed: string): string {
  const digits = typed.replace(PUNCTUATION, '').replace(/^\+1?/, '');
  return /^1\d{10}$/.test(digits) ? digits.slice(1) : digits;
}

/** A number to text, as its 10 digits. Longer than any way of writing one: refused unread. */
export const PhoneNumberSchema = z
  .string({ error: requiredString('number') })
  .max(30, INVALID_PHONE_NUMBER)
  .transform(phoneNumberDigits)
  .pipe(z.string().regex(NANP, INVALID_PHONE_NUMBER))
  .describe(
    'A US number (NANP): 10 digits, the area code and the exchange each starting with 2–9. ' +
      'Spaces, dashes, dots and parentheses are ignored, and so are a leading +1 and a leading 1 on 11 digits.',
  );

/** The 10 digits of the number typed, or null when it is not a number we can text. */
export function parsePhoneNumber(typed: string): string | null {
  const parsed = PhoneNumberSchema.safeParse(typed);
  return parsed.success ? parsed.data : null;
}

/** '+1 (907) 555-1234', from the 10 digits. */
export function formatPhoneNumber(digits: string): string {
  return `+1 (${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}
