import { describe, expect, it } from 'vitest';
import {
  formatPhoneNumber,
  INVALID_PHONE_NUMBER,
  parsePhoneNumber,
  phoneNumberDigits,
  PhoneNumberSchema,
} from './phone-number.ts';

const messageOf = (typed: unknown) =>
  PhoneNumberSchema.safeParse(typed).error?.issues.map((issue) => issue.message);

describe('phoneNumberDigits', () => {
  it('drops the country code 1 of an 11-digit entry', () => {
    expect(phoneNumberDigits('19075551234')).toBe('9075551234');
  });

  it('ignores spaces, dashes, dots and parentheses', () => {
    expect(phoneNumberDigits(' (907) 555-12.34 ')).toBe('9075551234');
    expect(phoneNumberDigits('1 907 555 1234')).toBe('9075551234');
  });

  it('keeps a leading 1 that is not a country code', () => {
    expect(phoneNumberDigits('1907555123')).toBe('1907555123');
  });

  it('drops a leading +1, and a lone + while the number is being typed', () => {
    expect(phoneNumberDigits('+1 907 555 1234')).toBe('9075551234');
    expect(phoneNumberDigits('+')).toBe('');
  });

  it('keeps anything else, for the rule to refuse', () => {
    expect(phoneNumberDigits('907-555-12a4')).toBe('90755512a4');
  });
});

describe('PhoneNumberSchema', () => {
  it.each([
    ['9075551234', '9075551234'],
    ['19075551234', '9075551234'],
    ['(907) 555-1234', '9075551234'],
    ['1-907-555-1234', '9075551234'],
    ['907.555.1234', '9075551234'],
    ['+1 907 555 1234', '9075551234'],
    ['2002000000', '2002000000'],
  ])('reads %s as %s', (typed, digits) => {
    expect(PhoneNumberSchema.parse(typed)).toBe(digits);
  });

  it.each([
    ['0000000000', 'an area code starting with 0'],
    ['1234567890', 'an area code starting with 1'],
    ['9071551234', 'an exchange starting with 1'],
    ['9070551234', 'an exchange starting with 0'],
    ['1907555123', '10 digits whose first is a country code'],
    ['907555123', '9 digits'],
    ['29075551234', '11 digits not starting with 1'],
    ['119075551234', '12 digits'],
    ['907-555-12a4', 'a letter'],
    ['', 'nothing'],
    [`9075551234${' '.repeat(21)}`, 'more than 30 characters'],
  ])('refuses %s (%s) with the spec message', (typed) => {
    expect(messageOf(typed)).toEqual([INVALID_PHONE_NUMBER]);
  });

  it('says a missing number is required', () => {
    expect(messageOf(undefined)).toEqual(['number is required.']);
  });
});

describe('parsePhoneNumber', () => {
  it('gives the 10 digits of a number it can text, null otherwise', () => {
    expect(parsePhoneNumber('1 (907) 555-1234')).toBe('9075551234');
    expect(parsePhoneNumber('1234567890')).toBeNull();
  });
});

describe('formatPhoneNumber', () => {
  it('writes the 10 digits the US way, with the country code', () => {
    expect(formatPhoneNumber('9075551234')).toBe('+1 (907) 555-1234');
  });
});
