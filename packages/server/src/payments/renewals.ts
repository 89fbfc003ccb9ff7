import { inTransaction, type Pool, type PoolClient } from '@ratelens/db';
import { errorMessage, PAYMENT_MESSAGES, type CartItem } from '@ratelens/core';
import { AppError } from '../http/errors.ts';
import { RENEWAL_GRACE_MS } from '../oobrates/entitlements.ts';
import { Catalogue } from '../subscriptions/catalogue.ts';
import type { PaymentGateway, StoredProfile } from './gateway.ts';
import {
  findOrderByKey,
  insertOrder,
  lockScope,
  pendingOrderOfUser,
  type NewOrderItem,
  type OrderKind,
  type OrderRow,
  type OrderStatus,
} from './orders.ts';
import { isGatewayError, outcomeOfAnswer, outcomeOfError } from './outcomes.ts';
import { itemsOf, newInvoiceNumber } from './payment-service.ts';
import { reconcilePending, type ReconcileSummary } from './reconcile.ts';
import { settleOrder, type Outcome } from './settlement.ts';

/*
 * The renewal job (issue 5 point 6), run hourly by the background worker (worker/worker.ts, one
 * run at a time however many workers there are) and by `npm run renewals`. In order:
 *
 * 1. reconcile pending payments whose answer was lost;
 * 2. renew subscriptions with auto-renewal on that have expired within the 24-hour grace, charging
 *    their stored gateway profile (never card data) the catalogue's current price; within the
 *    grace the remaining searches carry forward (settlement.ts). A declined renewal leaves the
 *    subscription expired; each expiry is attempted once (its idempotency key);
 * 3. charge the installments that are due, with the same stored profile;
 * 4. end the grace of subscriptions expired more than 24 hours ago: their remaining searches lapse.
 *
 * Running it twice, or on two servers at once, charges nothing twice: every charge is an order
 * under a key (renewal:{subscription} + its expiry, installment:{id}).
 */

export interface RenewalSummary {
  reconciled: ReconcileSummary;
  renewals: Record<OrderStatus | 'skipped', number>;
  installments: Record<OrderStatus | 'skipped', number>;
  /** Subscriptions whose grace ended this run (remaining searches lapsed). */
  expired: number;
  /**
   * Why the run stopped before its end (the worker stopping, the job's time limit near), or null:
   * the charges it did not start, and the graces it did not end, are for the next run.
   */
  stoppedBecause: string | null;
}

/** Where the job reports: the server's logger, or the console of `npm run renewals`. */
export interface JobLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface RenewalOptions {
  gatewayTimeoutMs?: number;
  log?: JobLog;
  /**
   * Start no further charge (the worker is stopping, or the job's hour nears): the one at hand
   * ends, its order settled; the rest, still due within the grace, and the graces that ended are
   * for the next run.
   */
  signal?: AbortSignal;
}

interface ProfileRow extends StoredProfile {
  userId: string;
  email: string;
  accountType: string;
  last4: string;
}

interface DueRenewal extends ProfileRow {
  subscriptionId: string;
  planId: number;
  stateCode: string | null;
  installment: boolean;
  expiresAt: Date;
  customOfferId: number | null;
}

interface DueInstallment extends ProfileRow {
  installmentId: string;
  subscriptionId: string;
  seq: number;
  amountCents: number;
}

const PROFILE_COLUMNS = `s.user_id AS "userId", u.email, p.customer_profile_id AS "customerProfileId",
  p.payment_profile_id AS "paymentProfileId", p.account_type AS "accountType", p.last4`;

const counts = (): Record<OrderStatus | 'skipped', number> => ({
  paid: 0,
  declined: 0,
  failed: 0,
  pending: 0,
  skipped: 0,
});

export async function runRenewals(
  pool: Pool,
  gateway: PaymentGateway,
  now: Date = new Date(),
  options: RenewalOptions = {},
): Promise<RenewalSummary> {
  const { signal } = options;
  const gatewayTimeoutMs = options.gatewayTimeoutMs ?? 30_000;
  const reconciled = await reconcilePending(pool, gateway, now, { gatewayTimeoutMs, signal });
  const renewals = counts();
  const catalogue = new Catalogue(pool);
  for (const due of await dueRenewals(pool, now)) {
    if (signal?.aborted) break;
    const status = await renew(pool, gateway, catalogue, due, now, options);
    renewals[status] += 1;
  }
  const installments = counts();
  for (const due of await dueInstallments(pool, now)) {
    if (signal?.aborted) break;
    const status = await chargeInstallment(pool, gateway, due, now);
    installments[status] += 1;
  }
  if (signal?.aborted)
    return {
      reconciled,
      renewals,
      installments,
      expired: 0,
      stoppedBecause: errorMessage(signal.reason),
    };
  const { rowCount } = await pool.query(
    `UPDATE subscriptions SET remaining_search_count = 0
      WHERE remaining_search_count > 0 AND expires_at <= $1`,
    [new Date(now.getTime() - RENEWAL_GRACE_MS)],
  );
  return { reconciled, renewals, installments, expired: rowCount ?? 0, stoppedBecause: null };
}

async function dueRenewals(pool: Pool, now: Date): Promise<DueRenewal[]> {
  const { rows } = await pool.query<DueRenewal>(
    `SELECT s.id AS "subscriptionId", s.plan_id AS "planId", s.state_code AS "stateCode",
            s.installment, s.expires_at AS "expiresAt", ${PROFILE_COLUMNS},
            (SELECT i.custom_offer_id FROM order_items i WHERE i.subscription_id = s.id
              AND i.custom_offer_id IS NOT NULL LIMIT 1) AS "customOfferId"
       FROM subscriptions s
       JOIN payment_profiles p ON p.id = s.payment_profile_id
       JOIN users u ON u.id = s.user_id
      WHERE s.auto_renewal AND s.plan_id IS NOT NULL
        AND s.expires_at <= $1 AND s.expires_at > $2
      ORDER BY s.expires_at`,
    [now, new Date(now.getTime() - RENEWAL_GRACE_MS)],
  );
  return rows;
}

async function dueInstallments(pool: Pool, now: Date): Promise<DueInstallment[]> {
  const { rows } = await pool.query<DueInstallment>(
    `SELECT i.id AS "installmentId", i.subscription_id AS "subscriptionId", i.seq,
            i.amount_cents::float8 AS "amountCents", ${PROFILE_COLUMNS}
       FROM installments i
       JOIN subscriptions s ON s.id = i.subscription_id
       JOIN payment_profiles p ON p.id = s.payment_profile_id
       JOIN users u ON u.id = s.user_id
      WHERE i.status = 'due' AND i.order_id IS NULL
        AND i.due_on <= ($1::timestamptz AT TIME ZONE 'UTC')::date AND s.expires_at > $1
      ORDER BY i.due_on, i.seq`,
    [now],
  );
  return rows;
}

async function renew(
  pool: Pool,
  gateway: PaymentGateway,
  catalogue: Catalogue,
  due: DueRenewal,
  now: Date,
  options: RenewalOptions,
): Promise<OrderStatus | 'skipped'> {
  const scope = `renewal:${due.subscriptionId}`;
  const key = due.expiresAt.toISOString();
  if (await findOrderByKey(pool, scope, key)) return 'skipped';
  return chargeProfileOrder(pool, gateway, {
    kind: 'renewal',
    scope,
    key,
    due,
    description: 'RateLens subscription renewal',
    now,
    prepare: (client) => renewalOrder(client, catalogue, due, now, options),
  });
}

/**
 * What a renewal charges, decided in its order's transaction under the account's lock, the one a
 * checkout takes (`user:{id}`): null when it is not renewed. The subscription must still be due
 * with auto-renewal on (its row locked, so turning auto-renewal off waits for the order, and an
 * order waits for it); no checkout of the account may be being paid; and the renewal is priced
 * like a purchase at today's catalogue, so a plan no longer sold, or one the account has bought
 * again meanwhile, is not renewed. Before session 53 all this was read before the transaction: a
 * checkout paid during the job's run, or auto-renewal turned off, was not seen (ADR 0017).
 */
async function renewalOrder(
  client: PoolClient,
  catalogue: Catalogue,
  due: DueRenewal,
  now: Date,
  options: RenewalOptions,
): Promise<{ items: NewOrderItem[]; amountCents: number } | null> {
  const notRenewed = (reason: string) => {
    options.log?.warn({ subscriptionId: due.subscriptionId, reason }, 'subscription not renewed');
    return null;
  };
  await lockScope(client, `user:${due.userId}`);
  // The account's row before its subscription's, as a search and its refund take them: the
  // order's foreign key would otherwise want the account's row while a refund held it and waited
  // for the subscription's.
  await client.query(`SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, [due.userId]);
  const { rowCount } = await client.query(
    `SELECT 1 FROM subscriptions WHERE id = $1 AND auto_renewal AND expires_at <= $2 FOR UPDATE`,
    [due.subscriptionId, now],
  );
  if (!rowCount) return notRenewed('auto-renewal was turned off, or the subscription was extended');
  if (await pendingOrderOfUser(client, due.userId, ['subscription']))
    return notRenewed('a checkout of the account is being paid; the next run tries again');
  const item: CartItem = {
    subscriptionID: due.planId,
    state: due.stateCode ?? '',
    IsInstalmentPayment: due.installment,
    customOfferId: due.customOfferId,
  };
  try {
    const priced = await catalogue.priceCart(client, due.userId, [item], null, now);
    if (priced.dueTodayCents <= 0) return null;
    return {
      items: itemsOf(priced).map((line) => ({ ...line, subscriptionId: due.subscriptionId })),
      amountCents: priced.dueTodayCents,
    };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return notRenewed(error.message);
  }
}

async function chargeInstallment(
  pool: Pool,
  gateway: PaymentGateway,
  due: DueInstallment,
  now: Date,
): Promise<OrderStatus | 'skipped'> {
  return chargeProfileOrder(pool, gateway, {
    kind: 'installment',
    scope: `installment:${due.installmentId}`,
    key: 'charge',
    due,
    amountCents: due.amountCents,
    items: [],
    description: `RateLens installment ${due.seq}`,
    now,
    installmentId: due.installmentId,
  });
}

/**
 * A charge of a stored profile: the order under its key first, then the gateway, then settlement.
 * The amount and lines are given, or decided by `prepare` in the order's transaction (null: no
 * order, skipped).
 */
async function chargeProfileOrder(
  pool: Pool,
  gateway: PaymentGateway,
  charge: {
    kind: OrderKind;
    scope: string;
    key: string;
    due: ProfileRow;
    description: string;
    now: Date;
    installmentId?: string;
  } & (
    | { amountCents: number; items: NewOrderItem[]; prepare?: undefined }
    | {
        prepare: (
          client: PoolClient,
        ) => Promise<{ amountCents: number; items: NewOrderItem[] } | null>;
      }
  ),
): Promise<OrderStatus | 'skipped'> {
  const { due } = charge;
  const order = await inTransaction(pool, async (client): Promise<OrderRow | null> => {
    const prepared = charge.prepare ? await charge.prepare(client) : charge;
    if (!prepared) return null;
    await lockScope(client, charge.scope);
    const inserted = await insertOrder(
      client,
      {
        userId: due.userId,
        kind: charge.kind,
        scope: charge.scope,
        key: charge.key,
        requestHash: charge.key,
        method: 'profile',
        amountCents: prepared.amountCents,
        couponId: null,
        email: due.email,
        accountType: due.accountType,
        last4: due.last4,
        gateway: gateway.name,
        invoiceNumber: newInvoiceNumber(),
      },
      prepared.items,
    );
    if (inserted && charge.installmentId)
      await client.query(`UPDATE installments SET order_id = $2 WHERE id = $1`, [
        charge.installmentId,
        inserted.id,
      ]);
    return inserted;
  });
  if (!order) return 'skipped';
  let outcome: Outcome;
  try {
    outcome = outcomeOfAnswer(
      await gateway.chargeProfile({
        amountCents: order.amountCents,
        invoiceNumber: order.invoiceNumber,
        description: charge.description,
        profile: {
          customerProfileId: due.customerProfileId,
          paymentProfileId: due.paymentProfileId,
        },
      }),
      PAYMENT_MESSAGES.paymentFailed,
    );
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    outcome = outcomeOfError(error, PAYMENT_MESSAGES.paymentFailed);
  }
  const reply = await settleOrder(pool, gateway.name, order.id, outcome, charge.now);
  return reply.body.orderStatus;
}
