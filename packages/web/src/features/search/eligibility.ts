import { SEARCH_MESSAGES, formatLongDate, type Entitlement } from '@ratelens/core';

/** 'Your next eligible search begins on May 3, 2026' (§4, §8). */
export function nextEligibleMessage(entitlement: Pick<Entitlement, 'next_Search_Date'>): string {
  const iso = entitlement.next_Search_Date;
  const date = iso === null ? null : new Date(iso);
  const words = date === null || Number.isNaN(date.getTime()) ? (iso ?? '') : formatLongDate(date);
  return SEARCH_MESSAGES.nextEligible(words).trim();
}

/** What the entitlement says the Get Rates button does (§4 "Get Rates button"). */
export type GetRatesAction = 'download' | 'standard' | 'custom' | 'wait';

export function getRatesAction(
  entitlement: Entitlement,
  employerAccess: 'yes' | 'no' | undefined,
): GetRatesAction {
  if (
    entitlement.individualSubscription &&
    entitlement.searching_Status === 1 &&
    entitlement.individualSubscriptionCount > 0
  ) {
    return 'download';
  }
  if (employerAccess === 'yes') return 'standard';
  if (employerAccess === 'no') return 'custom';
  return 'wait';
}

/** The page a refused search goes home with (§8): the server's words, else the spec's. */
export interface HomeNotice {
  notice: string;
}

export function isHomeNotice(state: unknown): state is HomeNotice {
  return (
    typeof state === 'object' &&
    state !== null &&
    'notice' in state &&
    typeof state.notice === 'string'
  );
}
