import {
  isAdmin,
  type CatalogueCoupon,
  type CatalogueOffer,
  type CataloguePlan,
  type CouponInput,
  type CustomOfferInput,
  type PlanInput,
} from '@ratelens/core';
import { uniqueViolationOf, type Pool } from '@ratelens/db';
import type { AuthContext } from '../auth/auth-service.ts';
import { conflict, fieldError, forbidden, notFound } from '../http/errors.ts';
import { PLAN_COLUMNS } from './catalogue.ts';

const PLAN_SELECT = `SELECT ${PLAN_COLUMNS} FROM plans p`;

const COUPON_SELECT = `SELECT c.id, c.code, c.percent,
  c.valid_from AS "validFrom", c.valid_to AS "validTo",
  c.max_uses AS "maxUses", c.max_uses_per_user AS "maxUsesPerUser", c.active,
  (SELECT count(*)::int FROM orders o WHERE o.coupon_id = c.id AND o.status = 'paid') AS "timesUsed"
  FROM coupons c`;

const OFFER_SELECT = `SELECT o.id, u.email, o.plan_id AS "planId", p.title AS "planTitle",
  o.state_code AS "stateCode", o.price_cents::float8 AS "priceCents", o.note,
  o.expires_at AS "expiresAt", o.created_at AS "createdAt"
  FROM custom_offers o JOIN users u ON u.id = o.user_id JOIN plans p ON p.id = o.plan_id`;

type CouponRow = Omit<CatalogueCoupon, 'validFrom' | 'validTo'> & {
  validFrom: Date;
  validTo: Date | null;
};
type OfferRow = Omit<CatalogueOffer, 'expiresAt' | 'createdAt'> & {
  expiresAt: Date | null;
  createdAt: Date;
};

const couponOf = (row: CouponRow): CatalogueCoupon => ({
  ...row,
  validFrom: row.validFrom.toISOString(),
  validTo: row.validTo?.toISOString() ?? null,
});
const offerOf = (row: OfferRow): CatalogueOffer => ({
  ...row,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

function planValues(input: PlanInput): unknown[] {
  return [
    input.title,
    input.subscriptionType,
    input.accessType,
    input.priceCents,
    input.searchCount,
    input.priceDescription,
    input.installmentEligible,
    input.maintenanceFeeCents,
    input.negotiable,
    input.includesDataFeed,
    input.termMonths,
    input.sortOrder,
    input.active,
  ];
}

const codeTaken = (code: string) => conflict(`A coupon with the code ${code} already exists.`);

/**
 * validTo against the start a coupon really gets, which core's schema cannot see when validFrom
 * is left out: now for a new coupon, the start it keeps for a changed one.
 */
export const COUPON_WINDOW_MESSAGES = {
  afterNow: 'validTo must be after validFrom, which is now when it is left out.',
  afterStart:
    "validTo must be after validFrom, which stays the coupon's start when it is left out.",
} as const;

/**
 * The catalogue as administrators manage it at /admin/catalogue: plans, coupons and custom
 * offers. Every method checks the role, so no route can forget it.
 */
export class CatalogueAdmin {
  constructor(private readonly pool: Pool) {}

  private requireAdmin(auth: AuthContext): void {
    if (!isAdmin(auth.role)) throw forbidden('Only administrators can manage the catalogue.');
  }

  // ---- Plans --------------------------------------------------------------------------------

  async plans(auth: AuthContext): Promise<CataloguePlan[]> {
    this.requireAdmin(auth);
    const { rows } = await this.pool.query<CataloguePlan>(
      `${PLAN_SELECT} ORDER BY p.sort_order, p.id`,
    );
    return rows;
  }

  async createPlan(auth: AuthContext, input: PlanInput): Promise<CataloguePlan> {
    this.requireAdmin(auth);
    const { rows } = await this.pool.query<{ id: number }>(
      `INSERT INTO plans (title, subscription_type, access_type, price_cents, search_count, price_description,
              installment_eligible, maintenance_fee_cents, negotiable, includes_data_feed, term_months, sort_order, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
      planValues(input),
    );
    return this.plan(rows[0]?.id ?? 0);
  }

  /**
   * Changes a plan. Subscriptions already bought keep what they were sold; the change applies
   * to what is priced from now on.
   */
  async updatePlan(auth: AuthContext, id: number, input: PlanInput): Promise<CataloguePlan> {
    this.requireAdmin(auth);
    const { rowCount } = await this.pool.query(
      `UPDATE plans SET title = $1, subscription_type = $2, access_type = $3, price_cents = $4, search_count = $5,
              price_description = $6, installment_eligible = $7, maintenance_fee_cents = $8, negotiable = $9,
              includes_data_feed = $10, term_months = $11, sort_order = $12, active = $13
        WHERE id = $14`,
      [...planValues(input), id],
    );
    if (!rowCount) throw notFound('No plan has this id.');
    return this.plan(id);
  }

  private async plan(id: number): Promise<CataloguePlan> {
    const { rows } = await this.pool.query<CataloguePlan>(`${PLAN_SELECT} WHERE p.id = $1`, [id]);
    if (!rows[0]) throw notFound('No plan has this id.');
    return rows[0];
  }

  // ---- Coupons ------------------------------------------------------------------------------

  async coupons(auth: AuthContext): Promise<CatalogueCoupon[]> {
    this.requireAdmin(auth);
    const { rows } = await this.pool.query<CouponRow>(
      `${COUPON_SELECT} ORDER BY c.active DESC, c.code`,
    );
    return rows.map(couponOf);
  }

  async createCoupon(auth: AuthContext, input: CouponInput): Promise<CatalogueCoupon> {
    this.requireAdmin(auth);
    try {
      // The window is checked where the start is known, in the statement that writes it.
      const { rows } = await this.pool.query<{ id: number }>(
        `INSERT INTO coupons (code, percent, valid_from, valid_to, max_uses, max_uses_per_user, active)
         SELECT $1, $2, coalesce($3::timestamptz, now()), $4, $5, $6, $7
          WHERE $4::timestamptz IS NULL OR $4::timestamptz > coalesce($3::timestamptz, now())
         RETURNING id`,
        [
          input.code,
          input.percent,
          input.validFrom,
          input.validTo,
          input.maxUses,
          input.maxUsesPerUser,
          input.active,
        ],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw fieldError('validTo', 'window', COUPON_WINDOW_MESSAGES.afterNow);
      return await this.coupon(id);
    } catch (error) {
      if (uniqueViolationOf(error) !== null) throw codeTaken(input.code);
      throw error;
    }
  }

  /** Changes a coupon; without validFrom its start stays as it was. */
  async updateCoupon(auth: AuthContext, id: number, input: CouponInput): Promise<CatalogueCoupon> {
    this.requireAdmin(auth);
    try {
      const { rowCount } = await this.pool.query(
        `UPDATE coupons SET code = $2, percent = $3, valid_from = coalesce($4::timestamptz, valid_from),
                valid_to = $5, max_uses = $6, max_uses_per_user = $7, active = $8
          WHERE id = $1
            AND ($5::timestamptz IS NULL OR $5::timestamptz > coalesce($4::timestamptz, valid_from))`,
        [
          id,
          input.code,
          input.percent,
          input.validFrom,
          input.validTo,
          input.maxUses,
          input.maxUsesPerUser,
          input.active,
        ],
      );
      if (!rowCount) {
        await this.coupon(id); // 404 when there is no such coupon
        throw fieldError('validTo', 'window', COUPON_WINDOW_MESSAGES.afterStart);
      }
    } catch (error) {
      if (uniqueViolationOf(error) !== null) throw codeTaken(input.code);
      throw error;
    }
    return this.coupon(id);
  }

  /** Stops a coupon applying; it is kept because paid orders name it. */
  async deactivateCoupon(auth: AuthContext, id: number): Promise<CatalogueCoupon> {
    this.requireAdmin(auth);
    const { rowCount } = await this.pool.query(`UPDATE coupons SET active = false WHERE id = $1`, [
      id,
    ]);
    if (!rowCount) throw notFound('No coupon has this id.');
    return this.coupon(id);
  }

  private async coupon(id: number): Promise<CatalogueCoupon> {
    const { rows } = await this.pool.query<CouponRow>(`${COUPON_SELECT} WHERE c.id = $1`, [id]);
    if (!rows[0]) throw notFound('No coupon has this id.');
    return couponOf(rows[0]);
  }

  // ---- Custom offers ------------------------------------------------------------------------

  async offers(auth: AuthContext): Promise<CatalogueOffer[]> {
    this.requireAdmin(auth);
    const { rows } = await this.pool.query<OfferRow>(
      `${OFFER_SELECT} ORDER BY o.created_at DESC, o.id DESC`,
    );
    return rows.map(offerOf);
  }

  /** Offers an account a price for a plan: a state plan's offer names its state, others none. */
  async createOffer(auth: AuthContext, input: CustomOfferInput): Promise<CatalogueOffer> {
    this.requireAdmin(auth);
    const { rows: users } = await this.pool.query<{ id: string; confirmed: boolean }>(
      `SELECT id, email_confirmed AS confirmed FROM users WHERE lower(email) = $1`,
      [input.email],
    );
    const user = users[0];
    if (!user) throw fieldError('email', 'custom', `No account has the e-mail ${input.email}.`);
    // Anyone can sign up with an address: until its owner has confirmed it, the account may not
    // be the customer the price was agreed with (as an organisation's members, ADR 0015).
    if (!user.confirmed)
      throw fieldError(
        'email',
        'custom',
        `The account with the e-mail ${input.email} has not confirmed its address yet: ask them to use the link we sent, then make the offer.`,
      );
    // An offer that has ended before it was made could never be bought.
    if (input.expiresAt !== null && Date.parse(input.expiresAt) <= Date.now())
      throw fieldError('expiresAt', 'custom', 'expiresAt must be in the future.');
    const { rows: plans } = await this.pool.query<{ accessType: string; title: string }>(
      `SELECT access_type AS "accessType", title FROM plans WHERE id = $1`,
      [input.planId],
    );
    const plan = plans[0];
    if (!plan) throw fieldError('planId', 'custom', `No plan has id ${input.planId}.`);
    if (plan.accessType === 'State') {
      if (!input.stateCode)
        throw fieldError('stateCode', 'required', `Choose the state of the ${plan.title} offer.`);
      const { rowCount } = await this.pool.query(`SELECT 1 FROM states WHERE code = $1`, [
        input.stateCode,
      ]);
      if (!rowCount)
        throw fieldError('stateCode', 'custom', `${input.stateCode} is not a state we know.`);
    } else if (input.stateCode) {
      throw fieldError('stateCode', 'custom', `${plan.title} is not sold per state.`);
    }
    const { rows } = await this.pool.query<{ id: number }>(
      `INSERT INTO custom_offers (user_id, plan_id, state_code, price_cents, note, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [user.id, input.planId, input.stateCode, input.priceCents, input.note, input.expiresAt],
    );
    return this.offer(rows[0]?.id ?? 0);
  }

  /**
   * Withdraws an offer. One an order was placed for stays as the order's record and is expired
   * instead, so the account no longer sees it.
   */
  async removeOffer(auth: AuthContext, id: number): Promise<void> {
    this.requireAdmin(auth);
    const { rowCount } = await this.pool.query(
      `WITH ordered AS (SELECT 1 FROM order_items WHERE custom_offer_id = $1 LIMIT 1),
            expired AS (
              UPDATE custom_offers SET expires_at = least(coalesce(expires_at, now()), now())
               WHERE id = $1 AND EXISTS (SELECT 1 FROM ordered) RETURNING id),
            deleted AS (
              DELETE FROM custom_offers WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM ordered) RETURNING id)
       SELECT id FROM expired UNION ALL SELECT id FROM deleted`,
      [id],
    );
    if (!rowCount) throw notFound('No custom offer has this id.');
  }

  private async offer(id: number): Promise<CatalogueOffer> {
    const { rows } = await this.pool.query<OfferRow>(`${OFFER_SELECT} WHERE o.id = $1`, [id]);
    if (!rows[0]) throw notFound('No custom offer has this id.');
    return offerOf(rows[0]);
  }
}
