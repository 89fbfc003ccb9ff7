import { formatUsd as usd } from '../format.ts';
import { roundToCents } from '../rates/money.ts';

/**
 * Out-of-pocket engine (issue 4, point 3): what a person would pay for one service, from the
 * rate's effective dollar amount, their family status and what they have spent this year.
 */

/** Family status as the spec codes it: 1 single, 2 family. */
export type FamilyStatus = 1 | 2;

export interface PlanDesign {
  deductible: { single: number; family: number };
  outOfPocketMax: { single: number; family: number };
  /** The member's share after the deductible, 0–1. */
  coinsurance: number;
}

/**
 * The defaults: 2026 limits. Out-of-pocket maximum $10,600 single / $21,200 family (the ACA
 * ceiling for 2026); deductible $1,700 / $3,400 (the 2026 HSA-qualified minimum); coinsurance 20%.
 * An admin can change them (later issue); these are what the results state as assumptions.
 */
export const DEFAULT_PLAN_DESIGN: PlanDesign = {
  deductible: { single: 1700, family: 3400 },
  outOfPocketMax: { single: 10_600, family: 21_200 },
  coinsurance: 0.2,
};

/**
 * The lines of business the plan design describes: commercial and marketplace plans, which have
 * a deductible, coinsurance and an out-of-pocket maximum of this kind. Medicare Advantage,
 * Medicaid and the other public or special plans (original Medicare, TRICARE, workers'
 * compensation) set their members' share their own way, often a copay or nothing: a rate of
 * theirs gets no estimate rather than one that would be wrong.
 */
export const ESTIMATED_LINES_OF_BUSINESS: readonly string[] = ['commercial', 'exchange'];

/** Whether a rate of this line of business gets an out-of-pocket estimate. */
export function estimatesOutOfPocket(lineOfBusiness: string): boolean {
  return ESTIMATED_LINES_OF_BUSINESS.includes(lineOfBusiness);
}

export interface OutOfPocketInput {
  /** The rate's effective dollar amount: what the plan allows for the service. */
  allowedAmount: number;
  familyStatus: FamilyStatus;
  /** Medical spend so far this year, counted toward the deductible first, then toward the maximum. */
  ytdSpend: number;
  plan?: PlanDesign;
  /** The hospital's cash price, when it publishes one. */
  cashPrice?: number | null;
}

export interface OutOfPocketEstimate {
  /** What the person pays for this service. */
  memberPays: number;
  /** Of which: the part that goes to the deductible, and the coinsurance after it. */
  deductiblePart: number;
  coinsurancePart: number;
  /** What the plan pays. */
  planPays: number;
  /** Deductible and out-of-pocket room left before this service. */
  deductibleLeft: number;
  outOfPocketLeft: number;
  /** True when the out-of-pocket maximum cut the member's share. */
  reachedMaximum: boolean;
  /** True when paying the cash price would cost the person less than their estimate. */
  cashIsCheaper: boolean;
}

function nonNegative(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

export function estimateOutOfPocket(input: OutOfPocketInput): OutOfPocketEstimate {
  const plan = input.plan ?? DEFAULT_PLAN_DESIGN;
  const tier = input.familyStatus === 2 ? 'family' : 'single';
  const allowed = nonNegative(input.allowedAmount);
  const ytd = nonNegative(input.ytdSpend);
  const deductibleLeft = Math.max(0, plan.deductible[tier] - ytd);
  const outOfPocketLeft = Math.max(0, plan.outOfPocketMax[tier] - ytd);
  const deductiblePart = Math.min(allowed, deductibleLeft);
  const coinsurance = (allowed - deductiblePart) * plan.coinsurance;
  const uncapped = deductiblePart + coinsurance;
  const memberPays = Math.min(uncapped, outOfPocketLeft);
  const reachedMaximum = uncapped > outOfPocketLeft;
  const paidTowardDeductible = Math.min(deductiblePart, memberPays);
  const cash = input.cashPrice ?? null;
  return {
    memberPays: roundToCents(memberPays),
    deductiblePart: roundToCents(paidTowardDeductible),
    coinsurancePart: roundToCents(memberPays - paidTowardDeductible),
    planPays: roundToCents(allowed - memberPays),
    deductibleLeft: roundToCents(deductibleLeft),
    outOfPocketLeft: roundToCents(outOfPocketLeft),
    reachedMaximum,
    cashIsCheaper: cash !== null && cash >= 0 && cash < roundToCents(memberPays),
  };
}

/** The assumptions behind an estimate, in plain words, for the results screen. */
export function describeAssumptions(
  familyStatus: FamilyStatus,
  ytdSpend: number,
  plan: PlanDesign = DEFAULT_PLAN_DESIGN,
): string[] {
  const tier = familyStatus === 2 ? 'family' : 'single';
  return [
    `Coverage: ${tier === 'family' ? 'family' : 'single person'}, with a deductible of ${usd(plan.deductible[tier])} and an out-of-pocket maximum of ${usd(plan.outOfPocketMax[tier])} a year.`,
    `After the deductible you pay ${Math.round(plan.coinsurance * 100)}% of the negotiated rate (coinsurance); the plan pays the rest.`,
    `Your ${usd(nonNegative(ytdSpend))} spent so far this year counts toward the deductible first, then toward the out-of-pocket maximum.`,
    'Estimates are for commercial and marketplace plans. Medicare Advantage, Medicaid and other public plans set their own cost sharing, so their rates show none.',
    'Your own plan may differ: check its deductible, coinsurance and maximum, and ask the hospital for a Good Faith Estimate.',
  ];
}
