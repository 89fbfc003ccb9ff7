import {
  CouponInputSchema,
  CustomOfferInputSchema,
  MAX_ORDER_CENTS,
  PlanInputSchema,
  centsToDollars,
  formatUsd,
  parseDollars,
  type CatalogueCoupon,
  type CataloguePlan,
  type CouponInput,
  type CustomOfferInput,
  type PlanInput,
} from '@ratelens/core';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { formatCalendarDate } from '../../shared/format-date.ts';

/*
 * The catalogue forms of /admin/catalogue. Every field is typed text (an emptied input is '');
 * money is typed in dollars and sent in cents; a day is a YYYY-MM-DD date input. The converted
 * values are checked with core's schemas, the ones the server applies.
 */

export const DOLLARS_MESSAGE = `Enter an amount in dollars from $0 to ${formatUsd(centsToDollars(MAX_ORDER_CENTS))}, such as 25 or 25.50.`;
export const WHOLE_NUMBER_MESSAGE = 'Enter a whole number.';

const DAY_MS = 86_400_000;

/** Cents as the form shows them: 2500 → '25.00'. */
export function dollarsText(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** Typed dollars as cents; null when the text is not an amount (or is above the order limit). */
function cents(text: string): number | null {
  const value = parseDollars(text);
  return value === null || value > MAX_ORDER_CENTS ? null : value;
}

/** A typed whole number, '' as null, anything else as NaN (refused by the schema). */
function wholeOrNull(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The first instant of a YYYY-MM-DD day, UTC: a day means the same everywhere. */
export function dayStart(day: string): string | null {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T00:00:00.000Z` : null;
}

/** The instant a "last day" ends: the first instant of the next day, UTC. */
export function dayEnd(day: string): string | null {
  const start = dayStart(day);
  return start === null ? null : new Date(Date.parse(start) + DAY_MS).toISOString();
}

/** The day an end instant (the first instant after the last day) closes, as YYYY-MM-DD. */
export function lastDayOf(endInstant: string): string {
  return new Date(Date.parse(endInstant) - 1).toISOString().slice(0, 10);
}

/** What the forms need of a core schema (zod's safeParse). */
interface SafeParser<Input> {
  safeParse(value: unknown):
    | { success: true; data: Input }
    | {
        success: false;
        error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
      };
}

export type Check<Field extends string, Input> =
  { ok: true; input: Input } | { ok: false; errors: Partial<Record<Field, string>> };

/**
 * Parses `candidate` with a core schema; each issue goes to the form field its path names (the
 * first message wins), with the form's own wording where the schema speaks of cents.
 */
function checkWith<Field extends string, Input>(
  schema: SafeParser<Input>,
  candidate: Record<string, unknown>,
  fieldOf: Record<string, Field>,
  early: Partial<Record<Field, string>>,
): Check<Field, Input> {
  const result = schema.safeParse(candidate);
  if (result.success && Object.keys(early).length === 0) return { ok: true, input: result.data };
  const errors: Partial<Record<Field, string>> = { ...early };
  if (!result.success)
    for (const issue of result.error.issues) {
      const field = fieldOf[String(issue.path[0])];
      if (field) errors[field] ??= issue.message;
    }
  return { ok: false, errors };
}

/** react-hook-form's resolver from a check: the typed text in, core's input out. */
export function resolverOf<Values extends FieldValues, Input>(
  check: (values: Values) => Check<Extract<keyof Values, string>, Input>,
): Resolver<Values, unknown, Input> {
  return (values) => {
    const checked = check(values);
    if (checked.ok) return { values: checked.input, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const [field, message] of Object.entries(checked.errors))
      if (typeof message === 'string') errors[field] = { type: 'validate', message };
    return { values: {}, errors: errors as FieldErrors<Values> };
  };
}

// ---- Plans ----------------------------------------------------------------------------------

export interface PlanFormValues {
  title: string;
  subscriptionType: string;
  accessType: string;
  price: string;
  searchCount: string;
  priceDescription: string;
  installmentEligible: boolean;
  maintenanceFee: string;
  negotiable: boolean;
  includesDataFeed: boolean;
  termMonths: string;
  sortOrder: string;
  active: boolean;
}
export type PlanField = keyof PlanFormValues;

export const NEW_PLAN: PlanFormValues = {
  title: '',
  subscriptionType: 'Annual',
  accessType: 'State',
  price: '',
  searchCount: '',
  priceDescription: '',
  installmentEligible: false,
  maintenanceFee: '0.00',
  negotiable: false,
  includesDataFeed: false,
  termMonths: '12',
  sortOrder: '0',
  active: true,
};

export function planFormValues(plan: CataloguePlan): PlanFormValues {
  return {
    title: plan.title,
    subscriptionType: plan.subscriptionType,
    accessType: plan.accessType,
    price: dollarsText(plan.priceCents),
    searchCount: plan.searchCount === null ? '' : String(plan.searchCount),
    priceDescription: plan.priceDescription,
    installmentEligible: plan.installmentEligible,
    maintenanceFee: dollarsText(plan.maintenanceFeeCents),
    negotiable: plan.negotiable,
    includesDataFeed: plan.includesDataFeed,
    termMonths: String(plan.termMonths),
    sortOrder: String(plan.sortOrder),
    active: plan.active,
  };
}

const PLAN_FIELDS: Record<string, PlanField> = {
  title: 'title',
  subscriptionType: 'subscriptionType',
  accessType: 'accessType',
  priceCents: 'price',
  searchCount: 'searchCount',
  priceDescription: 'priceDescription',
  installmentEligible: 'installmentEligible',
  maintenanceFeeCents: 'maintenanceFee',
  termMonths: 'termMonths',
  sortOrder: 'sortOrder',
};

export function checkPlan(values: PlanFormValues): Check<PlanField, PlanInput> {
  const priceCents = cents(values.price);
  const maintenanceFeeCents = cents(values.maintenanceFee);
  const early: Partial<Record<PlanField, string>> = {};
  if (priceCents === null) early.price = DOLLARS_MESSAGE;
  if (maintenanceFeeCents === null) early.maintenanceFee = DOLLARS_MESSAGE;
  for (const field of ['termMonths', 'sortOrder'] as const)
    if (!Number.isInteger(wholeOrNull(values[field]))) early[field] = WHOLE_NUMBER_MESSAGE;
  return checkWith(
    PlanInputSchema,
    {
      ...values,
      priceCents: priceCents ?? 0,
      maintenanceFeeCents: maintenanceFeeCents ?? 0,
      searchCount: wholeOrNull(values.searchCount),
      termMonths: wholeOrNull(values.termMonths) ?? 0,
      sortOrder: wholeOrNull(values.sortOrder) ?? 0,
    },
    PLAN_FIELDS,
    early,
  );
}

/** The form field a server field error names (`priceCents` is the price box). */
export function planFieldOf(serverField: string): PlanField | undefined {
  return PLAN_FIELDS[serverField.split('.')[0] ?? ''];
}

// ---- Coupons --------------------------------------------------------------------------------

export interface CouponFormValues {
  code: string;
  percent: string;
  /** YYYY-MM-DD, or '' for today. */
  firstDay: string;
  /** YYYY-MM-DD, or '' for no end. */
  lastDay: string;
  maxUses: string;
  maxUsesPerUser: string;
}
export type CouponField = keyof CouponFormValues;

export const NEW_COUPON: CouponFormValues = {
  code: '',
  percent: '',
  firstDay: '',
  lastDay: '',
  maxUses: '',
  maxUsesPerUser: '',
};

const COUPON_FIELDS: Record<string, CouponField> = {
  code: 'code',
  percent: 'percent',
  validFrom: 'firstDay',
  validTo: 'lastDay',
  maxUses: 'maxUses',
  maxUsesPerUser: 'maxUsesPerUser',
};

export const LAST_DAY_BEFORE_TODAY =
  'The last day must be today or later: the coupon starts today when the first day is empty.';

export function checkCoupon(
  values: CouponFormValues,
  now: Date = new Date(),
): Check<CouponField, CouponInput> {
  const percent = wholeOrNull(values.percent);
  const early: Partial<Record<CouponField, string>> = {};
  if (percent === null) early.percent = 'Enter the percent off, 1 to 100.';
  // Core's schema compares the two days only when both are given; an empty first day is today.
  const end = values.lastDay ? dayEnd(values.lastDay) : null;
  if (!values.firstDay && end !== null && Date.parse(end) <= now.getTime())
    early.lastDay = LAST_DAY_BEFORE_TODAY;
  return checkWith(
    CouponInputSchema,
    {
      code: values.code,
      percent: percent ?? Number.NaN,
      validFrom: values.firstDay ? dayStart(values.firstDay) : null,
      validTo: values.lastDay ? dayEnd(values.lastDay) : null,
      maxUses: wholeOrNull(values.maxUses),
      maxUsesPerUser: wholeOrNull(values.maxUsesPerUser),
      active: true,
    },
    COUPON_FIELDS,
    early,
  );
}

export function couponFieldOf(serverField: string): CouponField | undefined {
  return COUPON_FIELDS[serverField.split('.')[0] ?? ''];
}

/** 'March 1, 2026 – June 30, 2026' or 'From March 1, 2026' (the last day included, UTC). */
export function couponWindow(coupon: Pick<CatalogueCoupon, 'validFrom' | 'validTo'>): string {
  const from = formatCalendarDate(coupon.validFrom.slice(0, 10));
  return coupon.validTo === null
    ? `From ${from}`
    : `${from} – ${formatCalendarDate(lastDayOf(coupon.validTo))}`;
}

// ---- Custom offers --------------------------------------------------------------------------

export interface OfferFormValues {
  email: string;
  /** A plan id as text, '' before one is chosen. */
  planId: string;
  /** A state code, '' for a national plan. */
  stateCode: string;
  price: string;
  note: string;
  /** YYYY-MM-DD, or '' for no end. */
  lastDay: string;
}
export type OfferField = keyof OfferFormValues;

export const NEW_OFFER: OfferFormValues = {
  email: '',
  planId: '',
  stateCode: '',
  price: '',
  note: '',
  lastDay: '',
};

const OFFER_FIELDS: Record<string, OfferField> = {
  email: 'email',
  planId: 'planId',
  stateCode: 'stateCode',
  priceCents: 'price',
  note: 'note',
  expiresAt: 'lastDay',
};

export function checkOffer(values: OfferFormValues): Check<OfferField, CustomOfferInput> {
  const priceCents = cents(values.price);
  const early: Partial<Record<OfferField, string>> = {};
  if (priceCents === null) early.price = DOLLARS_MESSAGE;
  if (values.planId === '') early.planId = 'Choose a plan.';
  return checkWith(
    CustomOfferInputSchema,
    {
      email: values.email,
      planId: Number(values.planId),
      stateCode: values.stateCode === '' ? null : values.stateCode,
      priceCents: priceCents ?? 0,
      note: values.note,
      expiresAt: values.lastDay ? dayEnd(values.lastDay) : null,
    },
    OFFER_FIELDS,
    early,
  );
}

export function offerFieldOf(serverField: string): OfferField | undefined {
  return OFFER_FIELDS[serverField.split('.')[0] ?? ''];
}
