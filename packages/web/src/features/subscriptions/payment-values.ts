import {
  BillingAddressSchema,
  CARD_TYPES,
  EcheckDetailsSchema,
  brandMismatchMessage,
  cardBrandOf,
  cardDetailsSchema,
  cvvFits,
  digitsOf,
  expiryInFuture,
  parseExpiry,
  passesLuhn,
  type BillingAddress,
  type CardType,
} from '@ratelens/core';
import type { FieldErrors, Resolver } from 'react-hook-form';

/*
 * The payment form shared by /checkout and /donation (subscriptions-and-payments §2 "Checkout",
 * "Donation page", §5). Billing and echeck fields are checked by core's schemas, the ones the
 * server applies. The card is checked field by field with core's rules (Luhn, brand, expiry,
 * CVV; the spec's "no format checks" is a defect, docs/decisions/0007-spec-defects.md), because
 * core's card schema checks the number only once every other card field is filled in, and a
 * person typing a wrong number should hear so at once. At submit core's schema parses the card.
 */

export type PaymentMethod = 'card' | 'echeck';

export interface CardFields {
  cardType: string;
  cardName: string;
  cardNumber: string;
  expiryDate: string;
  cvv: string;
}

export interface EcheckFields {
  routingNumber: string;
  accountNumber: string;
  accountName: string;
  bankName: string;
  accountType: 'Checking' | 'Savings';
}

export type BillingFields = Record<keyof BillingAddress, string>;

export interface PaymentFormValues {
  card: CardFields;
  echeck: EcheckFields;
  billing: BillingFields;
}

export interface PaymentContext {
  method: PaymentMethod;
}

export type CardDetails = ReturnType<ReturnType<typeof cardDetailsSchema>['parse']>;
export type EcheckDetails = ReturnType<typeof EcheckDetailsSchema.parse>;

/** What a payment call sends besides its items. */
export type PaymentDetails =
  | { method: 'card'; paymentDetails: CardDetails; billingAddress: BillingAddress }
  | { method: 'echeck'; paymentDetails: EcheckDetails; billingAddress: BillingAddress };

/** §5: the message of a required field left empty. */
export const REQUIRED_MESSAGE = 'This field is required';
/** §5's hint, true of Visa, Master Card and Discover. */
export const CVV_HINT = '3 digits code on back side of the card';
/** American Express prints its 4-digit code on the front (core's cvvFits wants 4). */
export const AMEX_CVV_HINT = '4 digits code on front side of the card';

/** The CVV hint for the chosen card type. */
export function cvvHint(cardType: string): string {
  return cardType === 'American Express' ? AMEX_CVV_HINT : CVV_HINT;
}

export const FIELD_LABELS = {
  card: {
    cardType: 'Card Type',
    cardName: 'Name on Card',
    cardNumber: 'Card Number',
    expiryDate: 'Expiry Date (MM/YYYY)',
    cvv: 'CVV',
  },
  echeck: {
    routingNumber: 'Routing Number',
    accountNumber: 'Account Number',
    accountName: 'Account Holder Name',
    bankName: 'Bank Name',
    accountType: 'Account Type',
  },
  billing: {
    firstName: 'First Name',
    lastName: 'Last Name',
    address: 'Address',
    city: 'City',
    state: 'State',
    zipcode: 'Zip',
    email: 'Email',
  },
} as const satisfies {
  card: Record<keyof CardFields, string>;
  echeck: Record<keyof EcheckFields, string>;
  billing: Record<keyof BillingFields, string>;
};

export function emptyPaymentValues(email: string): PaymentFormValues {
  return {
    card: { cardType: '', cardName: '', cardNumber: '', expiryDate: '', cvv: '' },
    echeck: {
      routingNumber: '',
      accountNumber: '',
      accountName: '',
      bankName: '',
      accountType: 'Checking',
    },
    billing: {
      firstName: '',
      lastName: '',
      address: '',
      city: '',
      state: '',
      zipcode: '',
      email,
    },
  };
}

type Group = keyof PaymentFormValues;
type Problems = Partial<Record<string, string>>;

/** Core's messages name the field by its key ('zipcode must be …'); the form names it by label. */
function labelled(message: string, field: string, label: string): string {
  return message.startsWith(`${field} `) ? `${label}${message.slice(field.length)}` : message;
}

function isCardType(value: string): value is CardType {
  return (CARD_TYPES as readonly string[]).includes(value);
}

/** The problems of a group checked by one of core's schemas: the first message per field. */
function schemaProblems(
  group: 'billing' | 'echeck',
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
): Problems {
  const problems: Problems = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0] ?? '');
    const label = (FIELD_LABELS[group] as Record<string, string>)[field] ?? field;
    problems[field] ??= labelled(issue.message, field, label);
  }
  return problems;
}

/** The card checked field by field with core's rules (see the comment at the top). */
export function cardProblems(card: CardFields, now: Date): Problems {
  const problems: Problems = {};
  const type = isCardType(card.cardType) ? card.cardType : null;
  if (type === null) problems.cardType = 'Choose the card type.';
  if (card.cardName.trim() === '') problems.cardName = REQUIRED_MESSAGE;

  const number = digitsOf(card.cardNumber);
  if (!passesLuhn(number)) problems.cardNumber = 'Card number is not valid.';
  else if (type !== null && cardBrandOf(number) !== type)
    problems.cardNumber = brandMismatchMessage(type);

  const expiry = parseExpiry(card.expiryDate);
  if (!expiry) problems.expiryDate = 'Expiry date must be MM/YYYY.';
  else if (!expiryInFuture(expiry, now)) problems.expiryDate = 'The card has expired.';

  if (!cvvFits(card.cvv, type))
    problems.cvv = type === 'American Express' ? 'CVV must be 4 digits.' : 'CVV must be 3 digits.';
  return problems;
}

/** Every problem of the form for the chosen method, by group and field. */
export function paymentProblems(
  values: PaymentFormValues,
  method: PaymentMethod,
  now: Date = new Date(),
): Partial<Record<Group, Problems>> {
  const billing = schemaProblems('billing', BillingAddressSchema.safeParse(values.billing));
  const details =
    method === 'card'
      ? { card: cardProblems(values.card, now) }
      : { echeck: schemaProblems('echeck', EcheckDetailsSchema.safeParse(values.echeck)) };
  // An empty field says so, whatever rule it also breaks.
  const all: Partial<Record<Group, Problems>> = { billing, ...details };
  for (const [group, problems] of Object.entries(all) as [Group, Problems][]) {
    const fields = values[group] as unknown as Record<string, string>;
    for (const field of Object.keys(problems)) {
      if ((fields[field] ?? '').trim() === '') problems[field] = REQUIRED_MESSAGE;
    }
    if (Object.keys(problems).length === 0) delete all[group];
  }
  return all;
}

/** react-hook-form's resolver for the method in the form's context. */
export const paymentResolver: Resolver<PaymentFormValues, PaymentContext> = (values, context) => {
  const problems = paymentProblems(values, context?.method ?? 'card');
  const errors: FieldErrors<PaymentFormValues> = {};
  for (const [group, fields] of Object.entries(problems) as [Group, Problems][]) {
    const groupErrors: Record<string, { type: string; message: string }> = {};
    for (const [field, message] of Object.entries(fields)) {
      if (message) groupErrors[field] = { type: 'validate', message };
    }
    (errors as Record<string, unknown>)[group] = groupErrors;
  }
  return Object.keys(errors).length === 0 ? { values, errors: {} } : { values: {}, errors };
};

/**
 * The details to send, parsed by core's schemas (digits only, trimmed, the account type).
 * Throws when they do not pass, which the resolver has already ruled out.
 */
export function paymentDetailsOf(values: PaymentFormValues, method: PaymentMethod): PaymentDetails {
  const billingAddress = BillingAddressSchema.parse(values.billing);
  return method === 'card'
    ? { method, paymentDetails: cardDetailsSchema().parse(values.card), billingAddress }
    : { method, paymentDetails: EcheckDetailsSchema.parse(values.echeck), billingAddress };
}
