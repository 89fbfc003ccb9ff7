/**
 * The free allowance (search-and-accounts §6, §9): 2 medical-code searches per rolling 60 days
 * per account. Computed on the server from the search log, never trusted from the client.
 */
export const FREE_SEARCHES = 2;
export const FREE_SEARCH_WINDOW_DAYS = 60;

const DAY_MS = 86_400_000;

export interface FreeSearchStatus {
  /** The spec's searching_Status: 1 may search, 0 may not. */
  searchingStatus: 0 | 1;
  /** Free searches left in the window now. */
  remaining: number;
  /** When the next free search becomes possible (null while one is available). */
  nextSearchDate: Date | null;
}

/**
 * From the times of the account's counted free searches: a search stays in the window for 60 days
 * (a search made at t counts until t + 60 days, exclusive), so the next one opens when the oldest
 * search in the window leaves it.
 */
export function freeSearchStatus(searchTimes: readonly Date[], now: Date): FreeSearchStatus {
  const windowStart = now.getTime() - FREE_SEARCH_WINDOW_DAYS * DAY_MS;
  const inWindow = searchTimes
    .map((t) => t.getTime())
    .filter((t) => t > windowStart && t <= now.getTime())
    .sort((a, b) => a - b);
  const remaining = Math.max(0, FREE_SEARCHES - inWindow.length);
  if (remaining > 0) return { searchingStatus: 1, remaining, nextSearchDate: null };
  // The allowance comes back when enough of the oldest searches have left the window.
  const freedBy = inWindow[inWindow.length - FREE_SEARCHES];
  return {
    searchingStatus: 0,
    remaining: 0,
    nextSearchDate: new Date((freedBy ?? now.getTime()) + FREE_SEARCH_WINDOW_DAYS * DAY_MS),
  };
}

export interface SearchInputs {
  stateCode: string;
  msaId: string;
  code: string;
  billingClass: string;
}

/** A search counts against the allowance only when its inputs changed (spec §4, "the inputs changed"). */
export function isNewSearch(previous: SearchInputs | null, current: SearchInputs): boolean {
  if (!previous) return true;
  const norm = (s: SearchInputs) =>
    [
      s.stateCode.toUpperCase(),
      s.msaId,
      s.code.trim().toUpperCase(),
      s.billingClass.toLowerCase(),
    ].join('\u0000');
  return norm(previous) !== norm(current);
}
