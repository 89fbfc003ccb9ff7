import { describe, expect, it } from 'vitest';
import {
  INSTALLMENT_MONTHS,
  centsToDollars,
  divideRoundHalfUp,
  costsNothing,
  installmentSchedule,
  parseDollars,
  percentOf,
  priceCart,
  priceItem,
  type PriceableItem,
} from './money.ts';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The seeded Annual state plan in Alabama: $25.00 a file × 3 files, $5.00 monthly maintenance. */
const annualState: PriceableItem = {
  unitPriceCents: 2500,
  quantity: 3,
  annual: true,
  installment: false,
  maintenanceFeeCents: 500,
};

describe('divideRoundHalfUp', () => {
  it.each([
    [5, 2, 3],
    [7, 2, 4],
    [1, 3, 0],
    [2, 3, 1],
    [6750, 12, 563],
    [6738, 12, 562],
    [0, 12, 0],
  ])('rounds %i ÷ %i half-up to %i', (numerator, denominator, expected) => {
    expect(divideRoundHalfUp(numerator, denominator)).toBe(expected);
  });

  it('refuses a negative numerator, a denominator that is not positive, and fractions', () => {
    expect(() => divideRoundHalfUp(-1, 2)).toThrow(RangeError);
    expect(() => divideRoundHalfUp(1, 0)).toThrow(RangeError);
    expect(() => divideRoundHalfUp(1.5, 2)).toThrow(RangeError);
  });
});

describe('percentOf', () => {
  it.each([
    [7500, 10, 750],
    [1005, 10, 101],
    [1004, 10, 100],
    [333, 15, 50],
    [7500, 0, 0],
    [7500, 100, 7500],
  ])('takes %i cents × %i%% as %i cents, half-up', (amount, percent, expected) => {
    expect(percentOf(amount, percent)).toBe(expected);
  });

  it('refuses a percent outside 0–100 or not whole', () => {
    expect(() => percentOf(100, 101)).toThrow(RangeError);
    expect(() => percentOf(100, -1)).toThrow(RangeError);
    expect(() => percentOf(100, 2.5)).toThrow(RangeError);
  });
});

describe('priceItem', () => {
  it('multiplies the per-file price by the file count', () => {
    expect(priceItem(annualState, 0)).toMatchObject({
      unitPriceCents: 2500,
      quantity: 3,
      totalPriceCents: 7500,
      discountCents: 0,
      finalPriceCents: 7500,
    });
  });

  it('takes a coupon off an annual item, rounded half-up', () => {
    expect(priceItem({ ...annualState, unitPriceCents: 335 }, 15)).toMatchObject({
      totalPriceCents: 1005,
      discountCents: 151, // 150.75
      finalPriceCents: 854,
    });
  });

  it('leaves a monthly or individual-search item undiscounted whatever the coupon', () => {
    expect(priceItem({ ...annualState, annual: false }, 50)).toMatchObject({
      discountCents: 0,
      finalPriceCents: 7500,
    });
  });

  it('charges the final price today with no maintenance fee when paid once', () => {
    expect(priceItem(annualState, 10)).toMatchObject({
      finalPriceCents: 6750,
      installmentCents: 0,
      maintenanceCents: 0,
      dueTodayCents: 6750,
      schedule: [],
    });
  });

  it('charges the first of 12 monthly payments today when paid in installments', () => {
    const priced = priceItem({ ...annualState, installment: true }, 10);
    expect(priced).toMatchObject({
      finalPriceCents: 6750,
      installmentCents: 563 + 500,
      maintenanceCents: 500,
      dueTodayCents: 563 + 500,
    });
    expect(priced.schedule).toHaveLength(INSTALLMENT_MONTHS);
    expect(sum(priced.schedule)).toBe(6750 + 12 * 500);
  });

  it('refuses negative or fractional amounts and counts', () => {
    expect(() => priceItem({ ...annualState, unitPriceCents: -1 }, 0)).toThrow(RangeError);
    expect(() => priceItem({ ...annualState, quantity: 1.5 }, 0)).toThrow(RangeError);
    expect(() => priceItem({ ...annualState, maintenanceFeeCents: -500 }, 0)).toThrow(RangeError);
  });
});

describe('installmentSchedule', () => {
  it.each([0, 1, 11, 12, 13, 7500, 6750, 99_999, 100_000_000])(
    'splits %i cents into 12 payments that add up to it plus 12 fees',
    (finalPriceCents) => {
      const schedule = installmentSchedule(finalPriceCents, 500);
      expect(schedule).toHaveLength(12);
      expect(sum(schedule)).toBe(finalPriceCents + 12 * 500);
      expect(schedule.every((payment) => payment >= 0)).toBe(true);
    },
  );

  it('makes the first 11 payments equal and lets the last absorb the rounding', () => {
    const schedule = installmentSchedule(6750, 500);
    expect(new Set(schedule.slice(0, 11))).toEqual(new Set([1063]));
    expect(schedule[11]).toBe(6750 - 563 * 11 + 500);
  });
});

describe('priceCart', () => {
  it('adds up what is due today and the discounts of every item', () => {
    const cart = priceCart(
      [
        { ...annualState, installment: true },
        {
          unitPriceCents: 999,
          quantity: 1,
          annual: false,
          installment: false,
          maintenanceFeeCents: 0,
        },
      ],
      10,
    );
    expect(cart.items).toHaveLength(2);
    expect(cart.discountCents).toBe(750);
    expect(cart.dueTodayCents).toBe(1063 + 999);
  });
});

describe('what a coupon takes off today', () => {
  it('is the whole discount for an item paid once', () => {
    expect(priceItem(annualState, 10).discountTodayCents).toBe(750);
  });

  it('is what it takes off the first installment for an item paid in installments', () => {
    // $75.00 ÷ 12 = $6.25 a month; less 33% ($50.25 ÷ 12) = $4.19: $2.06 less today, $24.75 in all.
    const priced = priceItem({ ...annualState, installment: true }, 33);
    expect(priced.discountCents).toBe(2475);
    expect(priced.discountTodayCents).toBe(625 - 419);
  });

  it('adds up with what is due today to what was due today without the coupon', () => {
    const items: PriceableItem[] = [
      { ...annualState, installment: true },
      { ...annualState, unitPriceCents: 2900, quantity: 2 },
      {
        unitPriceCents: 999,
        quantity: 1,
        annual: false,
        installment: false,
        maintenanceFeeCents: 0,
      },
    ];
    const without = priceCart(items, 0);
    const withCoupon = priceCart(items, 33);
    expect(withCoupon.dueTodayCents + withCoupon.discountTodayCents).toBe(without.dueTodayCents);
    expect(withCoupon.discountTodayCents).toBeLessThan(withCoupon.discountCents);
  });
});

describe('costsNothing', () => {
  it('is true when a coupon takes the whole price of every item paid once', () => {
    expect(costsNothing(priceCart([annualState], 100))).toBe(true);
  });

  it('is false when something is due today', () => {
    expect(costsNothing(priceCart([annualState], 90))).toBe(false);
  });

  it("is false for installments whose maintenance fee is still due, the coupon's 100% aside", () => {
    expect(costsNothing(priceCart([{ ...annualState, installment: true }], 100))).toBe(false);
  });

  it('is false when nothing is due today but a later installment is', () => {
    const cart = priceCart(
      [
        {
          ...annualState,
          unitPriceCents: 5,
          quantity: 1,
          installment: true,
          maintenanceFeeCents: 0,
        },
      ],
      0,
    );
    expect(cart.dueTodayCents).toBe(0);
    expect(costsNothing(cart)).toBe(false);
  });

  it('is false for an empty cart', () => {
    expect(costsNothing(priceCart([], 100))).toBe(false);
  });
});

describe('centsToDollars', () => {
  it('turns cents into the dollars of the legacy fields', () => {
    expect(centsToDollars(7500)).toBe(75);
    expect(centsToDollars(1063)).toBe(10.63);
  });
});

describe('parseDollars', () => {
  it.each([
    ['25', 2500],
    ['25.5', 2550],
    ['25.05', 2505],
    ['1,250.00', 125_000],
    [' 0.05 ', 5],
    ['0', 0],
  ])('reads %j as %i cents', (text, cents) => {
    expect(parseDollars(text)).toBe(cents);
  });

  it.each(['', '-1', '+1', '1e3', '1.234', '$5', 'abc', '.5', '5.', '12345678901'])(
    'refuses %j',
    (text) => {
      expect(parseDollars(text)).toBeNull();
    },
  );
});
