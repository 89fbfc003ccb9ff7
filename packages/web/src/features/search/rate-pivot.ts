import { formatUsd, type OopRateRow } from '@ratelens/core';

/**
 * The results pivot (search-and-accounts §2 "/ooprates", §9 "Pivot"): rows grouped by Code
 * Description, then Facility Name, then Plan Name; the value is the average rate; every level is
 * sorted by that average, highest first.
 */

/** The pivot's headers (§2 "/ooprates"), then this product's additions. */
export const RATE_TABLE_COLUMNS = [
  'Code Description/Hospital',
  'Negotiate Rate ($)',
  'Your estimated out-of-pocket ($)',
  'Cash price ($)',
  'How the rate was published',
] as const;

export interface PlanLine {
  /** The plan with its payer, as 'Aetna PPO' (payers reuse plan names such as 'PPO'). */
  planName: string;
  /** Average of the plan's rates at this facility (several items can carry the same code). */
  rate: number;
  /** Average estimated out-of-pocket of those rates; null for a plan that gets no estimate. */
  memberOop: number | null;
  /** The rates' origins; more than one when the plan's items were published differently. */
  origins: OopRateRow['rateOrigin'][];
  /** The server's words for how derived rates were obtained, without repeats. */
  derivations: string[];
  /** The facility's cash price when it is below this plan's estimated out-of-pocket. */
  cheaperCash: number | null;
  rateCount: number;
}

export interface FacilityGroup {
  facilityName: string;
  hospitalId: string;
  rate: number;
  cashRate: number | null;
  plans: PlanLine[];
}

export interface CodeGroup {
  code: string;
  codeDescription: string;
  rate: number;
  facilities: FacilityGroup[];
}

const average = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** 'Aetna PPO' for payer Aetna's plan 'PPO'; the plan alone when it already names its payer. */
export function planLabel(row: Pick<OopRateRow, 'payername' | 'planname'>): string {
  const payer = row.payername.trim();
  const plan = row.planname.trim();
  if (payer === '' || plan.toLowerCase().includes(payer.toLowerCase())) return plan || payer;
  return plan === '' ? payer : `${payer} ${plan}`;
}

const byRateDescending = <T extends { rate: number }>(a: T, b: T) => b.rate - a.rate;

function planLine(planName: string, rows: readonly OopRateRow[]): PlanLine {
  // A plan's rows share its line of business: all estimated, or none.
  const estimates = rows.flatMap((row) => (row.MemberOOP === null ? [] : [row.MemberOOP]));
  const memberOop = estimates.length === 0 ? null : average(estimates);
  const cash = rows.find((row) => row.cashRate !== null)?.cashRate ?? null;
  return {
    planName,
    rate: average(rows.map((row) => row.rates)),
    memberOop,
    origins: [...new Set(rows.map((row) => row.rateOrigin))],
    derivations: [
      ...new Set(rows.flatMap((row) => (row.rateDerivation ? [row.rateDerivation] : []))),
    ],
    // One row: the server's flag. Several: compare the cash price with their average estimate.
    cheaperCash:
      cash !== null &&
      memberOop !== null &&
      (rows.length === 1
        ? rows[0]?.cashIsCheaper === true
        : cash < Math.round(memberOop * 100) / 100)
        ? cash
        : null,
    rateCount: rows.length,
  };
}

export function buildRatePivot(rows: readonly OopRateRow[]): CodeGroup[] {
  const codes = [...groupBy(rows, (row) => row.CodeDescription)].map(([description, codeRows]) => {
    const facilities = [...groupBy(codeRows, (row) => row.hospitalId || row.FacilityName)].map(
      ([, facilityRows]): FacilityGroup => {
        const first = facilityRows[0];
        const plans = [...groupBy(facilityRows, planLabel)]
          .map(([planName, planRows]) => planLine(planName, planRows))
          .sort(byRateDescending);
        return {
          facilityName: first?.FacilityName ?? '',
          hospitalId: first?.hospitalId ?? '',
          rate: average(facilityRows.map((row) => row.rates)),
          cashRate: facilityRows.find((row) => row.cashRate !== null)?.cashRate ?? null,
          plans,
        };
      },
    );
    facilities.sort(byRateDescending);
    return {
      code: codeRows[0]?.medicalcode ?? '',
      codeDescription: description,
      rate: average(codeRows.map((row) => row.rates)),
      facilities,
    };
  });
  return codes.sort(byRateDescending);
}

const twoDecimals = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** A rate in a '($)' column: 2 decimals (§9), thousands separated. */
export function formatRate(value: number): string {
  return twoDecimals.format(value);
}

/**
 * An out-of-pocket figure, or why there is none: Medicare Advantage, Medicaid and other public
 * plans get no estimate (core's estimatesOutOfPocket; the assumptions above the table say why).
 */
export function formatEstimate(value: number | null): string {
  return value === null ? 'Not estimated' : formatRate(value);
}

/** An amount in a sentence: '$1,234.50'. */
export function formatDollars(value: number): string {
  return formatUsd(value);
}

/** Fallback words when the server sends no derivation (core's describeOrigin has the same). */
const DERIVED_FROM: Record<Exclude<OopRateRow['rateOrigin'], 'dollar'>, string> = {
  'percentage-of-gross': 'a percentage of billed charges',
  median: 'the median of paid amounts',
  estimated: "the hospital's estimate of the average amount paid",
};

/** How a plan's rate was obtained, in words: published in dollars, or derived (and from what). */
export function originWords(plan: Pick<PlanLine, 'origins' | 'derivations'>): string {
  const derived = plan.origins.filter((origin) => origin !== 'dollar');
  if (derived.length === 0) return 'Published in dollars';
  // The server's words start "derived from" for a percentage and not for the others.
  const sources =
    plan.derivations.length > 0
      ? plan.derivations.map((words) => words.replace(/^derived from /, ''))
      : derived.map((origin) => DERIVED_FROM[origin]);
  return `${plan.origins.includes('dollar') ? 'Partly derived' : 'Derived'} from ${sources.join('; ')}`;
}

/** The cash-price flag of a plan line (issue 4). */
export function cashCheaperWords(cash: number): string {
  return `Paying the cash price (${formatDollars(cash)}) would cost you less than your estimated out-of-pocket`;
}
