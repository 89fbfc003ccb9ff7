import {
  MAX_ORDER_CENTS,
  PAYMENT_MESSAGES,
  centsToDollars,
  formatUsd,
  priceItem,
  type CartItem,
  type PricedItem,
  type Subscription,
} from '@ratelens/core';
import type { Pool, PoolClient, Queryable } from '@ratelens/db';
import { sameAccountId, type AuthContext } from '../auth/auth-service.ts';
import { AppError, badRequest, fieldError, forbidden, notFound } from '../http/errors.ts';

type SubscriptionType = Subscription['subscriptionType'];
type AccessType = Subscription['accessType'];

/** The spec's default state: Alabama, FIPS 1 (subscriptions-and-payments §9). */
export const DEFAULT_STATE_ID = 1;

export interface Plan {
  id: number;
  title: string;
  subscriptionType: SubscriptionType;
  accessType: AccessType;
  priceCents: number;
  searchCount: number | null;
  priceDescription: string;
  installmentEligible: boolean;
  maintenanceFeeCents: number;
  negotiable: boolean;
  includesDataFeed: boolean;
  termMonths: number;
  sortOrder: number;
  active: boolean;
}

/** A state with what is loaded for it: current hospital files and known hospitals. */
export interface StateCounts {
  code: string;
  name: string;
  stateId: number;
  files: number;
  hospitals: number;
}

interface Totals {
  files: number;
  hospitals: number;
}

interface OfferRow {
  id: number;
  userId: string;
  planId: number;
  stateCode: string | null;
  priceCents: number;
  expiresAt: Date | null;
}

export interface PricedLine {
  item: CartItem;
  plan: {
    id: number;
    title: string;
    subscriptionType: SubscriptionType;
    accessType: AccessType;
    searchCount: number | null;
    termMonths: number;
  };
  stateCode: string | null;
  customOfferId: number | null;
  priced: PricedItem;
}

export interface PricedOrder {
  lines: PricedLine[];
  coupon: { id: number; code: string; percent: number } | null;
  dueTodayCents: number;
  discountCents: number;
}

export interface ValidCoupon {
  id: number;
  code: string;
  percent: number;
}

/** A cart line resolved against the catalogue, before it is priced. */
interface ResolvedLine {
  item: CartItem;
  plan: Plan;
  state: StateCounts | null;
  offer: OfferRow | null;
}

// bigint columns arrive from pg as strings; cents fit a double exactly.
export const PLAN_COLUMNS = `p.id, p.title, p.subscription_type AS "subscriptionType", p.access_type AS "accessType",
  p.price_cents::float8 AS "priceCents", p.search_count AS "searchCount", p.price_description AS "priceDescription",
  p.installment_eligible AS "installmentEligible", p.maintenance_fee_cents::float8 AS "maintenanceFeeCents",
  p.negotiable, p.includes_data_feed AS "includesDataFeed", p.term_months AS "termMonths",
  p.sort_order AS "sortOrder", p.active`;

const STATE_COUNTS = `SELECT s.code, s.name, s.fips::int AS "stateId",
  (SELECT count(*)::int FROM mrf_files f JOIN hospitals h ON h.id = f.hospital_id
    WHERE h.state_code = s.code AND f.status = 'loaded') AS files,
  (SELECT count(*)::int FROM hospitals h WHERE h.state_code = s.code) AS hospitals
  FROM states s`;

/**
 * An account holds a plan (for a state) while a subscription to it has not expired; an
 * individual-search pack whose searches are used up may be bought again.
 */
const HELD = `s.user_id = $1 AND s.expires_at > $2
  AND (s.kind <> 'individual-search' OR s.remaining_search_count > 0)`;

/**
 * A 400 about one cart item, its fields named under the item (`items.2.state`), so that a cart
 * of several says which line is wrong; a refusal of the whole item is named `items.2`.
 */
function ofCartItem(index: number, error: unknown): unknown {
  if (!(error instanceof AppError) || error.statusCode !== 400) return error;
  const errors = error.errors?.length
    ? error.errors.map((e) => ({ ...e, field: `items.${index}.${e.field}` }))
    : [{ field: `items.${index}`, rule: 'custom', message: error.message }];
  return badRequest(error.message, errors);
}

/** The legacy calls name the account in the request; it must be the signed-in one. */
export function assertOwnUserId(auth: AuthContext, userId: string): void {
  if (!sameAccountId(userId, auth.userId))
    throw forbidden('You can only use your own account here.');
}

const lineKey = (planId: number, stateCode: string | null) => `${planId}:${stateCode ?? ''}`;

/**
 * The plan catalogue (subscriptions-and-payments §2 "Subscription", §4 "Cart", §9): the tiles,
 * coupons, custom offers and the one place a cart is priced. Prices come from the catalogue and
 * the loaded files only; a price the client sends is never read.
 */
export class Catalogue {
  constructor(private readonly pool: Pool) {}

  // ---- Pricing ------------------------------------------------------------------------------

  /**
   * Prices a cart for `userId`, refusing what cannot be bought: unknown or inactive plans, a
   * state plan without a known state, the negotiable all-states plan (sold through a custom
   * offer only), duplicate lines, plans the account already holds, another account's items or
   * offers, installments on a plan that has none, and a coupon that is invalid or has no annual
   * item to apply to.
   */
  async priceCart(
    db: Queryable,
    userId: string,
    items: CartItem[],
    couponCode?: string | null,
    now: Date = new Date(),
  ): Promise<PricedOrder> {
    if (items.length === 0) throw fieldError('items', 'too_small', 'The cart is empty.');
    const resolved: ResolvedLine[] = [];
    const seen = new Set<string>();
    for (const [index, item] of items.entries()) {
      if (item.userID && !sameAccountId(item.userID, userId))
        throw forbidden('A cart item names another account.');
      const line = await this.resolveLine(db, userId, item, now).catch((error: unknown) => {
        throw ofCartItem(index, error);
      });
      const key = lineKey(line.plan.id, line.state?.code ?? null);
      if (seen.has(key))
        throw fieldError(`items.${index}`, 'duplicate', PAYMENT_MESSAGES.alreadyInCart);
      seen.add(key);
      if (item.IsInstalmentPayment && !line.plan.installmentEligible)
        throw fieldError(
          `items.${index}.IsInstalmentPayment`,
          'custom',
          `${line.plan.title} cannot be paid in installments.`,
        );
      resolved.push(line);
    }
    const held = await this.heldKeys(db, userId, resolved, now);
    const owned = resolved.findIndex((line) =>
      held.has(lineKey(line.plan.id, line.state?.code ?? null)),
    );
    if (owned >= 0) throw fieldError(`items.${owned}`, 'custom', PAYMENT_MESSAGES.alreadyOwned);

    const code = couponCode?.trim() ?? '';
    let coupon: ValidCoupon | null = null;
    if (code) {
      if (!resolved.some((line) => line.plan.subscriptionType === 'Annual'))
        throw fieldError('couponCode', 'custom', PAYMENT_MESSAGES.couponAnnualOnly);
      coupon = await this.validCoupon(db, userId, code, now);
      if (!coupon) throw fieldError('couponCode', 'custom', PAYMENT_MESSAGES.couponInvalid);
    }

    const lines = resolved.map(({ item, plan, state, offer }): PricedLine => {
      const priced = priceItem(
        {
          // A custom offer is a total price; a state plan is priced per loaded file.
          unitPriceCents: offer ? offer.priceCents : plan.priceCents,
          quantity: !offer && plan.accessType === 'State' ? (state?.files ?? 0) : 1,
          annual: plan.subscriptionType === 'Annual',
          installment: item.IsInstalmentPayment,
          maintenanceFeeCents: plan.maintenanceFeeCents,
        },
        coupon?.percent ?? 0,
      );
      return {
        item,
        plan: {
          id: plan.id,
          title: plan.title,
          subscriptionType: plan.subscriptionType,
          accessType: plan.accessType,
          searchCount: plan.searchCount,
          termMonths: plan.termMonths,
        },
        stateCode: state?.code ?? null,
        customOfferId: offer?.id ?? null,
        priced,
      };
    });
    const dueTodayCents = lines.reduce((sum, line) => sum + line.priced.dueTodayCents, 0);
    const discountCents = lines.reduce((sum, line) => sum + line.priced.discountCents, 0);
    const largest = lines.reduce((max, line) => Math.max(max, line.priced.finalPriceCents), 0);
    if (dueTodayCents > MAX_ORDER_CENTS || largest > MAX_ORDER_CENTS)
      throw badRequest(
        `An order cannot be more than ${formatUsd(centsToDollars(MAX_ORDER_CENTS))}. Please contact us.`,
      );
    return { lines, coupon, dueTodayCents, discountCents };
  }

  /** `Subscription/getcheckoutflag`: 1 when the account may buy the plan (for the state), else 0. */
  async checkoutFlag(
    auth: AuthContext,
    userId: string,
    planId: number,
    state: string,
    now: Date = new Date(),
  ): Promise<0 | 1> {
    assertOwnUserId(auth, userId);
    const item: CartItem = { subscriptionID: planId, state, IsInstalmentPayment: false };
    const line = await this.resolveLine(this.pool, userId, item, now);
    const held = await this.heldKeys(this.pool, userId, [line], now);
    return held.size > 0 ? 0 : 1;
  }

  private async resolveLine(
    db: Queryable,
    userId: string,
    item: CartItem,
    now: Date,
  ): Promise<ResolvedLine> {
    const offer = item.customOfferId ? await this.offerFor(db, userId, item, now) : null;
    const plan = await this.planById(db, item.subscriptionID);
    if (!plan || !plan.active)
      throw fieldError(
        'subscriptionID',
        'custom',
        `No plan with id ${item.subscriptionID} is offered.`,
      );
    if (plan.negotiable && !offer)
      throw badRequest(
        `${plan.title} is negotiable and is not sold through checkout. Please contact us for a price.`,
      );
    if (plan.accessType !== 'State') return { item, plan, state: null, offer };

    const named = offer?.stateCode ?? item.state;
    if (!named) throw fieldError('state', 'required', `Choose a state for ${plan.title}.`);
    const state = await this.stateByCodeOrName(db, named);
    if (!state) throw fieldError('state', 'custom', `${named} is not a state we know.`);
    if (offer && item.state && (await this.stateByCodeOrName(db, item.state))?.code !== state.code)
      throw fieldError('state', 'custom', `This offer is for ${state.name}.`);
    if (!offer && state.files === 0)
      throw badRequest(
        `No hospital files are loaded for ${state.name} yet, so it cannot be bought.`,
      );
    return { item, plan, state, offer };
  }

  private async offerFor(
    db: Queryable,
    userId: string,
    item: CartItem,
    now: Date,
  ): Promise<OfferRow> {
    const { rows } = await db.query<OfferRow>(
      `SELECT id, user_id AS "userId", plan_id AS "planId", state_code AS "stateCode",
              price_cents::float8 AS "priceCents", expires_at AS "expiresAt"
         FROM custom_offers WHERE id = $1`,
      [item.customOfferId],
    );
    const offer = rows[0];
    if (!offer)
      throw fieldError('customOfferId', 'custom', `No custom offer has id ${item.customOfferId}.`);
    if (offer.userId !== userId) throw forbidden('This offer was made to another account.');
    if (offer.planId !== item.subscriptionID)
      throw fieldError('customOfferId', 'custom', 'This offer is for another plan.');
    if (offer.expiresAt && offer.expiresAt <= now)
      throw fieldError('customOfferId', 'custom', 'This offer has expired.');
    return offer;
  }

  /** Plan-and-state keys of `lines` the account already holds. */
  private async heldKeys(
    db: Queryable,
    userId: string,
    lines: readonly ResolvedLine[],
    now: Date,
  ): Promise<Set<string>> {
    const { rows } = await db.query<{ planId: number; stateCode: string | null }>(
      `SELECT DISTINCT s.plan_id AS "planId", s.state_code AS "stateCode"
         FROM subscriptions s WHERE ${HELD} AND s.plan_id = ANY($3::int[])`,
      [userId, now, lines.map((line) => line.plan.id)],
    );
    const wanted = new Set(lines.map((line) => lineKey(line.plan.id, line.state?.code ?? null)));
    return new Set(
      rows.map((row) => lineKey(row.planId, row.stateCode)).filter((key) => wanted.has(key)),
    );
  }

  // ---- Coupons ------------------------------------------------------------------------------

  /**
   * The coupon of `code` when it may be used by `userId` now: active, inside its validity window,
   * and under its usage limits, which count paid orders and pending ones (a payment under way
   * holds its use until it fails).
   */
  async validCoupon(
    db: Queryable,
    userId: string,
    code: string,
    now: Date = new Date(),
  ): Promise<ValidCoupon | null> {
    const { rows } = await db.query<ValidCoupon>(
      `SELECT c.id, c.code, c.percent FROM coupons c
        WHERE c.code = upper($1) AND c.active AND c.valid_from <= $3
          AND (c.valid_to IS NULL OR c.valid_to > $3)
          AND (c.max_uses IS NULL OR c.max_uses >
                (SELECT count(*) FROM orders o WHERE o.coupon_id = c.id AND o.status IN ('paid', 'pending')))
          AND (c.max_uses_per_user IS NULL OR c.max_uses_per_user >
                (SELECT count(*) FROM orders o WHERE o.coupon_id = c.id AND o.status IN ('paid', 'pending') AND o.user_id = $2))`,
      [code.trim(), userId, now],
    );
    return rows[0] ?? null;
  }

  /**
   * Inside the transaction that writes an order with `coupon`: locks the coupon and checks its
   * limits again, so two checkouts at once cannot both take its last use.
   */
  async reserveCoupon(
    client: PoolClient,
    coupon: { id: number; code: string },
    userId: string,
    now: Date = new Date(),
  ): Promise<void> {
    await client.query(`SELECT id FROM coupons WHERE id = $1 FOR UPDATE`, [coupon.id]);
    const usable = await this.validCoupon(client, userId, coupon.code, now);
    if (usable?.id !== coupon.id) throw badRequest(PAYMENT_MESSAGES.couponInvalid);
  }

  /** `Master/getallcoupons?cupon=`: the coupon when the account may use it now, else null. */
  async couponFor(userId: string, code: string): Promise<ValidCoupon | null> {
    return code.trim() ? this.validCoupon(this.pool, userId, code) : null;
  }

  // ---- Tiles --------------------------------------------------------------------------------

  /** `master/getsubscription`: the active plans' tiles for a state, in catalogue order. */
  async tiles(stateId: number = DEFAULT_STATE_ID): Promise<Subscription[]> {
    const state = await this.stateById(stateId);
    const totals = await this.totals();
    const { rows } = await this.pool.query<Plan>(
      `SELECT ${PLAN_COLUMNS} FROM plans p WHERE p.active ORDER BY p.sort_order, p.id`,
    );
    return rows.map((plan) => tileOf(plan, state, totals));
  }

  /** `Master/getsubscriptionbyid`: one active plan's tile for a state. */
  async tile(planId: number, stateId: number = DEFAULT_STATE_ID): Promise<Subscription> {
    const plan = await this.planById(this.pool, planId);
    if (!plan || !plan.active) throw notFound(`No plan with id ${planId} is offered.`);
    return tileOf(plan, await this.stateById(stateId), await this.totals());
  }

  /**
   * `Master/getCustomsubscriptionbyid`: the account's current custom offers as tiles; with a
   * state, the offers for it and the national ones.
   */
  async customTiles(
    auth: AuthContext,
    userId: string,
    stateId?: number,
    now: Date = new Date(),
  ): Promise<Subscription[]> {
    assertOwnUserId(auth, userId);
    const state = stateId === undefined ? null : await this.stateById(stateId);
    const { rows } = await this.pool.query<
      Plan & { offerId: number; offerPriceCents: number; offerStateCode: string | null }
    >(
      `SELECT ${PLAN_COLUMNS}, o.id AS "offerId", o.price_cents::float8 AS "offerPriceCents",
              o.state_code AS "offerStateCode"
         FROM custom_offers o JOIN plans p ON p.id = o.plan_id
        WHERE o.user_id = $1 AND p.active AND (o.expires_at IS NULL OR o.expires_at > $2)
          AND ($3::text IS NULL OR o.state_code IS NULL OR o.state_code = $3)
        ORDER BY p.sort_order, o.id`,
      [userId, now, state?.code ?? null],
    );
    const totals = await this.totals();
    const tiles: Subscription[] = [];
    for (const row of rows) {
      const offerState = row.offerStateCode
        ? await this.stateByCodeOrName(this.pool, row.offerStateCode)
        : null;
      tiles.push({
        ...tileOf(row, offerState, totals),
        price: centsToDollars(row.offerPriceCents),
        totalPrice: centsToDollars(row.offerPriceCents),
        priceCents: row.offerPriceCents,
        totalPriceCents: row.offerPriceCents,
        customOfferId: row.offerId,
      });
    }
    return tiles;
  }

  /** `Subscription/GetMaintancesCharges`: the plan's monthly maintenance fee for installments. */
  async maintenanceFee(planId: number): Promise<number> {
    const plan = await this.planById(this.pool, planId);
    if (!plan || !plan.active) throw notFound(`No plan with id ${planId} is offered.`);
    return plan.maintenanceFeeCents;
  }

  // ---- Reads ----------------------------------------------------------------------------------

  async planById(db: Queryable, id: number): Promise<Plan | null> {
    const { rows } = await db.query<Plan>(`SELECT ${PLAN_COLUMNS} FROM plans p WHERE p.id = $1`, [
      id,
    ]);
    return rows[0] ?? null;
  }

  /** A state by its code or name (case-insensitive), with its counts. */
  async stateByCodeOrName(db: Queryable, codeOrName: string): Promise<StateCounts | null> {
    const { rows } = await db.query<StateCounts>(
      `${STATE_COUNTS} WHERE s.code = upper($1) OR lower(s.name) = lower($1)`,
      [codeOrName.trim()],
    );
    return rows[0] ?? null;
  }

  private async stateById(stateId: number): Promise<StateCounts> {
    const { rows } = await this.pool.query<StateCounts>(`${STATE_COUNTS} WHERE s.fips::int = $1`, [
      stateId,
    ]);
    const state = rows[0];
    if (!state) throw fieldError('stateId', 'custom', `No state has id ${stateId}.`);
    return state;
  }

  private async totals(): Promise<Totals> {
    const { rows } = await this.pool.query<Totals>(
      `SELECT (SELECT count(*)::int FROM mrf_files f JOIN hospitals h ON h.id = f.hospital_id
                WHERE f.status = 'loaded' AND h.state_code IS NOT NULL) AS files,
              (SELECT count(*)::int FROM hospitals WHERE state_code IS NOT NULL) AS hospitals`,
    );
    return rows[0] ?? { files: 0, hospitals: 0 };
  }
}

/**
 * A plan's tile. A state plan's total is the per-file price × the state's loaded files; a
 * national plan's total is its price. The counts of the chosen state are shown on every tile.
 */
function tileOf(plan: Plan, state: StateCounts | null, totals: Totals): Subscription {
  const perState = plan.accessType === 'State';
  const totalPriceCents = perState ? plan.priceCents * (state?.files ?? 0) : plan.priceCents;
  return {
    subscriptionID: plan.id,
    subscriptionTitle: plan.title,
    subscriptionType: plan.subscriptionType,
    accessType: plan.accessType,
    price: centsToDollars(plan.priceCents),
    totalPrice: centsToDollars(totalPriceCents),
    priceCents: plan.priceCents,
    totalPriceCents,
    filterStates: perState ? (state?.name ?? '') : plan.accessType,
    stateCode: perState ? (state?.code ?? null) : null,
    totalFilesCountSpecificState: state?.files ?? 0,
    totalFilesCountAllStates: totals.files,
    hospitalCount: state?.hospitals ?? 0,
    totalHospitalCountAllStates: totals.hospitals,
    priceDescription: plan.priceDescription,
    searchCount: plan.searchCount,
    installmentEligible: plan.installmentEligible,
    maintenanceFeeCents: plan.maintenanceFeeCents,
    negotiable: plan.negotiable,
    includesDataFeed: plan.includesDataFeed,
    termMonths: plan.termMonths,
    customOfferId: null,
  };
}
