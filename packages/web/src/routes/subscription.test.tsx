// @vitest-environment jsdom
import { PAYMENT_MESSAGES } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../features/auth/session.ts';
import { addToCart, clearCart, readCart } from '../features/subscriptions/cart.ts';
import { stubApi, type Answer } from '../test/api-stub.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { ALABAMA_PLANS, STATES, plan } from '../test/payments-fixtures.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { callsTo } from '../test/search-api-stub.ts';
import { signInAs } from '../test/sign-in.ts';
import { SubscriptionRoute } from './subscription.tsx';

const ALASKA_PLAN = plan({
  filterStates: 'Alaska',
  stateCode: 'AK',
  totalFilesCountSpecificState: 5,
});

function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location">{`${location.pathname} ${JSON.stringify(location.state)}`}</output>
  );
}

function stubPlansApi(answers: Record<string, Answer> = {}) {
  return stubApi({
    '/api/master/getallstates': jsonResponse(200, STATES),
    '/api/master/getsubscription': (url) =>
      jsonResponse(200, {
        data: url.searchParams.get('stateId') === '2' ? [ALASKA_PLAN] : ALABAMA_PLANS,
      }),
    '/api/Master/getCustomsubscriptionbyid': jsonResponse(200, { data: [] }),
    '/api/Subscription/getcheckoutflag': jsonResponse(200, 1),
    ...answers,
  });
}

function renderPlans() {
  renderWithProviders(
    <Routes>
      <Route path="/subscription" element={<SubscriptionRoute />} />
      <Route path="/subscriptionview" element={<LocationProbe />} />
      <Route path="/checkout" element={<LocationProbe />} />
    </Routes>,
    { route: '/subscription' },
  );
}

const location = () => screen.getByTestId('location').textContent;
const tile = (title: string) =>
  within(screen.getByRole('heading', { name: title, level: 3 }).closest('article') as HTMLElement);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearCart();
  clearSession();
});

describe('SubscriptionRoute tiles', () => {
  it('sends a visitor without a session to the public plans page', async () => {
    stubPlansApi();
    renderPlans();
    await waitFor(() => expect(location()).toMatch(/^\/subscriptionview/));
  });

  it("shows Alabama's plans by default: state tiles, all states and the search packs", async () => {
    const fetchMock = stubPlansApi();
    signInAs('user');
    renderPlans();

    expect(await screen.findByRole('heading', { name: 'Plans for Alabama (AL)' })).toBeTruthy();
    await screen.findByRole('heading', { name: 'State Negotiated Rates', level: 3 });
    expect(
      callsTo(fetchMock, '/api/master/getsubscription')[0]?.url.searchParams.get('stateId'),
    ).toBe('1');

    const state = tile('State Negotiated Rates');
    expect(state.getByText('$75.00')).toBeTruthy();
    expect(state.getByText('$25.00 per file')).toBeTruthy();
    expect(state.getByText('3 files for Alabama')).toBeTruthy();
    expect(state.getByText('2 hospitals')).toBeTruthy();
    expect(state.getByRole('button', { name: 'Checkout: State Negotiated Rates' })).toBeTruthy();

    const all = tile('All States');
    expect(all.getByText('$0.00')).toBeTruthy();
    expect(all.getByText('Includes Data Feed')).toBeTruthy();
    expect(all.getByRole('link', { name: /^Negotiable/ }).getAttribute('href')).toMatch(/^mailto:/);

    const individual = within(
      screen.getByRole('region', { name: 'Individual Search Subscription' }),
    );
    expect(
      individual.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent),
    ).toEqual(['Individual Search 5', 'Individual Search 15']);
    expect(screen.getByText(PAYMENT_MESSAGES.dashboardBanner)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Contact us for multi-state discounts' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Customized Offer For You' })).toBeNull();
  });

  it('reloads the plans for the chosen state', async () => {
    const fetchMock = stubPlansApi();
    signInAs('user');
    renderPlans();
    await screen.findByRole('heading', { name: 'State Negotiated Rates', level: 3 });

    fireEvent.click(screen.getByRole('combobox', { name: 'State' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Alaska (AK)', hidden: true }));

    expect(await screen.findByText('5 files for Alaska')).toBeTruthy();
    expect(
      callsTo(fetchMock, '/api/master/getsubscription').map((call) =>
        call.url.searchParams.get('stateId'),
      ),
    ).toEqual(['1', '2']);
  });

  it('says when the plans cannot be loaded, and offers to try again', async () => {
    stubPlansApi({
      '/api/master/getsubscription': jsonResponse(500, { message: 'The plans are unavailable.' }),
    });
    signInAs('user');
    renderPlans();

    expect(await screen.findByText('The plans are unavailable.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('SubscriptionRoute checkout', () => {
  it('asks how to pay, then puts the installment choice in the cart and goes to /checkout', async () => {
    const fetchMock = stubPlansApi();
    signInAs('user');
    renderPlans();
    await screen.findByRole('heading', { name: 'State Negotiated Rates', level: 3 });

    fireEvent.click(screen.getByRole('button', { name: 'Checkout: State Negotiated Rates' }));
    const dialog = await screen.findByRole('dialog', { name: 'How do you want to pay?' });
    expect(within(dialog).getByRole('button', { name: /^Pay Once/ }).textContent).toBe(
      'Pay Once$75.00 today, with a $0.00 maintenance fee',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: /^Via 12 Months Installment/ }));

    await waitFor(() => expect(location()).toBe('/checkout {"notice":null}'));
    expect(readCart('user-1').lines).toEqual([{ plan: plan(), installment: true, stateId: 1 }]);
    const [check] = callsTo(fetchMock, '/api/Subscription/getcheckoutflag');
    expect(Object.fromEntries(check?.url.searchParams ?? [])).toEqual({
      userId: 'user-1',
      subscriptionId: '1',
      state: 'AL',
    });
  });

  it('says the twelfth installment apart when the price does not divide by 12', async () => {
    const oneFile = plan({
      totalFilesCountSpecificState: 1,
      totalPriceCents: 2500,
      totalPrice: 25,
    });
    stubPlansApi({ '/api/master/getsubscription': jsonResponse(200, { data: [oneFile] }) });
    signInAs('user');
    renderPlans();
    await screen.findByRole('heading', { name: 'State Negotiated Rates', level: 3 });

    fireEvent.click(screen.getByRole('button', { name: 'Checkout: State Negotiated Rates' }));
    const dialog = await screen.findByRole('dialog', { name: 'How do you want to pay?' });

    expect(
      within(dialog).getByRole('button', { name: /^Via 12 Months Installment/ }).textContent,
    ).toBe(
      'Via 12 Months Installment11 monthly payments of $7.08, then $7.12, each including a $5.00 maintenance fee',
    );
  });

  it('tells the account it already has the subscription, and leaves the cart alone', async () => {
    stubPlansApi({ '/api/Subscription/getcheckoutflag': jsonResponse(200, 0) });
    signInAs('user');
    renderPlans();
    await screen.findByRole('heading', { name: 'State Negotiated Rates, Monthly', level: 3 });

    fireEvent.click(
      screen.getByRole('button', { name: 'Checkout: State Negotiated Rates, Monthly' }),
    );

    expect((await screen.findByRole('alert')).textContent).toBe(PAYMENT_MESSAGES.alreadyOwned);
    expect(readCart('user-1').lines).toEqual([]);
  });

  it('hands /checkout the duplicate notice for a plan already in the cart', async () => {
    stubPlansApi();
    signInAs('user');
    addToCart('user-1', { plan: ALABAMA_PLANS[1] ?? plan(), installment: false, stateId: 1 });
    renderPlans();
    await screen.findByRole('heading', { name: 'State Negotiated Rates, Monthly', level: 3 });

    fireEvent.click(
      screen.getByRole('button', { name: 'Checkout: State Negotiated Rates, Monthly' }),
    );

    await waitFor(() =>
      expect(location()).toBe(`/checkout {"notice":"${PAYMENT_MESSAGES.alreadyInCart}"}`),
    );
    expect(readCart('user-1').lines).toHaveLength(1);
  });

  it('lists custom offers and buys one without the checkout check', async () => {
    const offer = plan({
      subscriptionTitle: 'State Negotiated Rates',
      customOfferId: 9,
      priceCents: 5000,
      totalPriceCents: 5000,
      installmentEligible: false,
    });
    const fetchMock = stubPlansApi({
      '/api/Master/getCustomsubscriptionbyid': jsonResponse(200, { data: [offer] }),
    });
    signInAs('user');
    renderPlans();

    const offers = within(await screen.findByRole('region', { name: 'Custom offers' }));
    expect(offers.getByRole('table', { name: 'Offers made to your account' })).toBeTruthy();
    expect(offers.getByRole('rowheader', { name: 'State Negotiated Rates' })).toBeTruthy();
    expect(offers.getByText('$50.00')).toBeTruthy();
    fireEvent.click(offers.getByRole('button', { name: /^Checkout/ }));

    await waitFor(() => expect(location()).toMatch(/^\/checkout/));
    expect(callsTo(fetchMock, '/api/Subscription/getcheckoutflag')).toHaveLength(0);
    expect(readCart('user-1').lines[0]?.plan.customOfferId).toBe(9);
  });
});

describe('SubscriptionRoute tile focus', () => {
  dropFocusFromDisabledControls();

  it("gives the keyboard to the answer when a tile's checkout is refused, not to the top of the page", async () => {
    const held = heldAnswer();
    stubPlansApi({ '/api/Subscription/getcheckoutflag': held.answer });
    signInAs('user');
    renderPlans();
    await screen.findByRole('heading', { name: 'State Negotiated Rates, Monthly', level: 3 });

    await pressAndLoseFocus(
      screen.getByRole('button', { name: 'Checkout: State Negotiated Rates, Monthly' }),
    );
    held.release(jsonResponse(200, 0));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(PAYMENT_MESSAGES.alreadyOwned);
    // AttentionAlert (the route's, not the tile's) takes the focus on the box around the alert.
    await waitFor(() => {
      expect(document.activeElement).not.toBe(document.body);
      expect(document.activeElement?.contains(alert)).toBe(true);
    });
  });
});
