import type { InventoryRow } from '@ratelens/core';

/**
 * The filters of the inventory list, kept in the query string (?state=AK&msa=11260&hospital=…)
 * so a filtered view can be shared and survives a reload. Each one narrows the one before it.
 */
export const FILTER_CHAIN = ['state', 'msa', 'hospital'] as const;
export type FilterKey = (typeof FILTER_CHAIN)[number];

/**
 * The query string with one filter set (or cleared, for null) and every filter after it in the
 * chain cleared: a new state clears the MSA and the hospital (search-and-accounts §4).
 */
export function withFilter(
  params: URLSearchParams,
  key: FilterKey,
  value: string | null,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const later of FILTER_CHAIN.slice(FILTER_CHAIN.indexOf(key))) next.delete(later);
  if (value !== null && value !== '') next.set(key, value);
  return next;
}

/** What the table is narrowed to; null for a filter not chosen. */
export interface InventoryFilter {
  stateName: string | null;
  msaName: string | null;
  hospitalId: string | null;
}

/** The listing rows match by name: they carry the state's and the MSA's names, not their codes. */
export function filterInventory(rows: InventoryRow[], filter: InventoryFilter): InventoryRow[] {
  return rows.filter(
    (row) =>
      (filter.stateName === null || row.stateName === filter.stateName) &&
      (filter.msaName === null || row.msaName === filter.msaName) &&
      (filter.hospitalId === null || row.hospitalID === filter.hospitalId),
  );
}
