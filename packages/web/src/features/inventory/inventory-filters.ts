import type { InventoryRow } from '@ratelens/core';

/**
 * The filters of the inventory list, kept in the query string (?state=AK&msa=11260&hospital=…)
 * so a filtered view can be shared and survives a reload. Each one narrows the one before it.
 */
export const FILTER_CHAIN = ['state', 'msa', 'hospital'] as const;
export type FilterKey = (typeof FILTER_CHAIN)[number];

/**
 * The query string with one filter set (or cleared, for null) and every filter after it in the
 * chain cleared: a new state clears the MSA and the hospital (search-and-accounts §4). The rows
 * change, so the table goes back to its first page.
 */
export function withFilter(
  params: URLSearchParams,
  key: FilterKey,
  value: string | null,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const later of FILTER_CHAIN.slice(FILTER_CHAIN.indexOf(key))) next.delete(later);
  next.delete('page');
  if (value !== null && value !== '') next.set(key, value);
  return next;
}

/**
 * Rows per page of the inventory table. The US has about 6,000 hospitals: drawn at once, 6,000
 * rows took Chromium 16 s to show and 1,000 rows 3.5 s (docs/decisions/0011, "Inventory pages").
 */
export const INVENTORY_PAGE_SIZE = 50;

/** The page of `rowCount` rows that the query string's `page` asks for: 1 when it names none. */
export function inventoryPage(
  params: URLSearchParams,
  rowCount: number,
): { page: number; pages: number; first: number; last: number } {
  const pages = Math.max(1, Math.ceil(rowCount / INVENTORY_PAGE_SIZE));
  const asked = Number(params.get('page'));
  const page = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, pages) : 1;
  const first = (page - 1) * INVENTORY_PAGE_SIZE;
  return { page, pages, first, last: Math.min(first + INVENTORY_PAGE_SIZE, rowCount) };
}

/** The query string showing the given page of the table (page 1 is the page without `page`). */
export function withPage(params: URLSearchParams, page: number): URLSearchParams {
  const next = new URLSearchParams(params);
  if (page > 1) next.set('page', String(page));
  else next.delete('page');
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
