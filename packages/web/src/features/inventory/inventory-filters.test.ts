import { describe, expect, it } from 'vitest';
import { withFilter } from './inventory-filters.ts';

describe('withFilter', () => {
  it('clears the MSA and the hospital when another state is chosen', () => {
    const params = new URLSearchParams('state=AK&msa=11260&hospital=h-1&page=2');

    expect(withFilter(params, 'state', 'AL').toString()).toBe('page=2&state=AL');
  });

  it('clears the hospital, and keeps the state, when the MSA is cleared', () => {
    const params = new URLSearchParams('state=AK&msa=11260&hospital=h-1');

    expect(withFilter(params, 'msa', null).toString()).toBe('state=AK');
  });
});
