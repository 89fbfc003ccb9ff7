import { describe, expect, it } from 'vitest';
import {
  describeDerivation,
  describeOrigin,
  effectiveAmount,
  PERCENT_OF_BILLED_CHARGES,
  type NegotiatedAmounts,
} from './effective-amount.ts';

const none: NegotiatedAmounts = {
  dollar: null,
  percentage: null,
  methodology: PERCENT_OF_BILLED_CHARGES,
  median: null,
  estimatedAmount: null,
};

describe('effectiveAmount', () => {
  it('prefers the negotiated dollar amount', () => {
    expect(effectiveAmount({ ...none, dollar: 120.456, percentage: 45, median: 99 }, 1000)).toEqual(
      { amount: 120.46, origin: 'dollar' },
    );
  });

  it('derives an amount from the percentage of the gross charge', () => {
    expect(effectiveAmount({ ...none, percentage: 45, median: 99 }, 1234.5)).toEqual({
      amount: 555.53,
      origin: 'percentage-of-gross',
      percentage: 45,
    });
  });

  it('falls back to the v3 median when there is no gross charge', () => {
    expect(effectiveAmount({ ...none, percentage: 45, median: 99.999 }, null)).toEqual({
      amount: 100,
      origin: 'median',
      percentage: 45,
    });
  });

  it('derives nothing from a percentage of anything but billed charges', () => {
    // "120% of Medicare": times the gross charge, it would be a dollar figure the file never gave.
    for (const methodology of ['fee schedule', 'case rate', 'per diem', 'other', null]) {
      const feeSchedule = { ...none, methodology, percentage: 120 };
      expect(effectiveAmount({ ...feeSchedule, median: 99 }, 1000), String(methodology)).toEqual({
        amount: 99,
        origin: 'median',
      });
      expect(effectiveAmount(feeSchedule, 1000)).toEqual({ amount: null, origin: null });
      expect(describeOrigin(effectiveAmount(feeSchedule, 1000))).toBe('no dollar amount published');
    }
  });

  it('falls back to the v2 estimated amount', () => {
    expect(effectiveAmount({ ...none, estimatedAmount: 310.1 }, null)).toEqual({
      amount: 310.1,
      origin: 'estimated',
    });
  });

  it('has no amount when nothing is a dollar figure', () => {
    expect(effectiveAmount(none, 500)).toEqual({ amount: null, origin: null });
  });

  it('accepts a PayerCharge-shaped object with more fields', () => {
    const charge = { ...none, payerName: 'Aetna', planName: 'PPO', dollar: 10 };
    expect(effectiveAmount(charge, null).amount).toBe(10);
  });
});

describe('describeOrigin', () => {
  it('says a percentage amount came from billed charges', () => {
    expect(describeOrigin(effectiveAmount({ ...none, percentage: 45 }, 200))).toBe(
      'derived from 45% of billed charges',
    );
  });

  it('keeps a fractional percentage', () => {
    expect(describeOrigin({ amount: 1, origin: 'percentage-of-gross', percentage: 37.25 })).toBe(
      'derived from 37.25% of billed charges',
    );
  });

  it('names the median', () => {
    expect(describeOrigin({ amount: 1, origin: 'median' })).toBe('the median of paid amounts');
  });

  it('names the dollar amount and the estimate', () => {
    expect(describeOrigin({ amount: 1, origin: 'dollar' })).toBe('the negotiated dollar amount');
    expect(describeOrigin({ amount: 1, origin: 'estimated' })).toBe(
      "the hospital's estimate of the average amount paid",
    );
  });

  it('explains a percentage that could not be applied', () => {
    expect(describeOrigin(effectiveAmount({ ...none, percentage: 60 }, null))).toBe(
      '60% of billed charges; the gross charge is not published',
    );
    expect(describeOrigin(effectiveAmount(none, null))).toBe('no dollar amount published');
  });
});

describe('describeDerivation', () => {
  it('is null for a dollar rate and names the gross charge a percentage was applied to', () => {
    expect(describeDerivation('dollar', null, null)).toBeNull();
    expect(describeDerivation('percentage-of-gross', 45, 1200)).toBe(
      'derived from 45% of billed charges (gross charge $1,200.00)',
    );
    expect(describeDerivation('median', null, null)).toBe('the median of paid amounts');
  });
});
