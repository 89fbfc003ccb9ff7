import { formatUsd, payerDisplayName, type OopRateRow } from '@ratelens/core';

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
  /** Tells the plan's lines apart: one per way its rates were published and per modifiers. */
  key: string;
  /** The plan with its payer, as 'Aetna PPO' (payers reuse plan names such as 'PPO'). */
  planName: string;
  /** The line's modifiers (80: an assistant surgeon); [] for the service itself. */
  modifiers: string[];
  /**
   * Average of the plan's rates at this facility published the same way, with the same modifiers
   * (several items can carry the same code).
   */
  rate: number;
  /** Average estimated out-of-pocket of those rates; null for a plan that gets no estimate. */
  memberOop: number | null;
  /** How the rates were published (a plan's line never mixes two ways: planLineKey). */
  origin: OopRateRow['rateOrigin'];
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
  /** The hospital's cash price for the service: its lowest (ADR 0015). */
  cashRate: number | null;
  /** Whether its rates' own lines have other cash prices than that lowest. */
  cashVaries: boolean;
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

/**
 * 'Aetna PPO' for payer Aetna's plan 'PPO'; the plan alone when it already names its payer. The
 * payer without the file's bracketed id: 'BLUE CROSS BLUE SHIELD HB MVH BLUE CROSS PPO'.
 */
export function planLabel(row: Pick<OopRateRow, 'payername' | 'planname'>): string {
  const payer = payerDisplayName(row.payername);
  const plan = row.planname.trim();
  if (payer === '' || plan.toLowerCase().includes(payer.toLowerCase())) return plan || payer;
  return plan === '' ? payer : `${payer} ${plan}`;
}

/**
 * A plan's rows are averaged only with rows published the same way and for the same modifiers: a
 * negotiated dollar rate averaged with a median of paid amounts (AdventHealth's Aetna for DRG
 * 470: $66,058.49 and $8,954.22) is a figure neither the file nor the payer has, and an assistant
 * surgeon's fee (modifier 80) is not the operation's.
 */
function planLineKey(row: OopRateRow): string {
  // The names as the file writes them: two payers told apart only by their ids stay apart.
  const names = [row.payername.trim(), row.planname.trim()];
  return [...names, row.rateOrigin, ...row.modifiers].join('\u0000');
}

/** "Modifier 80", "Modifiers AS, 80": what a plan's line prices besides the service itself. */
export function modifierWords(modifiers: readonly string[]): string {
  return `${modifiers.length === 1 ? 'Modifier' : 'Modifiers'} ${modifiers.join(', ')}`;
}

const byRateDescending = <T extends { rate: number }>(a: T, b: T) => b.rate - a.rate;

function planLine(key: string, rows: readonly OopRateRow[]): PlanLine {
  // A plan's rows share its line of business: all estimated, or none.
  const estimates = rows.flatMap((row) => (row.MemberOOP === null ? [] : [row.MemberOOP]));
  const memberOop = estimates.length === 0 ? null : average(estimates);
  // The cash price each rate is weighed against: its own line's, else the hospital's lowest.
  const cashes = rows.map((row) => row.lineCashRate ?? row.cashRate);
  const cash = cashes.includes(null) ? null : average(cashes as number[]);
  const first = rows[0];
  return {
    key,
    planName: first ? planLabel(first) : '',
    modifiers: first?.modifiers ?? [],
    rate: average(rows.map((row) => row.rates)),
    memberOop,
    origin: first?.rateOrigin ?? 'dollar',
    derivations: [
      ...new Set(rows.flatMap((row) => (row.rateDerivation ? [row.rateDerivation] : []))),
    ],
    // One row: the server's flag. Several: compare their average cash price with their average
    // estimate.
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
        const plans = [...groupBy(facilityRows, planLineKey)]
          .map(([key, planRows]) => planLine(key, planRows))
          .sort(byRateDescending);
        return {
          facilityName: first?.FacilityName ?? '',
          hospitalId: first?.hospitalId ?? '',
          rate: average(facilityRows.map((row) => row.rates)),
          cashRate: facilityRows.find((row) => row.cashRate !== null)?.cashRate ?? null,
          cashVaries: facilityRows.some(
            (row) => row.lineCashRate !== null && row.lineCashRate !== row.cashRate,
          ),
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
 * A hospital's cash price in its '($)' column: "from 112.50" when its rates' lines have other cash
 * prices (the cheapest of 59 implants is not every implant's), each plan's line then naming its
 * own; null when it publishes none.
 */
export function facilityCash(facility: Pick<FacilityGroup, 'cashRate' | 'cashVaries'>) {
  if (facility.cashRate === null) return null;
  return `${facility.cashVaries ? 'from ' : ''}${formatRate(facility.cashRate)}`;
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
export function originWords(plan: Pick<PlanLine, 'origin' | 'derivations'>): string {
  if (plan.origin === 'dollar') return 'Published in dollars';
  // The server's words start "derived from" for a percentage and not for the others.
  const sources =
    plan.derivations.length > 0
      ? plan.derivations.map((words) => words.replace(/^derived from /, ''))
      : [DERIVED_FROM[plan.origin]];
  return `Derived from ${sources.join('; ')}`;
}

/** The cash-price flag of a plan line (issue 4). */
export function cashCheaperWords(cash: number): string {
  return `Paying the cash price (${formatDollars(cash)}) would cost you less than your estimated out-of-pocket`;
}
