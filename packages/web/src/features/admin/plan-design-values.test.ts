import { DEFAULT_PLAN_DESIGN } from '@ratelens/core';
import { describe, expect, it } from 'vitest';
import {
  PLAN_MESSAGES,
  checkPlanDesign,
  planFieldOf,
  planFormValues,
} from './plan-design-values.ts';

const DEFAULTS = planFormValues(DEFAULT_PLAN_DESIGN);

describe('planFormValues', () => {
  it('shows the coinsurance as a percentage', () => {
    expect(DEFAULTS).toEqual({
      deductibleSingle: 1700,
      deductibleFamily: 3400,
      outOfPocketSingle: 10_600,
      outOfPocketFamily: 21_200,
      coinsurancePercent: 20,
    });
  });

  it('shows a share like 0.07 without float noise', () => {
    expect(planFormValues({ ...DEFAULT_PLAN_DESIGN, coinsurance: 0.07 }).coinsurancePercent).toBe(
      7,
    );
  });
});

describe('checkPlanDesign', () => {
  it('stores the percentage as a share of 0–1', () => {
    const checked = checkPlanDesign({
      ...DEFAULTS,
      coinsurancePercent: 35,
      deductibleSingle: '2000',
    });
    expect(checked).toEqual({
      ok: true,
      plan: {
        ...DEFAULT_PLAN_DESIGN,
        deductible: { single: 2000, family: 3400 },
        coinsurance: 0.35,
      },
    });
  });

  it('gives back the defaults unchanged', () => {
    expect(checkPlanDesign(DEFAULTS)).toEqual({ ok: true, plan: DEFAULT_PLAN_DESIGN });
  });

  it('refuses an empty amount and a coinsurance over 100%', () => {
    const checked = checkPlanDesign({
      ...DEFAULTS,
      outOfPocketFamily: '',
      coinsurancePercent: 120,
    });
    expect(checked).toEqual({
      ok: false,
      errors: {
        outOfPocketFamily: PLAN_MESSAGES.dollars,
        coinsurancePercent: PLAN_MESSAGES.percent,
      },
    });
  });

  it('refuses figures out of order, in words about the fields', () => {
    const checked = checkPlanDesign({
      ...DEFAULTS,
      deductibleSingle: 5000,
      deductibleFamily: 4000,
      outOfPocketSingle: 6000,
      outOfPocketFamily: 5000,
    });
    expect(checked).toEqual({
      ok: false,
      errors: {
        deductibleFamily: 'The family deductible must not be less than the single deductible.',
        outOfPocketFamily:
          'The family out-of-pocket maximum must not be less than the single maximum.',
      },
    });
  });

  it("refuses an amount over core's limit", () => {
    const checked = checkPlanDesign({ ...DEFAULTS, deductibleFamily: 1_000_001 });
    expect(checked).toEqual({ ok: false, errors: { deductibleFamily: PLAN_MESSAGES.dollars } });
  });
});

describe('PLAN_MESSAGES', () => {
  it("states core's bounds in dollars and percent", () => {
    expect(PLAN_MESSAGES.dollars).toBe('Enter an amount from $0 to $1,000,000.');
    expect(PLAN_MESSAGES.percent).toBe('Enter a percentage from 0 to 100.');
  });
});

describe('planFieldOf', () => {
  it("maps core's paths to the form's fields", () => {
    expect(planFieldOf('outOfPocketMax.single')).toBe('outOfPocketSingle');
    expect(planFieldOf('coinsurance')).toBe('coinsurancePercent');
    expect(planFieldOf('deductible')).toBeUndefined();
  });
});
