import { describeOrigin, formatLongDate, formatUsd, type OopRateRow } from '@ratelens/core';

/** $1,234.56; an amount the hospital did not publish reads 'n/a'. */
export function usd(amount: number | null): string {
  return amount === null ? 'n/a' : formatUsd(amount);
}

/** 'November 21, 2026': dates in reports are calendar days in UTC, as on the results screen. */
export function reportDate(date: Date): string {
  return formatLongDate(date);
}

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * How the hospital published a rate, in words: a dollar amount, or the derivation behind the
 * dollar figure (a percentage of billed charges, the median or the estimate of v3 files).
 */
export function rateSourceText(row: Pick<OopRateRow, 'rateOrigin' | 'rateDerivation'>): string {
  if (row.rateDerivation) return sentence(row.rateDerivation);
  if (row.rateOrigin === 'percentage-of-gross')
    return 'Derived from a percentage of billed charges';
  return sentence(describeOrigin({ amount: null, origin: row.rateOrigin }));
}
