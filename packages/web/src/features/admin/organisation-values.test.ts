import { EMAIL_MESSAGES } from '@ratelens/core';
import { describe, expect, it } from 'vitest';
import {
  NEW_ORGANISATION,
  checkOrganisation,
  formFieldOf,
  formValuesOf,
  invalidMembersMessage,
  splitEmails,
} from './organisation-values.ts';

const VALID = {
  ...NEW_ORGANISATION,
  name: '  Acme Health  ',
  accountEmail: 'HR@Acme.example.com',
};

describe('splitEmails', () => {
  it('splits on lines, commas, semicolons and spaces, and drops empty entries', () => {
    expect(splitEmails('a@x.com\r\nb@x.com, c@x.com;d@x.com  e@x.com\n\n,')).toEqual([
      'a@x.com',
      'b@x.com',
      'c@x.com',
      'd@x.com',
      'e@x.com',
    ]);
  });

  it('gives no address for an empty box', () => {
    expect(splitEmails('  \n ')).toEqual([]);
  });
});

describe('checkOrganisation', () => {
  it("gives core's input: trimmed name, lower-case e-mails, each member once", () => {
    const checked = checkOrganisation({
      ...VALID,
      ocrAccess: true,
      memberEmails: 'Ann@Example.com\nann@example.com, bo@example.com',
    });
    expect(checked).toEqual({
      ok: true,
      input: {
        name: 'Acme Health',
        accountEmail: 'hr@acme.example.com',
        employerAccess: true,
        ocrAccess: true,
        employerOcr: false,
        memberEmails: ['ann@example.com', 'bo@example.com'],
      },
    });
  });

  it("refuses a blank name and a bad account e-mail with core's messages", () => {
    const checked = checkOrganisation({ ...VALID, name: ' ', accountEmail: 'not-an-address' });
    expect(checked).toEqual({
      ok: false,
      errors: { name: 'name is required.', accountEmail: EMAIL_MESSAGES.invalid },
    });
  });

  it('names the member addresses that are not valid', () => {
    const checked = checkOrganisation({
      ...VALID,
      memberEmails: 'ann@example.com\nbo@example\ncy.example.com',
    });
    expect(checked).toEqual({
      ok: false,
      errors: { memberEmails: 'These are not valid e-mail addresses: bo@example, cy.example.com' },
    });
  });
});

describe('invalidMembersMessage', () => {
  it('names one address', () => {
    expect(invalidMembersMessage(['bo@'])).toBe('This is not a valid e-mail address: bo@');
  });

  it('names five addresses and counts the rest', () => {
    const bad = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect(invalidMembersMessage(bad)).toBe(
      'These are not valid e-mail addresses: a, b, c, d, e and 2 more',
    );
  });
});

describe('formValuesOf', () => {
  it('puts one member per line', () => {
    expect(
      formValuesOf({
        id: 'o-1',
        name: 'Acme',
        accountEmail: 'hr@acme.example.com',
        employerAccess: false,
        ocrAccess: true,
        employerOcr: true,
        memberEmails: ['ann@example.com', 'bo@example.com'],
      }),
    ).toEqual({
      name: 'Acme',
      accountEmail: 'hr@acme.example.com',
      employerAccess: false,
      ocrAccess: true,
      employerOcr: true,
      memberEmails: 'ann@example.com\nbo@example.com',
    });
  });
});

describe('formFieldOf', () => {
  it("maps the server's field names to the form's fields", () => {
    expect(formFieldOf('memberEmails.3')).toBe('memberEmails');
    expect(formFieldOf('accountEmail')).toBe('accountEmail');
    expect(formFieldOf('body')).toBeUndefined();
  });
});
