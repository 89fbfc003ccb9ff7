import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, FeedbackSchema } from './contracts.ts';

const valid = {
  FirstName: 'Jane Ann',
  LastName: 'Doe',
  email: 'jane@example.com',
  subject: 'A question',
  message: 'How current are the Alaska rates?',
};

const messagesFor = (changes: Record<string, unknown>) =>
  FeedbackSchema.safeParse({ ...valid, ...changes }).error?.issues.map(
    (issue) => `${issue.path.join('.')}: ${issue.message}`,
  ) ?? [];

describe('FeedbackSchema (the contact form, search-and-accounts §5)', () => {
  it('accepts a complete message, with or without an attachment token', () => {
    expect(FeedbackSchema.parse(valid).fileName).toBe('');
    expect(FeedbackSchema.parse({ ...valid, fileName: 'abc' }).fileName).toBe('abc');
  });

  it('allows letters and spaces only in names', () => {
    expect(messagesFor({ FirstName: 'J4ne' })).toEqual([
      `FirstName: ${CONTACT_MESSAGES.firstNameAlphabetic}`,
    ]);
    expect(messagesFor({ LastName: "O'Brien" })).toEqual([
      `LastName: ${CONTACT_MESSAGES.lastNameAlphabetic}`,
    ]);
  });

  it('refuses blank names, subject and message', () => {
    expect(messagesFor({ FirstName: '   ', subject: ' ', message: '' })).toEqual([
      `FirstName: ${CONTACT_MESSAGES.firstNameBlank}`,
      `subject: ${CONTACT_MESSAGES.subjectBlank}`,
      `message: ${CONTACT_MESSAGES.messageBlank}`,
    ]);
  });

  it('holds names to 50, e-mail to 50, subject to 30 and message to 500 characters', () => {
    expect(messagesFor({ FirstName: 'A'.repeat(51) })).toEqual([
      `FirstName: ${CONTACT_MESSAGES.firstNameTooLong}`,
    ]);
    expect(messagesFor({ FirstName: 'A'.repeat(50) })).toEqual([]);
    expect(messagesFor({ email: `${'a'.repeat(40)}@example.com` })).toEqual([
      `email: ${CONTACT_MESSAGES.emailInvalid}`,
    ]);
    expect(messagesFor({ subject: 'S'.repeat(31) })).toEqual([
      `subject: ${CONTACT_MESSAGES.subjectTooLong}`,
    ]);
    expect(messagesFor({ message: 'M'.repeat(501) })).toEqual([
      `message: ${CONTACT_MESSAGES.messageTooLong}`,
    ]);
  });

  it("quotes the spec's messages", () => {
    expect(CONTACT_MESSAGES.firstNameAlphabetic).toBe('First Name should be alphabetic.');
    expect(CONTACT_MESSAGES.emailInvalid).toBe('Email is not valid.');
    expect(CONTACT_MESSAGES.required).toBe('This field is required');
    expect(messagesFor({ email: 'not-an-email' })).toEqual(['email: Email is not valid.']);
  });
});
