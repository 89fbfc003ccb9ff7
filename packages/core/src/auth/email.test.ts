import { describe, expect, it } from 'vitest';
import { EMAIL_MESSAGES, EMAIL_PATTERN, EmailSchema, normaliseEmail } from './email.ts';

describe('EmailSchema', () => {
  it('accepts an ordinary address and trims it', () => {
    expect(EmailSchema.parse('  jane.doe+rates@example.co.uk ')).toBe(
      'jane.doe+rates@example.co.uk',
    );
  });

  it.each([
    'plainaddress',
    'no-domain@',
    '@no-user.com',
    'two@@example.com',
    'spaces in@example.com',
    'a@b.c',
  ])('refuses %s with the spec message', (value) => {
    expect(EmailSchema.safeParse(value).error?.issues[0]?.message).toBe(EMAIL_MESSAGES.invalid);
  });

  it('refuses an address longer than 254 characters', () => {
    expect(EmailSchema.safeParse(`${'a'.repeat(250)}@example.com`).error?.issues[0]?.message).toBe(
      EMAIL_MESSAGES.tooLong,
    );
  });

  it('answers at once for a long text that nearly matches (no backtracking over it)', () => {
    // Before: time grew with the square of the length, about 9 s for 100 kB, 15 minutes for 1 MB.
    const nearly = `a@${'.'.repeat(300_000)}@`;
    expect(EMAIL_PATTERN.test(nearly)).toBe(false);
    expect(EmailSchema.safeParse(nearly).error?.issues.map((i) => i.message)).toEqual([
      EMAIL_MESSAGES.tooLong,
    ]);
  });

  it('says a missing address is required', () => {
    expect(EmailSchema.safeParse('').error?.issues[0]?.message).toBe(EMAIL_MESSAGES.required);
    expect(EmailSchema.safeParse(undefined).error?.issues[0]?.message).toBe(
      EMAIL_MESSAGES.required,
    );
  });
});

describe('normaliseEmail', () => {
  it('lower-cases and trims, so one person has one account', () => {
    expect(normaliseEmail(' Jane@Example.COM ')).toBe('jane@example.com');
  });
});
