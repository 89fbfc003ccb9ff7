import {
  centsToDollars,
  formatUsd,
  priceCart,
  type PriceableItem,
  type PricedCart,
  type Subscription,
} from '@ratelens/core';

/** $1,234.56 from whole cents (core's formatter takes dollars). */
export function formatCents(cents: number): string {
  return formatUsd(centsToDollars(cents));
}

/**
 * What core's priceCart needs to know about a plan, as the server prices it: a state plan is its
 * per-file price × the state's loaded files; a national plan and a custom offer (an agreed total)
 * count once.
 */
export function priceableOf(plan: Subscription, installment: boolean): PriceableItem {
  const perFile = plan.accessType === 'State' && plan.customOfferId === null;
  return {
    unitPriceCents: plan.priceCents,
    quantity: perFile ? plan.totalFilesCountSpecificState : 1,
    annual: plan.subscriptionType === 'Annual',
    installment,
    maintenanceFeeCents: plan.maintenanceFeeCents,
  };
}

export interface PlanChoice {
  plan: Subscription;
  installment: boolean;
}

/** The order table's figures (subscriptions-and-payments §4 "Cart", §9). */
export function priceChoices(choices: readonly PlanChoice[], couponPercent: number): PricedCart {
  return priceCart(
    choices.map((choice) => priceableOf(choice.plan, choice.installment)),
    couponPercent,
  );
}

/** A plan's 12 monthly payments (the tile's modal): round(total ÷ 12) + the fee, the last taking the rounding. */
export function installmentScheduleOf(plan: Subscription): number[] {
  return priceChoices([{ plan, installment: true }], 0).items[0]?.schedule ?? [];
}

/**
 * The payments of a schedule as they are: '12 monthly payments of $11.25', or '11 monthly
 * payments of $7.08, then $7.12' when the price does not divide by 12 (core's
 * installmentSchedule lets only the last payment take the rounding).
 */
export function installmentWording(schedule: readonly number[]): string {
  const first = schedule[0] ?? 0;
  const last = schedule.at(-1) ?? first;
  if (schedule.every((cents) => cents === first))
    return `${schedule.length} monthly payments of ${formatCents(first)}`;
  return `${schedule.length - 1} monthly payments of ${formatCents(first)}, then ${formatCents(last)}`;
}

/** "No. of Files/Search": searches for a search pack, the state's files, or every file. */
export function filesOrSearches(plan: Subscription): string {
  if (plan.subscriptionType === 'Individual Search') {
    const searches = plan.searchCount ?? 0;
    return `${searches.toLocaleString('en-US')} ${searches === 1 ? 'search' : 'searches'}`;
  }
  const files =
    plan.accessType === 'State' ? plan.totalFilesCountSpecificState : plan.totalFilesCountAllStates;
  return `${files.toLocaleString('en-US')} ${files === 1 ? 'file' : 'files'}`;
}

/**
 * The order's "No. of Files/Search": a custom offer is one agreed total, so its quantity is one
 * offer (and what it covers), which keeps quantity × unit price = total price.
 */
export function orderQuantity(plan: Subscription): string {
  return plan.customOfferId === null ? filesOrSearches(plan) : `1 offer (${filesOrSearches(plan)})`;
}

/** What a plan covers: the state's name for a state plan, else 'All States' or 'National'. */
export function coverageOf(plan: Subscription): string {
  return plan.filterStates || plan.accessType;
}

/** Whether a coupon can apply at all (§5: annual subscriptions only). */
export function hasAnnualItem(choices: readonly PlanChoice[]): boolean {
  return choices.some((choice) => choice.plan.subscriptionType === 'Annual');
}
