import { formatUsd } from '../format.ts';
import { roundToCents } from './money.ts';

/** The one CMS methodology whose percentage is of the item's gross (billed) charge. */
export const PERCENT_OF_BILLED_CHARGES = 'percent of total billed charges';

/** The amounts of one payer's standard charge that a dollar figure can come from. */
export interface NegotiatedAmounts {
  dollar: number | null;
  /**
   * A percentage as CMS files write it (45 means 45%): of the gross charge under the methodology
   * PERCENT_OF_BILLED_CHARGES; under another (a fee schedule: "120% of Medicare") of something the
   * file does not give in dollars, so no dollar figure comes from it.
   */
  percentage: number | null;
  /** The CMS methodology, as the readers normalise it. */
  methodology: string | null;
  /** v3 `median_amount`. */
  median: number | null;
  /** v2 `estimated_amount`. */
  estimatedAmount: number | null;
}

/** Where a rate's dollar figure comes from, in the order `effectiveAmount` tries them. */
export const AMOUNT_ORIGINS = ['dollar', 'percentage-of-gross', 'median', 'estimated'] as const;
export type AmountOrigin = (typeof AMOUNT_ORIGINS)[number];

export interface EffectiveAmount {
  amount: number | null;
  origin: AmountOrigin | null;
  /**
   * The percentage of billed charges used, or the one that could not be used for want of a gross
   * charge; a percentage of anything else is not one.
   */
  percentage?: number;
}

function isAmount(value: number | null): value is number {
  return value !== null && Number.isFinite(value);
}

/**
 * The dollar amount a rate search shows for one payer's standard charge: the negotiated dollar
 * amount; else the negotiated percentage of the item's gross charge, when the methodology makes
 * it a percentage of billed charges and the gross charge is published; else the v3 median of
 * allowed amounts; else the v2 estimated amount. In cents.
 */
export function effectiveAmount(charge: NegotiatedAmounts, gross: number | null): EffectiveAmount {
  if (isAmount(charge.dollar)) return { amount: roundToCents(charge.dollar), origin: 'dollar' };
  const percentage =
    isAmount(charge.percentage) && charge.methodology === PERCENT_OF_BILLED_CHARGES
      ? charge.percentage
      : undefined;
  if (percentage !== undefined && isAmount(gross)) {
    return {
      amount: roundToCents((gross * percentage) / 100),
      origin: 'percentage-of-gross',
      percentage,
    };
  }
  const withPercentage = percentage === undefined ? {} : { percentage };
  if (isAmount(charge.median)) {
    return { amount: roundToCents(charge.median), origin: 'median', ...withPercentage };
  }
  if (isAmount(charge.estimatedAmount)) {
    return { amount: roundToCents(charge.estimatedAmount), origin: 'estimated', ...withPercentage };
  }
  return { amount: null, origin: null, ...withPercentage };
}

function formatPercentage(percentage: number): string {
  return `${Number(percentage.toFixed(4))}%`;
}

/** Where an effective amount came from, in words for a tooltip or an export's note column. */
export function describeOrigin(result: EffectiveAmount): string {
  switch (result.origin) {
    case 'dollar':
      return 'the negotiated dollar amount';
    case 'percentage-of-gross':
      return `derived from ${formatPercentage(result.percentage ?? 0)} of billed charges`;
    case 'median':
      return 'the median of paid amounts';
    case 'estimated':
      return "the hospital's estimate of the average amount paid";
    case null:
      return result.percentage === undefined
        ? 'no dollar amount published'
        : `${formatPercentage(result.percentage)} of billed charges; the gross charge is not published`;
  }
}

/**
 * How a search row's dollar figure was derived, in words; null when the hospital published it in
 * dollars. A percentage names the gross charge it was applied to.
 */
export function describeDerivation(
  origin: AmountOrigin,
  percentage: number | null,
  gross: number | null,
): string | null {
  if (origin === 'dollar') return null;
  const words = describeOrigin({ amount: null, origin, percentage: percentage ?? undefined });
  return origin === 'percentage-of-gross' && gross !== null
    ? `${words} (gross charge ${formatUsd(gross)})`
    : words;
}
