import {
  OrganisationInputSchema,
  type OrganisationInput,
  type OrganisationView,
} from '@ratelens/core';
import type { FieldErrors, Resolver } from 'react-hook-form';

/** The organisation form: core's OrganisationInput with the member e-mails as typed text. */
export interface OrganisationFormValues {
  name: string;
  accountEmail: string;
  employerAccess: boolean;
  ocrAccess: boolean;
  employerOcr: boolean;
  /** One address per line or separated by commas. */
  memberEmails: string;
}
export type OrganisationField = keyof OrganisationFormValues;

const FIELDS: readonly OrganisationField[] = [
  'name',
  'accountEmail',
  'employerAccess',
  'ocrAccess',
  'employerOcr',
  'memberEmails',
];

/** A new organisation: employer access on, as in core's defaults. */
export const NEW_ORGANISATION: OrganisationFormValues = {
  name: '',
  accountEmail: '',
  employerAccess: true,
  ocrAccess: false,
  employerOcr: false,
  memberEmails: '',
};

export function formValuesOf(organisation: OrganisationView): OrganisationFormValues {
  return {
    name: organisation.name,
    accountEmail: organisation.accountEmail,
    employerAccess: organisation.employerAccess,
    ocrAccess: organisation.ocrAccess,
    employerOcr: organisation.employerOcr,
    memberEmails: organisation.memberEmails.join('\n'),
  };
}

/**
 * The addresses of the member box. Lines, commas and semicolons (a list pasted from a mail
 * program) all separate; an address holds no whitespace, so spaces separate too.
 */
export function splitEmails(text: string): string[] {
  return text.split(/[\s,;]+/).filter((email) => email !== '');
}

/** How many invalid addresses the member message names before it says "and N more". */
const NAMED_INVALID = 5;

export function invalidMembersMessage(invalid: readonly string[]): string {
  const named = invalid.slice(0, NAMED_INVALID).join(', ');
  const more = invalid.length - NAMED_INVALID;
  const list = more > 0 ? `${named} and ${more} more` : named;
  return invalid.length === 1
    ? `This is not a valid e-mail address: ${list}`
    : `These are not valid e-mail addresses: ${list}`;
}

export type OrganisationCheck =
  | { ok: true; input: OrganisationInput }
  | { ok: false; errors: Partial<Record<OrganisationField, string>> };

/**
 * The form's values checked with core's OrganisationInputSchema (what the server checks). An
 * invalid member address is named, so it can be found in a long list; repeated addresses are
 * sent once.
 */
export function checkOrganisation(values: OrganisationFormValues): OrganisationCheck {
  const members = splitEmails(values.memberEmails);
  const result = OrganisationInputSchema.safeParse({ ...values, memberEmails: members });
  if (result.success) {
    return {
      ok: true,
      input: { ...result.data, memberEmails: [...new Set(result.data.memberEmails)] },
    };
  }
  const errors: Partial<Record<OrganisationField, string>> = {};
  const invalidMembers: string[] = [];
  for (const issue of result.error.issues) {
    const [field, index] = issue.path;
    if (field === 'memberEmails' && typeof index === 'number') {
      const address = members[index];
      if (address !== undefined) invalidMembers.push(address);
      continue;
    }
    const name = FIELDS.find((f) => f === field);
    if (name) errors[name] ??= issue.message;
  }
  if (invalidMembers.length > 0) errors.memberEmails ??= invalidMembersMessage(invalidMembers);
  return { ok: false, errors };
}

/** react-hook-form's resolver: the form's text in, core's OrganisationInput out. */
export const organisationResolver: Resolver<OrganisationFormValues, unknown, OrganisationInput> = (
  values,
) => {
  const checked = checkOrganisation(values);
  if (checked.ok) return { values: checked.input, errors: {} };
  const errors: FieldErrors<OrganisationFormValues> = {};
  for (const field of FIELDS) {
    const message = checked.errors[field];
    if (message !== undefined) errors[field] = { type: 'validate', message };
  }
  return { values: {}, errors };
};

/** The form field a server field error names (`memberEmails.3` is the member box). */
export function formFieldOf(serverField: string): OrganisationField | undefined {
  const head = serverField.split('.')[0];
  return FIELDS.find((f) => f === head);
}
