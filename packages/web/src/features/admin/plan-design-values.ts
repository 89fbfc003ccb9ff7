import { PlanDesignInputSchema, PlanDesignSchema, type PlanDesign } from '@ratelens/core';
import type { FieldErrors, Resolver } from 'react-hook-form';

/**
 * The plan design form: dollars, and the coinsurance as a percentage (0–100) where core stores
 * a share (0–1). An emptied number input holds ''.
 */
export interface PlanDesignFormValues {
  deductibleSingle: number | string;
  deductibleFamily: number | string;
  outOfPocketSingle: number | string;
  outOfPocketFamily: number | string;
  coinsurancePercent: number | string;
}
export type PlanDesignField = keyof PlanDesignFormValues;

const DOLLARS = PlanDesignSchema.shape.deductible.shape.single;
const SHARE = PlanDesignSchema.shape.coinsurance;

/** The bounds of core's PlanDesignSchema, as the form shows them. */
export const PLAN_LIMITS = {
  minDollars: DOLLARS.minValue ?? 0,
  maxDollars: DOLLARS.maxValue ?? Number.MAX_SAFE_INTEGER,
  minPercent: (SHARE.minValue ?? 0) * 100,
  maxPercent: (SHARE.maxValue ?? 1) * 100,
} as const;

const usd = (amount: number) =>
  amount.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

export const PLAN_MESSAGES = {
  dollars: `Enter an amount from ${usd(PLAN_LIMITS.minDollars)} to ${usd(PLAN_LIMITS.maxDollars)}.`,
  percent: `Enter a percentage from ${PLAN_LIMITS.minPercent} to ${PLAN_LIMITS.maxPercent}.`,
} as const;

/** Where each field lives in core's PlanDesign (the path of a schema issue). */
const PATHS: Record<PlanDesignField, string> = {
  deductibleSingle: 'deductible.single',
  deductibleFamily: 'deductible.family',
  outOfPocketSingle: 'outOfPocketMax.single',
  outOfPocketFamily: 'outOfPocketMax.family',
  coinsurancePercent: 'coinsurance',
};
const FIELDS = Object.keys(PATHS) as PlanDesignField[];

/** The form field of a PlanDesign path (`deductible.single`, a server field error's name). */
export function planFieldOf(path: string): PlanDesignField | undefined {
  return FIELDS.find((field) => PATHS[field] === path);
}

/** A share of 0–1 as a percentage, without the float noise of `0.07 * 100`. */
function toPercent(share: number): number {
  return Math.round(share * 100 * 1e6) / 1e6;
}

export function planFormValues(plan: PlanDesign): PlanDesignFormValues {
  return {
    deductibleSingle: plan.deductible.single,
    deductibleFamily: plan.deductible.family,
    outOfPocketSingle: plan.outOfPocketMax.single,
    outOfPocketFamily: plan.outOfPocketMax.family,
    coinsurancePercent: toPercent(plan.coinsurance),
  };
}

/** An emptied input (''), text that is not a number and a missing value become NaN: refused. */
function amount(value: number | string | undefined): number {
  if (typeof value === 'number') return value;
  return value === undefined || value.trim() === '' ? Number.NaN : Number(value);
}

export type PlanDesignCheck =
  { ok: true; plan: PlanDesign } | { ok: false; errors: Partial<Record<PlanDesignField, string>> };

/** The form's values as core's PlanDesign, checked with core's PlanDesignInputSchema. */
export function checkPlanDesign(values: Partial<PlanDesignFormValues>): PlanDesignCheck {
  const result = PlanDesignInputSchema.safeParse({
    deductible: {
      single: amount(values.deductibleSingle),
      family: amount(values.deductibleFamily),
    },
    outOfPocketMax: {
      single: amount(values.outOfPocketSingle),
      family: amount(values.outOfPocketFamily),
    },
    coinsurance: amount(values.coinsurancePercent) / 100,
  });
  if (result.success) return { ok: true, plan: result.data };
  const errors: Partial<Record<PlanDesignField, string>> = {};
  for (const issue of result.error.issues) {
    const field = planFieldOf(issue.path.join('.'));
    // The schema's own words speak of a 0–1 share; the form speaks dollars and percent. The
    // rules between fields speak dollars already. A field's first message stands.
    if (field && errors[field] === undefined) {
      errors[field] =
        issue.code === 'custom'
          ? issue.message
          : field === 'coinsurancePercent'
            ? PLAN_MESSAGES.percent
            : PLAN_MESSAGES.dollars;
    }
  }
  return { ok: false, errors };
}

/** react-hook-form's resolver: the form's numbers in, core's PlanDesign out. */
export const planDesignResolver: Resolver<PlanDesignFormValues, unknown, PlanDesign> = (values) => {
  const checked = checkPlanDesign(values);
  if (checked.ok) return { values: checked.plan, errors: {} };
  const errors: FieldErrors<PlanDesignFormValues> = {};
  for (const field of FIELDS) {
    const message = checked.errors[field];
    if (message !== undefined) errors[field] = { type: 'validate', message };
  }
  return { values: {}, errors };
};
