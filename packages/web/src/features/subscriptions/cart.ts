import { CouponSchema, SubscriptionSchema, type Subscription } from '@ratelens/core';
import { useMemo, useSyncExternalStore } from 'react';
import { useSession } from '../auth/use-session.ts';
import { hasAnnualItem, type PlanChoice } from './cart-pricing.ts';

/**
 * The cart (subscriptions-and-payments §3 "Cart entries", §4 "Cart"). The old client kept a
 * dozen loose entries (the chosen plan in session storage, installment records, maintenance
 * charge, installment amount, coupon percent and id); here a line is the plan as its tile showed
 * it plus the pay-in-installments choice, added when the tile's Checkout is chosen, and every
 * amount is derived from that with core's priceCart. Prices kept here are for display only: the
 * payment sends plan ids and the server prices them.
 *
 * The cart belongs to the account that filled it (another account signing in on the same browser
 * starts empty) and lives in localStorage, cleared by /logout and after a payment.
 */
export const CART_STORAGE_KEY = 'subscriptionCart';

export interface CartLine extends PlanChoice {
  /** The state the tile was shown for (its FIPS id), to reload the plan; null for national plans. */
  stateId: number | null;
}

export interface CartCoupon {
  couponID: number;
  couponCode: string;
  couponDiscountPerc: number;
}

export interface Cart {
  lines: CartLine[];
  coupon: CartCoupon | null;
}

interface StoredCart extends Cart {
  owner: string;
}

const EMPTY: Cart = { lines: [], coupon: null };

/** Same plan for the same state: the server refuses a cart holding both (§4 "Cart"). */
export function lineKey(plan: Subscription): string {
  return `${plan.subscriptionID}:${plan.stateCode ?? ''}`;
}

function local(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function parseLine(input: unknown): CartLine | null {
  if (typeof input !== 'object' || input === null) return null;
  const { plan, installment, stateId } = input as Record<string, unknown>;
  const parsed = SubscriptionSchema.safeParse(plan);
  if (!parsed.success || typeof installment !== 'boolean') return null;
  return {
    plan: parsed.data,
    installment,
    stateId: typeof stateId === 'number' ? stateId : null,
  };
}

/** The stored cart, or null when there is none or it does not parse (edited by hand, old shape). */
function parseStored(raw: string | null): StoredCart | null {
  if (raw === null) return null;
  try {
    const data = JSON.parse(raw) as unknown;
    if (typeof data !== 'object' || data === null) return null;
    const { owner, lines, coupon } = data as Record<string, unknown>;
    if (typeof owner !== 'string' || !Array.isArray(lines)) return null;
    const parsedLines = lines.map(parseLine);
    if (parsedLines.some((line) => line === null)) return null;
    const parsedCoupon = coupon === null ? null : CouponSchema.safeParse(coupon);
    if (parsedCoupon !== null && !parsedCoupon.success) return null;
    return {
      owner,
      lines: parsedLines as CartLine[],
      coupon: parsedCoupon?.data ?? null,
    };
  } catch {
    return null;
  }
}

// ---- change notification (useSyncExternalStore needs a stable snapshot) ----------------------

const listeners = new Set<() => void>();
let snapshotRaw: string | null = null;
let snapshot: StoredCart | null = null;

function readStored(): StoredCart | null {
  const raw = local()?.getItem(CART_STORAGE_KEY) ?? null;
  if (raw !== snapshotRaw) {
    snapshotRaw = raw;
    snapshot = parseStored(raw);
  }
  return snapshot;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab adding to or paying for the same cart.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === CART_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function write(owner: string, cart: Cart): void {
  local()?.setItem(CART_STORAGE_KEY, JSON.stringify({ owner, ...cart }));
  for (const listener of listeners) listener();
}

/** The cart of `owner` (the signed-in account's id). */
export function readCart(owner: string): Cart {
  const stored = readStored();
  return stored?.owner === owner ? { lines: stored.lines, coupon: stored.coupon } : EMPTY;
}

/** The signed-in account's cart, re-rendering when it changes (here or in another tab). */
export function useCart(): Cart {
  const owner = useSession().userID ?? '';
  const stored = useSyncExternalStore(subscribe, readStored, readStored);
  return useMemo(
    () => (stored?.owner === owner ? { lines: stored.lines, coupon: stored.coupon } : EMPTY),
    [stored, owner],
  );
}

export type AddResult = 'added' | 'duplicate';

/** Adds a line unless the cart already holds the plan for that state. */
export function addToCart(owner: string, line: CartLine): AddResult {
  const cart = readCart(owner);
  const key = lineKey(line.plan);
  if (cart.lines.some((existing) => lineKey(existing.plan) === key)) return 'duplicate';
  write(owner, { ...cart, lines: [...cart.lines, line] });
  return 'added';
}

/** Removes a line; the coupon goes with the last annual item, as it applies to nothing else. */
export function removeFromCart(owner: string, key: string): void {
  const cart = readCart(owner);
  const lines = cart.lines.filter((line) => lineKey(line.plan) !== key);
  write(owner, { lines, coupon: hasAnnualItem(lines) ? cart.coupon : null });
}

export function setCartCoupon(owner: string, coupon: CartCoupon | null): void {
  write(owner, { ...readCart(owner), coupon });
}

/** Forgets the cart and its coupon (after a payment, on /thankYou, at logout). */
export function clearCart(): void {
  local()?.removeItem(CART_STORAGE_KEY);
  for (const listener of listeners) listener();
}
