import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLAN_DESIGN,
  describeAssumptions,
  estimateOutOfPocket,
  estimatesOutOfPocket,
} from './out-of-pocket.ts';

describe('estimateOutOfPocket', () => {
  it('puts a rate below the deductible entirely on the member', () => {
    const estimate = estimateOutOfPocket({ allowedAmount: 400, familyStatus: 1, ytdSpend: 0 });
    expect(estimate).toMatchObject({
      memberPays: 400,
      deductiblePart: 400,
      coinsurancePart: 0,
      planPays: 0,
      reachedMaximum: false,
    });
  });

  it('adds 20% coinsurance above what is left of the deductible', () => {
    // 1,700 deductible − 1,000 spent = 700 left; (3,000 − 700) × 20% = 460.
    const estimate = estimateOutOfPocket({ allowedAmount: 3000, familyStatus: 1, ytdSpend: 1000 });
    expect(estimate).toMatchObject({
      memberPays: 1160,
      deductiblePart: 700,
      coinsurancePart: 460,
      planPays: 1840,
      deductibleLeft: 700,
    });
  });

  it('uses the family deductible and maximum for family status 2', () => {
    const estimate = estimateOutOfPocket({ allowedAmount: 3000, familyStatus: 2, ytdSpend: 0 });
    // 3,000 is under the 3,400 family deductible.
    expect(estimate.memberPays).toBe(3000);
    expect(estimate.outOfPocketLeft).toBe(21_200);
  });

  it('charges only coinsurance once YTD spend is beyond the deductible', () => {
    const estimate = estimateOutOfPocket({ allowedAmount: 1000, familyStatus: 1, ytdSpend: 5000 });
    expect(estimate).toMatchObject({
      memberPays: 200,
      deductiblePart: 0,
      coinsurancePart: 200,
      deductibleLeft: 0,
      outOfPocketLeft: 5600,
    });
  });

  it('stops at the out-of-pocket maximum', () => {
    // 10,600 − 10,500 spent = 100 left, though 20% of 50,000 would be 10,000.
    const estimate = estimateOutOfPocket({
      allowedAmount: 50_000,
      familyStatus: 1,
      ytdSpend: 10_500,
    });
    expect(estimate).toMatchObject({ memberPays: 100, reachedMaximum: true, planPays: 49_900 });
  });

  it('charges nothing once YTD spend is beyond the maximum', () => {
    expect(
      estimateOutOfPocket({ allowedAmount: 2000, familyStatus: 1, ytdSpend: 12_000 }).memberPays,
    ).toBe(0);
  });

  it('says when the cash price is cheaper than the estimate', () => {
    expect(
      estimateOutOfPocket({ allowedAmount: 900, familyStatus: 1, ytdSpend: 0, cashPrice: 600 })
        .cashIsCheaper,
    ).toBe(true);
    expect(
      estimateOutOfPocket({ allowedAmount: 900, familyStatus: 1, ytdSpend: 5000, cashPrice: 600 })
        .cashIsCheaper,
    ).toBe(false);
    expect(
      estimateOutOfPocket({ allowedAmount: 900, familyStatus: 1, ytdSpend: 0, cashPrice: null })
        .cashIsCheaper,
    ).toBe(false);
  });

  it('treats negative or non-finite inputs as zero rather than producing negative prices', () => {
    expect(
      estimateOutOfPocket({ allowedAmount: -5, familyStatus: 1, ytdSpend: Number.NaN }).memberPays,
    ).toBe(0);
    expect(
      estimateOutOfPocket({ allowedAmount: 100, familyStatus: 1, ytdSpend: -50 }).memberPays,
    ).toBe(100);
  });

  it('rounds to cents', () => {
    expect(
      estimateOutOfPocket({ allowedAmount: 1700 + 333.33, familyStatus: 1, ytdSpend: 0 })
        .memberPays,
    ).toBe(1766.67);
  });

  it('has the 2026 defaults of the issue', () => {
    expect(DEFAULT_PLAN_DESIGN).toEqual({
      deductible: { single: 1700, family: 3400 },
      outOfPocketMax: { single: 10_600, family: 21_200 },
      coinsurance: 0.2,
    });
  });
});

describe('estimatesOutOfPocket', () => {
  it('estimates commercial and marketplace rates only', () => {
    expect(['commercial', 'exchange'].filter(estimatesOutOfPocket)).toEqual([
      'commercial',
      'exchange',
    ]);
    for (const line of ['medicare-advantage', 'medicaid-managed-care', 'other'])
      expect(estimatesOutOfPocket(line), line).toBe(false);
  });
});

describe('describeAssumptions', () => {
  it('states the plan design and how YTD spend is used, in plain words', () => {
    expect(describeAssumptions(2, 1250)).toEqual([
      'Coverage: family, with a deductible of $3,400.00 and an out-of-pocket maximum of $21,200.00 a year.',
      'After the deductible you pay 20% of the negotiated rate (coinsurance); the plan pays the rest.',
      'Your $1,250.00 spent so far this year counts toward the deductible first, then toward the out-of-pocket maximum.',
      'Estimates are for commercial and marketplace plans. Medicare Advantage, Medicaid and other public plans set their own cost sharing, so their rates show none.',
      'Your own plan may differ: check its deductible, coinsurance and maximum, and ask the hospital for a Good Faith Estimate.',
    ]);
  });
});
