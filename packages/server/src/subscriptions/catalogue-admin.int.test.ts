import {
  MAX_ORDER_CENTS,
  PLAN_FIELD_MESSAGES,
  type ApiError,
  type CatalogueCoupon,
  type CatalogueOffer,
  type CataloguePlan,
  type LoginResponse,
  type PlanInputFields,
  type Subscription,
} from '@ratelens/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authHeaders,
  confirmAddress,
  signedInAdmin,
  signedInUser,
  useTestApp,
} from '../test/app.ts';
import { orderWithCoupon, seedStatesAndFiles, seededPlans } from './catalogue-fixtures.ts';
import { COUPON_WINDOW_MESSAGES } from './catalogue-admin.ts';

const test = useTestApp();
let plans: Awaited<ReturnType<typeof seededPlans>>;
let admin: LoginResponse;

beforeAll(async () => {
  await seedStatesAndFiles(test.database.connection.pool);
  plans = await seededPlans(test.database.connection.pool);
  admin = await signedInAdmin(test);
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(method: Method, url: string, login: LoginResponse | null, payload?: object) {
  return test.app.inject({
    method,
    url: `/api/admin/${url}`,
    headers: login ? authHeaders(login) : {},
    ...(payload ? { payload } : {}),
  });
}

const plan: PlanInputFields = {
  title: 'Regional Rates',
  subscriptionType: 'Annual',
  accessType: 'State',
  priceCents: 3000,
  priceDescription: 'Every file of the state, regional pricing',
  installmentEligible: true,
  maintenanceFeeCents: 250,
  sortOrder: 50,
};

describe('admin catalogue access', () => {
  it.each([
    ['GET', 'plans'],
    ['POST', 'plans'],
    ['PUT', 'plans/1'],
    ['GET', 'coupons'],
    ['POST', 'coupons'],
    ['PUT', 'coupons/1'],
    ['POST', 'coupons/1/deactivate'],
    ['GET', 'custom-offers'],
    ['POST', 'custom-offers'],
    ['DELETE', 'custom-offers/1'],
  ] as const)('answers 401 signed out and 403 to a non-admin for %s %s', async (method, url) => {
    const payload = method === 'POST' || method === 'PUT' ? {} : undefined;
    expect((await call(method, url, null, payload)).statusCode).toBe(401);
    const user = await signedInUser(test.app);
    const body = url.startsWith('plans')
      ? plan
      : url.startsWith('coupons') && payload
        ? { code: 'NOPE', percent: 5 }
        : url === 'custom-offers' && payload
          ? { email: user.emailID, planId: plans.search5, priceCents: 1 }
          : undefined;
    expect((await call(method, url, user, body)).statusCode).toBe(403);
  });
});

describe('admin plans', () => {
  it('lists every plan, the starting catalogue included, in catalogue order', async () => {
    const response = await call('GET', 'plans', admin);
    expect(response.statusCode).toBe(200);
    const list = response.json<CataloguePlan[]>();
    expect(list.slice(0, 8).map((p) => p.title)).toEqual([
      'State Negotiated Rates',
      'State Rates with Medicare Pricing',
      'State Negotiated Rates, Monthly',
      'All States',
      'Individual Search 5',
      'Individual Search 15',
      'Individual Search 30',
      'Individual Search 60',
    ]);
    expect(list[0]).toMatchObject({
      priceCents: 2500,
      maintenanceFeeCents: 500,
      installmentEligible: true,
    });
  });

  it('adds a plan that then appears on the tiles, priced per file', async () => {
    const created = await call('POST', 'plans', admin, plan);
    expect(created.statusCode).toBe(200);
    const saved = created.json<CataloguePlan>();
    expect(saved).toMatchObject({ ...plan, searchCount: null, active: true, termMonths: 12 });
    const user = await signedInUser(test.app);
    const tiles = (
      await test.app.inject({
        method: 'GET',
        url: '/api/master/getsubscription?stateId=1',
        headers: authHeaders(user),
      })
    ).json<{ data: Subscription[] }>().data;
    expect(tiles.find((t) => t.subscriptionID === saved.id)?.totalPriceCents).toBe(3000 * 3);
  });

  it('changes a plan, including taking it off the catalogue', async () => {
    const { id } = (
      await call('POST', 'plans', admin, { ...plan, title: 'To change' })
    ).json<CataloguePlan>();
    const changed = await call('PUT', `plans/${id}`, admin, {
      ...plan,
      title: 'Changed',
      priceCents: 3500,
      active: false,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<CataloguePlan>()).toMatchObject({
      id,
      title: 'Changed',
      priceCents: 3500,
      active: false,
    });
    const tile = await test.app.inject({
      method: 'GET',
      url: `/api/Master/getsubscriptionbyid?subscriptionid=${id}`,
    });
    expect(tile.statusCode).toBe(404);
  });

  it('answers 404 for a plan that does not exist', async () => {
    expect((await call('PUT', 'plans/999999', admin, plan)).statusCode).toBe(404);
  });

  it.each([
    [{ priceCents: -1 }, 'priceCents', 'priceCents must not be negative.'],
    [{ priceCents: 12.5 }, 'priceCents', 'priceCents must be a whole number of cents.'],
    [
      { priceCents: MAX_ORDER_CENTS + 1 },
      'priceCents',
      'priceCents must not be more than $1,000,000.00.',
    ],
    [
      { maintenanceFeeCents: -5 },
      'maintenanceFeeCents',
      'maintenanceFeeCents must not be negative.',
    ],
    [{ title: '  ' }, 'title', 'title is required.'],
    [
      { subscriptionType: 'Weekly' },
      'subscriptionType',
      'subscriptionType must be one of Annual, Monthly, Individual Search.',
    ],
    [
      { subscriptionType: 'Individual Search', accessType: 'National', installmentEligible: false },
      'searchCount',
      PLAN_FIELD_MESSAGES.searchCountRequired,
    ],
    [{ searchCount: 5 }, 'searchCount', PLAN_FIELD_MESSAGES.searchCountOnlyIndividual],
    [
      { subscriptionType: 'Monthly', termMonths: 1 },
      'installmentEligible',
      PLAN_FIELD_MESSAGES.installmentAnnualOnly,
    ],
  ])('refuses %j with 400 naming the field', async (change, field, message) => {
    const response = await call('POST', 'plans', admin, { ...plan, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiError>().errors).toContainEqual(
      expect.objectContaining({ field, message }),
    );
  });
});

describe('admin coupons', () => {
  it('adds a coupon with its code in capitals and counts its paid uses', async () => {
    const response = await call('POST', 'coupons', admin, {
      code: 'spring-25',
      percent: 25,
      validTo: '2099-01-01T00:00:00Z',
      maxUses: 100,
      maxUsesPerUser: 1,
    });
    expect(response.statusCode).toBe(200);
    const coupon = response.json<CatalogueCoupon>();
    expect(coupon).toMatchObject({
      code: 'SPRING-25',
      percent: 25,
      validTo: '2099-01-01T00:00:00.000Z',
      maxUses: 100,
      maxUsesPerUser: 1,
      active: true,
      timesUsed: 0,
    });
    expect(Date.parse(coupon.validFrom)).toBeLessThanOrEqual(Date.now());
    const buyer = await signedInUser(test.app);
    await orderWithCoupon(test.database.connection.pool, buyer.userID, coupon.id, 'paid');
    await orderWithCoupon(test.database.connection.pool, buyer.userID, coupon.id, 'declined');
    const listed = (await call('GET', 'coupons', admin)).json<CatalogueCoupon[]>();
    expect(listed.find((c) => c.id === coupon.id)?.timesUsed).toBe(1);
  });

  it('refuses a second coupon with the same code, whatever its case, with 409', async () => {
    expect((await call('POST', 'coupons', admin, { code: 'TWIN', percent: 5 })).statusCode).toBe(
      200,
    );
    const twin = await call('POST', 'coupons', admin, { code: 'twin', percent: 10 });
    expect(twin.statusCode).toBe(409);
    expect(twin.json<ApiError>().message).toBe('A coupon with the code TWIN already exists.');
    // Nor may another coupon be renamed to it.
    const other = (await call('POST', 'coupons', admin, { code: 'OTHERTWIN', percent: 5 })).json<{
      id: number;
    }>();
    const renamed = await call('PUT', `coupons/${other.id}`, admin, { code: 'Twin', percent: 5 });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json<ApiError>().message).toBe('A coupon with the code TWIN already exists.');
  });

  it('changes a coupon and keeps its start when validFrom is left out', async () => {
    const created = (
      await call('POST', 'coupons', admin, {
        code: 'CHANGEME',
        percent: 5,
        validFrom: '2025-01-01T00:00:00Z',
      })
    ).json<CatalogueCoupon>();
    const changed = await call('PUT', `coupons/${created.id}`, admin, {
      code: 'CHANGED',
      percent: 40,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<CatalogueCoupon>()).toMatchObject({
      code: 'CHANGED',
      percent: 40,
      validFrom: '2025-01-01T00:00:00.000Z',
    });
  });

  it('refuses a new coupon that ends before it starts when validFrom is left out (it starts now)', async () => {
    const response = await call('POST', 'coupons', admin, {
      code: 'ENDEDALREADY',
      percent: 5,
      validTo: '2025-01-01T00:00:00Z',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiError>().errors).toContainEqual(
      expect.objectContaining({ field: 'validTo', message: COUPON_WINDOW_MESSAGES.afterNow }),
    );
    const listed = (await call('GET', 'coupons', admin)).json<CatalogueCoupon[]>();
    expect(listed.map((coupon) => coupon.code)).not.toContain('ENDEDALREADY');
  });

  it('refuses a change whose validTo is before the start the coupon keeps', async () => {
    const created = (
      await call('POST', 'coupons', admin, {
        code: 'KEEPSTART',
        percent: 5,
        validFrom: '2030-01-01T00:00:00Z',
      })
    ).json<CatalogueCoupon>();
    const changed = await call('PUT', `coupons/${created.id}`, admin, {
      code: 'KEEPSTART',
      percent: 5,
      validTo: '2029-01-01T00:00:00Z',
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.json<ApiError>().errors).toContainEqual(
      expect.objectContaining({ field: 'validTo', message: COUPON_WINDOW_MESSAGES.afterStart }),
    );
    const listed = (await call('GET', 'coupons', admin)).json<CatalogueCoupon[]>();
    expect(listed.find((coupon) => coupon.id === created.id)?.validTo).toBeNull();
  });

  it('accepts a validTo after now for a new coupon without validFrom', async () => {
    const validTo = new Date(Date.now() + 86_400_000).toISOString();
    const response = await call('POST', 'coupons', admin, {
      code: 'ENDSTOMORROW',
      percent: 5,
      validTo,
    });
    expect(response.statusCode).toBe(200);
  });

  it('deactivates a coupon so an account can no longer use it', async () => {
    const created = (
      await call('POST', 'coupons', admin, { code: 'SHORTLIVED', percent: 5 })
    ).json<CatalogueCoupon>();
    const user = await signedInUser(test.app);
    const lookUp = () =>
      test.app.inject({
        method: 'GET',
        url: '/api/Master/getallcoupons?cupon=SHORTLIVED',
        headers: authHeaders(user),
      });
    expect((await lookUp()).json()).toHaveLength(1);
    const response = await call('POST', `coupons/${created.id}/deactivate`, admin);
    expect(response.statusCode).toBe(200);
    expect(response.json<CatalogueCoupon>().active).toBe(false);
    expect((await lookUp()).json()).toEqual([]);
  });

  it('answers 404 for a coupon that does not exist', async () => {
    expect((await call('POST', 'coupons/999999/deactivate', admin)).statusCode).toBe(404);
    expect(
      (await call('PUT', 'coupons/999999', admin, { code: 'NONE', percent: 5 })).statusCode,
    ).toBe(404);
  });

  it.each([
    [{ code: 'ZERO', percent: 0 }, 'percent', 'percent must be at least 1.'],
    [{ code: 'MUCH', percent: 101 }, 'percent', 'percent must not be more than 100.'],
    [{ code: 'has space', percent: 5 }, 'code', 'code must be 3 to 40 letters, digits, - or _.'],
    [{ percent: 5 }, 'code', 'code is required.'],
    [
      {
        code: 'BACKWARDS',
        percent: 5,
        validFrom: '2026-02-01T00:00:00Z',
        validTo: '2026-01-01T00:00:00Z',
      },
      'validTo',
      'validTo must be after validFrom.',
    ],
    [{ code: 'BADDATE', percent: 5, validTo: 'tomorrow' }, 'validTo', undefined],
    [
      { code: 'LIMITS', percent: 5, maxUses: 1, maxUsesPerUser: 2 },
      'maxUsesPerUser',
      'maxUsesPerUser must not be more than maxUses.',
    ],
    [{ code: 'NOUSE', percent: 5, maxUses: 0 }, 'maxUses', 'maxUses must be at least 1.'],
  ])('refuses %j with 400 naming the field', async (body, field, message) => {
    const response = await call('POST', 'coupons', admin, body);
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiError>().errors).toContainEqual(
      expect.objectContaining(message ? { field, message } : { field }),
    );
  });
});

describe('admin custom offers', () => {
  const customTiles = async (login: LoginResponse) =>
    (
      await test.app.inject({
        method: 'POST',
        url: `/api/Master/getCustomsubscriptionbyid?userID=${login.userID}`,
        headers: authHeaders(login),
      })
    ).json<{ data: Subscription[] }>().data;

  /** A customer's account whose address is confirmed: only such an account is offered a price. */
  const confirmedClient = async () => {
    const client = await signedInUser(test.app);
    await confirmAddress(test, client.emailID);
    return client;
  };

  it('offers an account, found by e-mail, a price for a state plan that it then sees', async () => {
    const client = await confirmedClient();
    const response = await call('POST', 'custom-offers', admin, {
      email: client.emailID.toUpperCase(),
      planId: plans.stateMedicare,
      stateCode: 'al',
      priceCents: 9900,
      note: 'Agreed on the phone',
    });
    expect(response.statusCode).toBe(200);
    const offer = response.json<CatalogueOffer>();
    expect(offer).toMatchObject({
      email: client.emailID.toLowerCase(),
      planId: plans.stateMedicare,
      planTitle: 'State Rates with Medicare Pricing',
      stateCode: 'AL',
      priceCents: 9900,
      note: 'Agreed on the phone',
      expiresAt: null,
    });
    expect((await customTiles(client)).map((t) => t.customOfferId)).toEqual([offer.id]);
    const listed = (await call('GET', 'custom-offers', admin)).json<CatalogueOffer[]>();
    expect(listed.map((o) => o.id)).toContain(offer.id);
  });

  it.each([
    [{ email: 'nobody@example.com' }, 'email', 'No account has the e-mail nobody@example.com.'],
    [{ planId: 999_999 }, 'planId', 'No plan has id 999999.'],
    [{ stateCode: 'ZZ' }, 'stateCode', 'ZZ is not a state we know.'],
    [{ priceCents: -100 }, 'priceCents', 'priceCents must not be negative.'],
    [{ email: 'not-an-email' }, 'email', 'Email is not valid.'],
    [{ expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt', 'expiresAt must be in the future.'],
  ])('refuses %j with 400 naming the field', async (change, field, message) => {
    const client = await confirmedClient();
    const response = await call('POST', 'custom-offers', admin, {
      email: client.emailID,
      planId: plans.stateAnnual,
      stateCode: 'AL',
      priceCents: 100,
      ...change,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiError>().errors).toContainEqual(
      expect.objectContaining({ field, message }),
    );
  });

  it('offers a price only once the account has confirmed its address', async () => {
    // Anyone can sign up with an address: the account may not be the customer until confirmed.
    const client = await signedInUser(test.app);
    const offer = { email: client.emailID, planId: plans.search15, priceCents: 500 };
    const refused = await call('POST', 'custom-offers', admin, offer);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ApiError>().errors).toContainEqual(
      expect.objectContaining({
        field: 'email',
        message: `The account with the e-mail ${client.emailID} has not confirmed its address yet: ask them to use the link we sent, then make the offer.`,
      }),
    );
    expect(await customTiles(client)).toEqual([]);
    await confirmAddress(test, client.emailID);
    expect((await call('POST', 'custom-offers', admin, offer)).statusCode).toBe(200);
    expect(await customTiles(client)).toHaveLength(1);
  });

  it('needs a state for a state plan and refuses one for a national plan', async () => {
    const client = await confirmedClient();
    const offer = { email: client.emailID, priceCents: 100 };
    const stateless = await call('POST', 'custom-offers', admin, {
      ...offer,
      planId: plans.stateAnnual,
    });
    expect(stateless.statusCode).toBe(400);
    expect(stateless.json<ApiError>().errors?.[0]?.field).toBe('stateCode');
    const national = await call('POST', 'custom-offers', admin, {
      ...offer,
      planId: plans.search5,
      stateCode: 'AL',
    });
    expect(national.statusCode).toBe(400);
    expect(national.json<ApiError>().message).toBe('Individual Search 5 is not sold per state.');
  });

  it('withdraws an offer so the account no longer sees it', async () => {
    const client = await confirmedClient();
    const offer = (
      await call('POST', 'custom-offers', admin, {
        email: client.emailID,
        planId: plans.search15,
        priceCents: 500,
      })
    ).json<CatalogueOffer>();
    const removed = await call('DELETE', `custom-offers/${offer.id}`, admin);
    expect(removed.statusCode).toBe(204);
    expect(await customTiles(client)).toEqual([]);
    const listed = (await call('GET', 'custom-offers', admin)).json<CatalogueOffer[]>();
    expect(listed.map((o) => o.id)).not.toContain(offer.id);
    expect((await call('DELETE', `custom-offers/${offer.id}`, admin)).statusCode).toBe(404);
  });

  it('expires, instead of deleting, an offer an order was placed for', async () => {
    const client = await confirmedClient();
    const offer = (
      await call('POST', 'custom-offers', admin, {
        email: client.emailID,
        planId: plans.search15,
        priceCents: 500,
      })
    ).json<CatalogueOffer>();
    const pool = test.database.connection.pool;
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO orders (user_id, kind, idempotency_scope, idempotency_key, request_hash, method, amount_cents,
              email, gateway, invoice_number)
       VALUES ($1, 'subscription', $2, 'offer-order', 'hash', 'card', 500, 'x@example.com', 'fake', 'offer-order')
       RETURNING id`,
      [client.userID, `user:${client.userID}`],
    );
    await pool.query(
      `INSERT INTO order_items (order_id, plan_id, custom_offer_id, installment, file_count, unit_price_cents,
              total_price_cents, discount_cents, final_price_cents, installment_cents, maintenance_cents, due_today_cents)
       VALUES ($1, $2, $3, false, 1, 500, 500, 0, 500, 0, 0, 500)`,
      [rows[0]?.id, plans.search15, offer.id],
    );
    expect((await call('DELETE', `custom-offers/${offer.id}`, admin)).statusCode).toBe(204);
    expect(await customTiles(client)).toEqual([]);
    const kept = (await call('GET', 'custom-offers', admin))
      .json<CatalogueOffer[]>()
      .find((o) => o.id === offer.id);
    expect(Date.parse(kept?.expiresAt ?? '')).toBeLessThanOrEqual(Date.now());
  });
});
