import {
  CartItemSchema,
  PAYMENT_MESSAGES,
  type ApiError,
  type LoginResponse,
  type Subscription,
} from '@ratelens/core';
import { listOutboxMessages } from '@ratelens/db';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authHeaders,
  createTestApp,
  signedInAdmin,
  signedInUser,
  useTestApp,
} from '../test/app.ts';
import { Catalogue } from './catalogue.ts';
import {
  LOADED,
  addCoupon,
  addOffer,
  holdSubscription,
  orderWithCoupon,
  seedStatesAndFiles,
  seededPlans,
} from './catalogue-fixtures.ts';
import { PLAN_LEAD_THANKS } from './plan-leads.ts';

const test = useTestApp();
let plans: Awaited<ReturnType<typeof seededPlans>>;

beforeAll(async () => {
  await seedStatesAndFiles(test.database.connection.pool);
  plans = await seededPlans(test.database.connection.pool);
});

const pool = () => test.database.connection.pool;
const catalogue = () => new Catalogue(pool());
/** A cart line as the client sends it, through the same schema the payment calls use. */
const line = (subscriptionID: number, state = '', extra: Record<string, unknown> = {}) =>
  CartItemSchema.parse({ subscriptionID, state, ...extra });

function get(url: string, login: LoginResponse | null = null) {
  return test.app.inject({ method: 'GET', url, headers: login ? authHeaders(login) : {} });
}
function post(url: string, login: LoginResponse | null = null) {
  return test.app.inject({ method: 'POST', url, headers: login ? authHeaders(login) : {} });
}

describe('Catalogue.priceCart', () => {
  let buyer: LoginResponse;
  beforeAll(async () => {
    buyer = await signedInUser(test.app);
  });
  const price = (items: ReturnType<typeof line>[], coupon?: string | null, userId = buyer.userID) =>
    catalogue().priceCart(pool(), userId, items, coupon);

  it('prices a state plan as the per-file price times the files loaded for the state', async () => {
    const order = await price([line(plans.stateAnnual, 'AL')]);
    expect(order.lines).toHaveLength(1);
    expect(order.lines[0]?.stateCode).toBe('AL');
    expect(order.lines[0]?.priced).toMatchObject({
      unitPriceCents: 2500,
      quantity: LOADED.AL.files,
      totalPriceCents: 7500,
      finalPriceCents: 7500,
      dueTodayCents: 7500,
    });
    expect(order).toMatchObject({ dueTodayCents: 7500, discountCents: 0, coupon: null });
  });

  it('ignores every price field the client sends', async () => {
    const forged = line(plans.stateAnnual, 'AL', {
      price: 0.01,
      totalPrice: 0.01,
      actualPrice: 0,
      InstallmentAmount: 0,
      MaintenanceCharges: 0,
    });
    expect((await price([forged])).dueTodayCents).toBe(7500);
  });

  it('takes the state by code or by name, in any case', async () => {
    const byName = await price([line(plans.stateAnnual, 'alabama')]);
    expect(byName.lines[0]?.stateCode).toBe('AL');
    expect(byName.dueTodayCents).toBe(7500);
  });

  it('prices a national plan once, whatever state is sent', async () => {
    const order = await price([line(plans.search5, 'AK')]);
    expect(order.lines[0]).toMatchObject({
      stateCode: null,
      plan: { subscriptionType: 'Individual Search', accessType: 'National', searchCount: 5 },
    });
    expect(order.lines[0]?.priced).toMatchObject({ quantity: 1, totalPriceCents: 999 });
  });

  it('splits an installment plan into 12 payments that add up to the price plus 12 maintenance fees', async () => {
    const order = await price([line(plans.stateAnnual, 'AL', { IsInstalmentPayment: true })]);
    const priced = order.lines[0]?.priced;
    // $75.00 ÷ 12 = $6.25, plus the plan's $5.00 monthly maintenance fee.
    expect(priced).toMatchObject({
      installmentCents: 1125,
      maintenanceCents: 500,
      dueTodayCents: 1125,
    });
    expect(priced?.schedule).toHaveLength(12);
    expect(priced?.schedule.reduce((a, b) => a + b, 0)).toBe(7500 + 12 * 500);
    expect(order.dueTodayCents).toBe(1125);
  });

  it('rounds an installment half-up after the coupon and lets the last payment absorb the rest', async () => {
    await addCoupon(pool(), { code: 'TENOFF', percent: 10 });
    const order = await price(
      [line(plans.stateAnnual, 'AL', { IsInstalmentPayment: true })],
      'tenoff',
    );
    const priced = order.lines[0]?.priced;
    // $75.00 − 10% = $67.50; ÷ 12 = 562.5 cents → 563, + 500 fee.
    expect(priced).toMatchObject({
      discountCents: 750,
      finalPriceCents: 6750,
      installmentCents: 1063,
    });
    expect(priced?.schedule.at(-1)).toBe(6750 - 563 * 11 + 500);
    expect(priced?.schedule.reduce((a, b) => a + b, 0)).toBe(6750 + 12 * 500);
    expect(order.coupon).toMatchObject({ code: 'TENOFF', percent: 10 });
  });

  it('refuses installments on a plan that has none', async () => {
    await expect(
      price([line(plans.search5, '', { IsInstalmentPayment: true })]),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: 'Individual Search 5 cannot be paid in installments.',
      errors: [{ field: 'items.0.IsInstalmentPayment' }],
    });
  });

  it('applies a coupon to annual items only', async () => {
    await addCoupon(pool(), { code: 'QUARTER', percent: 25 });
    const order = await price([line(plans.stateAnnual, 'AL'), line(plans.search5)], 'QUARTER');
    expect(order.lines.map((l) => l.priced.discountCents)).toEqual([1875, 0]);
    expect(order.discountCents).toBe(1875);
    expect(order.dueTodayCents).toBe(7500 - 1875 + 999);
  });

  it('refuses a coupon when the cart holds no annual item', async () => {
    await addCoupon(pool(), { code: 'NOANNUAL', percent: 25 });
    await expect(price([line(plans.search5)], 'NOANNUAL')).rejects.toMatchObject({
      statusCode: 400,
      message: PAYMENT_MESSAGES.couponAnnualOnly,
      errors: [{ field: 'couponCode', message: PAYMENT_MESSAGES.couponAnnualOnly }],
    });
  });

  it.each([
    ['unknown', null],
    ['expired', { code: 'EXPIRED', percent: 10, validFromDays: -30, validToDays: -1 }],
    ['not yet valid', { code: 'LATER', percent: 10, validFromDays: 2, validToDays: 30 }],
    ['deactivated', { code: 'OFF', percent: 10, active: false }],
  ] as const)('refuses a coupon that is %s', async (_label, coupon) => {
    if (coupon) await addCoupon(pool(), coupon);
    await expect(
      price([line(plans.stateAnnual, 'AL')], coupon?.code ?? 'NOSUCHCODE'),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: PAYMENT_MESSAGES.couponInvalid,
      errors: [{ field: 'couponCode', rule: 'custom' }],
    });
  });

  it('counts paid and pending orders, not declined ones, against a coupon’s total uses', async () => {
    const other = await signedInUser(test.app);
    const id = await addCoupon(pool(), { code: 'TWICE', percent: 10, maxUses: 2 });
    await orderWithCoupon(pool(), other.userID, id, 'paid');
    await orderWithCoupon(pool(), other.userID, id, 'declined');
    expect((await price([line(plans.stateAnnual, 'AL')], 'TWICE')).coupon?.id).toBe(id);
    // A payment under way holds its use until it fails.
    await orderWithCoupon(pool(), other.userID, id, 'pending');
    await expect(price([line(plans.stateAnnual, 'AL')], 'TWICE')).rejects.toMatchObject({
      message: PAYMENT_MESSAGES.couponInvalid,
    });
  });

  it('limits a coupon per account without limiting other accounts', async () => {
    const other = await signedInUser(test.app);
    const id = await addCoupon(pool(), { code: 'ONCEEACH', percent: 10, maxUsesPerUser: 1 });
    await orderWithCoupon(pool(), other.userID, id, 'paid');
    await expect(
      price([line(plans.stateAnnual, 'AL')], 'ONCEEACH', other.userID),
    ).rejects.toMatchObject({ message: PAYMENT_MESSAGES.couponInvalid });
    expect((await price([line(plans.stateAnnual, 'AL')], 'ONCEEACH')).coupon?.id).toBe(id);
  });

  it('refuses the same plan and state twice, however the state is written', async () => {
    await expect(
      price([line(plans.stateAnnual, 'AL'), line(plans.stateAnnual, 'Alabama')]),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: PAYMENT_MESSAGES.alreadyInCart,
      errors: [{ field: 'items.1', rule: 'duplicate' }],
    });
  });

  it('sells one plan for two states in one cart', async () => {
    const order = await price([line(plans.stateAnnual, 'AL'), line(plans.stateAnnual, 'AK')]);
    expect(order.dueTodayCents).toBe(2500 * (LOADED.AL.files + LOADED.AK.files));
  });

  it('refuses a plan and state the account already holds', async () => {
    const owner = await signedInUser(test.app);
    await holdSubscription(pool(), {
      userId: owner.userID,
      planId: plans.stateAnnual,
      stateCode: 'AL',
    });
    await expect(
      price([line(plans.stateAnnual, 'AK'), line(plans.stateAnnual, 'AL')], null, owner.userID),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: PAYMENT_MESSAGES.alreadyOwned,
      errors: [{ field: 'items.1', message: PAYMENT_MESSAGES.alreadyOwned }],
    });
    expect((await price([line(plans.stateAnnual, 'AK')], null, owner.userID)).dueTodayCents).toBe(
      2500,
    );
  });

  it('sells a plan again once the held one has expired', async () => {
    const owner = await signedInUser(test.app);
    await holdSubscription(pool(), {
      userId: owner.userID,
      planId: plans.stateAnnual,
      stateCode: 'AL',
      expiresInHours: -1,
    });
    expect((await price([line(plans.stateAnnual, 'AL')], null, owner.userID)).dueTodayCents).toBe(
      7500,
    );
  });

  it('sells an individual-search pack again once its searches are used up', async () => {
    const owner = await signedInUser(test.app);
    const held = {
      userId: owner.userID,
      planId: plans.search5,
      kind: 'individual-search',
    } as const;
    await holdSubscription(pool(), { ...held, remaining: 0 });
    expect((await price([line(plans.search5)], null, owner.userID)).dueTodayCents).toBe(999);
    await holdSubscription(pool(), { ...held, remaining: 3 });
    await expect(price([line(plans.search5)], null, owner.userID)).rejects.toMatchObject({
      message: PAYMENT_MESSAGES.alreadyOwned,
    });
  });

  it.each([
    [
      'an unknown plan',
      () => line(999_999),
      'subscriptionID',
      'No plan with id 999999 is offered.',
    ],
    [
      'a state plan without a state',
      () => line(plans.stateAnnual),
      'state',
      'Choose a state for State Negotiated Rates.',
    ],
    [
      'an unknown state',
      () => line(plans.stateAnnual, 'ZZ'),
      'state',
      'ZZ is not a state we know.',
    ],
    [
      'a state with no files loaded',
      () => line(plans.stateAnnual, 'MA'),
      '',
      'No hospital files are loaded for Massachusetts yet, so it cannot be bought.',
    ],
    [
      'the negotiable all-states plan',
      () => line(plans.allStates),
      '',
      'All States is negotiable and is not sold through checkout. Please contact us for a price.',
    ],
  ])('refuses %s with 400, naming the item', async (_label, item, field, message) => {
    // The refused item is the second of the cart: its fields are named under items.1.
    await expect(price([line(plans.search5), item()])).rejects.toMatchObject({
      statusCode: 400,
      message,
      errors: [{ field: field ? `items.1.${field}` : 'items.1', message }],
    });
  });

  it('refuses an inactive plan', async () => {
    const { rows } = await pool().query<{ id: number }>(
      `INSERT INTO plans (title, subscription_type, access_type, price_cents, active)
       VALUES ('Retired plan', 'Annual', 'National', 1000, false) RETURNING id`,
    );
    const id = rows[0]?.id ?? 0;
    await expect(price([line(id)])).rejects.toMatchObject({
      statusCode: 400,
      message: `No plan with id ${id} is offered.`,
    });
  });

  it('refuses with 403 an item that names another account', async () => {
    const other = await signedInUser(test.app);
    await expect(price([line(plans.search5, '', { userID: other.userID })])).rejects.toMatchObject({
      statusCode: 403,
    });
    expect((await price([line(plans.search5, '', { userID: buyer.userID })])).dueTodayCents).toBe(
      999,
    );
    // A UUID has no case: the buyer's own id in capitals names the buyer.
    const own = line(plans.search5, '', { userID: buyer.userID.toUpperCase() });
    expect((await price([own])).dueTodayCents).toBe(999);
  });

  it("prices a custom offer at the account's offered price", async () => {
    const client = await signedInUser(test.app);
    const offerId = await addOffer(pool(), {
      userId: client.userID,
      planId: plans.stateMedicare,
      stateCode: 'AK',
      priceCents: 123_45,
    });
    const order = await price(
      [line(plans.stateMedicare, '', { customOfferId: offerId })],
      null,
      client.userID,
    );
    expect(order.lines[0]).toMatchObject({ customOfferId: offerId, stateCode: 'AK' });
    expect(order.lines[0]?.priced).toMatchObject({ quantity: 1, totalPriceCents: 12345 });
  });

  it('sells the negotiable all-states plan through a custom offer', async () => {
    const client = await signedInUser(test.app);
    const offerId = await addOffer(pool(), {
      userId: client.userID,
      planId: plans.allStates,
      priceCents: 5_000_00,
    });
    const order = await price(
      [line(plans.allStates, '', { customOfferId: offerId })],
      null,
      client.userID,
    );
    expect(order.dueTodayCents).toBe(500_000);
  });

  it("refuses with 403 another account's custom offer", async () => {
    const client = await signedInUser(test.app);
    const offerId = await addOffer(pool(), {
      userId: client.userID,
      planId: plans.search15,
      priceCents: 100,
    });
    await expect(
      price([line(plans.search15, '', { customOfferId: offerId })]),
    ).rejects.toMatchObject({
      statusCode: 403,
      message: 'This offer was made to another account.',
    });
  });

  it('refuses an expired custom offer or one sent with another plan', async () => {
    const expired = await addOffer(pool(), {
      userId: buyer.userID,
      planId: plans.search15,
      priceCents: 100,
      expiresInDays: -1,
    });
    await expect(
      price([line(plans.search15, '', { customOfferId: expired })]),
    ).rejects.toMatchObject({ statusCode: 400, message: 'This offer has expired.' });
    const current = await addOffer(pool(), {
      userId: buyer.userID,
      planId: plans.search15,
      priceCents: 100,
    });
    await expect(
      price([line(plans.search5, '', { customOfferId: current })]),
    ).rejects.toMatchObject({ statusCode: 400, message: 'This offer is for another plan.' });
  });
});

describe('GET api/master/getsubscription', () => {
  it('answers without a session: the public plans page shows the same tiles', async () => {
    const response = await get('/api/master/getsubscription');
    expect(response.statusCode).toBe(200);
    expect(response.json<{ data: unknown[] }>().data.length).toBeGreaterThan(0);
  });

  it("lists Alabama's tiles by default: state plans priced for its files, All States, Individual Search", async () => {
    const login = await signedInUser(test.app);
    const response = await get('/api/master/getsubscription', login);
    expect(response.statusCode).toBe(200);
    const tiles = response.json<{ data: Subscription[] }>().data;
    expect(tiles.map((t) => t.subscriptionTitle)).toEqual([
      'State Negotiated Rates',
      'State Rates with Medicare Pricing',
      'State Negotiated Rates, Monthly',
      'All States',
      'Individual Search 5',
      'Individual Search 15',
      'Individual Search 30',
      'Individual Search 60',
    ]);
    expect(tiles[0]).toMatchObject({
      subscriptionType: 'Annual',
      accessType: 'State',
      price: 25,
      totalPrice: 75,
      priceCents: 2500,
      totalPriceCents: 7500,
      filterStates: 'Alabama',
      stateCode: 'AL',
      totalFilesCountSpecificState: LOADED.AL.files,
      hospitalCount: LOADED.AL.hospitals,
      totalFilesCountAllStates: LOADED.all.files,
      totalHospitalCountAllStates: LOADED.all.hospitals,
      installmentEligible: true,
      maintenanceFeeCents: 500,
      customOfferId: null,
    });
    expect(tiles[3]).toMatchObject({
      filterStates: 'All States',
      totalPrice: 0,
      negotiable: true,
      includesDataFeed: true,
    });
    const individual = tiles.filter((t) => t.accessType === 'National');
    expect(individual).toHaveLength(4);
    expect(individual.every((t) => t.price === t.totalPrice && t.filterStates === 'National')).toBe(
      true,
    );
  });

  it("prices the state plans for the chosen state's files", async () => {
    const login = await signedInUser(test.app);
    const tiles = (await get('/api/master/getsubscription?stateId=2', login)).json<{
      data: Subscription[];
    }>().data;
    expect(tiles[0]).toMatchObject({
      filterStates: 'Alaska',
      totalPriceCents: 2500 * LOADED.AK.files,
      totalFilesCountSpecificState: LOADED.AK.files,
    });
  });

  it.each([
    ['abc', 'stateId must be a whole number.'],
    ['1e3', 'stateId must be a whole number.'],
    ['0', 'stateId must be a state id such as 1.'],
    ['50', 'No state has id 50.'],
  ])('refuses stateId=%s with 400 naming the field', async (stateId, message) => {
    const login = await signedInUser(test.app);
    const response = await get(`/api/master/getsubscription?stateId=${stateId}`, login);
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiError>()).toMatchObject({
      message,
      errors: [expect.objectContaining({ field: 'stateId' })],
    });
  });

  it('hides a plan an administrator takes off the catalogue', async () => {
    const { rows } = await pool().query<{ id: number }>(
      `INSERT INTO plans (title, subscription_type, access_type, price_cents, sort_order)
       VALUES ('Seasonal plan', 'Annual', 'National', 1000, 99) RETURNING id`,
    );
    const id = rows[0]?.id ?? 0;
    const login = await signedInUser(test.app);
    const titles = async () =>
      (await get('/api/master/getsubscription', login))
        .json<{ data: Subscription[] }>()
        .data.map((t) => t.subscriptionTitle);
    expect(await titles()).toContain('Seasonal plan');
    await pool().query(`UPDATE plans SET active = false WHERE id = $1`, [id]);
    expect(await titles()).not.toContain('Seasonal plan');
    expect((await get(`/api/Master/getsubscriptionbyid?subscriptionid=${id}`)).statusCode).toBe(
      404,
    );
  });
});

describe('GET api/Master/getsubscriptionbyid', () => {
  it("answers one plan's tile for a state without a session", async () => {
    const response = await get(
      `/api/Master/getsubscriptionbyid?stateId=2&subscriptionid=${plans.stateMedicare}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json<Subscription>()).toMatchObject({
      subscriptionID: plans.stateMedicare,
      stateCode: 'AK',
      totalPriceCents: 4000 * LOADED.AK.files,
    });
  });

  it('refuses a missing plan id with 400 and an unknown one with 404', async () => {
    const missing = await get('/api/Master/getsubscriptionbyid?stateId=1');
    expect(missing.statusCode).toBe(400);
    expect(missing.json<ApiError>().errors?.[0]?.field).toBe('subscriptionid');
    expect((await get('/api/Master/getsubscriptionbyid?subscriptionid=999999')).statusCode).toBe(
      404,
    );
  });
});

describe('GET api/Subscription/GetMaintancesCharges', () => {
  it("answers the plan's monthly maintenance fee in dollars and cents", async () => {
    const response = await get(
      `/api/Subscription/GetMaintancesCharges?filterInput=${plans.stateAnnual}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([{ maintancesCharges: 5, maintancesChargesCents: 500 }]);
  });

  it('refuses a filterInput that is not a plan id', async () => {
    const response = await get('/api/Subscription/GetMaintancesCharges?filterInput=%7B%7D');
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiError>().errors?.[0]?.field).toBe('filterInput');
    const unknown = await get('/api/Subscription/GetMaintancesCharges?filterInput=999999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ApiError>().message).toBe('No plan with id 999999 is offered.');
  });
});

describe('POST api/Master/getCustomsubscriptionbyid', () => {
  it("lists the account's current offers as tiles, for the state and national ones", async () => {
    const client = await signedInUser(test.app);
    const alabama = await addOffer(pool(), {
      userId: client.userID,
      planId: plans.stateAnnual,
      stateCode: 'AL',
      priceCents: 6000,
    });
    const national = await addOffer(pool(), {
      userId: client.userID,
      planId: plans.search15,
      priceCents: 1999,
    });
    await addOffer(pool(), {
      userId: client.userID,
      planId: plans.stateAnnual,
      stateCode: 'AK',
      priceCents: 1,
    });
    await addOffer(pool(), {
      userId: client.userID,
      planId: plans.search5,
      priceCents: 1,
      expiresInDays: -1,
    });
    const response = await post(
      `/api/Master/getCustomsubscriptionbyid?userID=${client.userID}&StateId=1`,
      client,
    );
    expect(response.statusCode).toBe(200);
    const tiles = response.json<{ data: Subscription[] }>().data;
    expect(tiles.map((t) => t.customOfferId)).toEqual([alabama, national]);
    expect(tiles[0]).toMatchObject({
      subscriptionID: plans.stateAnnual,
      filterStates: 'Alabama',
      price: 60,
      totalPrice: 60,
      totalPriceCents: 6000,
    });
  });

  it('answers an empty list to an account without offers', async () => {
    const login = await signedInUser(test.app);
    const response = await post(
      `/api/Master/getCustomsubscriptionbyid?userID=${login.userID}`,
      login,
    );
    expect(response.json()).toEqual({ data: [] });
  });

  it("refuses another account's offers with 403 and a signed-out caller with 401", async () => {
    const login = await signedInUser(test.app);
    const other = await signedInUser(test.app);
    const url = `/api/Master/getCustomsubscriptionbyid?userID=${other.userID}`;
    expect((await post(url, login)).statusCode).toBe(403);
    expect((await post(url)).statusCode).toBe(401);
  });

  it('refuses a userID that is not an account id with 400', async () => {
    const login = await signedInUser(test.app);
    const response = await post('/api/Master/getCustomsubscriptionbyid?userID=me', login);
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiError>().errors?.[0]?.field).toBe('userID');
  });
});

describe('GET api/Subscription/getcheckoutflag', () => {
  const flag = (login: LoginResponse, planId: number, state = '', userId = login.userID) =>
    get(
      `/api/Subscription/getcheckoutflag?userId=${userId}&subscriptionId=${planId}&state=${state}`,
      login,
    );

  it('answers 1 for a plan the account may buy and 0 for one it holds', async () => {
    const login = await signedInUser(test.app);
    expect((await flag(login, plans.stateAnnual, 'AL')).json()).toBe(1);
    await holdSubscription(pool(), {
      userId: login.userID,
      planId: plans.stateAnnual,
      stateCode: 'AL',
    });
    expect((await flag(login, plans.stateAnnual, 'AL')).json()).toBe(0);
    expect((await flag(login, plans.stateAnnual, 'Alaska')).json()).toBe(1);
    expect((await flag(login, plans.search5)).json()).toBe(1);
  });

  it('refuses a state plan without a state with 400 naming the field', async () => {
    const login = await signedInUser(test.app);
    const response = await flag(login, plans.stateAnnual);
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiError>().errors?.[0]?.field).toBe('state');
  });

  it("refuses another account's id with 403 and a signed-out caller with 401", async () => {
    const login = await signedInUser(test.app);
    const other = await signedInUser(test.app);
    expect((await flag(login, plans.search5, '', other.userID)).statusCode).toBe(403);
    const signedOut = await get(
      `/api/Subscription/getcheckoutflag?userId=${login.userID}&subscriptionId=${plans.search5}`,
    );
    expect(signedOut.statusCode).toBe(401);
  });
});

describe('GET api/Master/getallcoupons', () => {
  const coupons = (login: LoginResponse | null, code?: string) =>
    get(
      `/api/Master/getallcoupons${code === undefined ? '' : `?cupon=${encodeURIComponent(code)}`}`,
      login,
    );

  it('answers a coupon the account may use, in any case, as one element', async () => {
    const id = await addCoupon(pool(), { code: 'WELCOME15', percent: 15 });
    const login = await signedInUser(test.app);
    const response = await coupons(login, ' welcome15 ');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { couponID: id, couponCode: 'WELCOME15', couponDiscountPerc: 15 },
    ]);
  });

  it('answers an empty list for an unknown, expired or used-up coupon', async () => {
    const login = await signedInUser(test.app);
    await addCoupon(pool(), { code: 'GONE', percent: 10, validFromDays: -10, validToDays: -1 });
    const usedUp = await addCoupon(pool(), { code: 'USEDUP', percent: 10, maxUsesPerUser: 1 });
    await orderWithCoupon(pool(), login.userID, usedUp);
    for (const code of ['NOPE', 'GONE', 'USEDUP', ''])
      expect((await coupons(login, code)).json(), code).toEqual([]);
  });

  it('lists every coupon to an administrator only', async () => {
    await addCoupon(pool(), { code: 'LISTED', percent: 5 });
    const admin = await signedInAdmin(test);
    const listed = await coupons(admin);
    expect(listed.statusCode).toBe(200);
    expect(listed.json<{ couponCode: string }[]>().map((c) => c.couponCode)).toContain('LISTED');
    const login = await signedInUser(test.app);
    expect((await coupons(login)).statusCode).toBe(403);
    expect((await coupons(null, 'LISTED')).statusCode).toBe(401);
  });
});

describe('POST api/master/subscriptionViewMailSend', () => {
  const send = (query: string) =>
    test.app.inject({ method: 'POST', url: `/api/master/subscriptionViewMailSend?${query}` });

  it('keeps the name and e-mail and tells the team', async () => {
    const response = await send('userName=Grace%20Hopper&userEmail=Grace@Example.com');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ isSuccess: true, message: PLAN_LEAD_THANKS });
    const { rows } = await pool().query(`SELECT name, email FROM plan_leads`);
    expect(rows).toEqual([{ name: 'Grace Hopper', email: 'grace@example.com' }]);
    const [mail] = await listOutboxMessages(test.database.connection.db, {
      to: 'team@ratelens.local',
    });
    expect(mail?.subject).toBe('Plans page: Grace Hopper');
    expect(mail?.text).toContain('Email: grace@example.com');
  });

  it.each([
    ['userName=&userEmail=a@example.com', 'userName', 'Name is required.'],
    ['userName=Ann&userEmail=not-an-email', 'userEmail', 'Email is not valid.'],
    ['userName=Ann', 'userEmail', 'Email is required.'],
  ])('refuses %s with 400 naming the field', async (query, field, message) => {
    const response = await send(query);
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiError>().errors?.[0]).toMatchObject({ field, message });
  });
});

describe('rate limits', () => {
  it('answers 429 once a client leaves more plan-page leads a minute than AUTH_RATE_LIMIT_PER_MINUTE', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const send = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/master/subscriptionViewMailSend?userName=Ann&userEmail=ann@example.com',
        });
      const statuses = [
        (await send()).statusCode,
        (await send()).statusCode,
        (await send()).statusCode,
      ];
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
