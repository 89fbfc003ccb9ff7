import { z } from 'zod';
import { boundedString, wholeNumberOrDigits } from '../api/common.ts';
import { EmailSchema, normaliseEmail } from '../auth/email.ts';
import { formatUsd } from '../format.ts';
import { ACCESS_TYPES, SUBSCRIPTION_TYPES } from './contracts.ts';
import { INSTALLMENT_MONTHS, MAX_ORDER_CENTS, centsToDollars } from './money.ts';

// The catalogue an administrator manages at /admin/catalogue (issue 5): plans, coupons and
// custom offers. Money is integer cents here, as in the tables.

const cents = (name: string) =>
  z
    .number({ error: `${name} must be a number of cents.` })
    .int(`${name} must be a whole number of cents.`)
    .min(0, `${name} must not be negative.`)
    .max(
      MAX_ORDER_CENTS,
      `${name} must not be more than ${formatUsd(centsToDollars(MAX_ORDER_CENTS))}.`,
    );

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be a number.` })
    .int(`${name} must be a whole number.`)
    .min(min, `${name} must be at least ${min}.`)
    .max(max, `${name} must not be more than ${max}.`);

const title = (name: string, max: number) =>
  boundedString(name, max).trim().min(1, `${name} is required.`);

/**
 * An ISO date and time with its offset, as PostgreSQL can store it: not year 0 (there is none),
 * and an offset of at most 15:59 hours (zod takes up to 23:59).
 */
const instant = (name: string) =>
  z.iso
    .datetime({
      offset: true,
      error: `${name} must be a date and time such as 2026-01-31T00:00:00Z.`,
      abort: true,
    })
    .refine(
      (value) => !value.startsWith('0000') && !/[+-](1[6-9]|2\d):?\d\d$/.test(value),
      `${name} must be a date and time such as 2026-01-31T00:00:00Z, from year 1, with an offset of at most 15:59 hours.`,
    );

export const PLAN_FIELD_MESSAGES = {
  searchCountRequired: 'An Individual Search plan needs a search count.',
  searchCountOnlyIndividual: 'Only Individual Search plans have a search count.',
  individualIsNational: 'An Individual Search plan gives National access.',
  installmentAnnualOnly: `Only an Annual plan of ${INSTALLMENT_MONTHS} months can be paid in installments.`,
} as const;

/** A plan as an administrator writes it (`POST /admin/plans`, `PUT /admin/plans/:id`). */
export const PlanInputSchema = z
  .object({
    title: title('title', 120),
    subscriptionType: z.enum(SUBSCRIPTION_TYPES, {
      error: `subscriptionType must be one of ${SUBSCRIPTION_TYPES.join(', ')}.`,
    }),
    accessType: z.enum(ACCESS_TYPES, {
      error: `accessType must be one of ${ACCESS_TYPES.join(', ')}.`,
    }),
    /** State plans: per file; other plans: the price. */
    priceCents: cents('priceCents'),
    searchCount: wholeNumber('searchCount', 1, 100_000).nullable().default(null),
    priceDescription: boundedString('priceDescription', 300).trim().default(''),
    installmentEligible: z.boolean().default(false),
    maintenanceFeeCents: cents('maintenanceFeeCents').default(0),
    negotiable: z.boolean().default(false),
    includesDataFeed: z.boolean().default(false),
    termMonths: wholeNumber('termMonths', 1, 60).default(12),
    sortOrder: wholeNumber('sortOrder', 0, 10_000).default(0),
    active: z.boolean().default(true),
  })
  .superRefine((plan, ctx) => {
    const individual = plan.subscriptionType === 'Individual Search';
    if (individual && plan.searchCount === null)
      ctx.addIssue({
        code: 'custom',
        path: ['searchCount'],
        message: PLAN_FIELD_MESSAGES.searchCountRequired,
      });
    if (!individual && plan.searchCount !== null)
      ctx.addIssue({
        code: 'custom',
        path: ['searchCount'],
        message: PLAN_FIELD_MESSAGES.searchCountOnlyIndividual,
      });
    if (individual && plan.accessType !== 'National')
      ctx.addIssue({
        code: 'custom',
        path: ['accessType'],
        message: PLAN_FIELD_MESSAGES.individualIsNational,
      });
    if (
      plan.installmentEligible &&
      (plan.subscriptionType !== 'Annual' || plan.termMonths !== INSTALLMENT_MONTHS)
    )
      ctx.addIssue({
        code: 'custom',
        path: ['installmentEligible'],
        message: PLAN_FIELD_MESSAGES.installmentAnnualOnly,
      });
  });
export type PlanInput = z.infer<typeof PlanInputSchema>;
export type PlanInputFields = z.input<typeof PlanInputSchema>;

export const CataloguePlanSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  subscriptionType: z.enum(SUBSCRIPTION_TYPES),
  accessType: z.enum(ACCESS_TYPES),
  priceCents: z.number().int(),
  searchCount: z.number().int().nullable(),
  priceDescription: z.string(),
  installmentEligible: z.boolean(),
  maintenanceFeeCents: z.number().int(),
  negotiable: z.boolean(),
  includesDataFeed: z.boolean(),
  termMonths: z.number().int(),
  sortOrder: z.number().int(),
  active: z.boolean(),
});
export type CataloguePlan = z.infer<typeof CataloguePlanSchema>;

/** Letters, digits, - and _; stored upper-case and matched case-insensitively. */
export const COUPON_CODE_PATTERN = /^[A-Za-z0-9_-]{3,40}$/;

/** A coupon as an administrator writes it (`POST /admin/coupons`, `PUT /admin/coupons/:id`). */
export const CouponInputSchema = z
  .object({
    code: boundedString('code', 40)
      .trim()
      .regex(COUPON_CODE_PATTERN, 'code must be 3 to 40 letters, digits, - or _.')
      .transform((code) => code.toUpperCase()),
    percent: wholeNumber('percent', 1, 100),
    /** When it starts to apply; now when absent. */
    validFrom: instant('validFrom').nullable().default(null),
    /** When it stops applying; never when absent. */
    validTo: instant('validTo').nullable().default(null),
    /** Paid orders that may use it in all; unlimited when absent. */
    maxUses: wholeNumber('maxUses', 1, 1_000_000).nullable().default(null),
    /** Paid orders one account may use it on; unlimited when absent. */
    maxUsesPerUser: wholeNumber('maxUsesPerUser', 1, 1_000_000).nullable().default(null),
    active: z.boolean().default(true),
  })
  .superRefine((coupon, ctx) => {
    if (
      coupon.validFrom &&
      coupon.validTo &&
      Date.parse(coupon.validTo) <= Date.parse(coupon.validFrom)
    )
      ctx.addIssue({
        code: 'custom',
        path: ['validTo'],
        message: 'validTo must be after validFrom.',
      });
    if (
      coupon.maxUses !== null &&
      coupon.maxUsesPerUser !== null &&
      coupon.maxUsesPerUser > coupon.maxUses
    )
      ctx.addIssue({
        code: 'custom',
        path: ['maxUsesPerUser'],
        message: 'maxUsesPerUser must not be more than maxUses.',
      });
  });
export type CouponInput = z.infer<typeof CouponInputSchema>;
export type CouponInputFields = z.input<typeof CouponInputSchema>;

export const CatalogueCouponSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  percent: z.number().int(),
  validFrom: z.string(),
  validTo: z.string().nullable(),
  maxUses: z.number().int().nullable(),
  maxUsesPerUser: z.number().int().nullable(),
  active: z.boolean(),
  /** Paid orders that used it. */
  timesUsed: z.number().int(),
});
export type CatalogueCoupon = z.infer<typeof CatalogueCouponSchema>;

/** A custom offer as an administrator writes it (`POST /admin/custom-offers`). */
export const CustomOfferInputSchema = z.object({
  /** The account's e-mail. */
  email: EmailSchema.transform(normaliseEmail),
  planId: wholeNumber('planId', 1, 2_147_483_647),
  /** The state's code for a state plan; null for a national one. */
  stateCode: z
    .string({ error: 'stateCode must be text.' })
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'stateCode must be a two-letter state code such as AL.')
    .transform((code) => code.toUpperCase())
    .nullable()
    .default(null),
  /** The offered total price. */
  priceCents: cents('priceCents'),
  note: boundedString('note', 200).trim().default(''),
  expiresAt: instant('expiresAt').nullable().default(null),
});
export type CustomOfferInput = z.infer<typeof CustomOfferInputSchema>;
export type CustomOfferInputFields = z.input<typeof CustomOfferInputSchema>;

export const CatalogueOfferSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  planId: z.number().int(),
  planTitle: z.string(),
  stateCode: z.string().nullable(),
  priceCents: z.number().int(),
  note: z.string(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type CatalogueOffer = z.infer<typeof CatalogueOfferSchema>;

/** `:id` of the admin catalogue paths. */
export const CatalogueIdParamsSchema = z.object({
  id: wholeNumberOrDigits('id must be a whole number.', (n) =>
    n
      .min(1, 'id must be a catalogue id such as 1.')
      .max(2_147_483_647, 'id must be a catalogue id such as 1.'),
  ),
});
