import { createHash, randomBytes } from 'node:crypto';
import {
  PAYMENT_MESSAGES,
  centsToDollars,
  costsNothing,
  formatUsd,
  lastFour,
  parseExpiry,
  type BillingAddress,
  type CardDetails,
  type CardPaymentRequest,
  type CheckPaymentRequest,
  type DonationCardRequest,
  type DonationCheckRequest,
  type EcheckDetails,
  type FreeOrderRequest,
} from '@ratelens/core';
import { inTransaction, type Pool, type Queryable } from '@ratelens/db';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../auth/auth-service.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import type { Catalogue, PricedOrder } from '../subscriptions/catalogue.ts';
import type { BillTo, ChargeResult, PaymentGateway, PaymentMethod } from './gateway.ts';
import {
  findOrder,
  findOrderByKey,
  insertOrder,
  lockScope,
  pendingOrderIn,
  pendingOrderOfUser,
  type NewOrder,
  type NewOrderItem,
  type OrderMethod,
  type OrderRow,
  type StoredReply,
} from './orders.ts';
import {
  isGatewayError,
  noAnswer,
  noChargeOutcome,
  outcomeOfAnswer,
  outcomeOfError,
} from './outcomes.ts';
import { reconcileOrder, reconcilePending } from './reconcile.ts';
import { settleOrder, settleOrderIn, type Outcome } from './settlement.ts';

/*
 * The payment calls (subscriptions-and-payments §3 "Payment payload", §4 "Payment", §7, §8;
 * issue 5 points 4–5). Every call carries an Idempotency-Key: the order row is written, pending,
 * under that key before the gateway is called, so a repeat finds it and answers what the first
 * call answered instead of charging again. The amount comes from the catalogue (subscriptions) or
 * the checked donation amount, never from a price the client sends.
 */

export const CHECKOUT_MESSAGES = {
  keyReused:
    'This Idempotency-Key was already used for a different payment. Please start a new checkout attempt.',
  priceChanged: (total: string) =>
    `The total of your order is now ${total}. Please review it and make the payment again.`,
  noPaymentNeeded:
    'Nothing is due for this order, today or later. Please complete it without a payment.',
  paymentNeeded: 'This order has an amount to pay. Please pay it by card or echeck.',
  nothingDueToday:
    'Nothing is due today for this order, but later installments are. Please choose Pay Once for it.',
  previousPending:
    'Your previous payment is still being confirmed. Please check your profile in a few minutes before paying again.',
  renewalPending:
    'A renewal of your subscription is being charged to your saved payment method. Please check your profile in a few minutes before paying again.',
} as const;

/** How long a repeated request waits for the first one, still at the gateway, to finish. */
const REPLAY_WAIT_MS = 5_000;

export type PaymentChannel = 'card' | 'echeck';
/** The gateway column of an order that was paid with nothing. */
const NO_GATEWAY = 'none';
type PaymentDetails = CardDetails | EcheckDetails;

export interface PaymentServiceDeps {
  pool: Pool;
  gateway: PaymentGateway;
  catalogue: Pick<Catalogue, 'priceCart' | 'reserveCoupon'>;
  gatewayTimeoutMs: number;
  log: FastifyBaseLogger;
}

interface Prepared {
  order: Omit<NewOrder, 'scope' | 'key' | 'requestHash' | 'gateway' | 'invoiceNumber'>;
  coupon: { id: number; code: string } | null;
  items: NewOrderItem[];
  description: string;
  createProfile: boolean;
}

interface Charge {
  payment: PaymentMethod;
  billTo: BillTo & { email: string };
  failureText: string;
}

interface Attempt {
  scope: string;
  /**
   * The account paying for plans, if one is: its renewals being charged are looked for too, as
   * a renewal looks for its checkouts (pendingOrderOfUser).
   */
  userId?: string;
  key: string;
  requestHash: string;
  /** What the gateway charges; null for an order that costs nothing (no gateway call at all). */
  charge: Charge | null;
  /**
   * The order, priced. Run under the scope's lock: a payment of the scope settled meanwhile is
   * seen (a double-click sending two keys would otherwise pay twice for one subscription).
   */
  prepare: (db: Queryable) => Promise<Prepared>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SHA-256 of a value's JSON with sorted keys: what makes two requests "the same". */
function hashOf(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([, x]) => x !== undefined)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, x]) => [k, canonical(x)]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex');
}

/** 20 characters, Authorize.Net's limit for an invoice number. */
export function newInvoiceNumber(): string {
  return `RL${randomBytes(9).toString('hex').toUpperCase()}`;
}

function paymentMethodOf(details: PaymentDetails): PaymentMethod {
  if ('cardNumber' in details) {
    const expiry = parseExpiry(details.expiryDate);
    if (!expiry) throw badRequest('Expiry date must be MM/YYYY.');
    return {
      kind: 'card',
      brand: details.cardType,
      number: details.cardNumber,
      expiry,
      cvv: details.cvv,
    };
  }
  return {
    kind: 'bank',
    accountType: details.accountType,
    routingNumber: details.routingNumber,
    accountNumber: details.accountNumber,
    nameOnAccount: details.accountName,
    bankName: details.bankName,
  };
}

/** What identifies the card or account in a request hash and on the order: never the number. */
function identityOf(payment: PaymentMethod) {
  return payment.kind === 'card'
    ? {
        accountType: payment.brand,
        last4: lastFour(payment.number),
        expiry: `${payment.expiry.month}/${payment.expiry.year}`,
      }
    : {
        accountType: 'eCheck',
        last4: lastFour(payment.accountNumber),
        routingNumber: payment.routingNumber,
      };
}

function billToOf(address: BillingAddress): Charge['billTo'] {
  return {
    firstName: address.firstName,
    lastName: address.lastName,
    address: address.address,
    city: address.city,
    state: address.state,
    zip: address.zipcode,
    email: address.email,
  };
}

function couponCodeOf(body: Pick<FreeOrderRequest, 'couponCode'>): string | null {
  return body.couponCode?.trim() || null;
}

/** What makes two requests for the same cart "the same" (with the payer's details beside it). */
function cartFingerprint(body: FreeOrderRequest) {
  return {
    items: body.items.map((item) => ({
      subscriptionID: item.subscriptionID,
      state: item.state.toUpperCase(),
      installment: item.IsInstalmentPayment,
      customOfferId: item.customOfferId ?? null,
    })),
    couponCode: couponCodeOf(body)?.toUpperCase() ?? null,
    expectedAmountCents: body.expectedAmountCents ?? null,
  };
}

/** The priced lines of a cart as order lines. */
export function itemsOf(priced: PricedOrder): NewOrderItem[] {
  return priced.lines.map((line) => ({
    planId: line.plan.id,
    customOfferId: line.customOfferId,
    stateCode: line.stateCode,
    installment: line.item.IsInstalmentPayment,
    fileCount: line.priced.quantity,
    unitPriceCents: line.priced.unitPriceCents,
    totalPriceCents: line.priced.totalPriceCents,
    discountCents: line.priced.discountCents,
    finalPriceCents: line.priced.finalPriceCents,
    installmentCents: line.priced.installmentCents,
    maintenanceCents: line.priced.maintenanceCents,
    dueTodayCents: line.priced.dueTodayCents,
    subscriptionId: null,
  }));
}

export class PaymentService {
  constructor(private readonly deps: PaymentServiceDeps) {}

  /** `Payment/CardPayment`, `Payment/CeckPayment`: the signed-in account's cart. */
  async paySubscriptions(
    account: AuthContext,
    key: string,
    channel: PaymentChannel,
    body: CardPaymentRequest | CheckPaymentRequest,
    now: Date = new Date(),
  ): Promise<StoredReply> {
    const payment = paymentMethodOf(body.paymentDetails);
    const identity = identityOf(payment);
    return this.attempt(
      {
        scope: `user:${account.userId}`,
        userId: account.userId,
        key,
        requestHash: hashOf({
          kind: 'subscription',
          channel,
          ...cartFingerprint(body),
          billing: body.billingAddress,
          payment: identity,
        }),
        charge: {
          payment,
          billTo: billToOf(body.billingAddress),
          failureText: PAYMENT_MESSAGES.paymentFailed,
        },
        prepare: (db) =>
          this.prepareCart(db, account, body, now, {
            method: channel,
            accountType: identity.accountType,
            last4: identity.last4,
          }),
      },
      now,
    );
  }

  /**
   * `Payment/FreeOrder`: a cart that costs nothing, today or later (a 100% coupon on items paid
   * once). It is recorded with its $0.00 amount and its coupon and applied at once; no gateway is
   * called and no payment method is kept, so its subscriptions do not renew by themselves.
   */
  async completeFreeOrder(
    account: AuthContext,
    key: string,
    body: FreeOrderRequest,
    now: Date = new Date(),
  ): Promise<StoredReply> {
    return this.attempt(
      {
        scope: `user:${account.userId}`,
        userId: account.userId,
        key,
        requestHash: hashOf({ kind: 'subscription', channel: 'none', ...cartFingerprint(body) }),
        charge: null,
        prepare: (db) =>
          this.prepareCart(db, account, body, now, {
            method: 'none',
            accountType: null,
            last4: null,
          }),
      },
      now,
    );
  }

  /** The cart priced by the catalogue, checked against what the screen showed and how it is paid. */
  private async prepareCart(
    db: Queryable,
    account: AuthContext,
    body: FreeOrderRequest,
    now: Date,
    paidWith: { method: OrderMethod; accountType: string | null; last4: string | null },
  ): Promise<Prepared> {
    const priced = await this.deps.catalogue.priceCart(
      db,
      account.userId,
      body.items,
      couponCodeOf(body),
      now,
    );
    if (body.expectedAmountCents !== undefined && body.expectedAmountCents !== priced.dueTodayCents)
      throw conflict(
        CHECKOUT_MESSAGES.priceChanged(formatUsd(centsToDollars(priced.dueTodayCents))),
      );
    const free = costsNothing({ items: priced.lines.map((line) => line.priced) });
    const charged = paidWith.method !== 'none';
    if (charged && free) throw badRequest(CHECKOUT_MESSAGES.noPaymentNeeded);
    if (!charged && !free) throw badRequest(CHECKOUT_MESSAGES.paymentNeeded);
    // A few cents paid in installments can round the first payment to $0.00: a gateway cannot
    // charge that, and nothing could be kept to charge the later payments with.
    if (charged && priced.dueTodayCents <= 0) throw badRequest(CHECKOUT_MESSAGES.nothingDueToday);
    return {
      order: {
        userId: account.userId,
        kind: 'subscription',
        method: paidWith.method,
        amountCents: priced.dueTodayCents,
        couponId: priced.coupon?.id ?? null,
        email: account.email,
        accountType: paidWith.accountType,
        last4: paidWith.last4,
      },
      coupon: priced.coupon,
      items: itemsOf(priced),
      description: `RateLens: ${priced.lines
        .map((line) =>
          line.stateCode ? `${line.plan.title} (${line.stateCode})` : line.plan.title,
        )
        .join('; ')}`,
      // Kept for renewals and the remaining installments (never card data: a gateway profile).
      createProfile: charged,
    };
  }

  /** `Payment/DonationCardPayment`, `Payment/DonationCeckPayment`: the donor's e-mail is verified. */
  async donate(
    donorEmail: string,
    key: string,
    channel: PaymentChannel,
    body: DonationCardRequest | DonationCheckRequest,
    now: Date = new Date(),
  ): Promise<StoredReply> {
    const payment = paymentMethodOf(body.paymentDetails);
    const identity = identityOf(payment);
    const amountCents = body.items[0]?.actualPrice ?? 0;
    return this.attempt(
      {
        scope: `donation:${donorEmail}`,
        key,
        requestHash: hashOf({
          kind: 'donation',
          channel,
          amountCents,
          billing: body.billingAddress,
          payment: identity,
        }),
        charge: {
          payment,
          billTo: billToOf(body.billingAddress),
          failureText: PAYMENT_MESSAGES.donationFailed,
        },
        prepare: () =>
          Promise.resolve({
            order: {
              userId: null,
              kind: 'donation',
              method: channel,
              amountCents,
              couponId: null,
              email: donorEmail,
              accountType: identity.accountType,
              last4: identity.last4,
            },
            coupon: null,
            items: [],
            description: 'RateLens donation',
            createProfile: false,
          }),
      },
      now,
    );
  }

  /**
   * An order's current answer for its account (`GET Payment/order/{id}`), looked up at the
   * gateway first while it is pending: how a client learns the outcome after a timeout.
   */
  async orderStatus(
    account: AuthContext,
    orderId: string,
    now: Date = new Date(),
  ): Promise<StoredReply> {
    const order = await findOrder(this.deps.pool, orderId);
    if (!order) throw notFound('No order has this id.');
    if (order.userId !== account.userId) throw forbidden('This order belongs to another account.');
    if (order.status === 'pending' && order.reply) {
      const settled = await reconcileOrder(this.deps.pool, this.deps.gateway, order, now);
      if (settled) return settled;
    }
    return (
      order.reply ?? {
        httpStatus: 202,
        body: {
          ...noAnswer('IN_PROGRESS', PAYMENT_MESSAGES.paymentInProgress),
          orderId: order.id,
          orderStatus: 'pending',
          amountCents: order.amountCents,
        },
      }
    );
  }

  private async attempt(attempt: Attempt, now: Date): Promise<StoredReply> {
    const { pool, gateway } = this.deps;
    const existing = await findOrderByKey(pool, attempt.scope, attempt.key);
    if (existing) return this.replay(existing, attempt.requestHash, now);

    // A payment of this payer whose answer was lost is looked up first: if it went through, the
    // cart is priced knowing it (a retry with a new key after a timeout must not pay twice).
    // So are the account's renewals whose answer was lost: the checkout would refuse while one is
    // pending, until the renewal job's next run.
    await reconcilePending(pool, gateway, now, {
      gatewayTimeoutMs: this.deps.gatewayTimeoutMs,
      scope: attempt.scope,
      renewalsOf: attempt.userId,
    });
    const created = await inTransaction(pool, async (client) => {
      await lockScope(client, attempt.scope);
      const again = await findOrderByKey(client, attempt.scope, attempt.key);
      if (again) return { replay: true, order: again, reply: null, prepared: null };
      const pending = await pendingOrderIn(client, attempt.scope);
      if (pending)
        throw conflict(
          pending.reply ? CHECKOUT_MESSAGES.previousPending : PAYMENT_MESSAGES.paymentInProgress,
        );
      if (attempt.userId && (await pendingOrderOfUser(client, attempt.userId, ['renewal'])))
        throw conflict(CHECKOUT_MESSAGES.renewalPending);
      const prepared = await attempt.prepare(client);
      if (prepared.coupon && prepared.order.userId)
        await this.deps.catalogue.reserveCoupon(
          client,
          prepared.coupon,
          prepared.order.userId,
          now,
        );
      const order = await insertOrder(
        client,
        {
          ...prepared.order,
          scope: attempt.scope,
          key: attempt.key,
          requestHash: attempt.requestHash,
          gateway: attempt.charge ? gateway.name : NO_GATEWAY,
          invoiceNumber: newInvoiceNumber(),
        },
        prepared.items,
      );
      if (!order) throw new Error('order insert lost its idempotency key');
      // Nothing to charge: the order is paid in the transaction that records it.
      const reply = attempt.charge
        ? null
        : await settleOrderIn(client, NO_GATEWAY, order.id, noChargeOutcome(), now);
      return { replay: false, order, reply, prepared };
    });
    const { order, prepared } = created;
    if (created.replay || !prepared) return this.replay(order, attempt.requestHash, now);
    if (created.reply) return created.reply;
    if (!attempt.charge) throw new Error(`order ${order.id} has nothing to charge and no reply`);

    const outcome = await this.charge(order, attempt.charge, prepared);
    return settleOrder(pool, gateway.name, order.id, outcome, now);
  }

  private async charge(order: OrderRow, charge: Charge, prepared: Prepared): Promise<Outcome> {
    let result: ChargeResult;
    try {
      result = await this.deps.gateway.charge({
        amountCents: order.amountCents,
        invoiceNumber: order.invoiceNumber,
        description: prepared.description,
        payment: charge.payment,
        billTo: charge.billTo,
        customer: { email: charge.billTo.email },
        createProfile: prepared.createProfile,
      });
    } catch (error) {
      if (!isGatewayError(error)) throw error;
      this.deps.log.warn(
        { orderId: order.id, outcome: error.outcome, gateway: this.deps.gateway.name },
        error.message,
      );
      return outcomeOfError(error, charge.failureText);
    }
    const outcome = outcomeOfAnswer(result, charge.failureText);
    if (outcome.httpStatus === 502)
      this.deps.log.error(
        { orderId: order.id, code: result.answer.transactionResponse.errors?.[0]?.errorCode },
        'the payment gateway refused the request',
      );
    return outcome;
  }

  /** A repeated request: the first request's answer, once it has one. */
  private async replay(existing: OrderRow, requestHash: string, now: Date): Promise<StoredReply> {
    if (existing.requestHash !== requestHash) throw conflict(CHECKOUT_MESSAGES.keyReused);
    let order: OrderRow | null = existing;
    const deadline = Date.now() + REPLAY_WAIT_MS;
    while (order && !order.reply && Date.now() < deadline) {
      await sleep(100);
      order = await findOrder(this.deps.pool, existing.id);
    }
    if (!order?.reply) throw conflict(PAYMENT_MESSAGES.paymentInProgress);
    if (order.status === 'pending') {
      const settled = await reconcileOrder(this.deps.pool, this.deps.gateway, order, now);
      if (settled) return settled;
    }
    return order.reply;
  }
}
