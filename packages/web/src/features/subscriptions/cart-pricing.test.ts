import { describe, expect, it } from 'vitest';
import { ALL_STATES_PLAN, plan, searchPack } from '../../test/payments-fixtures.ts';
import {
  filesOrSearches,
  formatCents,
  installmentScheduleOf,
  installmentWording,
  orderQuantity,
  priceChoices,
  priceableOf,
} from './cart-pricing.ts';

describe('priceableOf', () => {
  it('prices a state plan per loaded file of the state', () => {
    expect(priceableOf(plan(), false)).toEqual({
      unitPriceCents: 2500,
      quantity: 3,
      annual: true,
      installment: false,
      maintenanceFeeCents: 500,
    });
  });

  it('prices a custom offer for a state once, at the offered total', () => {
    const offer = plan({ customOfferId: 7, priceCents: 5000, totalPriceCents: 5000 });
    expect(priceableOf(offer, false)).toMatchObject({ unitPriceCents: 5000, quantity: 1 });
  });

  it('prices a national search pack once and never as annual', () => {
    expect(priceableOf(searchPack(5, 5, 999), false)).toMatchObject({
      unitPriceCents: 999,
      quantity: 1,
      annual: false,
    });
  });
});

describe('priceChoices', () => {
  it('takes the coupon off annual items only and charges the first installment today', () => {
    const priced = priceChoices(
      [
        { plan: plan(), installment: true },
        { plan: searchPack(5, 5, 999), installment: false },
      ],
      10,
    );
    // $75.00 less 10% = $67.50; ÷ 12 = $5.625 → $5.63, plus the $5.00 fee.
    expect(priced.items[0]).toMatchObject({
      totalPriceCents: 7500,
      discountCents: 750,
      finalPriceCents: 6750,
      installmentCents: 1063,
      maintenanceCents: 500,
    });
    expect(priced.items[1]).toMatchObject({ discountCents: 0, dueTodayCents: 999 });
    expect(priced.dueTodayCents).toBe(1063 + 999);
  });
});

describe('installmentScheduleOf', () => {
  it('is the total divided by 12, rounded to a cent, plus the maintenance fee, each month', () => {
    expect(installmentScheduleOf(plan())).toEqual(Array.from({ length: 12 }, () => 625 + 500));
  });
});

describe('installmentWording', () => {
  it('says 12 equal payments when there are', () => {
    expect(installmentWording(installmentScheduleOf(plan()))).toBe('12 monthly payments of $11.25');
  });

  it('says the twelfth payment apart when it takes the rounding', () => {
    const oneFile = plan({ totalFilesCountSpecificState: 1 });
    expect(installmentWording(installmentScheduleOf(oneFile))).toBe(
      '11 monthly payments of $7.08, then $7.12',
    );
  });
});

describe('orderQuantity', () => {
  it('counts a custom offer as one offer, naming the files it covers', () => {
    expect(orderQuantity(plan({ customOfferId: 7 }))).toBe('1 offer (3 files)');
  });

  it('counts the files of a state plan', () => {
    expect(orderQuantity(plan())).toBe('3 files');
  });
});

describe('filesOrSearches', () => {
  it('counts searches for a search pack, files for a state plan and every file for all states', () => {
    expect(filesOrSearches(searchPack(5, 5, 999))).toBe('5 searches');
    expect(filesOrSearches(plan({ totalFilesCountSpecificState: 1 }))).toBe('1 file');
    expect(filesOrSearches(ALL_STATES_PLAN)).toBe('40 files');
  });
});

describe('formatCents', () => {
  it('shows dollars with two decimals and thousands separators', () => {
    expect(formatCents(123456789)).toBe('$1,234,567.89');
    expect(formatCents(0)).toBe('$0.00');
  });
});
