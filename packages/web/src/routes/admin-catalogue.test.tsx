// @vitest-environment jsdom
import {
  ROLES,
  SECRET_KEY_HEADER,
  type CatalogueCoupon,
  type CatalogueOffer,
  type CataloguePlan,
  type CouponInput,
  type CustomOfferInput,
  type PlanInput,
} from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_COUPONS } from '../features/admin/catalogue-coupons.tsx';
import { NO_OFFERS } from '../features/admin/catalogue-offers.tsx';
import { DOLLARS_MESSAGE } from '../features/admin/catalogue-values.ts';
import { NO_ACCESS_MESSAGE } from '../features/auth/guards.tsx';
import { readSession } from '../features/auth/session.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { forbiddenResponse, jsonResponse, renderWithProviders } from '../test/render.tsx';
import { signInAs } from '../test/sign-in.ts';
import { AdminCatalogueRoute } from './admin-catalogue.tsx';

const STATE_PLAN: CataloguePlan = {
  id: 1,
  title: 'State Negotiated Rates',
  subscriptionType: 'Annual',
  accessType: 'State',
  priceCents: 2500,
  searchCount: null,
  priceDescription: 'Every hospital file of the state for a year',
  installmentEligible: true,
  maintenanceFeeCents: 500,
  negotiable: false,
  includesDataFeed: true,
  termMonths: 12,
  sortOrder: 1,
  active: true,
};
const SEARCH_PLAN: CataloguePlan = {
  ...STATE_PLAN,
  id: 5,
  title: 'Individual Search 5',
  subscriptionType: 'Individual Search',
  accessType: 'National',
  priceCents: 999,
  searchCount: 5,
  installmentEligible: false,
  maintenanceFeeCents: 0,
  includesDataFeed: false,
  sortOrder: 5,
  active: false,
};
const WELCOME: CatalogueCoupon = {
  id: 7,
  code: 'WELCOME',
  percent: 15,
  validFrom: '2026-03-01T00:00:00.000Z',
  validTo: '2026-07-01T00:00:00.000Z',
  maxUses: 100,
  maxUsesPerUser: 1,
  active: true,
  timesUsed: 3,
};
const OFFER: CatalogueOffer = {
  id: 11,
  email: 'cfo@acme.example.com',
  planId: 1,
  planTitle: 'State Negotiated Rates',
  stateCode: 'AL',
  priceCents: 6000,
  note: 'Agreed on the phone',
  expiresAt: null,
  createdAt: '2026-03-02T10:00:00.000Z',
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

type Call = [string, RequestInit | undefined];
type Answer = () => Response | Promise<Response>;

/**
 * A server whose lists follow the writes; `answers` overrides a call by "METHOD path" (a write it
 * accepts still changes the lists).
 */
function stubServer(answers: Record<string, Answer> = {}) {
  let plans = [STATE_PLAN, SEARCH_PLAN];
  let coupons = [WELCOME];
  let offers = [OFFER];
  const fetchMock = vi.fn((url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const answer = answers[`${method} ${url}`];
    if (!answer) return serve(url, init);
    if (method === 'GET') return Promise.resolve(answer());
    return Promise.resolve(answer()).then((response) =>
      response.ok ? serve(url, init).then(() => response) : response,
    );
  });
  function serve(url: string, init?: RequestInit): Promise<Response> {
    const method = init?.method ?? 'GET';
    const body = (typeof init?.body === 'string' ? JSON.parse(init.body) : {}) as object;
    const route = `${method} ${url}`;
    if (route === 'GET /api/admin/plans') return Promise.resolve(jsonResponse(200, plans));
    if (route === 'GET /api/admin/coupons') return Promise.resolve(jsonResponse(200, coupons));
    if (route === 'GET /api/admin/custom-offers') return Promise.resolve(jsonResponse(200, offers));
    if (route === 'GET /api/master/getallstates')
      return Promise.resolve(
        jsonResponse(200, [
          { stateID: 1, stateName: 'Alabama', stateCode: 'AL' },
          { stateID: 2, stateName: 'Alaska', stateCode: 'AK' },
        ]),
      );
    const planMatch = /^PUT \/api\/admin\/plans\/(\d+)$/.exec(route);
    if (planMatch) {
      const saved = { ...(body as PlanInput), id: Number(planMatch[1]) };
      plans = plans.map((p) => (p.id === saved.id ? saved : p));
      return Promise.resolve(jsonResponse(200, saved));
    }
    if (route === 'POST /api/admin/coupons') {
      const input = body as CouponInput;
      const created: CatalogueCoupon = {
        ...input,
        id: 8,
        validFrom: input.validFrom ?? '2026-05-01T00:00:00.000Z',
        active: true,
        timesUsed: 0,
      };
      coupons = [...coupons, created];
      return Promise.resolve(jsonResponse(200, created));
    }
    const deactivate = /^POST \/api\/admin\/coupons\/(\d+)\/deactivate$/.exec(route);
    if (deactivate) {
      coupons = coupons.map((c) => (c.id === Number(deactivate[1]) ? { ...c, active: false } : c));
      return Promise.resolve(
        jsonResponse(
          200,
          coupons.find((c) => c.id === Number(deactivate[1])),
        ),
      );
    }
    if (route === 'POST /api/admin/custom-offers') {
      const input = body as CustomOfferInput;
      const created: CatalogueOffer = {
        ...input,
        id: 12,
        planTitle: plans.find((p) => p.id === input.planId)?.title ?? '',
        createdAt: '2026-05-01T00:00:00.000Z',
      };
      offers = [created, ...offers];
      return Promise.resolve(jsonResponse(200, created));
    }
    const removal = /^DELETE \/api\/admin\/custom-offers\/(\d+)$/.exec(route);
    if (removal) {
      offers = offers.filter((o) => o.id !== Number(removal[1]));
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    return Promise.resolve(jsonResponse(404, {}));
  }
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const writes = (fetchMock: ReturnType<typeof stubServer>) =>
  (fetchMock.mock.calls as Call[]).filter(([, init]) => (init?.method ?? 'GET') !== 'GET');
const sentBody = (call: Call | undefined) => JSON.parse(call?.[1]?.body as string) as unknown;

function type(scope: HTMLElement, label: RegExp, value: string) {
  const input = within(scope).getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

/** The table of a section ('Plans', 'Coupons', 'Custom offers'), once loaded. */
const table = (name: string) => screen.findByRole('region', { name: `${name} table` });
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

function renderAsAdmin(answers?: Record<string, Answer>) {
  signInAs(ROLES.admin);
  const fetchMock = stubServer(answers);
  renderWithProviders(<AdminCatalogueRoute />);
  return fetchMock;
}

const forbidden = () => forbiddenResponse('Only administrators can manage the catalogue.');

describe('AdminCatalogueRoute', () => {
  it('lets its table cells break a word only when it cannot fit a line by itself', async () => {
    renderAsAdmin();
    const plans = await table('Plans');
    // 'anywhere' let the table squeeze a column below its longest word: "Offere d" at 1,024 px.
    const styles = within(plans)
      .getAllByRole('cell')
      .map((cell) => cell.style.overflowWrap);
    expect(new Set(styles)).toEqual(new Set(['break-word', '']));
    expect(within(plans).getByRole('cell', { name: 'Offered' }).style.overflowWrap).toBe(
      'break-word',
    );
  });

  it('lists the plans with their price, installments and status, with the auth headers sent', async () => {
    const fetchMock = renderAsAdmin();
    expect(screen.getByRole('heading', { level: 1, name: 'Catalogue' })).toBeTruthy();
    const plans = await table('Plans');
    expect(
      within(plans)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Title',
      'Type',
      'Access',
      'Price',
      'Searches',
      'Installments',
      'Status',
      'Actions',
    ]);
    expect(cellsOf(within(plans).getByRole('row', { name: /^State Negotiated Rates/ }))).toEqual([
      'Annual',
      'State',
      '$25.00 a file',
      '—',
      'Yes, $5.00 a month fee',
      'Offered',
      'Edit',
    ]);
    expect(cellsOf(within(plans).getByRole('row', { name: /^Individual Search 5/ }))).toEqual([
      'Individual Search',
      'National',
      '$9.99',
      '5',
      'No',
      'Hidden',
      'Edit',
    ]);
    const [, init] = (fetchMock.mock.calls as Call[]).find(([url]) => url === '/api/admin/plans')!;
    expect(init?.headers).toMatchObject({
      Authorization: 'Bearer access-1',
      [SECRET_KEY_HEADER]: 'secret-1',
    });
  });

  it('changes a plan, sending the price in cents', async () => {
    const fetchMock = renderAsAdmin();
    fireEvent.click(
      within(await table('Plans')).getByRole('button', { name: 'Edit State Negotiated Rates' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit plan' });
    expect(within(dialog).getByLabelText(/^Price/)).toHaveProperty('value', '25.00');
    type(dialog, /^Price/, '30.50');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('State Negotiated Rates was saved.')).toBeTruthy();
    const [put] = writes(fetchMock);
    expect(put?.[0]).toBe('/api/admin/plans/1');
    expect(sentBody(put)).toMatchObject({ priceCents: 3050, maintenanceFeeCents: 500 });
    await waitFor(async () =>
      expect(
        cellsOf(within(await table('Plans')).getByRole('row', { name: /^State Negotiated Rates/ })),
      ).toContain('$30.50 a file'),
    );
  });

  it('refuses a price that is not dollars and cents before sending anything', async () => {
    const fetchMock = renderAsAdmin();
    fireEvent.click(
      within(await table('Plans')).getByRole('button', { name: 'Edit State Negotiated Rates' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit plan' });
    type(dialog, /^Price/, '12.345');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText(DOLLARS_MESSAGE)).toBeTruthy();
    expect(writes(fetchMock)).toEqual([]);
  });

  it("shows the server's field message on the plan field it names", async () => {
    renderAsAdmin({
      'PUT /api/admin/plans/5': () =>
        jsonResponse(400, {
          isSuccess: false,
          statusCode: 400,
          error: 'Bad Request',
          message: 'An Individual Search plan gives National access.',
          errors: [
            {
              field: 'accessType',
              rule: 'custom',
              message: 'An Individual Search plan gives National access.',
            },
          ],
        }),
    });
    fireEvent.click(
      within(await table('Plans')).getByRole('button', { name: 'Edit Individual Search 5' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit plan' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    const access = within(dialog).getByLabelText(/^Access/);
    await waitFor(() => expect(access.getAttribute('aria-invalid')).toBe('true'));
    expect(readSession().token).toBe('access-1');
  });

  it('lists the coupons with their window and uses', async () => {
    renderAsAdmin();
    const coupons = await table('Coupons');
    expect(cellsOf(within(coupons).getByRole('row', { name: /^WELCOME/ }))).toEqual([
      '15%',
      'March 1, 2026 – June 30, 2026',
      '3 of 100',
      '1',
      'Active',
      'Deactivate',
    ]);
  });

  it('adds a coupon with its last day as the end of that day', async () => {
    const fetchMock = renderAsAdmin();
    await table('Coupons');
    fireEvent.click(screen.getByRole('button', { name: 'Add coupon' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add coupon' });
    type(dialog, /^Code/, 'spring');
    type(dialog, /^Percent off/, '25');
    type(dialog, /^Last day/, '2099-06-30');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add coupon' }));

    expect(await screen.findByText('SPRING was added.')).toBeTruthy();
    expect(sentBody(writes(fetchMock)[0])).toEqual({
      code: 'SPRING',
      percent: 25,
      validFrom: null,
      validTo: '2099-07-01T00:00:00.000Z',
      maxUses: null,
      maxUsesPerUser: null,
      active: true,
    });
    expect(within(await table('Coupons')).getByRole('row', { name: /^SPRING/ })).toBeTruthy();
  });

  it('refuses a percent outside 1–100 before sending anything', async () => {
    const fetchMock = renderAsAdmin();
    await table('Coupons');
    fireEvent.click(screen.getByRole('button', { name: 'Add coupon' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add coupon' });
    type(dialog, /^Code/, 'TOOMUCH');
    type(dialog, /^Percent off/, '150');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add coupon' }));
    expect(await within(dialog).findByText('percent must not be more than 100.')).toBeTruthy();
    expect(writes(fetchMock)).toEqual([]);
  });

  it('shows the conflict of a code that exists in the form', async () => {
    renderAsAdmin({
      'POST /api/admin/coupons': () =>
        jsonResponse(409, {
          isSuccess: false,
          statusCode: 409,
          error: 'Conflict',
          message: 'A coupon with the code WELCOME already exists.',
        }),
    });
    await table('Coupons');
    fireEvent.click(screen.getByRole('button', { name: 'Add coupon' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add coupon' });
    type(dialog, /^Code/, 'welcome');
    type(dialog, /^Percent off/, '10');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add coupon' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      'A coupon with the code WELCOME already exists.',
    );
  });

  it('deactivates a coupon after the confirmation', async () => {
    const fetchMock = renderAsAdmin();
    fireEvent.click(
      within(await table('Coupons')).getByRole('button', { name: 'Deactivate WELCOME' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate coupon' });
    expect(writes(fetchMock)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, deactivate' }));

    expect(await screen.findByText('WELCOME was deactivated.')).toBeTruthy();
    expect(writes(fetchMock)[0]?.[0]).toBe('/api/admin/coupons/7/deactivate');
    await waitFor(async () =>
      expect(
        cellsOf(within(await table('Coupons')).getByRole('row', { name: /^WELCOME/ })),
      ).toContain('Deactivated'),
    );
  });

  it('lists the custom offers', async () => {
    renderAsAdmin();
    const offers = await table('Custom offers');
    expect(cellsOf(within(offers).getByRole('row', { name: /^cfo@acme/ }))).toEqual([
      'State Negotiated Rates',
      'AL',
      '$60.00',
      'Agreed on the phone',
      'No end',
      'Remove',
    ]);
  });

  it('adds a custom offer for a state plan, asking for the state', async () => {
    const fetchMock = renderAsAdmin();
    await table('Custom offers');
    fireEvent.click(screen.getByRole('button', { name: 'Add offer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add custom offer' });
    const plan = await within(dialog).findByLabelText(/^Plan/);
    expect(within(dialog).queryByLabelText(/^State/)).toBeNull();
    type(dialog, /^Account e-mail/, 'buyer@example.com');
    fireEvent.change(plan, { target: { value: '1' } });
    const state = await within(dialog).findByLabelText(/^State/);
    await within(state).findByRole('option', { name: 'Alabama (AL)' });
    fireEvent.change(state, { target: { value: 'AL' } });
    type(dialog, /^Price/, '99.50');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add offer' }));

    expect(await screen.findByText('The offer to buyer@example.com was added.')).toBeTruthy();
    expect(sentBody(writes(fetchMock)[0])).toEqual({
      email: 'buyer@example.com',
      planId: 1,
      stateCode: 'AL',
      priceCents: 9950,
      note: '',
      expiresAt: null,
    });
  });

  it('asks for a plan before sending an offer', async () => {
    const fetchMock = renderAsAdmin();
    await table('Custom offers');
    fireEvent.click(screen.getByRole('button', { name: 'Add offer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add custom offer' });
    await within(dialog).findByLabelText(/^Plan/);
    type(dialog, /^Account e-mail/, 'buyer@example.com');
    type(dialog, /^Price/, '10');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add offer' }));
    expect(await within(dialog).findByText('Choose a plan.')).toBeTruthy();
    expect(writes(fetchMock)).toEqual([]);
  });

  it('removes a custom offer after the confirmation', async () => {
    const fetchMock = renderAsAdmin();
    fireEvent.click(
      within(await table('Custom offers')).getByRole('button', {
        name: 'Remove the offer to cfo@acme.example.com for State Negotiated Rates',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Remove custom offer' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, remove' }));

    expect(await screen.findByText('The offer to cfo@acme.example.com was removed.')).toBeTruthy();
    expect(writes(fetchMock)[0]?.[0]).toBe('/api/admin/custom-offers/11');
    expect(writes(fetchMock)[0]?.[1]?.method).toBe('DELETE');
    expect(await screen.findByText(NO_OFFERS)).toBeTruthy();
  });

  it('says when there are no coupons', async () => {
    renderAsAdmin({ 'GET /api/admin/coupons': () => jsonResponse(200, []) });
    expect(await screen.findByText(NO_COUPONS)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Coupons table' })).toBeNull();
  });

  it('tells a non-administrator they have no access, without asking the server', () => {
    signInAs(ROLES.webUser);
    const fetchMock = stubServer();
    renderWithProviders(<AdminCatalogueRoute />);
    expect(screen.getByRole('alert').textContent).toBe(NO_ACCESS_MESSAGE);
    expect(screen.queryByRole('button', { name: 'Add plan' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows no access when the server refuses the lists, and keeps the session', async () => {
    renderAsAdmin({
      'GET /api/admin/plans': forbidden,
      'GET /api/admin/coupons': forbidden,
      'GET /api/admin/custom-offers': forbidden,
    });
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(3));
    for (const alert of screen.getAllByRole('alert'))
      expect(alert.textContent).toBe(NO_ACCESS_MESSAGE);
    expect(readSession().token).toBe('access-1');
  });
});

describe('AdminCatalogueRoute focus', () => {
  dropFocusFromDisabledControls();

  const REFUSED = 'The catalogue changed meanwhile. Load the page again.';

  /** Presses `name` in `dialog` from the keyboard, then `held` refuses the write; its alert. */
  async function pressAndRefuse(
    dialog: HTMLElement,
    name: string,
    held: ReturnType<typeof heldAnswer>,
  ): Promise<HTMLElement> {
    await pressAndLoseFocus(within(dialog).getByRole('button', { name }));
    held.release(
      jsonResponse(409, { isSuccess: false, statusCode: 409, error: 'Conflict', message: REFUSED }),
    );
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe(REFUSED);
    return alert;
  }

  it('gives the keyboard to the error when a plan change is refused, not to the top of the page', async () => {
    const held = heldAnswer();
    renderAsAdmin({ 'PUT /api/admin/plans/1': held.answer });
    fireEvent.click(
      within(await table('Plans')).getByRole('button', { name: 'Edit State Negotiated Rates' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit plan' });

    const alert = await pressAndRefuse(dialog, 'Save changes', held);

    await waitFor(() => expect(document.activeElement).toBe(alert));
  });

  it('gives the keyboard to the error when a new coupon is refused', async () => {
    const held = heldAnswer();
    renderAsAdmin({ 'POST /api/admin/coupons': held.answer });
    await table('Coupons');
    fireEvent.click(screen.getByRole('button', { name: 'Add coupon' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add coupon' });
    type(dialog, /^Code/, 'SPRING');
    type(dialog, /^Percent off/, '25');

    const alert = await pressAndRefuse(dialog, 'Add coupon', held);

    await waitFor(() => expect(document.activeElement).toBe(alert));
  });

  it('gives the keyboard to the error when a new custom offer is refused', async () => {
    const held = heldAnswer();
    renderAsAdmin({ 'POST /api/admin/custom-offers': held.answer });
    await table('Custom offers');
    fireEvent.click(screen.getByRole('button', { name: 'Add offer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add custom offer' });
    const plan = await within(dialog).findByLabelText(/^Plan/);
    type(dialog, /^Account e-mail/, 'buyer@example.com');
    fireEvent.change(plan, { target: { value: String(SEARCH_PLAN.id) } });
    type(dialog, /^Price/, '10');

    const alert = await pressAndRefuse(dialog, 'Add offer', held);

    await waitFor(() => expect(document.activeElement).toBe(alert));
  });

  it('gives the keyboard to the error when a confirmed removal is refused', async () => {
    const held = heldAnswer();
    renderAsAdmin({ 'DELETE /api/admin/custom-offers/11': held.answer });
    fireEvent.click(
      within(await table('Custom offers')).getByRole('button', {
        name: 'Remove the offer to cfo@acme.example.com for State Negotiated Rates',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Remove custom offer' });

    const alert = await pressAndRefuse(dialog, 'Yes, remove', held);

    await waitFor(() => expect(document.activeElement).toBe(alert));
  });

  /**
   * Opens the row button `name` of the `section` table from the keyboard, presses `confirm` in
   * the dialog `title`, and `held` accepts; the notice, once it has the focus.
   */
  async function pressAndAccept(
    section: string,
    name: string,
    title: string,
    confirm: string,
    held: ReturnType<typeof heldAnswer>,
    accepted: Response,
  ): Promise<HTMLElement> {
    const open = within(await table(section)).getByRole('button', { name });
    open.focus();
    fireEvent.click(open);
    const dialog = await screen.findByRole('dialog', { name: title });
    await pressAndLoseFocus(within(dialog).getByRole('button', { name: confirm }));
    held.release(accepted);
    const notice = await screen.findByRole('status');
    expect(notice.getAttribute('aria-live')).toBe('polite');
    expect(notice.getAttribute('tabindex')).toBe('-1');
    await waitFor(() => expect(document.activeElement).toBe(notice));
    return notice;
  }

  it('gives the keyboard to the notice of a removed custom offer, not to the top of the page', async () => {
    const held = heldAnswer();
    renderAsAdmin({ 'DELETE /api/admin/custom-offers/11': held.answer });

    const notice = await pressAndAccept(
      'Custom offers',
      'Remove the offer to cfo@acme.example.com for State Negotiated Rates',
      'Remove custom offer',
      'Yes, remove',
      held,
      new Response(null, { status: 204 }),
    );

    expect(notice.textContent).toBe('The offer to cfo@acme.example.com was removed.');
    // The dialog closed and the button that opened it went with its row: the focus stays.
    expect(await screen.findByText(NO_OFFERS)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(notice);
  });

  it('gives the keyboard to the notice of a deactivated coupon, whose button goes', async () => {
    const held = heldAnswer();
    renderAsAdmin({ 'POST /api/admin/coupons/7/deactivate': held.answer });

    const notice = await pressAndAccept(
      'Coupons',
      'Deactivate WELCOME',
      'Deactivate coupon',
      'Yes, deactivate',
      held,
      jsonResponse(200, { ...WELCOME, active: false }),
    );

    expect(notice.textContent).toBe('WELCOME was deactivated.');
    await waitFor(async () =>
      expect(
        cellsOf(within(await table('Coupons')).getByRole('row', { name: /^WELCOME/ })),
      ).toContain('Deactivated'),
    );
    expect(screen.queryByRole('button', { name: 'Deactivate WELCOME' })).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(notice);
  });
});
