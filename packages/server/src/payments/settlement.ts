import { installmentSchedule, type PaymentResponse } from '@ratelens/core';
import { inTransaction, type Pool, type PoolClient } from '@ratelens/db';
import { RENEWAL_GRACE_MS } from '../oobrates/entitlements.ts';
import type { GatewayAnswer, StoredProfile } from './gateway.ts';
import {
  auditPayment,
  insertPaymentProfile,
  lockOrder,
  orderItems,
  updateOrder,
  type OrderItemRow,
  type OrderRow,
  type OrderStatus,
  type StoredReply,
} from './orders.ts';

/*
 * Settling an order: its status, the answer the client gets, and for a paid order everything the
 * payment buys, in one transaction that takes the order row once. The payment call, the
 * reconciliation after a timeout and the renewal job all settle through here, so a paid order is
 * applied exactly once whichever of them learns the outcome first (issue 5 point 5).
 */

export interface Outcome {
  status: OrderStatus;
  httpStatus: number;
  answer: GatewayAnswer;
  transactionId: string | null;
  /** The stored gateway profile created with an approved charge. */
  profile: StoredProfile | null;
}

interface PlanTerms {
  searchCount: number | null;
  accessType: string;
  subscriptionType: string;
  termMonths: number;
}

export function replyOf(order: OrderRow, outcome: Outcome): StoredReply {
  const body: PaymentResponse = {
    ...outcome.answer,
    orderId: order.id,
    orderStatus: outcome.status,
    amountCents: order.amountCents,
  };
  return { httpStatus: outcome.httpStatus, body };
}

/**
 * Records the outcome of a pending order and, when it is paid, applies it. An order settled
 * already (by a concurrent request or by reconciliation) is left as it is; its reply is returned.
 */
export async function settleOrder(
  pool: Pool,
  gateway: string,
  orderId: string,
  outcome: Outcome,
  now: Date,
): Promise<StoredReply> {
  return inTransaction(pool, (client) => settleOrderIn(client, gateway, orderId, outcome, now));
}

/**
 * settleOrder within a transaction the caller holds: an order that costs nothing is recorded and
 * settled in one, so it is never left pending for reconciliation to look for at a gateway.
 */
export async function settleOrderIn(
  client: PoolClient,
  gateway: string,
  orderId: string,
  outcome: Outcome,
  now: Date,
): Promise<StoredReply> {
  const order = await lockOrder(client, orderId);
  if (!order) throw new Error(`order ${orderId} vanished`);
  const reply = replyOf(order, outcome);
  if (order.status !== 'pending') return order.reply ?? reply;
  await updateOrder(client, order.id, {
    status: outcome.status,
    transactionId: outcome.transactionId,
    reply,
  });
  if (outcome.status === 'pending') return reply;
  if (outcome.status === 'paid') await applyPaid(client, gateway, order, outcome, now);
  else if (order.kind === 'installment')
    await client.query(
      `UPDATE installments SET status = 'failed', attempts = attempts + 1 WHERE order_id = $1`,
      [order.id],
    );
  await auditPayment(client, order.userId, `payment.${outcome.status}`, {
    orderId: order.id,
    kind: order.kind,
    amountCents: order.amountCents,
    ...(outcome.transactionId ? { transactionId: outcome.transactionId } : {}),
  });
  return reply;
}

async function applyPaid(
  client: PoolClient,
  gateway: string,
  order: OrderRow,
  outcome: Outcome,
  now: Date,
): Promise<void> {
  switch (order.kind) {
    case 'donation':
      return;
    case 'installment':
      await client.query(
        `UPDATE installments SET status = 'paid', paid_at = $2, attempts = attempts + 1 WHERE order_id = $1`,
        [order.id, now],
      );
      return;
    case 'subscription': {
      if (!order.userId) throw new Error(`subscription order ${order.id} has no account`);
      const profileId =
        outcome.profile && order.accountType && order.last4
          ? await insertPaymentProfile(client, {
              userId: order.userId,
              gateway,
              ...outcome.profile,
              accountType: order.accountType,
              last4: order.last4,
            })
          : null;
      for (const item of await orderItems(client, order.id))
        await activate(client, order, item, profileId, now);
      return;
    }
    case 'renewal':
      for (const item of await orderItems(client, order.id)) await extend(client, order, item, now);
      return;
  }
}

async function termsOf(client: PoolClient, planId: number): Promise<PlanTerms> {
  const { rows } = await client.query<PlanTerms>(
    `SELECT search_count AS "searchCount", access_type AS "accessType",
            subscription_type AS "subscriptionType", term_months AS "termMonths"
       FROM plans WHERE id = $1`,
    [planId],
  );
  const terms = rows[0];
  if (!terms) throw new Error(`plan ${planId} vanished`);
  return terms;
}

const isIndividualSearch = (terms: PlanTerms) =>
  terms.accessType !== 'State' && terms.searchCount !== null;

/**
 * A new subscription for a paid line. Buying searches within 24 hours of an earlier pack's
 * expiry carries its remaining searches forward (the spec's expired-subscription message), and
 * that pack is no longer renewed. Auto-renewal is on when a payment profile was stored: the
 * sign-up terms renew subscriptions unless notice is given (subscriptions-and-payments §1).
 */
async function activate(
  client: PoolClient,
  order: OrderRow,
  item: OrderItemRow,
  profileId: string | null,
  now: Date,
): Promise<void> {
  const terms = await termsOf(client, item.planId);
  const individual = isIndividualSearch(terms);
  let carried = 0;
  if (individual) {
    const { rows } = await client.query<{ remaining: number }>(
      `WITH lapsed AS (
         SELECT id, remaining_search_count FROM subscriptions
          WHERE user_id = $1 AND kind = 'individual-search' AND remaining_search_count > 0
            AND expires_at <= $2 AND expires_at > $3
          FOR UPDATE)
       UPDATE subscriptions s SET remaining_search_count = 0, auto_renewal = false
         FROM lapsed WHERE s.id = lapsed.id
       RETURNING lapsed.remaining_search_count AS remaining`,
      [order.userId, now, new Date(now.getTime() - RENEWAL_GRACE_MS)],
    );
    carried = rows.reduce((sum, row) => sum + row.remaining, 0);
  }
  const searches = individual ? (terms.searchCount ?? 0) + carried : 0;
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO subscriptions (user_id, kind, state_code, subscription_type, total_search_count,
            remaining_search_count, starts_at, expires_at, auto_renewal, plan_id, installment, payment_profile_id)
     VALUES ($1, $2, $3, $4, $5, $5, $6, $6::timestamptz + make_interval(months => $7), $8, $9, $10, $11)
     RETURNING id`,
    [
      order.userId,
      individual ? 'individual-search' : 'state',
      item.stateCode,
      terms.subscriptionType,
      searches,
      now,
      terms.termMonths,
      profileId !== null,
      item.planId,
      item.installment,
      profileId,
    ],
  );
  const subscriptionId = rows[0]?.id;
  if (!subscriptionId) throw new Error('subscription insert returned nothing');
  await client.query(`UPDATE order_items SET subscription_id = $2 WHERE id = $1`, [
    item.id,
    subscriptionId,
  ]);
  if (item.installment) await schedule(client, subscriptionId, order.id, item, now, 1, now);
}

/**
 * A renewal: the subscription runs another term from its expiry (from now when renewed after
 * the grace), and within the grace its remaining searches carry forward.
 */
async function extend(
  client: PoolClient,
  order: OrderRow,
  item: OrderItemRow,
  now: Date,
): Promise<void> {
  if (!item.subscriptionId) throw new Error(`renewal order ${order.id} names no subscription`);
  const terms = await termsOf(client, item.planId);
  const { rows } = await client.query<{ expiresAt: Date; remaining: number; installment: boolean }>(
    `SELECT expires_at AS "expiresAt", remaining_search_count AS remaining, installment
       FROM subscriptions WHERE id = $1 FOR UPDATE`,
    [item.subscriptionId],
  );
  const current = rows[0];
  if (!current) throw new Error(`subscription ${item.subscriptionId} vanished`);
  const withinGrace = now.getTime() - current.expiresAt.getTime() < RENEWAL_GRACE_MS;
  const base = withinGrace ? current.expiresAt : now;
  const searches = isIndividualSearch(terms)
    ? (terms.searchCount ?? 0) + (withinGrace ? current.remaining : 0)
    : 0;
  await client.query(
    `UPDATE subscriptions SET starts_at = $2, expires_at = $2::timestamptz + make_interval(months => $3),
            total_search_count = $4, remaining_search_count = $4
      WHERE id = $1`,
    [item.subscriptionId, base, terms.termMonths, searches],
  );
  if (current.installment) {
    const { rows: last } = await client.query<{ seq: number }>(
      `SELECT coalesce(max(seq), 0)::int AS seq FROM installments WHERE subscription_id = $1`,
      [item.subscriptionId],
    );
    await schedule(client, item.subscriptionId, order.id, item, base, (last[0]?.seq ?? 0) + 1, now);
  }
}

/** The 12 monthly payments of an installment line: the first paid by this order, the rest due monthly. */
async function schedule(
  client: PoolClient,
  subscriptionId: string,
  orderId: string,
  item: OrderItemRow,
  from: Date,
  firstSeq: number,
  paidAt: Date,
): Promise<void> {
  const amounts = installmentSchedule(item.finalPriceCents, item.maintenanceCents);
  for (const [index, amountCents] of amounts.entries()) {
    const paid = index === 0;
    await client.query(
      `INSERT INTO installments (subscription_id, seq, due_on, amount_cents, status, order_id, attempts, paid_at)
       VALUES ($1, $2, (($3::timestamptz AT TIME ZONE 'UTC') + make_interval(months => $4))::date, $5, $6, $7, $8, $9)`,
      [
        subscriptionId,
        firstSeq + index,
        from,
        index,
        amountCents,
        paid ? 'paid' : 'due',
        paid ? orderId : null,
        paid ? 1 : 0,
        paid ? paidAt : null,
      ],
    );
  }
}
