import { describe, expect, it } from 'vitest';
import { rateRow } from '../../test/search-fixtures.ts';
import {
  buildRatePivot,
  cashCheaperWords,
  facilityCash,
  formatEstimate,
  formatRate,
  modifierWords,
  originWords,
  planLabel,
} from './rate-pivot.ts';

describe('buildRatePivot', () => {
  it('groups by code description, facility and plan, each sorted by average rate, highest first', () => {
    const pivot = buildRatePivot([
      rateRow({ hospitalId: 'a', FacilityName: 'Cheap', planname: 'P1', rates: 100 }),
      rateRow({ hospitalId: 'b', FacilityName: 'Dear', planname: 'P1', rates: 300 }),
      rateRow({ hospitalId: 'b', FacilityName: 'Dear', planname: 'P2', rates: 500 }),
      rateRow({ hospitalId: 'b', FacilityName: 'Dear', planname: 'P2', rates: 700 }),
    ]);

    expect(pivot).toHaveLength(1);
    const [code] = pivot;
    expect(code?.rate).toBe(400);
    expect(code?.facilities.map((f) => [f.facilityName, f.rate])).toEqual([
      ['Dear', 500],
      ['Cheap', 100],
    ]);
    expect(code?.facilities[0]?.plans.map((p) => [p.planName, p.rate, p.rateCount])).toEqual([
      ['Aetna P2', 600, 2],
      ['Aetna P1', 300, 1],
    ]);
  });

  it("flags a plan whose estimated out-of-pocket is above the facility's cash price", () => {
    const [code] = buildRatePivot([
      rateRow({ planname: 'P1', MemberOOP: 900, cashRate: 800, cashIsCheaper: true }),
      rateRow({ planname: 'P2', MemberOOP: 500, cashRate: 800, cashIsCheaper: false }),
    ]);

    const plans = code?.facilities[0]?.plans ?? [];
    expect(plans.find((p) => p.planName === 'Aetna P1')?.cheaperCash).toBe(800);
    expect(plans.find((p) => p.planName === 'Aetna P2')?.cheaperCash).toBeNull();
    expect(cashCheaperWords(800)).toBe(
      'Paying the cash price ($800.00) would cost you less than your estimated out-of-pocket',
    );
  });

  it("weighs a plan's rates against their own lines' cash prices, not the hospital's lowest", () => {
    // Two implants under one code (Martha's Vineyard's C1776): the hospital's lowest cash price
    // is the cheapest implant's, $112.50; each rate is weighed against its own line's.
    const implant = { cashRate: 112.5, MemberOOP: 1000, cashIsCheaper: false } as const;
    const [code] = buildRatePivot([
      rateRow({ ...implant, planname: 'P1', rates: 1000, lineCashRate: 1100 }),
      rateRow({ ...implant, planname: 'P1', rates: 1000, lineCashRate: 1200 }),
      rateRow({ ...implant, planname: 'P2', rates: 1000, lineCashRate: 700 }),
      rateRow({ ...implant, planname: 'P2', rates: 1000, lineCashRate: null }),
    ]);
    const plans = code?.facilities[0]?.plans ?? [];
    expect(plans.find((p) => p.planName === 'Aetna P1')?.cheaperCash).toBeNull();
    // A line without a cash price of its own is weighed against the hospital's.
    expect(plans.find((p) => p.planName === 'Aetna P2')?.cheaperCash).toBe(406.25);
    expect(code?.facilities[0]?.cashRate).toBe(112.5);
    // The hospital's lowest, then, is shown as what it is: where its cash prices start.
    expect(facilityCash(code?.facilities[0] ?? { cashRate: null, cashVaries: false })).toBe(
      'from 112.50',
    );
    const [same] = buildRatePivot([rateRow({ cashRate: 900, lineCashRate: 900 }), rateRow()]);
    expect(same?.facilities[0]).toMatchObject({ cashVaries: false });
    expect(facilityCash({ cashRate: 900, cashVaries: false })).toBe('900.00');
    expect(facilityCash({ cashRate: null, cashVaries: false })).toBeNull();
  });
});

describe('plans without an estimate', () => {
  it('show "Not estimated" and never the cash flag', () => {
    const [code] = buildRatePivot([
      rateRow({
        payername: 'Alaska Medicaid',
        planname: 'Fee for Service',
        LOB: 'other',
        MemberOOP: null,
        cashRate: 10,
        cashIsCheaper: false,
      }),
      rateRow({ planname: 'P1', rates: 500, MemberOOP: 400, cashRate: 10, cashIsCheaper: true }),
    ]);
    const plans = code?.facilities[0]?.plans ?? [];
    const medicaid = plans.find((p) => p.planName === 'Alaska Medicaid Fee for Service');
    expect(medicaid).toMatchObject({ memberOop: null, cheaperCash: null });
    expect(formatEstimate(medicaid?.memberOop ?? null)).toBe('Not estimated');
    expect(plans.find((p) => p.planName === 'Aetna P1')).toMatchObject({
      memberOop: 400,
      cheaperCash: 10,
    });
    expect(formatEstimate(400)).toBe('400.00');
  });
});

describe('planLabel', () => {
  it("names the payer with its plan, unless the plan's name already does", () => {
    expect(planLabel({ payername: 'Aetna', planname: 'PPO' })).toBe('Aetna PPO');
    expect(planLabel({ payername: 'Premera', planname: 'Premera Blue Cross PPO' })).toBe(
      'Premera Blue Cross PPO',
    );
    expect(planLabel({ payername: 'Cigna', planname: '' })).toBe('Cigna');
  });

  it("leaves out the payer's bracketed id, as Martha's Vineyard writes it", () => {
    expect(
      planLabel({
        payername: 'BLUE CROSS BLUE SHIELD [110001]',
        planname: 'HB MVH BLUE CROSS PPO',
      }),
    ).toBe('BLUE CROSS BLUE SHIELD HB MVH BLUE CROSS PPO');
    expect(planLabel({ payername: 'AETNA [1001]', planname: 'HB MVH AETNA' })).toBe('HB MVH AETNA');
  });

  it("keeps two payers' plans of the same name apart", () => {
    const [code] = buildRatePivot([
      rateRow({ payername: 'Aetna', planname: 'PPO', rates: 100 }),
      rateRow({ payername: 'Cigna', planname: 'PPO', rates: 300 }),
    ]);
    expect(code?.facilities[0]?.plans.map((p) => p.planName)).toEqual(['Cigna PPO', 'Aetna PPO']);
  });

  it('keeps two contracts told apart only by their payer ids apart', () => {
    const [code] = buildRatePivot([
      rateRow({ payername: 'AETNA [1001]', planname: 'PPO', rates: 100 }),
      rateRow({ payername: 'AETNA [1002]', planname: 'PPO', rates: 300 }),
    ]);
    expect(code?.facilities[0]?.plans.map((p) => [p.planName, p.rate])).toEqual([
      ['AETNA PPO', 300],
      ['AETNA PPO', 100],
    ]);
  });
});

describe('rate words', () => {
  it('writes rates with 2 decimals and thousands separators', () => {
    expect(formatRate(1234.5)).toBe('1,234.50');
    expect(formatRate(0.125)).toBe('0.13');
  });

  it('says whether a rate was published in dollars or derived, and from what', () => {
    expect(originWords({ origin: 'dollar', derivations: [] })).toBe('Published in dollars');
    expect(
      originWords({
        origin: 'percentage-of-gross',
        derivations: ['derived from 45% of billed charges'],
      }),
    ).toBe('Derived from 45% of billed charges');
    expect(originWords({ origin: 'median', derivations: [] })).toBe(
      'Derived from the median of paid amounts',
    );
  });

  it("keeps a plan's rates published another way, or for modifiers, on lines of their own", () => {
    // AdventHealth's Aetna for DRG 470: a dollar rate, and a median of paid amounts.
    const aetna = { payername: 'Aetna', planname: 'Hmo/Ppo' };
    const [code] = buildRatePivot([
      rateRow({ ...aetna, rates: 66058.49, MemberOOP: 8000 }),
      rateRow({ ...aetna, rates: 8954.22, MemberOOP: 4000, rateOrigin: 'median' }),
      rateRow({ ...aetna, rates: 540.67, MemberOOP: 540.67, modifiers: ['80'] }),
    ]);
    const lines = code?.facilities[0]?.plans.map((plan) => ({
      name: plan.planName,
      rate: plan.rate,
      memberOop: plan.memberOop,
      origin: originWords(plan),
      modifiers: plan.modifiers.length > 0 ? modifierWords(plan.modifiers) : null,
    }));
    expect(lines).toEqual([
      {
        name: 'Aetna Hmo/Ppo',
        rate: 66058.49,
        memberOop: 8000,
        origin: 'Published in dollars',
        modifiers: null,
      },
      {
        name: 'Aetna Hmo/Ppo',
        rate: 8954.22,
        memberOop: 4000,
        origin: 'Derived from the median of paid amounts',
        modifiers: null,
      },
      {
        name: 'Aetna Hmo/Ppo',
        rate: 540.67,
        memberOop: 540.67,
        origin: 'Published in dollars',
        modifiers: 'Modifier 80',
      },
    ]);
    expect(modifierWords(['AS', '80'])).toBe('Modifiers AS, 80');
  });
});
