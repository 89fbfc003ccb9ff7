import { describe, expect, it } from 'vitest';
import { INVENTORY_PAGE_SIZE, inventoryPage, withFilter, withPage } from './inventory-filters.ts';

describe('withFilter', () => {
  it('clears the MSA and the hospital when another state is chosen, and goes back to page 1', () => {
    const params = new URLSearchParams('state=AK&msa=11260&hospital=h-1&page=2&tab=x');

    expect(withFilter(params, 'state', 'AL').toString()).toBe('tab=x&state=AL');
  });

  it('clears the hospital, and keeps the state, when the MSA is cleared', () => {
    const params = new URLSearchParams('state=AK&msa=11260&hospital=h-1');

    expect(withFilter(params, 'msa', null).toString()).toBe('state=AK');
  });
});

describe('inventoryPage', () => {
  const page = (query: string, rows: number) => inventoryPage(new URLSearchParams(query), rows);

  it('shows the first rows when the query string names no page', () => {
    expect(INVENTORY_PAGE_SIZE).toBe(50);
    expect(page('', 120)).toEqual({ page: 1, pages: 3, first: 0, last: 50 });
    expect(page('', 3)).toEqual({ page: 1, pages: 1, first: 0, last: 3 });
    expect(page('', 0)).toEqual({ page: 1, pages: 1, first: 0, last: 0 });
  });

  it('shows the page asked for, the last one shorter', () => {
    expect(page('page=2', 120)).toEqual({ page: 2, pages: 3, first: 50, last: 100 });
    expect(page('page=3', 120)).toEqual({ page: 3, pages: 3, first: 100, last: 120 });
    expect(page('page=2', 100)).toEqual({ page: 2, pages: 2, first: 50, last: 100 });
  });

  it('shows the last page for a page past the end, and the first for anything not a page', () => {
    // A shared link outlives the rows: fewer hospitals in a state, or a narrower filter.
    expect(page('page=9', 120).page).toBe(3);
    for (const junk of ['page=0', 'page=-2', 'page=1.5', 'page=two', 'page=', 'page=1e400'])
      expect(page(junk, 120).page, junk).toBe(1);
  });
});

describe('withPage', () => {
  it('sets the page, keeping the filters, and leaves page 1 out of the query string', () => {
    const params = new URLSearchParams('state=AK&page=3');

    expect(withPage(params, 2).toString()).toBe('state=AK&page=2');
    expect(withPage(params, 1).toString()).toBe('state=AK');
  });
});
