import { z } from 'zod';
import { EmailSchema, normaliseEmail } from '../auth/email.ts';

const email = EmailSchema.transform(normaliseEmail);

/** An employer organisation as an admin manages it (issue 4, point 2). */
export const OrganisationInputSchema = z.object({
  name: z
    .string({ error: 'name is required.' })
    .trim()
    .min(1, 'name is required.')
    .max(120, 'name must not be more than 120 characters.'),
  accountEmail: email,
  employerAccess: z.boolean().default(true),
  ocrAccess: z.boolean().default(false),
  employerOcr: z.boolean().default(false),
  memberEmails: z
    .array(email)
    .max(10_000, 'memberEmails must not hold more than 10,000 addresses.')
    .default([]),
});
export type OrganisationInput = z.infer<typeof OrganisationInputSchema>;

export const OrganisationSchema = z.object({
  id: z.string(),
  name: z.string(),
  accountEmail: z.string(),
  employerAccess: z.boolean(),
  ocrAccess: z.boolean(),
  employerOcr: z.boolean(),
  memberEmails: z.array(z.string()),
});
export type OrganisationView = z.infer<typeof OrganisationSchema>;
