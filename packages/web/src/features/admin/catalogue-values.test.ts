import { PLAN_FIELD_MESSAGES, type CataloguePlan } from '@ratelens/core';
import { describe, expect, it } from 'vitest';
import {
  DOLLARS_MESSAGE,
  LAST_DAY_BEFORE_TODAY,
  NEW_COUPON,
  NEW_OFFER,
  NEW_PLAN,
  WHOLE_NUMBER_MESSAGE,
  checkCoupon,
  checkOffer,
  checkPlan,
  couponWindow,
  dayEnd,
  dayStart,
  lastDayOf,
  planFieldOf,
  planFormValues,
} from './catalogue-values.ts';

const PLAN: CataloguePlan = {
  id: 1,
  title: 'State Negotiated Rates',
  subscriptionType: 'Annual',
  accessType: 'State',
  priceCents: 2500,
  searchCount: null,
  priceDescription: '',
  installmentEligible: true,
  maintenanceFeeCents: 500,
  negotiable: false,
  includesDataFeed: true,
  termMonths: 12,
  sortOrder: 1,
  active: true,
};

describe('days', () => {
  it('starts a day at midnight UTC and ends it at the next midnight', () => {
    expect(dayStart('2026-06-30')).toBe('2026-06-30T00:00:00.000Z');
    expect(dayEnd('2026-06-30')).toBe('2026-07-01T00:00:00.000Z');
    expect(dayEnd('2026-12-31')).toBe('2027-01-01T00:00:00.000Z');
    expect(dayStart('30/06/2026')).toBeNull();
  });

  it('reads the last day back from the end instant', () => {
    expect(lastDayOf('2026-07-01T00:00:00.000Z')).toBe('2026-06-30');
  });

  it('describes a coupon window with its last day included', () => {
    expect(
      couponWindow({ validFrom: '2026-03-01T00:00:00.000Z', validTo: '2026-07-01T00:00:00.000Z' }),
    ).toBe('March 1, 2026 – June 30, 2026');
    expect(couponWindow({ validFrom: '2026-03-01T00:00:00.000Z', validTo: null })).toBe(
      'From March 1, 2026',
    );
  });
});

describe('checkPlan', () => {
  it('round-trips a plan through the form, money in dollars and back to cents', () => {
    const values = planFormValues(PLAN);
    expect(values).toMatchObject({ price: '25.00', maintenanceFee: '5.00', searchCount: '' });
    const checked = checkPlan(values);
    expect(checked.ok && { ...checked.input, id: PLAN.id }).toEqual(PLAN);
  });

  it('refuses a price that is not dollars and cents, in the form’s words', () => {
    for (const price of ['', '12.345', '-5', 'ten', '1000000.01'])
      expect(checkPlan({ ...NEW_PLAN, title: 'X', price })).toEqual({
        ok: false,
        errors: { price: DOLLARS_MESSAGE },
      });
  });

  it('puts the schema’s rules on the form fields', () => {
    const pack = { ...NEW_PLAN, title: 'Pack', price: '10', subscriptionType: 'Individual Search' };
    expect(checkPlan({ ...pack, accessType: 'National' })).toEqual({
      ok: false,
      errors: { searchCount: PLAN_FIELD_MESSAGES.searchCountRequired },
    });
    expect(
      checkPlan({ ...pack, accessType: 'National', searchCount: '5', termMonths: 'twelve' }),
    ).toEqual({
      ok: false,
      errors: { termMonths: WHOLE_NUMBER_MESSAGE },
    });
  });

  it('finds the form field of a server field error', () => {
    expect(planFieldOf('priceCents')).toBe('price');
    expect(planFieldOf('maintenanceFeeCents')).toBe('maintenanceFee');
    expect(planFieldOf('unknown')).toBeUndefined();
  });
});

describe('checkCoupon', () => {
  it('sends the code in capitals, the days as instants and empty limits as none', () => {
    expect(
      checkCoupon({ ...NEW_COUPON, code: 'spring', percent: '25', firstDay: '2026-03-01' }),
    ).toEqual({
      ok: true,
      input: {
        code: 'SPRING',
        percent: 25,
        validFrom: '2026-03-01T00:00:00.000Z',
        validTo: null,
        maxUses: null,
        maxUsesPerUser: null,
        active: true,
      },
    });
  });

  it('asks for the percent and puts the window rule on the last day', () => {
    expect(checkCoupon({ ...NEW_COUPON, code: 'SPRING' })).toMatchObject({
      ok: false,
      errors: { percent: 'Enter the percent off, 1 to 100.' },
    });
    expect(
      checkCoupon({
        ...NEW_COUPON,
        code: 'SPRING',
        percent: '5',
        firstDay: '2026-03-01',
        lastDay: '2026-02-01',
      }),
    ).toEqual({ ok: false, errors: { lastDay: 'validTo must be after validFrom.' } });
  });

  it('refuses a last day before today when the first day is empty (the coupon starts today)', () => {
    const now = new Date('2026-11-22T15:00:00Z');
    const coupon = { ...NEW_COUPON, code: 'SPRING', percent: '5' };
    expect(checkCoupon({ ...coupon, lastDay: '2024-12-31' }, now)).toEqual({
      ok: false,
      errors: { lastDay: LAST_DAY_BEFORE_TODAY },
    });
    expect(checkCoupon({ ...coupon, lastDay: '2026-11-22' }, now)).toMatchObject({ ok: true });
  });
});

describe('checkOffer', () => {
  it('sends the price in cents and no state for a national plan', () => {
    expect(
      checkOffer({ ...NEW_OFFER, email: 'Buyer@Example.com', planId: '5', price: '19.99' }),
    ).toEqual({
      ok: true,
      input: {
        email: 'buyer@example.com',
        planId: 5,
        stateCode: null,
        priceCents: 1999,
        note: '',
        expiresAt: null,
      },
    });
  });

  it('asks for a plan and an amount', () => {
    expect(checkOffer({ ...NEW_OFFER, email: 'buyer@example.com' })).toEqual({
      ok: false,
      errors: { planId: 'Choose a plan.', price: DOLLARS_MESSAGE },
    });
  });
});
