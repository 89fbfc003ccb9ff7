import { randomUUID } from 'node:crypto';
import type { LoginResponse, PaymentResponse } from '@ratelens/core';
import type { Pool } from '@ratelens/db';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { authHeaders } from '../test/app.ts';

/* Test data of the payment calls: the sandbox's documented test cards and accounts. */

export const VISA = '4111111111111111';
export const ACCOUNT_NUMBER = '000123456789';

export function card(number = VISA, overrides: Record<string, unknown> = {}) {
  return {
    cardType: number.startsWith('5')
      ? 'Master Card'
      : number.startsWith('3')
        ? 'American Express'
        : 'Visa',
    cardName: 'Ellen Johnson',
    cardNumber: number,
    expiryDate: `12/${new Date().getUTCFullYear() + 3}`,
    cvv: number.startsWith('3') ? '1234' : '123',
    ...overrides,
  };
}

export function bankAccount(overrides: Record<string, unknown> = {}) {
  return {
    routingNumber: '121042882',
    accountNumber: ACCOUNT_NUMBER,
    accountName: 'Ellen Johnson',
    bankName: 'Wells Fargo',
    accountType: '',
    ...overrides,
  };
}

export function billing(zipcode = '44628') {
  return {
    firstName: 'Ellen',
    lastName: 'Johnson',
    address: '14 Main Street',
    city: 'Pecan Springs',
    state: 'TX',
    zipcode,
    email: 'ellen@example.com',
  };
}

export const newKey = () => `checkout-${randomUUID()}`;

/** A payment call as `session`, under its own Idempotency-Key unless one is given. */
function postPayment(
  app: FastifyInstance,
  session: LoginResponse,
  url: string,
  payload: Record<string, unknown>,
  key: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    headers: { ...authHeaders(session), 'idempotency-key': key },
    payload,
  });
}

export function payCard(
  app: FastifyInstance,
  session: LoginResponse,
  body: Record<string, unknown>,
  key = newKey(),
): Promise<LightMyRequestResponse> {
  const payload = { paymentDetails: card(), billingAddress: billing(), ...body };
  return postPayment(app, session, '/api/Payment/CardPayment', payload, key);
}

export function payEcheck(
  app: FastifyInstance,
  session: LoginResponse,
  body: Record<string, unknown>,
  key = newKey(),
): Promise<LightMyRequestResponse> {
  const payload = { paymentDetails: bankAccount(), billingAddress: billing(), ...body };
  return postPayment(app, session, '/api/Payment/CeckPayment', payload, key);
}

/** `Payment/FreeOrder`: a cart a coupon takes the whole price of, with no payment details. */
export function orderFree(
  app: FastifyInstance,
  session: LoginResponse,
  body: Record<string, unknown>,
  key = newKey(),
): Promise<LightMyRequestResponse> {
  return postPayment(app, session, '/api/Payment/FreeOrder', body, key);
}

export const paid = (response: LightMyRequestResponse) => response.json<PaymentResponse>();

/** A national plan for tests, at a chosen price (the sandbox's amount triggers need whole dollars). */
export async function addPlan(
  pool: Pool,
  plan: { title: string; priceCents: number; searchCount?: number; termMonths?: number },
): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO plans (title, subscription_type, access_type, price_cents, search_count, term_months, sort_order)
     VALUES ($1, 'Individual Search', 'National', $2, $3, $4, 99) RETURNING id`,
    [plan.title, plan.priceCents, plan.searchCount ?? 5, plan.termMonths ?? 12],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('plan insert returned nothing');
  return id;
}

export interface SubscriptionState {
  id: string;
  expiresAt: Date;
  remaining: number;
  total: number;
  autoRenewal: boolean;
  paymentProfileId: string | null;
}

export async function subscriptionsOf(pool: Pool, userId: string): Promise<SubscriptionState[]> {
  const { rows } = await pool.query<SubscriptionState>(
    `SELECT id, expires_at AS "expiresAt", remaining_search_count AS remaining,
            total_search_count AS total, auto_renewal AS "autoRenewal", payment_profile_id AS "paymentProfileId"
       FROM subscriptions WHERE user_id = $1 ORDER BY created_at`,
    [userId],
  );
  return rows;
}

export async function ordersOf(pool: Pool, scope: string) {
  const { rows } = await pool.query<{
    id: string;
    status: string;
    kind: string;
    amountCents: number;
  }>(
    `SELECT id, status, kind, amount_cents::float8 AS "amountCents" FROM orders
      WHERE idempotency_scope = $1 ORDER BY created_at`,
    [scope],
  );
  return rows;
}

export async function sandboxTransactions(pool: Pool, invoiceNumber?: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM sandbox_ledger WHERE kind = 'transaction'
        AND ($1::text IS NULL OR invoice_number = $1)`,
    [invoiceNumber ?? null],
  );
  return rows[0]?.n ?? 0;
}
