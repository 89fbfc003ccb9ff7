import { PAYMENT_MESSAGES, type LoginResponse, type PaymentResponse } from '@ratelens/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addCoupon,
  holdSubscription,
  seedStatesAndFiles,
  seededPlans,
} from '../subscriptions/catalogue-fixtures.ts';
import { authHeaders, signedInUser, useTestApp } from '../test/app.ts';
import {
  ACCOUNT_NUMBER,
  VISA,
  addPlan,
  bankAccount,
  billing,
  card,
  newKey,
  orderFree,
  ordersOf,
  paid,
  payCard,
  payEcheck,
  sandboxTransactions,
  subscriptionsOf,
} from './payment-fixtures.ts';
import { HELD_TEXT } from './outcomes.ts';
import { CHECKOUT_MESSAGES } from './payment-service.ts';
import { reconcilePending, NOT_FOUND_AFTER_MS } from './reconcile.ts';
import { SandboxGateway } from './sandbox-gateway.ts';

const lines: string[] = [];
const test = useTestApp(
  { LOG_LEVEL: 'debug', RENEWALS_INTERVAL_MINUTES: '0', PAYMENT_RATE_LIMIT_PER_MINUTE: '1000' },
  undefined,
  {
    write: (line) => lines.push(line),
  },
);

let plans: Awaited<ReturnType<typeof seededPlans>>;
let errorPlan: number;
let heldPlan: number;
const pool = () => test.database.connection.pool;

beforeAll(async () => {
  await seedStatesAndFiles(pool());
  plans = await seededPlans(pool());
  // $19.00: with card 4222222222222 the sandbox answers reason code 19, a processing error.
  errorPlan = await addPlan(pool(), { title: 'Test Search 19', priceCents: 1900 });
  // $252.00: reason code 252, held for review.
  heldPlan = await addPlan(pool(), { title: 'Test Search 252', priceCents: 25200 });
});

const search5 = () => [{ subscriptionID: plans.search5, state: '' }];

async function buyer(): Promise<LoginResponse> {
  return signedInUser(test.app);
}

describe('Payment/CardPayment', () => {
  it('charges the catalogue price, activates the subscription and keeps brand and last four only', async () => {
    const session = await buyer();
    const response = await payCard(test.app, session, {
      items: search5(),
      expectedAmountCents: 999,
    });
    expect(response.statusCode).toBe(200);
    const body = paid(response);
    expect(body.transactionResponse.responseCode).toBe('1');
    expect(body.messages.message[0]?.text).toBe('Successful.');
    expect(body).toMatchObject({ orderStatus: 'paid', amountCents: 999 });
    expect(body.transactionResponse.accountNumber).toBe('XXXX1111');

    const [subscription] = await subscriptionsOf(pool(), session.userID);
    expect(subscription).toMatchObject({ remaining: 5, total: 5, autoRenewal: true });
    const { rows: profiles } = await pool().query(
      `SELECT account_type, last4 FROM payment_profiles WHERE user_id = $1`,
      [session.userID],
    );
    expect(profiles).toEqual([{ account_type: 'Visa', last4: '1111' }]);
    const { rows: orders } = await pool().query(
      `SELECT account_type, last4, email, status FROM orders WHERE id = $1`,
      [body.orderId],
    );
    expect(orders[0]).toEqual({
      account_type: 'Visa',
      last4: '1111',
      email: session.emailID,
      status: 'paid',
    });
  });

  it('ignores prices sent with the items: the amount charged comes from the catalogue', async () => {
    const session = await buyer();
    const response = await payCard(test.app, session, {
      items: [
        {
          subscriptionID: plans.search5,
          state: '',
          price: 0.01,
          totalPrice: 0.01,
          actualPrice: 0.01,
          InstallmentAmount: 0,
          MaintenanceCharges: 0,
        },
      ],
    });
    expect(paid(response)).toMatchObject({ orderStatus: 'paid', amountCents: 999 });
  });

  it('refuses the payment when the total shown differs from the server’s price (409)', async () => {
    for (const pay of [payCard, payEcheck]) {
      const session = await buyer();
      const response = await pay(test.app, session, {
        items: search5(),
        expectedAmountCents: 1,
      });
      expect(response.statusCode, pay.name).toBe(409);
      expect(response.json<{ message: string }>().message).toBe(
        CHECKOUT_MESSAGES.priceChanged('$9.99'),
      );
      expect(await ordersOf(pool(), `user:${session.userID}`)).toEqual([]);
    }
  });

  it('refuses items that name another account (403), whichever way the order is paid', async () => {
    for (const pay of [payCard, payEcheck, orderFree]) {
      const session = await buyer();
      const other = await buyer();
      const response = await pay(test.app, session, {
        items: [{ ...search5()[0], userID: other.userID }],
      });
      expect(response.statusCode, pay.name).toBe(403);
      expect(await ordersOf(pool(), `user:${session.userID}`)).toEqual([]);
    }
  });

  it('refuses a negative or impossible expected amount (400)', async () => {
    const session = await buyer();
    for (const expectedAmountCents of [-999, 1e20, 9.5]) {
      const response = await payCard(test.app, session, { items: search5(), expectedAmountCents });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe(
        'expectedAmountCents',
      );
    }
  });

  it('refuses a plan id that is not a whole number, as true or 1e3 (400), and buys nothing', async () => {
    const session = await buyer();
    for (const subscriptionID of [true, '1e3', '', 1.5]) {
      const response = await payCard(test.app, session, {
        items: [{ subscriptionID, state: '' }],
      });
      expect(response.statusCode, String(subscriptionID)).toBe(400);
      expect(response.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe(
        'items.0.subscriptionID',
      );
    }
    // Its digits as text, as the spec's client sends them, still name the plan.
    const asText = await payCard(test.app, session, {
      items: [{ subscriptionID: String(plans.search5), state: '' }],
    });
    expect(asText.statusCode).toBe(200);
    expect(await ordersOf(pool(), `user:${session.userID}`)).toHaveLength(1);
  });

  it('pays the first of 12 installments of a state plan and schedules the rest', async () => {
    const session = await buyer();
    // Alabama: 3 files × $25.00 = $75.00; installments: $6.25 + $5.00 maintenance a month.
    const response = await payCard(test.app, session, {
      items: [{ subscriptionID: plans.stateAnnual, state: 'AL', IsInstalmentPayment: true }],
      expectedAmountCents: 1125,
    });
    expect(paid(response)).toMatchObject({ orderStatus: 'paid', amountCents: 1125 });
    const [subscription] = await subscriptionsOf(pool(), session.userID);
    const { rows } = await pool().query<{ seq: number; status: string; amount: number }>(
      `SELECT seq, status, amount_cents::int AS amount FROM installments WHERE subscription_id = $1 ORDER BY seq`,
      [subscription?.id],
    );
    expect(rows).toHaveLength(12);
    expect(rows[0]).toEqual({ seq: 1, status: 'paid', amount: 1125 });
    expect(rows.slice(1).every((row) => row.status === 'due')).toBe(true);
    expect(rows.reduce((sum, row) => sum + row.amount, 0)).toBe(7500 + 12 * 500);
  });

  it('lets only one of two simultaneous checkouts take a coupon’s last use', async () => {
    await addCoupon(pool(), { code: 'LASTONE', percent: 10, maxUses: 1 });
    const [first, second] = [await buyer(), await buyer()];
    const order = {
      items: [{ subscriptionID: plans.stateAnnual, state: 'AL' }],
      couponCode: 'lastone',
    };
    const answers = await Promise.all([
      payCard(test.app, first, order),
      payCard(test.app, second, order),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 400]);
    const refused = answers.find((answer) => answer.statusCode === 400);
    expect(refused?.json<{ message: string }>().message).toBe(PAYMENT_MESSAGES.couponInvalid);
    const winner = answers.find((answer) => answer.statusCode === 200);
    // $75.00 less 10%.
    expect(winner && paid(winner)).toMatchObject({ orderStatus: 'paid', amountCents: 6750 });
  });

  it('answers a decline in Authorize.Net’s shape and activates nothing', async () => {
    const session = await buyer();
    const response = await payCard(test.app, session, {
      items: search5(),
      billingAddress: billing('46282'),
    });
    expect(response.statusCode).toBe(200);
    const body = paid(response);
    expect(body.transactionResponse.responseCode).toBe('2');
    expect(body.transactionResponse.errors?.[0]?.errorText).toBe(
      'This transaction has been declined.',
    );
    expect(body.orderStatus).toBe('declined');
    expect(await subscriptionsOf(pool(), session.userID)).toEqual([]);
  });

  it('answers the processor’s error text when it fails the transaction', async () => {
    const session = await buyer();
    const response = await payCard(test.app, session, {
      items: [{ subscriptionID: errorPlan, state: '' }],
      paymentDetails: card('4222222222222'),
    });
    expect(response.statusCode).toBe(200);
    const body = paid(response);
    expect(body.transactionResponse.responseCode).toBe('3');
    expect(body.transactionResponse.errors?.[0]?.errorText).toBe(
      'An error occurred during processing. Please try again in 5 minutes.',
    );
    expect(body.orderStatus).toBe('failed');
    expect(await subscriptionsOf(pool(), session.userID)).toEqual([]);
  });

  it('keeps an order held for review pending (202) with a message saying so', async () => {
    const session = await buyer();
    const response = await payCard(test.app, session, {
      items: [{ subscriptionID: heldPlan, state: '' }],
      paymentDetails: card('4222222222222'),
    });
    expect(response.statusCode).toBe(202);
    const body = paid(response);
    expect(body).toMatchObject({
      orderStatus: 'pending',
      transactionResponse: { responseCode: '4' },
    });
    expect(body.transactionResponse.errors?.[0]?.errorText).toBe(HELD_TEXT);
    expect(await subscriptionsOf(pool(), session.userID)).toEqual([]);
  });

  it('answers 502 with the spec’s failure message when the gateway cannot be reached', async () => {
    const session = await buyer();
    const response = await payCard(test.app, session, {
      items: search5(),
      billingAddress: billing('46292'),
    });
    expect(response.statusCode).toBe(502);
    const body = paid(response);
    expect(body.transactionResponse.errors?.[0]?.errorText).toBe(PAYMENT_MESSAGES.paymentFailed);
    expect(body.orderStatus).toBe('failed');
  });

  it('checks the card: Luhn, brand, expiry and CVV, each naming its field (400)', async () => {
    const session = await buyer();
    const cases: [Record<string, unknown>, string][] = [
      [card('4111111111111112'), 'paymentDetails.cardNumber'],
      [card(VISA, { cardType: 'American Express' }), 'paymentDetails.cardNumber'],
      [card(VISA, { expiryDate: '01/2020' }), 'paymentDetails.expiryDate'],
      [card(VISA, { expiryDate: '13/2030' }), 'paymentDetails.expiryDate'],
      [card(VISA, { cvv: '12' }), 'paymentDetails.cvv'],
    ];
    for (const [paymentDetails, field] of cases) {
      const response = await payCard(test.app, session, { items: search5(), paymentDetails });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(
        field,
      );
    }
    expect(await ordersOf(pool(), `user:${session.userID}`)).toEqual([]);
  });

  it('needs the Idempotency-Key header (400) and a session in the headers (401)', async () => {
    const session = await buyer();
    const noKey = await test.app.inject({
      method: 'POST',
      url: '/api/Payment/CardPayment',
      headers: authHeaders(session),
      payload: { items: search5(), paymentDetails: card(), billingAddress: billing() },
    });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('idempotency-key');

    const headersInBody = await test.app.inject({
      method: 'POST',
      url: '/api/Payment/CeckPayment',
      headers: { 'idempotency-key': newKey() },
      payload: {
        items: search5(),
        paymentDetails: bankAccount(),
        billingAddress: billing(),
        headers: authHeaders(session),
      },
    });
    expect(headersInBody.statusCode).toBe(401);
  });
});

describe('Payment/FreeOrder', () => {
  // Alabama's state plan: 3 files × $25.00 = $75.00, all of it taken by a 100% coupon.
  const alabama = (installment = false) => [
    { subscriptionID: plans.stateAnnual, state: 'AL', IsInstalmentPayment: installment },
  ];

  it('completes an order a coupon takes the whole price of without calling the gateway', async () => {
    const couponId = await addCoupon(pool(), { code: 'FULLFREE', percent: 100 });
    const session = await buyer();
    const before = await sandboxTransactions(pool());

    const response = await orderFree(test.app, session, {
      items: alabama(),
      couponCode: 'fullfree',
      expectedAmountCents: 0,
    });

    expect(response.statusCode).toBe(200);
    const body = paid(response);
    expect(body).toMatchObject({ orderStatus: 'paid', amountCents: 0 });
    expect(body.transactionResponse.responseCode).toBe('1');
    expect(await sandboxTransactions(pool())).toBe(before);
    const { rows: orders } = await pool().query(
      `SELECT status, kind, method, gateway, amount_cents::int AS amount, coupon_id AS "couponId",
              account_type AS "accountType", last4, transaction_id AS "transactionId"
         FROM orders WHERE id = $1`,
      [body.orderId],
    );
    expect(orders[0]).toEqual({
      status: 'paid',
      kind: 'subscription',
      method: 'none',
      gateway: 'none',
      amount: 0,
      couponId,
      accountType: null,
      last4: null,
      transactionId: null,
    });
    const { rows: items } = await pool().query(
      `SELECT total_price_cents::int AS total, discount_cents::int AS discount,
              final_price_cents::int AS final, due_today_cents::int AS "dueToday"
         FROM order_items WHERE order_id = $1`,
      [body.orderId],
    );
    expect(items).toEqual([{ total: 7500, discount: 7500, final: 0, dueToday: 0 }]);
  });

  it('grants the subscription without auto-renewal, as no payment method was given', async () => {
    await addCoupon(pool(), { code: 'FREEGRANT', percent: 100 });
    const session = await buyer();
    const response = await orderFree(test.app, session, {
      items: alabama(),
      couponCode: 'FREEGRANT',
    });
    expect(paid(response).orderStatus).toBe('paid');
    const [subscription] = await subscriptionsOf(pool(), session.userID);
    expect(subscription).toMatchObject({ autoRenewal: false, paymentProfileId: null });
  });

  it('answers a repeated request with the first answer and grants the subscription once', async () => {
    await addCoupon(pool(), { code: 'FREEONCE', percent: 100 });
    const session = await buyer();
    const key = newKey();
    const order = { items: alabama(), couponCode: 'FREEONCE' };
    const first = await orderFree(test.app, session, order, key);
    const again = await orderFree(test.app, session, order, key);
    expect(again.json()).toEqual(first.json());
    expect(await subscriptionsOf(pool(), session.userID)).toHaveLength(1);
  });

  it('counts a use of the coupon: a coupon with one use left serves one free order', async () => {
    await addCoupon(pool(), { code: 'FREELAST', percent: 100, maxUses: 1 });
    const [first, second] = [await buyer(), await buyer()];
    const order = { items: alabama(), couponCode: 'FREELAST' };
    expect((await orderFree(test.app, first, order)).statusCode).toBe(200);
    const refused = await orderFree(test.app, second, order);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(PAYMENT_MESSAGES.couponInvalid);
  });

  it('refuses an order that costs something: 409 with the price when $0.00 was shown', async () => {
    const session = await buyer();
    const response = await orderFree(test.app, session, {
      items: search5(),
      expectedAmountCents: 0,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json<{ message: string }>().message).toBe(
      CHECKOUT_MESSAGES.priceChanged('$9.99'),
    );
    expect(await ordersOf(pool(), `user:${session.userID}`)).toEqual([]);
  });

  it('refuses installments whose maintenance fee is still due, the 100% coupon aside (400)', async () => {
    await addCoupon(pool(), { code: 'FREEFEES', percent: 100 });
    const session = await buyer();
    const response = await orderFree(test.app, session, {
      items: alabama(true),
      couponCode: 'FREEFEES',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(CHECKOUT_MESSAGES.paymentNeeded);
    expect(await subscriptionsOf(pool(), session.userID)).toEqual([]);
  });

  it('is what a card payment of an order that costs nothing is told to use (400)', async () => {
    await addCoupon(pool(), { code: 'FREECARD', percent: 100 });
    const session = await buyer();
    const response = await payCard(test.app, session, {
      items: alabama(),
      couponCode: 'FREECARD',
      expectedAmountCents: 0,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(CHECKOUT_MESSAGES.noPaymentNeeded);
    expect(await ordersOf(pool(), `user:${session.userID}`)).toEqual([]);
  });
});

describe('Payment/CeckPayment', () => {
  it('debits a bank account and keeps eCheck and the last four digits', async () => {
    const session = await buyer();
    const response = await payEcheck(test.app, session, { items: search5() });
    expect(response.statusCode).toBe(200);
    expect(paid(response)).toMatchObject({
      orderStatus: 'paid',
      transactionResponse: { responseCode: '1', accountType: 'eCheck', accountNumber: 'XXXX6789' },
    });
    const { rows } = await pool().query(
      `SELECT account_type, last4 FROM payment_profiles WHERE user_id = $1`,
      [session.userID],
    );
    expect(rows).toEqual([{ account_type: 'eCheck', last4: '6789' }]);
  });

  it('declines an eCheck over $100.00, as Authorize.Net’s sandbox does', async () => {
    const session = await buyer();
    // Alabama with Medicare pricing: 3 files × $40.00 = $120.00.
    const response = await payEcheck(test.app, session, {
      items: [{ subscriptionID: plans.stateMedicare, state: 'AL' }],
    });
    expect(paid(response)).toMatchObject({
      orderStatus: 'declined',
      transactionResponse: { responseCode: '2' },
    });
  });

  it('refuses a routing number that fails the ABA checksum (400)', async () => {
    const session = await buyer();
    const response = await payEcheck(test.app, session, {
      items: search5(),
      paymentDetails: bankAccount({ routingNumber: '121042883' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe(
      'paymentDetails.routingNumber',
    );
  });
});

describe('idempotency', () => {
  it('answers a repeated request with the first answer and charges once', async () => {
    const session = await buyer();
    const key = newKey();
    const first = await payCard(test.app, session, { items: search5() }, key);
    const again = await payCard(test.app, session, { items: search5() }, key);
    expect(again.statusCode).toBe(200);
    expect(paid(again)).toEqual(paid(first));
    expect(await ordersOf(pool(), `user:${session.userID}`)).toHaveLength(1);
    expect(await subscriptionsOf(pool(), session.userID)).toHaveLength(1);
  });

  it('charges a double-click once, whether it sends one key or two', async () => {
    const session = await buyer();
    const key = newKey();
    const [a, b] = await Promise.all([
      payCard(test.app, session, { items: search5() }, key),
      payCard(test.app, session, { items: search5() }, key),
    ]);
    expect(paid(a).orderId).toBe(paid(b).orderId);

    const other = await buyer();
    const [c, d] = await Promise.all([
      payCard(test.app, other, { items: search5() }),
      payCard(test.app, other, { items: search5() }),
    ]);
    // The second waits for the first's lock: it finds the first under way (409) or, when the
    // first was quicker, paid (400, already owned). Either way one charge.
    const [first, second] = c.statusCode === 200 ? [c, d] : [d, c];
    expect(first.statusCode).toBe(200);
    expect([
      `409 ${PAYMENT_MESSAGES.paymentInProgress}`,
      `400 ${PAYMENT_MESSAGES.alreadyOwned}`,
    ]).toContain(`${second.statusCode} ${second.json<{ message: string }>().message}`);
    const orders = await ordersOf(pool(), `user:${other.userID}`);
    expect(orders).toHaveLength(1);
    const { rows } = await pool().query<{ invoice: string }>(
      `SELECT invoice_number AS invoice FROM orders WHERE id = $1`,
      [orders[0]?.id],
    );
    expect(await sandboxTransactions(pool(), rows[0]?.invoice)).toBe(1);
  });

  it('prices the cart under the account’s lock: what another click paid meanwhile is not paid again', async () => {
    const session = await buyer();
    const scope = `user:${session.userID}`;
    const holder = await pool().connect();
    try {
      // The lock an order takes, held here: this payment waits for it, as a second click's
      // payment waits for the first's.
      await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [scope]);
      const paying = payCard(test.app, session, { items: search5() });
      const waiting = async () =>
        (
          await pool().query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
          )
        ).rows[0]?.n === 1;
      const deadline = Date.now() + 10_000;
      while (!(await waiting())) {
        if (Date.now() > deadline) throw new Error('the payment never waited for the lock');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Meanwhile the first click's payment settled: the account holds the plan.
      await holdSubscription(pool(), {
        userId: session.userID,
        planId: plans.search5,
        kind: 'individual-search',
        subscriptionType: 'Individual Search',
        remaining: 5,
      });
      await holder.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [scope]);
      const response = await paying;
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(PAYMENT_MESSAGES.alreadyOwned);
      expect(await ordersOf(pool(), scope)).toEqual([]);
    } finally {
      holder.release();
    }
  });

  it('refuses the same key with a different request (409)', async () => {
    const session = await buyer();
    const key = newKey();
    await payCard(test.app, session, { items: search5() }, key);
    const different = await payCard(
      test.app,
      session,
      { items: [{ subscriptionID: plans.search15, state: '' }] },
      key,
    );
    expect(different.statusCode).toBe(409);
    expect(different.json<{ message: string }>().message).toBe(CHECKOUT_MESSAGES.keyReused);
  });

  it('keeps keys per account: another account’s key does not collide', async () => {
    const key = newKey();
    const a = await payCard(test.app, await buyer(), { items: search5() }, key);
    const b = await payCard(test.app, await buyer(), { items: search5() }, key);
    expect(paid(a).orderId).not.toBe(paid(b).orderId);
  });
});

describe('a gateway timeout', () => {
  it('leaves the order pending (504) and reconciliation finds the charge and activates it', async () => {
    const session = await buyer();
    const key = newKey();
    const response = await payCard(
      test.app,
      session,
      { items: search5(), billingAddress: billing('46290') },
      key,
    );
    expect(response.statusCode).toBe(504);
    const body = paid(response);
    expect(body.orderStatus).toBe('pending');
    expect(body.transactionResponse.errors?.[0]?.errorText).toBe(PAYMENT_MESSAGES.paymentFailed);
    expect(await subscriptionsOf(pool(), session.userID)).toEqual([]);

    // A retry with a new key while the first is unresolved would pay twice: it is looked up first.
    const retry = await payCard(test.app, session, { items: search5() });
    expect(retry.statusCode).toBe(400);
    expect(retry.json<{ message: string }>().message).toBe(PAYMENT_MESSAGES.alreadyOwned);
    const again = await payCard(
      test.app,
      session,
      { items: search5(), billingAddress: billing('46290') },
      key,
    );
    expect(again.statusCode).toBe(200);
    expect(paid(again)).toMatchObject({ orderId: body.orderId, orderStatus: 'paid' });
    const [subscription] = await subscriptionsOf(pool(), session.userID);
    expect(subscription).toMatchObject({ remaining: 5 });
    expect(subscription?.paymentProfileId).not.toBeNull();
    expect(await ordersOf(pool(), `user:${session.userID}`)).toHaveLength(1);
  });

  it('is settled by the reconcile step as paid when the gateway took it', async () => {
    const session = await buyer();
    const response = await payCard(test.app, session, {
      items: search5(),
      billingAddress: billing('46290'),
    });
    const { orderId } = paid(response);
    const summary = await reconcilePending(pool(), new SandboxGateway(pool()), new Date(), {
      gatewayTimeoutMs: 30_000,
    });
    expect(summary.settled).toBeGreaterThanOrEqual(1);
    const status = await test.app.inject({
      method: 'GET',
      url: `/api/Payment/order/${orderId}`,
      headers: authHeaders(session),
    });
    expect(status.statusCode).toBe(200);
    expect(status.json<PaymentResponse>().orderStatus).toBe('paid');
    expect(await subscriptionsOf(pool(), session.userID)).toHaveLength(1);
  });

  it('is settled as failed once the gateway still has no record of it', async () => {
    const session = await buyer();
    const key = newKey();
    const response = await payCard(
      test.app,
      session,
      { items: search5(), billingAddress: billing('46291') },
      key,
    );
    expect(response.statusCode).toBe(504);
    const gateway = new SandboxGateway(pool());
    await reconcilePending(pool(), gateway, new Date(), { gatewayTimeoutMs: 30_000 });
    const stillPending = await payCard(
      test.app,
      session,
      { items: search5(), billingAddress: billing('46291') },
      key,
    );
    expect(paid(stillPending).orderStatus).toBe('pending');
    const blocked = await payCard(test.app, session, { items: search5() });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json<{ message: string }>().message).toBe(CHECKOUT_MESSAGES.previousPending);

    await reconcilePending(pool(), gateway, new Date(Date.now() + NOT_FOUND_AFTER_MS + 60_000), {
      gatewayTimeoutMs: 30_000,
    });
    const settled = await payCard(
      test.app,
      session,
      { items: search5(), billingAddress: billing('46291') },
      key,
    );
    expect(settled.statusCode).toBe(502);
    expect(paid(settled).orderStatus).toBe('failed');
    expect(await subscriptionsOf(pool(), session.userID)).toEqual([]);
    const next = await payCard(test.app, session, { items: search5() });
    expect(paid(next).orderStatus).toBe('paid');
  });

  it('shows an order only to its account (403)', async () => {
    const session = await buyer();
    const { orderId } = paid(await payCard(test.app, session, { items: search5() }));
    const other = await buyer();
    const response = await test.app.inject({
      method: 'GET',
      url: `/api/Payment/order/${orderId}`,
      headers: authHeaders(other),
    });
    expect(response.statusCode).toBe(403);
    const unknown = await test.app.inject({
      method: 'GET',
      url: '/api/Payment/order/00000000-0000-4000-8000-000000000000',
      headers: authHeaders(session),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toBe('No order has this id.');
  });
});

describe('the logs of payment calls', () => {
  it('hold no card or account number', async () => {
    const session = await buyer();
    await payCard(test.app, session, { items: search5() });
    await payCard(test.app, session, {
      items: search5(),
      paymentDetails: card('4111111111111112'),
    });
    await payCard(test.app, session, { items: search5(), billingAddress: billing('46290') });
    await payEcheck(test.app, session, {
      items: search5(),
      paymentDetails: bankAccount({ routingNumber: '121042883' }),
    });
    await payEcheck(test.app, await buyer(), { items: search5() });
    const log = lines.join('\n');
    expect(log).toContain('/api/Payment/CardPayment');
    expect(log).toContain('did not answer in time');
    for (const secret of [VISA, '4111111111111112', ACCOUNT_NUMBER])
      expect(log).not.toContain(secret);
  });

  it('store no card or account number in the database', async () => {
    const { rows } = await pool().query<{ dump: string }>(
      `SELECT (SELECT coalesce(json_agg(o), '[]') FROM orders o)::text
           || (SELECT coalesce(json_agg(l), '[]') FROM sandbox_ledger l)::text
           || (SELECT coalesce(json_agg(p), '[]') FROM payment_profiles p)::text
           || (SELECT coalesce(json_agg(a), '[]') FROM audit_log a)::text AS dump`,
    );
    const dump = rows[0]?.dump ?? '';
    expect(dump).toContain('1111');
    for (const secret of [VISA, ACCOUNT_NUMBER]) expect(dump).not.toContain(secret);
  });
});
