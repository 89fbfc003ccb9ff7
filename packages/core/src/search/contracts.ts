import { z } from 'zod';
import { jsonParameter, requiredString } from '../api/common.ts';
import { AMOUNT_ORIGINS } from '../rates/effective-amount.ts';
import { metroAreaId } from '../inventory/contracts.ts';
import { stateByCode, stateByName } from '../rates/states.ts';
import { INVALID_PHONE_NUMBER, PhoneNumberSchema } from './phone-number.ts';

// search-and-accounts §2 "Home", "/ooprates", §3 entities, §4 states, §7 calls (issue 4).

/**
 * The product's billing classes (`OobRates/getoobratesSetting`). CMS files carry no billing
 * class; ingest derives one per item from its codes and setting (packages/ingest, billingClassOf),
 * and each class here stands for those derived values. One value per item cannot say everything,
 * so the search also finds an item for both settings as Inpatient (it is stored as outpatient),
 * and an item that is a drug (`DRUG_CODE_CATEGORIES`) as Drugs whatever its stored class (a J code billed
 * with a CPT code is stored as outpatient): the rate search's `matchingItems`.
 */
export const BILLING_CLASSES = {
  Inpatient: ['inpatient', 'inpatient facility'],
  Outpatient: ['outpatient'],
  Drugs: ['drugs'],
} as const satisfies Record<string, readonly string[]>;
export type BillingClass = keyof typeof BILLING_CLASSES;
export const BILLING_CLASS_NAMES = Object.keys(BILLING_CLASSES) as BillingClass[];

/** The derived item billing classes a chosen class covers; null for an unknown name. */
export function billingClassValues(paymentMethod: string): readonly string[] | null {
  const name = BILLING_CLASS_NAMES.find(
    (n) => n.toUpperCase() === paymentMethod.trim().toUpperCase(),
  );
  return name ? BILLING_CLASSES[name] : null;
}

/** Report types: employer members see the standard report (with notes), everyone else the individual one. */
export const REPORT_TYPES = ['employer', 'individual'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** First element of `OobRates/getReportType`: what the signed-in account may do now (§3 "User entitlement"). */
export const EntitlementSchema = z.object({
  /** 1 may search, 0 may not. */
  searching_Status: z.union([z.literal(0), z.literal(1)]),
  /** ISO date-time of the next eligible search when searching_Status is 0, else null. */
  next_Search_Date: z.string().nullable(),
  individualSubscription: z.boolean(),
  individualSubscriptionCount: z.number().int(),
  reportType: z.enum(REPORT_TYPES),
  employer_OCR: z.boolean(),
  oCR_Access: z.boolean(),
  /** The employer account's e-mail a member searches as, or null. */
  replace_Email: z.string().nullable(),
  actual_Email: z.string(),
  /** Free searches left in the rolling 60-day window. */
  freeSearchesLeft: z.number().int(),
  /** 'expired' while a lapsed individual subscription is within its 24-hour grace. */
  subscriptionStatus: z.enum(['none', 'active', 'expired']),
  /** The lapsed subscription's searches a renewal within the grace carries forward, else 0. */
  carryForwardSearches: z.number().int(),
});
export type Entitlement = z.infer<typeof EntitlementSchema>;

export const ReportTypeQuerySchema = z.object({
  email: z.string().max(254).optional(),
  userId: z.string().max(64).optional(),
});

export const EmployersAccessBodySchema = z.object({
  accout: z.string({ error: requiredString('accout') }).max(254),
});
export const EmployersAccessSchema = z.array(z.object({ API: z.enum(['yes', 'no']) }));

/** `OobRates/getoobratesStatewiseUserAccess`: state code → state name, the states the account may search. */
export const StatewiseAccessSchema = z.record(z.string(), z.string());

const stateCode = z
  .string({ error: requiredString('stateCode') })
  .trim()
  .regex(/^[A-Za-z]{2}$/, {
    abort: true,
    error: 'stateCode must be a two-letter state code such as AK.',
  })
  .transform((s) => s.toUpperCase())
  // Two letters that name no state (GU, ZZ) would search nothing and find nothing: said.
  .refine((code) => stateByCode(code) !== undefined, {
    error: (issue) => `${String(issue.input)} is not a state we know.`,
  });

const msaId = metroAreaId('msaID');

const medicalCode = z
  .string({ error: requiredString('code') })
  .trim()
  .min(1, 'code is required.')
  .max(20, 'code must not be more than 20 characters.')
  .regex(/^[0-9A-Za-z.-]+$/, 'code must be a medical code such as 70551.');

const paymentMethod = z
  .string({ error: requiredString('paymentMethod') })
  .trim()
  .refine((v) => billingClassValues(v) !== null, {
    message: `paymentMethod must be one of ${BILLING_CLASS_NAMES.join(', ')}.`,
  });

const optionalText = (max: number) => z.string().max(max).optional().nullable();

/** `GET OobRates/GetCodeDescriptionbyMSA?FilterJson={"stateCode","msaName","msaId","queryText"}`. */
export const CodeSearchFilterSchema = z.object({
  stateCode,
  msaName: z.string().trim().max(200).optional(),
  msaId: msaId.optional(),
  queryText: z
    .string({ error: requiredString('queryText') })
    .trim()
    .min(3, 'queryText must be at least 3 characters.')
    .max(100, 'queryText must not be more than 100 characters.'),
});
export type CodeSearchFilter = z.infer<typeof CodeSearchFilterSchema>;

export const CodeSearchQuerySchema = z.object({
  FilterJson: jsonParameter(
    'FilterJson',
    1024,
    'JSON such as {"stateCode":"AK","msaId":"11260","queryText":"705"}',
    CodeSearchFilterSchema.refine((filter) => Boolean(filter.msaId || filter.msaName), {
      message: 'FilterJson must hold msaId or msaName.',
    }),
  ),
});

/** A procedure code option, shown as '(code) description'. */
export const CodeOptionSchema = z.object({
  procedureCode: z.string(),
  codeDescription: z.string(),
  codeType: z.string(),
});
export type CodeOption = z.infer<typeof CodeOptionSchema>;

/**
 * A search's state code, or, when it has none, the code of the state its `stateName` names: the
 * spec's summary and export calls send the state by name alone (search-and-accounts §7).
 */
function withStateCode<T extends { stateCode?: string | undefined; stateName?: string | null }>(
  input: T,
  ctx: z.RefinementCtx,
): T & { stateCode: string } {
  if (input.stateCode !== undefined) return { ...input, stateCode: input.stateCode };
  const name = input.stateName?.trim();
  const state = name ? stateByName(name) : undefined;
  if (state) return { ...input, stateCode: state.code };
  ctx.addIssue(
    name
      ? { code: 'custom', path: ['stateName'], message: `${name} is not a state we know.` }
      : {
          code: 'invalid_type',
          expected: 'string',
          input: undefined,
          path: ['stateCode'],
          message: 'stateCode is required.',
        },
  );
  return z.NEVER;
}

/** The inputs of a search, as the results page saves and re-runs them. */
const SearchInputFields = z.object({
  code: medicalCode,
  /** The code's type (CPT, HCPCS, MS-DRG…) when the code box chose one; any type otherwise. */
  codeType: z
    .string()
    .trim()
    .max(20, 'codeType must not be more than 20 characters.')
    .optional()
    .nullable(),
  accout: optionalText(254),
  stateName: optionalText(60),
  /** Required unless `stateName` names a state. */
  stateCode: stateCode
    .optional()
    .meta({ description: 'Two letters; may be left out when stateName names the state.' }),
  msaID: msaId,
  msaName: optionalText(200),
  paymentMethod,
  report_Type: optionalText(20),
  logged_useremail: optionalText(254),
  islogged: z.boolean().optional().nullable(),
  userId: optionalText(64),
});
export const SearchInputSchema = SearchInputFields.transform(withStateCode);
export type SearchInput = z.infer<typeof SearchInputSchema>;

const familyStatus = z.union([z.literal(1), z.literal(2), z.literal('1'), z.literal('2')], {
  error: 'lives must be 1 (Single) or 2 (Family).',
});

/** The custom variant adds family status (lives) and year-to-date medical spend (accumulator). */
const CustomSearchInputFields = SearchInputFields.extend({
  lives: familyStatus.transform((v) => Number(v) as 1 | 2),
  accumulator: z
    .union([z.number(), z.string()], { error: requiredString('accumulator') })
    .transform((v) => String(v).trim())
    .pipe(
      z
        .string()
        // Whole dollars, as the spec's form asks ("digits only"): cents would be taken where the
        // message says they are not.
        .regex(/^\d{1,9}$/, 'accumulator must be digits only (YTD medical spend in dollars).'),
    )
    .transform(Number),
});
export const CustomSearchInputSchema = CustomSearchInputFields.transform(withStateCode);
export type CustomSearchInput = z.infer<typeof CustomSearchInputSchema>;

/** `exportOobData?oobinput={…}` and `exportOobDatacustomvalue?oobinput={…}`. */
export const ExportQuerySchema = z.object({
  oobinput: jsonParameter('oobinput', 2048, 'JSON', SearchInputSchema),
});
export const CustomExportQuerySchema = z.object({
  oobinput: jsonParameter('oobinput', 2048, 'JSON', CustomSearchInputSchema),
});

/** One rate row of a search (§3 "OOP result row") plus how the dollar figure was obtained. */
export const OopRateRowSchema = z.object({
  medicalcode: z.string(),
  CodeDescription: z.string(),
  msaname: z.string(),
  FacilityName: z.string(),
  /** Not in the hospitals' files; null until a hospital-type reference is loaded. */
  HospitalType: z.string().nullable(),
  planname: z.string(),
  payername: z.string(),
  /** The rate's effective dollar amount (the allowed amount). */
  rates: z.number(),
  notes: z.string().nullable(),
  Category: z.string(),
  codetype: z.string(),
  location: z.string().nullable(),
  Statename: z.string(),
  LOB: z.string(),
  /** Not in the hospitals' files; null until a health-system reference is loaded. */
  healthsystemType: z.string().nullable(),
  npi: z.string().nullable(),
  /** Estimated out-of-pocket for the searcher (custom: their family status and YTD; standard: single, $0 YTD). */
  /** Null for a plan the estimate does not describe (estimatesOutOfPocket). */
  MemberOOP: z.number().nullable(),
  /** dollar: published in dollars; otherwise derived (rateDerivation says from what). */
  rateOrigin: z.enum(AMOUNT_ORIGINS),
  rateDerivation: z.string().nullable(),
  /** The hospital's cash price for the service: its lowest, the same in all its rows (CASH_RATE). */
  cashRate: z.number().nullable(),
  /** The cash price of the row's own line, when its line publishes one. */
  lineCashRate: z.number().nullable(),
  /** Whether paying cash would cost less than MemberOOP: the line's cash price, else cashRate. */
  cashIsCheaper: z.boolean(),
  hospitalId: z.string(),
  billingClass: z.string(),
  setting: z.string().nullable(),
  /** The line's modifiers (80: an assistant surgeon, 26: the professional part); [] for the service itself. */
  modifiers: z.array(z.string()),
});
export type OopRateRow = z.infer<typeof OopRateRowSchema>;

/** `OobRates/getoobratesSummery`: one row per hospital. */
export const SummaryRowSchema = z.object({
  hospitalId: z.string(),
  FacilityName: z.string(),
  CASH_RATE: z.number().nullable(),
  LowAmt: z.number().nullable(),
  AvgAmt: z.number().nullable(),
  HighAmt: z.number().nullable(),
  rateCount: z.number().int(),
});
export type SummaryRow = z.infer<typeof SummaryRowSchema>;

export const PlanDesignSchema = z.object({
  deductible: z.object({
    single: z.number().nonnegative().max(1_000_000),
    family: z.number().nonnegative().max(1_000_000),
  }),
  outOfPocketMax: z.object({
    single: z.number().nonnegative().max(1_000_000),
    family: z.number().nonnegative().max(1_000_000),
  }),
  coinsurance: z
    .number()
    .min(0, 'coinsurance must be between 0 and 1.')
    .max(1, 'coinsurance must be between 0 and 1.'),
});

/**
 * A plan design an admin saves: PlanDesignSchema, and its figures in the order every plan keeps
 * them (a family owes at least what one person does; nobody's maximum is below their
 * deductible). Not on PlanDesignSchema itself: a design saved before these rules still reads.
 */
export const PlanDesignInputSchema = PlanDesignSchema.superRefine((plan, ctx) => {
  // Zod runs this after a figure broke its own bounds too: one message a field is enough.
  if (!PlanDesignSchema.safeParse(plan).success) return;
  const rules: [boolean, string[], string][] = [
    [
      plan.deductible.family < plan.deductible.single,
      ['deductible', 'family'],
      'The family deductible must not be less than the single deductible.',
    ],
    [
      plan.outOfPocketMax.single < plan.deductible.single,
      ['outOfPocketMax', 'single'],
      'The single out-of-pocket maximum must not be less than the single deductible.',
    ],
    [
      plan.outOfPocketMax.family < plan.deductible.family,
      ['outOfPocketMax', 'family'],
      'The family out-of-pocket maximum must not be less than the family deductible.',
    ],
    [
      plan.outOfPocketMax.family < plan.outOfPocketMax.single,
      ['outOfPocketMax', 'family'],
      'The family out-of-pocket maximum must not be less than the single maximum.',
    ],
  ];
  const named = new Set<string>();
  for (const [broken, path, message] of rules) {
    if (!broken || named.has(path.join('.'))) continue;
    named.add(path.join('.'));
    ctx.addIssue({ code: 'custom', path, message });
  }
});

/** `OobRates/sendPdftoUser`: the server re-runs the search from its inputs; it renders no client-supplied figures. */
export const SendPdfBodySchema = z.object({
  number: PhoneNumberSchema,
  search: z
    .object(CustomSearchInputFields.partial({ lives: true, accumulator: true }).shape, {
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? 'search is required.'
          : 'search must be an object.',
    })
    .transform(withStateCode),
  /** The spec's; accepted, not printed: the server writes its own (ADR 0016). */
  pdfHeader: optionalText(200),
  pdfFooter: optionalText(500),
  userId: optionalText(64),
  report_Type: optionalText(20),
  StateCode: optionalText(2),
  userDomain: optionalText(253),
});
export type SendPdfBody = z.infer<typeof SendPdfBodySchema>;

export const SEARCH_MESSAGES = {
  nextEligible: (date: string) => `Your next eligible search begins on ${date}`,
  freeSearchesOver:
    'Your 2 free medical code searches for every 60 days is over. Please try again later.',
  subscriptionExpired: (remaining: number) =>
    `Your subscription has expired. Renew within 24 hours to carry forward ${remaining} remaining searches along with new search credits.`,
  codeSearchEmpty: 'Please enter some value to search Medical Code / Code Description',
  nothingFound: 'Nothing found',
  searching: 'Searching...',
  invalidNumber: INVALID_PHONE_NUMBER,
  smsFailed: 'Some Error Occurred During Sending SMS!!',
  /** Not the spec's: it has no limit on texted reports. */
  tooManyTexts: (perDay: number) =>
    `You can text at most ${perDay} reports a day. Please try again tomorrow.`,
  footerNotice:
    'Hospitals can change their prices without notice. Always get a Good Faith Estimate first to lock in your rate.',
} as const;
