import { describe, expect, it } from 'vitest';
import { freeSearchStatus, isNewSearch } from './free-searches.ts';

const DAY = 86_400_000;
const t0 = new Date('2026-03-01T12:00:00Z');
const after = (days: number) => new Date(t0.getTime() + days * DAY);

describe('freeSearchStatus', () => {
  it('allows two searches in a fresh account', () => {
    expect(freeSearchStatus([], t0)).toEqual({
      searchingStatus: 1,
      remaining: 2,
      nextSearchDate: null,
    });
    expect(freeSearchStatus([t0], after(1))).toEqual({
      searchingStatus: 1,
      remaining: 1,
      nextSearchDate: null,
    });
  });

  it('refuses a third search within 60 days and says when the next one opens', () => {
    const status = freeSearchStatus([t0, after(10)], after(20));
    expect(status).toEqual({ searchingStatus: 0, remaining: 0, nextSearchDate: after(60) });
  });

  it('is still closed on day 59 after the first search', () => {
    expect(freeSearchStatus([t0, after(5)], after(59)).searchingStatus).toBe(0);
  });

  it('opens again exactly 60 days after the oldest search, and on day 61', () => {
    expect(freeSearchStatus([t0, after(5)], after(60))).toEqual({
      searchingStatus: 1,
      remaining: 1,
      nextSearchDate: null,
    });
    expect(freeSearchStatus([t0, after(5)], after(61)).remaining).toBe(1);
  });

  it('waits for the second-oldest search when three are logged in the window', () => {
    expect(freeSearchStatus([t0, after(10), after(30)], after(40)).nextSearchDate).toEqual(
      after(70),
    );
  });

  it('ignores searches logged in the future', () => {
    expect(freeSearchStatus([after(5), after(6)], t0).remaining).toBe(2);
  });
});

describe('isNewSearch', () => {
  const inputs = { stateCode: 'AK', msaId: '11260', code: '70551', billingClass: 'outpatient' };

  it('counts the first search and any change of input', () => {
    expect(isNewSearch(null, inputs)).toBe(true);
    expect(isNewSearch(inputs, { ...inputs, code: '70553' })).toBe(true);
    expect(isNewSearch(inputs, { ...inputs, msaId: '21820' })).toBe(true);
  });

  it('does not count re-running the same search (case and spaces aside)', () => {
    expect(
      isNewSearch(inputs, {
        ...inputs,
        stateCode: 'ak',
        code: ' 70551 ',
        billingClass: 'Outpatient',
      }),
    ).toBe(false);
  });
});
