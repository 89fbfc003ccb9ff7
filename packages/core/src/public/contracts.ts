import { z } from 'zod';
import { requiredString } from '../api/common.ts';
import { EMAIL_PATTERN } from '../auth/email.ts';

// search-and-accounts §2 "Contact form", §3 "Feedback", §5 "Contact form", §7 Feedback calls.

export const CONTACT_LIMITS = { name: 50, email: 50, subject: 30, message: 500 } as const;

export const CONTACT_MESSAGES = {
  required: 'This field is required',
  firstNameAlphabetic: 'First Name should be alphabetic.',
  lastNameAlphabetic: 'Last Name should be alphabetic.',
  firstNameBlank: 'First Name should not be blank.',
  lastNameBlank: 'Last Name should not be blank.',
  firstNameTooLong: `First Name should not more than ${CONTACT_LIMITS.name} characters.`,
  lastNameTooLong: `Last Name should not more than ${CONTACT_LIMITS.name} characters.`,
  emailInvalid: 'Email is not valid.',
  subjectBlank: 'Subject should not be blank.',
  subjectTooLong: `Subject should not more than ${CONTACT_LIMITS.subject} characters.`,
  messageBlank: 'Message should not be blank.',
  messageTooLong: `Message should not more than ${CONTACT_LIMITS.message} characters.`,
} as const;

const LETTERS_AND_SPACES = /^[A-Za-z ]+$/;

function personName(label: 'First Name' | 'Last Name') {
  const m = CONTACT_MESSAGES;
  const first = label === 'First Name';
  return z
    .string({ error: requiredString(label) })
    .refine((v) => v.trim().length > 0, first ? m.firstNameBlank : m.lastNameBlank)
    .refine((v) => v.length <= CONTACT_LIMITS.name, first ? m.firstNameTooLong : m.lastNameTooLong)
    .refine(
      (v) => v.trim().length === 0 || LETTERS_AND_SPACES.test(v),
      first ? m.firstNameAlphabetic : m.lastNameAlphabetic,
    );
}

/** The contact form and `POST Feedback/savefeedback`: one schema for both sides. */
export const FeedbackSchema = z.object({
  FirstName: personName('First Name'),
  LastName: personName('Last Name'),
  email: z
    .string({ error: requiredString('Email') })
    .trim()
    .max(CONTACT_LIMITS.email, { error: CONTACT_MESSAGES.emailInvalid, abort: true })
    .regex(EMAIL_PATTERN, CONTACT_MESSAGES.emailInvalid),
  subject: z
    .string({ error: requiredString('Subject') })
    .refine((v) => v.trim().length > 0, CONTACT_MESSAGES.subjectBlank)
    .refine((v) => v.length <= CONTACT_LIMITS.subject, CONTACT_MESSAGES.subjectTooLong),
  message: z
    .string({ error: requiredString('Message') })
    .refine((v) => v.trim().length > 0, CONTACT_MESSAGES.messageBlank)
    .refine((v) => v.length <= CONTACT_LIMITS.message, CONTACT_MESSAGES.messageTooLong),
  /** The token `Feedback/uploadfeedbackfile` answered for the attachment, or empty. */
  fileName: z
    .string()
    .max(200, 'fileName must not be more than 200 characters.')
    .optional()
    .default(''),
});
export type Feedback = z.infer<typeof FeedbackSchema>;

/** The attachment: a de-identified claims file. Checked by content on the server, not by name. */
export const FEEDBACK_FILE = {
  maxBytes: 10 * 1024 * 1024,
  kinds: ['csv', 'xlsx', 'pdf', 'edi'] as const,
  accept:
    '.csv,.xlsx,.pdf,.edi,.txt,text/csv,application/pdf,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** `POST Feedback/uploadfeedbackfile` answers `{ isSuccess, message }`; message holds the stored file's token. */
export const FeedbackUploadResponseSchema = z.object({
  isSuccess: z.boolean(),
  message: z.string(),
});

export const FeedbackItemSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  /** Original name of the attachment, when there is one. */
  attachmentName: z.string().nullable(),
  /** Path of the admin-only download, when there is an attachment. */
  attachmentUrl: z.string().nullable(),
  receivedAt: z.string(),
});
export type FeedbackItem = z.infer<typeof FeedbackItemSchema>;

// subscriptions-and-payments §2 "Partners", §3 "Partner: website, imageurl".
export const PartnerSchema = z.object({
  id: z.string(),
  name: z.string(),
  website: z.string(),
  /** Served by RateLens (never hot-linked). */
  imageurl: z.string(),
  imageWidth: z.number().int(),
  imageHeight: z.number().int(),
});
export type Partner = z.infer<typeof PartnerSchema>;

export const PartnerListSchema = z.object({ data: z.array(PartnerSchema) });
