import { describe, expect, it } from 'vitest';
import { rateRow } from '../../test/search-fixtures.ts';
import {
  buildRatePivot,
  cashCheaperWords,
  formatEstimate,
  formatRate,
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

  it("keeps two payers' plans of the same name apart", () => {
    const [code] = buildRatePivot([
      rateRow({ payername: 'Aetna', planname: 'PPO', rates: 100 }),
      rateRow({ payername: 'Cigna', planname: 'PPO', rates: 300 }),
    ]);
    expect(code?.facilities[0]?.plans.map((p) => p.planName)).toEqual(['Cigna PPO', 'Aetna PPO']);
  });
});

describe('rate words', () => {
  it('writes rates with 2 decimals and thousands separators', () => {
    expect(formatRate(1234.5)).toBe('1,234.50');
    expect(formatRate(0.125)).toBe('0.13');
  });

  it('says whether a rate was published in dollars or derived, and from what', () => {
    expect(originWords({ origins: ['dollar'], derivations: [] })).toBe('Published in dollars');
    expect(
      originWords({
        origins: ['percentage-of-gross'],
        derivations: ['derived from 45% of billed charges'],
      }),
    ).toBe('Derived from 45% of billed charges');
    expect(originWords({ origins: ['dollar', 'median'], derivations: [] })).toBe(
      'Partly derived from the median of paid amounts',
    );
  });
});
