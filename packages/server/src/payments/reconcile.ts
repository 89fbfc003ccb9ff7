import { PAYMENT_MESSAGES } from '@ratelens/core';
import type { Pool } from '@ratelens/db';
import type { PaymentGateway } from './gateway.ts';
import { noAnswer, isGatewayError, outcomeOfLookup } from './outcomes.ts';
import { reconcilableOrders, type OrderRow, type StoredReply } from './orders.ts';
import { settleOrder } from './settlement.ts';

/*
 * Reconciliation (issue 5 point 5): an order whose gateway call timed out stays pending; this
 * looks its invoice up at the gateway and settles it as the gateway recorded it. An invoice the
 * gateway still has no record of after NOT_FOUND_AFTER_MS never reached it: the order failed.
 */

/** How long after its creation an order the gateway does not know is taken as never charged. */
export const NOT_FOUND_AFTER_MS = 15 * 60_000;
/** An order still without a reply this long after its call's timeout was abandoned (a crash). */
export const ABANDONED_AFTER_MS = 30_000;

export interface ReconcileSummary {
  settled: number;
  stillPending: number;
}

export function failureTextOf(order: Pick<OrderRow, 'kind'>): string {
  return order.kind === 'donation'
    ? PAYMENT_MESSAGES.donationFailed
    : PAYMENT_MESSAGES.paymentFailed;
}

/** Settles one pending order from the gateway's records; null while its outcome is unknown. */
export async function reconcileOrder(
  pool: Pool,
  gateway: PaymentGateway,
  order: OrderRow,
  now: Date,
): Promise<StoredReply | null> {
  let lookup;
  try {
    lookup = await gateway.findByInvoice(order.invoiceNumber);
  } catch (error) {
    if (isGatewayError(error)) return null;
    throw error;
  }
  const failureText = failureTextOf(order);
  if (lookup) {
    const outcome = outcomeOfLookup(order, lookup, failureText);
    return outcome ? settleOrder(pool, gateway.name, order.id, outcome, now) : null;
  }
  if (now.getTime() - order.createdAt.getTime() < NOT_FOUND_AFTER_MS) return null;
  return settleOrder(
    pool,
    gateway.name,
    order.id,
    {
      status: 'failed',
      httpStatus: 502,
      answer: noAnswer('GATEWAY_NO_RECORD', failureText),
      transactionId: null,
      profile: null,
    },
    now,
  );
}

/** Every pending order whose call has ended (or was abandoned), optionally of one scope. */
export async function reconcilePending(
  pool: Pool,
  gateway: PaymentGateway,
  now: Date,
  options: {
    gatewayTimeoutMs: number;
    scope?: string;
    /** With `scope`: the renewals of this account too (a checkout refuses while one is pending). */
    renewalsOf?: string;
    /** Look up no further order: those left stay pending until the next reconciliation. */
    signal?: AbortSignal;
  },
): Promise<ReconcileSummary> {
  const abandonedBefore = new Date(now.getTime() - options.gatewayTimeoutMs - ABANDONED_AFTER_MS);
  const summary: ReconcileSummary = { settled: 0, stillPending: 0 };
  const orders = await reconcilableOrders(pool, abandonedBefore, options.scope, options.renewalsOf);
  for (const order of orders) {
    if (options.signal?.aborted) break;
    const reply = await reconcileOrder(pool, gateway, order, now);
    if (reply) summary.settled += 1;
    else summary.stillPending += 1;
  }
  return summary;
}
