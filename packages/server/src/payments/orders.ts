import type { PaymentResponse } from '@ratelens/core';
import type { PoolClient, Queryable } from '@ratelens/db';

/*
 * Orders, their priced lines and the installment and profile rows a paid order creates
 * (schema-payments.ts). Raw SQL, executor first, so the same function runs inside the
 * settlement transaction or outside it.
 */

export type OrderKind = 'subscription' | 'donation' | 'installment' | 'renewal';
export type OrderStatus = PaymentResponse['orderStatus'];
/** `none`: an order that cost nothing and was paid with nothing (ADR 0017). */
export type OrderMethod = 'card' | 'echeck' | 'profile' | 'none';

/** What the client received for an order, with the HTTP status it came with. */
export interface StoredReply {
  httpStatus: number;
  body: PaymentResponse;
}

export interface OrderRow {
  id: string;
  userId: string | null;
  kind: OrderKind;
  idempotencyScope: string;
  requestHash: string;
  status: OrderStatus;
  method: OrderMethod;
  amountCents: number;
  couponId: number | null;
  email: string;
  accountType: string | null;
  last4: string | null;
  invoiceNumber: string;
  transactionId: string | null;
  reply: StoredReply | null;
  createdAt: Date;
}

export interface NewOrder {
  userId: string | null;
  kind: OrderKind;
  scope: string;
  key: string;
  requestHash: string;
  method: OrderMethod;
  amountCents: number;
  couponId: number | null;
  email: string;
  /** Null when nothing was charged. */
  accountType: string | null;
  last4: string | null;
  gateway: string;
  invoiceNumber: string;
}

export interface NewOrderItem {
  planId: number;
  customOfferId: number | null;
  stateCode: string | null;
  installment: boolean;
  fileCount: number;
  unitPriceCents: number;
  totalPriceCents: number;
  discountCents: number;
  finalPriceCents: number;
  installmentCents: number;
  maintenanceCents: number;
  dueTodayCents: number;
  /** Set for a renewal: the subscription it extends. */
  subscriptionId: string | null;
}

export interface OrderItemRow extends NewOrderItem {
  id: string;
}

const ORDER_COLUMNS = `o.id, o.user_id AS "userId", o.kind, o.idempotency_scope AS "idempotencyScope",
  o.request_hash AS "requestHash", o.status, o.method, o.amount_cents::float8 AS "amountCents",
  o.coupon_id AS "couponId", o.email, o.account_type AS "accountType", o.last4,
  o.invoice_number AS "invoiceNumber", o.transaction_id AS "transactionId", o.response AS reply,
  o.created_at AS "createdAt"`;

const ITEM_COLUMNS = `i.id, i.plan_id AS "planId", i.custom_offer_id AS "customOfferId",
  i.state_code AS "stateCode", i.installment, i.file_count AS "fileCount",
  i.unit_price_cents::float8 AS "unitPriceCents", i.total_price_cents::float8 AS "totalPriceCents",
  i.discount_cents::float8 AS "discountCents", i.final_price_cents::float8 AS "finalPriceCents",
  i.installment_cents::float8 AS "installmentCents", i.maintenance_cents::float8 AS "maintenanceCents",
  i.due_today_cents::float8 AS "dueTodayCents", i.subscription_id AS "subscriptionId"`;

export async function findOrder(db: Queryable, id: string): Promise<OrderRow | null> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findOrderByKey(
  db: Queryable,
  scope: string,
  key: string,
): Promise<OrderRow | null> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.idempotency_scope = $1 AND o.idempotency_key = $2`,
    [scope, key],
  );
  return rows[0] ?? null;
}

/** The order, locked until the transaction ends (settlement takes it once). */
export async function lockOrder(client: PoolClient, id: string): Promise<OrderRow | null> {
  const { rows } = await client.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * Inserts a pending order and its lines; null when the scope already has an order under this
 * idempotency key (the unique index decides, so two concurrent requests cannot both insert).
 */
export async function insertOrder(
  client: PoolClient,
  order: NewOrder,
  items: readonly NewOrderItem[] = [],
): Promise<OrderRow | null> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO orders (user_id, kind, idempotency_scope, idempotency_key, request_hash, status, method,
            amount_cents, coupon_id, email, account_type, last4, gateway, invoice_number)
     VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (idempotency_scope, idempotency_key) DO NOTHING
     RETURNING id`,
    [
      order.userId,
      order.kind,
      order.scope,
      order.key,
      order.requestHash,
      order.method,
      order.amountCents,
      order.couponId,
      order.email,
      order.accountType,
      order.last4,
      order.gateway,
      order.invoiceNumber,
    ],
  );
  const id = rows[0]?.id;
  if (!id) return null;
  for (const item of items)
    await client.query(
      `INSERT INTO order_items (order_id, plan_id, custom_offer_id, state_code, installment, file_count,
              unit_price_cents, total_price_cents, discount_cents, final_price_cents, installment_cents,
              maintenance_cents, due_today_cents, subscription_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        id,
        item.planId,
        item.customOfferId,
        item.stateCode,
        item.installment,
        item.fileCount,
        item.unitPriceCents,
        item.totalPriceCents,
        item.discountCents,
        item.finalPriceCents,
        item.installmentCents,
        item.maintenanceCents,
        item.dueTodayCents,
        item.subscriptionId,
      ],
    );
  return findOrder(client, id);
}

export async function orderItems(db: Queryable, orderId: string): Promise<OrderItemRow[]> {
  const { rows } = await db.query<OrderItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM order_items i WHERE i.order_id = $1 ORDER BY i.id`,
    [orderId],
  );
  return rows;
}

/** Records the outcome the client received (and, once known, the final status). */
export async function updateOrder(
  db: Queryable,
  id: string,
  change: { status: OrderStatus; transactionId: string | null; reply: StoredReply },
): Promise<void> {
  await db.query(
    `UPDATE orders SET status = $2, transaction_id = coalesce($3, transaction_id), response = $4,
            updated_at = now()
      WHERE id = $1`,
    [id, change.status, change.transactionId, JSON.stringify(change.reply)],
  );
}

/**
 * Pending orders whose outcome is for reconciliation to find: their call has ended (a timeout
 * or a held transaction stored its reply) or was abandoned (no reply after `abandonedBefore`).
 */
export async function reconcilableOrders(
  db: Queryable,
  abandonedBefore: Date,
  scope?: string,
  renewalsOf?: string,
): Promise<OrderRow[]> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders o
      WHERE o.status = 'pending' AND (o.response IS NOT NULL OR o.created_at < $1)
        AND ($2::text IS NULL OR o.idempotency_scope = $2
             OR (o.kind = 'renewal' AND o.user_id = $3::uuid))
      ORDER BY o.created_at
      LIMIT 500`,
    [abandonedBefore, scope ?? null, renewalsOf ?? null],
  );
  return rows;
}

/** A pending order of the scope, if any: in flight (no reply yet) or waiting for reconciliation. */
export async function pendingOrderIn(db: Queryable, scope: string): Promise<OrderRow | null> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.idempotency_scope = $1 AND o.status = 'pending'
      ORDER BY o.created_at DESC LIMIT 1`,
    [scope],
  );
  return rows[0] ?? null;
}

/**
 * A pending order of the account, of one of `kinds`, in any scope: a renewal the job is charging,
 * a checkout being paid. Each side looks for the other's under the account's lock (`user:{id}`),
 * so that a plan is never bought and renewed at once (ADR 0017).
 */
export async function pendingOrderOfUser(
  db: Queryable,
  userId: string,
  kinds: readonly OrderKind[],
): Promise<OrderRow | null> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders o
      WHERE o.user_id = $1 AND o.status = 'pending' AND o.kind = ANY($2::text[])
      ORDER BY o.created_at DESC LIMIT 1`,
    [userId, kinds],
  );
  return rows[0] ?? null;
}

/** Serialises order creation within a scope for the rest of the transaction. */
export async function lockScope(client: PoolClient, scope: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [scope]);
}

export async function insertPaymentProfile(
  db: Queryable,
  profile: {
    userId: string;
    gateway: string;
    customerProfileId: string;
    paymentProfileId: string;
    accountType: string;
    last4: string;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO payment_profiles (user_id, gateway, customer_profile_id, payment_profile_id, account_type, last4)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      profile.userId,
      profile.gateway,
      profile.customerProfileId,
      profile.paymentProfileId,
      profile.accountType,
      profile.last4,
    ],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('payment profile insert returned nothing');
  return id;
}

export async function auditPayment(
  db: Queryable,
  userId: string | null,
  action: string,
  detail: Record<string, unknown>,
): Promise<void> {
  await db.query(`INSERT INTO audit_log (user_id, action, detail) VALUES ($1, $2, $3)`, [
    userId,
    action,
    JSON.stringify(detail),
  ]);
}
