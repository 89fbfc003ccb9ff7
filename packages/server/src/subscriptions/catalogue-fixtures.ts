import { randomUUID } from 'node:crypto';
import type { Pool } from '@ratelens/db';

/*
 * Test data for the catalogue's integration tests, written straight into the tables the ingester
 * and the payments area fill.
 */

/** Alabama: 3 current files of 4 hospitals (one file failed, one was replaced); Alaska: 1 of 1; Massachusetts: none. */
export const LOADED = {
  AL: { files: 3, hospitals: 4 },
  AK: { files: 1, hospitals: 1 },
  MA: { files: 0, hospitals: 0 },
  all: { files: 4, hospitals: 5 },
} as const;

export async function seedStatesAndFiles(pool: Pool): Promise<void> {
  await pool.query(
    `INSERT INTO states (code, name, fips) VALUES ('AL', 'Alabama', '01'), ('AK', 'Alaska', '02'), ('MA', 'Massachusetts', '25')`,
  );
  const files: [hospital: string, state: string, statuses: string[]][] = [
    ['birmingham', 'AL', ['replaced', 'loaded']],
    ['mobile', 'AL', ['loaded']],
    ['huntsville', 'AL', ['loaded']],
    ['montgomery', 'AL', ['failed']],
    ['anchorage', 'AK', ['loaded']],
  ];
  for (const [key, state, statuses] of files) {
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO hospitals (source_key, name, state_code) VALUES ($1, $2, $3) RETURNING id`,
      [key, `${key} General Hospital`, state],
    );
    for (const status of statuses)
      await pool.query(`INSERT INTO mrf_files (hospital_id, source, status) VALUES ($1, $2, $3)`, [
        rows[0]?.id,
        `/data/${key}_standardcharges.json`,
        status,
      ]);
  }
}

/** The id of a seeded plan (migration 0007) by its title. */
export async function planIdOf(pool: Pool, title: string): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(`SELECT id FROM plans WHERE title = $1`, [
    title,
  ]);
  if (!rows[0]) throw new Error(`no plan ${title}`);
  return rows[0].id;
}

export async function seededPlans(pool: Pool) {
  return {
    stateAnnual: await planIdOf(pool, 'State Negotiated Rates'),
    stateMedicare: await planIdOf(pool, 'State Rates with Medicare Pricing'),
    stateMonthly: await planIdOf(pool, 'State Negotiated Rates, Monthly'),
    allStates: await planIdOf(pool, 'All States'),
    search5: await planIdOf(pool, 'Individual Search 5'),
    search15: await planIdOf(pool, 'Individual Search 15'),
  };
}

export interface HeldSubscription {
  userId: string;
  planId: number | null;
  stateCode?: string | null;
  kind?: 'state' | 'individual-search';
  subscriptionType?: string;
  expiresInHours?: number;
  remaining?: number;
  paymentProfileId?: string | null;
  autoRenewal?: boolean;
}

export async function holdSubscription(pool: Pool, s: HeldSubscription): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO subscriptions (user_id, plan_id, kind, state_code, subscription_type, total_search_count,
            remaining_search_count, starts_at, expires_at, payment_profile_id, auto_renewal)
     VALUES ($1, $2, $3, $4, $5, $6, $6, now() - interval '30 days', now() + make_interval(hours => $7), $8, $9)
     RETURNING id`,
    [
      s.userId,
      s.planId,
      s.kind ?? 'state',
      s.stateCode ?? null,
      s.subscriptionType ?? 'Annual',
      s.remaining ?? 0,
      s.expiresInHours ?? 24 * 365,
      s.paymentProfileId ?? null,
      s.autoRenewal ?? false,
    ],
  );
  return rows[0]?.id ?? '';
}

export async function paymentProfile(pool: Pool, userId: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO payment_profiles (user_id, gateway, customer_profile_id, payment_profile_id, account_type, last4)
     VALUES ($1, 'fake', 'cust-1', 'pay-1', 'Visa', '1111') RETURNING id`,
    [userId],
  );
  return rows[0]?.id ?? '';
}

export interface CouponRow {
  code: string;
  percent: number;
  validFromDays?: number;
  validToDays?: number | null;
  maxUses?: number | null;
  maxUsesPerUser?: number | null;
  active?: boolean;
}

/** A coupon valid from `validFromDays` (default −1) to `validToDays` (default +30) days from now. */
export async function addCoupon(pool: Pool, c: CouponRow): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO coupons (code, percent, valid_from, valid_to, max_uses, max_uses_per_user, active)
     VALUES ($1, $2, now() + make_interval(days => $3), now() + make_interval(days => $4), $5, $6, $7)
     RETURNING id`,
    [
      c.code,
      c.percent,
      c.validFromDays ?? -1,
      c.validToDays === undefined ? 30 : c.validToDays,
      c.maxUses ?? null,
      c.maxUsesPerUser ?? null,
      c.active ?? true,
    ],
  );
  return rows[0]?.id ?? 0;
}

/** An order of `userId` that used the coupon, in the given status. */
export async function orderWithCoupon(
  pool: Pool,
  userId: string,
  couponId: number,
  status: 'paid' | 'pending' | 'declined' = 'paid',
): Promise<string> {
  const key = randomUUID();
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO orders (user_id, kind, idempotency_scope, idempotency_key, request_hash, status, method,
            amount_cents, coupon_id, email, gateway, invoice_number)
     VALUES ($1, 'subscription', $2, $3, 'hash', $4, 'card', 1000, $5, 'buyer@example.com', 'fake', $3)
     RETURNING id`,
    [userId, `user:${userId}`, key, status, couponId],
  );
  return rows[0]?.id ?? '';
}

export async function addOffer(
  pool: Pool,
  o: {
    userId: string;
    planId: number;
    stateCode?: string | null;
    priceCents: number;
    expiresInDays?: number;
  },
): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO custom_offers (user_id, plan_id, state_code, price_cents, expires_at)
     VALUES ($1, $2, $3, $4, CASE WHEN $5::int IS NULL THEN NULL ELSE now() + make_interval(days => $5::int) END)
     RETURNING id`,
    [o.userId, o.planId, o.stateCode ?? null, o.priceCents, o.expiresInDays ?? null],
  );
  return rows[0]?.id ?? 0;
}
