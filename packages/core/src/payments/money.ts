/*
 * Money rules of the cart and checkout (subscriptions-and-payments §4, §9; issue 5 point 3).
 * Every amount is an integer number of cents; dollars exist only at the edges (display, the
 * legacy fields of the calls). Rounding is half-up on cents, written once here:
 *
 * - a state plan's total price = per-file price × files of the state;
 * - a coupon takes `percent`% off the total price of Annual items only, rounded half-up;
 * - pay once: due today = the final (discounted) price, maintenance $0;
 * - 12-month installments: each month = round(final ÷ 12) + the plan's maintenance fee; the
 *   twelfth payment takes whatever rounding left over, so the 12 payments add up to exactly
 *   final + 12 × fee. Due today = the first month.
 *
 * What a coupon takes off today differs from its whole discount for an installment item: it
 * lowers each of the 12 payments (the spec's "discount divided by 12", §9), so what it takes
 * off today is the first payment without the coupon less the first payment with it.
 */

export const INSTALLMENT_MONTHS = 12;
/** No single order or donation above this (a guard against forged or mistyped amounts). */
export const MAX_ORDER_CENTS = 100_000_000; // $1,000,000.00
export const MAX_DONATION_CENTS = 10_000_000; // $100,000.00

/** Whole cents of `numerator / denominator`, rounded half-up (both non-negative integers). */
export function divideRoundHalfUp(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator <= 0)
    throw new RangeError('divideRoundHalfUp needs safe integers and a positive denominator');
  if (numerator < 0) throw new RangeError('divideRoundHalfUp needs a non-negative numerator');
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** `percent`% of `amountCents`, rounded half-up to a cent. */
export function percentOf(amountCents: number, percent: number): number {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100)
    throw new RangeError('percent must be a whole number from 0 to 100');
  return divideRoundHalfUp(amountCents * percent, 100);
}

export interface PriceableItem {
  /** Per-file price for state plans, the price for national plans, the offered total for a custom offer. */
  unitPriceCents: number;
  /** Files the price is multiplied by: the state's file count for state plans, 1 otherwise. */
  quantity: number;
  /** Coupons apply only to Annual items. */
  annual: boolean;
  installment: boolean;
  /** The plan's monthly maintenance fee (used only with installments). */
  maintenanceFeeCents: number;
}

export interface PricedItem {
  unitPriceCents: number;
  quantity: number;
  totalPriceCents: number;
  /** What the coupon takes off the whole price. */
  discountCents: number;
  /** What the coupon takes off what is due today (the first payment, for installments). */
  discountTodayCents: number;
  finalPriceCents: number;
  /** The monthly installment (with the fee) when paid in installments, else 0. */
  installmentCents: number;
  maintenanceCents: number;
  /** What checkout charges now for this item. */
  dueTodayCents: number;
  /** The 12 monthly payments (installments only), adding up to final + 12 × fee. */
  schedule: number[];
}

export function priceItem(item: PriceableItem, couponPercent: number): PricedItem {
  const { unitPriceCents, quantity, maintenanceFeeCents } = item;
  for (const [name, value] of Object.entries({ unitPriceCents, quantity, maintenanceFeeCents }))
    if (!Number.isSafeInteger(value) || value < 0)
      throw new RangeError(`${name} must be a non-negative whole number`);
  const totalPriceCents = unitPriceCents * quantity;
  const discountCents = item.annual ? percentOf(totalPriceCents, couponPercent) : 0;
  const finalPriceCents = totalPriceCents - discountCents;
  if (!item.installment)
    return {
      unitPriceCents,
      quantity,
      totalPriceCents,
      discountCents,
      discountTodayCents: discountCents,
      finalPriceCents,
      installmentCents: 0,
      maintenanceCents: 0,
      dueTodayCents: finalPriceCents,
      schedule: [],
    };
  const schedule = installmentSchedule(finalPriceCents, maintenanceFeeCents);
  const first = schedule[0] ?? 0;
  const firstWithoutCoupon = installmentSchedule(totalPriceCents, maintenanceFeeCents)[0] ?? 0;
  return {
    unitPriceCents,
    quantity,
    totalPriceCents,
    discountCents,
    discountTodayCents: firstWithoutCoupon - first,
    finalPriceCents,
    installmentCents: first,
    maintenanceCents: maintenanceFeeCents,
    dueTodayCents: first,
    schedule,
  };
}

/** The 12 monthly payments: round(final ÷ 12) + fee, the last one absorbing the rounding. */
export function installmentSchedule(
  finalPriceCents: number,
  maintenanceFeeCents: number,
): number[] {
  const monthly = divideRoundHalfUp(finalPriceCents, INSTALLMENT_MONTHS);
  const last = finalPriceCents - monthly * (INSTALLMENT_MONTHS - 1);
  return [
    ...Array.from({ length: INSTALLMENT_MONTHS - 1 }, () => monthly + maintenanceFeeCents),
    last + maintenanceFeeCents,
  ];
}

export interface PricedCart {
  items: PricedItem[];
  /** The TOTAL row: what is charged today. */
  dueTodayCents: number;
  discountCents: number;
  /** What the coupon takes off the TOTAL: TOTAL + this = what was due today without it. */
  discountTodayCents: number;
}

export function priceCart(items: readonly PriceableItem[], couponPercent: number): PricedCart {
  const priced = items.map((item) => priceItem(item, couponPercent));
  return {
    items: priced,
    dueTodayCents: priced.reduce((sum, item) => sum + item.dueTodayCents, 0),
    discountCents: priced.reduce((sum, item) => sum + item.discountCents, 0),
    discountTodayCents: priced.reduce((sum, item) => sum + item.discountTodayCents, 0),
  };
}

/**
 * Whether an order costs nothing, today or later: a coupon took the whole price of every item
 * and no installment carries a maintenance fee. Such an order is completed without a payment
 * (ADR 0017); one with nothing due today but an installment due later still needs a card.
 */
export function costsNothing(cart: Pick<PricedCart, 'items'>): boolean {
  return (
    cart.items.length > 0 &&
    cart.items.every(
      (item) => item.dueTodayCents === 0 && item.schedule.every((cents) => cents === 0),
    )
  );
}

/** Dollars (a legacy field's number) from cents. */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

/**
 * Cents from a typed dollar amount such as "25", "25.5" or "1,250.00"; null when it is not
 * one (no sign, no exponent, at most two decimals).
 */
export function parseDollars(text: string): number | null {
  const cleaned = text.trim().replace(/,/g, '');
  const match = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  return whole * 100 + fraction;
}
