import type { PaymentResponse } from '@ratelens/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededPlans } from '../subscriptions/catalogue-fixtures.ts';
import { authHeaders, createTestApp, signedInUser, type TestApp } from '../test/app.ts';
import { AuthorizeNetGateway } from './authorizenet-gateway.ts';
import { startFakeAuthorizeNet, type FakeAuthorizeNet } from './fake-authorizenet.ts';
import { ordersOf, paid, payCard, subscriptionsOf } from './payment-fixtures.ts';
import { reconcilePending } from './reconcile.ts';
import { runRenewals } from './renewals.ts';

/* The whole checkout with PAYMENT_GATEWAY=authorizenet, against a local server answering as Authorize.Net's API. */

const credentials = { name: 'ratelens-test', transactionKey: 'Key1234567890abc' };
let fake: FakeAuthorizeNet;
let test: TestApp;
let search5: number;

beforeAll(async () => {
  fake = await startFakeAuthorizeNet(credentials);
  test = await createTestApp({
    PAYMENT_GATEWAY: 'authorizenet',
    AUTHORIZENET_URL: fake.url,
    AUTHORIZENET_API_LOGIN_ID: credentials.name,
    AUTHORIZENET_TRANSACTION_KEY: credentials.transactionKey,
    PAYMENT_GATEWAY_TIMEOUT_MS: '1000',
    PAYMENT_RATE_LIMIT_PER_MINUTE: '1000',
    RENEWALS_INTERVAL_MINUTES: '0',
  });
  search5 = (await seededPlans(test.database.connection.pool)).search5;
});
afterAll(async () => {
  await test.close();
  await fake.close();
});

const gateway = () =>
  new AuthorizeNetGateway({
    url: fake.url,
    apiLoginId: credentials.name,
    transactionKey: credentials.transactionKey,
    timeoutMs: 1000,
  });

describe('checkout through Authorize.Net', () => {
  it('charges the card, stores the profile the gateway created and renews with it', async () => {
    const pool = test.database.connection.pool;
    const session = await signedInUser(test.app);
    const response = await payCard(test.app, session, { items: [{ subscriptionID: search5 }] });
    expect(response.statusCode).toBe(200);
    expect(paid(response)).toMatchObject({ orderStatus: 'paid', amountCents: 999 });
    const charge = fake.requests.at(-1)?.body.transactionRequest as Record<string, unknown>;
    expect(charge).toMatchObject({ amount: '9.99', profile: { createProfile: true } });

    const { rows } = await pool.query<{ customer: string; payment: string }>(
      `SELECT customer_profile_id AS customer, payment_profile_id AS payment FROM payment_profiles WHERE user_id = $1`,
      [session.userID],
    );
    expect(rows[0]?.customer).toMatch(/^\d+$/);

    const [subscription] = await subscriptionsOf(pool, session.userID);
    await pool.query(
      `UPDATE subscriptions SET expires_at = now() - interval '1 hour' WHERE id = $1`,
      [subscription?.id],
    );
    await runRenewals(pool, gateway());
    const renewal = fake.requests.at(-1)?.body.transactionRequest as Record<string, unknown>;
    expect(renewal).toMatchObject({
      amount: '9.99',
      profile: {
        customerProfileId: rows[0]?.customer,
        paymentProfile: { paymentProfileId: rows[0]?.payment },
      },
    });
    expect(await ordersOf(pool, `renewal:${subscription?.id}`)).toEqual([
      expect.objectContaining({ status: 'paid' }),
    ]);
  });

  it('keeps a timed-out order pending and settles it from the unsettled transaction list', async () => {
    const pool = test.database.connection.pool;
    const session = await signedInUser(test.app);
    fake.answerNext({ delayMs: 2500, recordApproved: true, body: {} });
    const response = await payCard(test.app, session, { items: [{ subscriptionID: search5 }] });
    expect(response.statusCode).toBe(504);
    const { orderId } = paid(response);

    await reconcilePending(pool, gateway(), new Date(), { gatewayTimeoutMs: 1000 });
    const status = await test.app.inject({
      method: 'GET',
      url: `/api/Payment/order/${orderId}`,
      headers: authHeaders(session),
    });
    expect(status.json<PaymentResponse>()).toMatchObject({
      orderStatus: 'paid',
      transactionResponse: { responseCode: '1', accountNumber: 'XXXX1111' },
    });
    expect(await subscriptionsOf(pool, session.userID)).toHaveLength(1);
  });
});
