import {
  autoRenewalMessage,
  type ApiError,
  type LoginResponse,
  type SubscriptionCard,
} from '@ratelens/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, signedInUser, useTestApp } from '../test/app.ts';
import {
  holdSubscription,
  paymentProfile,
  seedStatesAndFiles,
  seededPlans,
} from './catalogue-fixtures.ts';
import { NO_PAYMENT_METHOD_MESSAGE } from './my-subscriptions.ts';

const test = useTestApp();
let plans: Awaited<ReturnType<typeof seededPlans>>;

beforeAll(async () => {
  await seedStatesAndFiles(test.database.connection.pool);
  plans = await seededPlans(test.database.connection.pool);
});

const pool = () => test.database.connection.pool;

function post(url: string, login: LoginResponse | null, payload: object) {
  return test.app.inject({
    method: 'POST',
    url: `/api/subscription/${url}`,
    headers: login ? authHeaders(login) : {},
    payload,
  });
}
const cards = async (login: LoginResponse) =>
  (await post('getsubscription', login, { userID: login.userID })).json<SubscriptionCard[]>();
const setAutoRenewal = (
  login: LoginResponse,
  mySubscriptionID: string,
  autoRenewStatus: boolean,
  userID = login.userID,
) => post('updateAutoRenewal', login, { userID, mySubscriptionID, autoRenewStatus });

describe('POST api/subscription/getsubscription', () => {
  it('lists active subscriptions and those lapsed within 24 hours, soonest expiry first', async () => {
    const login = await signedInUser(test.app);
    const profileId = await paymentProfile(pool(), login.userID);
    const alabama = await holdSubscription(pool(), {
      userId: login.userID,
      planId: plans.stateAnnual,
      stateCode: 'AL',
      expiresInHours: 24 * 200,
      paymentProfileId: profileId,
      autoRenewal: true,
    });
    const lapsed = await holdSubscription(pool(), {
      userId: login.userID,
      planId: plans.search5,
      kind: 'individual-search',
      subscriptionType: 'Individual Search',
      remaining: 3,
      expiresInHours: -2,
    });
    await holdSubscription(pool(), {
      userId: login.userID,
      planId: plans.stateAnnual,
      stateCode: 'AK',
      expiresInHours: -48,
    });
    const response = await post('getsubscription', login, { userID: login.userID });
    expect(response.statusCode).toBe(200);
    const list = response.json<SubscriptionCard[]>();
    expect(list.map((card) => card.mySubscriptionID)).toEqual([lapsed, alabama]);
    expect(list[0]).toMatchObject({
      state: null,
      individualSearch: true,
      subscriptiontype: 'Individual Search',
      subscriptionTitle: 'Individual Search 5',
      totalSearchCount: 3,
      remaningSearchCount: 3,
      autoRenewal: false,
      paymentMethod: null,
    });
    expect(list[1]).toMatchObject({
      state: 'Alabama',
      individualSearch: false,
      subscriptiontype: 'Annual',
      subscriptionTitle: 'State Negotiated Rates',
      autoRenewal: true,
      installment: false,
      paymentMethod: 'Visa ending 1111',
    });
    expect(Date.parse(list[1]?.expireDate ?? '')).toBeGreaterThan(Date.now());
  });

  it('answers an empty list to an account without subscriptions', async () => {
    const login = await signedInUser(test.app);
    expect(await cards(login)).toEqual([]);
  });

  it("refuses another account's id with 403, a malformed one with 400 and no session with 401", async () => {
    const login = await signedInUser(test.app);
    const other = await signedInUser(test.app);
    expect((await post('getsubscription', login, { userID: other.userID })).statusCode).toBe(403);
    const malformed = await post('getsubscription', login, { userID: 'me' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json<ApiError>().errors?.[0]?.field).toBe('userID');
    expect((await post('getsubscription', null, { userID: login.userID })).statusCode).toBe(401);
  });

  it("takes the signed-in account's own id written in capitals (a UUID has no case)", async () => {
    const login = await signedInUser(test.app);
    const own = await post('getsubscription', login, { userID: login.userID.toUpperCase() });
    expect(own.statusCode).toBe(200);
  });
});

describe('POST api/subscription/updateAutoRenewal', () => {
  it('turns auto-renewal off with the message naming the state and type', async () => {
    const login = await signedInUser(test.app);
    const id = await holdSubscription(pool(), {
      userId: login.userID,
      planId: plans.stateAnnual,
      stateCode: 'AL',
      autoRenewal: true,
    });
    const response = await setAutoRenewal(login, id, false);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: true,
      message: autoRenewalMessage('Alabama (Annual)', false),
    });
    expect((await cards(login))[0]?.autoRenewal).toBe(false);
  });

  it('turns auto-renewal on when a payment method is saved, naming Individual Search', async () => {
    const login = await signedInUser(test.app);
    const id = await holdSubscription(pool(), {
      userId: login.userID,
      planId: plans.search15,
      kind: 'individual-search',
      remaining: 15,
      paymentProfileId: await paymentProfile(pool(), login.userID),
    });
    const response = await setAutoRenewal(login, id, true);
    expect(response.json()).toEqual({
      status: true,
      message: autoRenewalMessage('Individual Search', true),
    });
    expect((await cards(login))[0]?.autoRenewal).toBe(true);
  });

  it('answers status false and changes nothing when no payment method is saved', async () => {
    const login = await signedInUser(test.app);
    const id = await holdSubscription(pool(), {
      userId: login.userID,
      planId: plans.stateAnnual,
      stateCode: 'AL',
    });
    const response = await setAutoRenewal(login, id, true);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: false, message: NO_PAYMENT_METHOD_MESSAGE });
    expect((await cards(login))[0]?.autoRenewal).toBe(false);
  });

  it("refuses another account's subscription with 403 and an unknown one with 404", async () => {
    const login = await signedInUser(test.app);
    const other = await signedInUser(test.app);
    const theirs = await holdSubscription(pool(), {
      userId: other.userID,
      planId: plans.stateAnnual,
      stateCode: 'AL',
      autoRenewal: true,
    });
    const refused = await setAutoRenewal(login, theirs, false);
    expect(refused.statusCode).toBe(403);
    expect((await cards(other))[0]?.autoRenewal).toBe(true);
    const unknown = await setAutoRenewal(login, '00000000-0000-4000-8000-000000000000', false);
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses a userID that is not the caller with 403', async () => {
    const login = await signedInUser(test.app);
    const other = await signedInUser(test.app);
    const id = await holdSubscription(pool(), {
      userId: login.userID,
      planId: plans.stateAnnual,
      stateCode: 'AL',
    });
    expect((await setAutoRenewal(login, id, false, other.userID)).statusCode).toBe(403);
  });

  it('refuses a subscription that lapsed more than 24 hours ago', async () => {
    const login = await signedInUser(test.app);
    const id = await holdSubscription(pool(), {
      userId: login.userID,
      planId: plans.stateAnnual,
      stateCode: 'AL',
      expiresInHours: -30,
    });
    const response = await setAutoRenewal(login, id, false);
    expect(response.statusCode).toBe(400);
  });

  it.each([
    [{ mySubscriptionID: 'abc', autoRenewStatus: true }, 'mySubscriptionID'],
    [{ mySubscriptionID: '00000000-0000-4000-8000-000000000000' }, 'autoRenewStatus'],
    [
      { mySubscriptionID: '00000000-0000-4000-8000-000000000000', autoRenewStatus: 'yes' },
      'autoRenewStatus',
    ],
  ])('refuses %j with 400 naming the field', async (body, field) => {
    const login = await signedInUser(test.app);
    const response = await post('updateAutoRenewal', login, { userID: login.userID, ...body });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiError>().errors?.[0]?.field).toBe(field);
  });

  it('answers 401 without a session', async () => {
    const response = await post('updateAutoRenewal', null, {});
    expect(response.statusCode).toBe(401);
  });
});
