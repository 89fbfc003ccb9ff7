// @vitest-environment jsdom
import { PAYMENT_MESSAGES } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi, type Answer } from '../test/api-stub.ts';
import { ALABAMA_PLANS, STATES } from '../test/payments-fixtures.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { callsTo } from '../test/search-api-stub.ts';
import { NO_PLANS_MESSAGE, SubscriptionViewRoute } from './subscription-view.tsx';

function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location">{`${location.pathname} ${JSON.stringify(location.state)}`}</output>
  );
}

function stubViewApi(answers: Record<string, Answer> = {}) {
  return stubApi({
    '/api/master/getallstates': jsonResponse(200, STATES),
    '/api/master/getsubscription': jsonResponse(200, { data: ALABAMA_PLANS }),
    '/api/master/subscriptionViewMailSend': jsonResponse(200, { isSuccess: true, message: '' }),
    ...answers,
  });
}

function renderView() {
  renderWithProviders(
    <Routes>
      <Route path="/subscriptionview" element={<SubscriptionViewRoute />} />
      <Route path="/login" element={<LocationProbe />} />
    </Routes>,
    { route: '/subscriptionview' },
  );
}

const popup = () => screen.getByRole('dialog', { name: 'See our plans' });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('SubscriptionViewRoute popup', () => {
  it('asks for a name and an e-mail on load and sends them', async () => {
    const fetchMock = stubViewApi();
    renderView();

    const dialog = within(await screen.findByRole('dialog', { name: 'See our plans' }));
    const submit = dialog.getByRole('button', { name: 'Submit' });
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'Ann' } });
    fireEvent.change(dialog.getByLabelText(/^Email/), { target: { value: 'ann@' } });
    expect(await dialog.findByText('Email is not valid.')).toBeTruthy();
    expect(submit).toHaveProperty('disabled', true);

    fireEvent.change(dialog.getByLabelText(/^Email/), { target: { value: 'ann@example.com' } });
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));
    fireEvent.click(submit);

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'See our plans' })).toBeNull());
    const [sent] = callsTo(fetchMock, '/api/master/subscriptionViewMailSend');
    expect(Object.fromEntries(sent?.url.searchParams ?? [])).toEqual({
      userName: 'Ann',
      userEmail: 'ann@example.com',
    });
  });

  it('promises what happens: the team is told and gets in touch, nothing is mailed to the visitor', async () => {
    stubViewApi();
    renderView();

    const dialog = within(await screen.findByRole('dialog', { name: 'See our plans' }));

    expect(
      dialog.getByText(
        'Leave your name and e-mail address, and our team will get in touch about our plans.',
      ),
    ).toBeTruthy();
    expect(dialog.queryByText(/we will send you/i)).toBeNull();
  });

  it('closes quietly when the send fails, and does not ask again in this session', async () => {
    stubViewApi({
      '/api/master/subscriptionViewMailSend': jsonResponse(500, { message: 'Mail is down.' }),
    });
    renderView();
    fireEvent.change(within(await screen.findByRole('dialog')).getByLabelText(/^Name/), {
      target: { value: 'Ann' },
    });
    fireEvent.change(within(popup()).getByLabelText(/^Email/), {
      target: { value: 'ann@example.com' },
    });
    const submit = within(popup()).getByRole('button', { name: 'Submit' });
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));
    fireEvent.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText('Mail is down.')).toBeNull();

    cleanup();
    renderView();
    await screen.findByRole('heading', { name: 'Plans for Alabama (AL)' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('SubscriptionViewRoute popup focus', () => {
  it('gives the focus to the main landmark when the popup closes, not to the page body', async () => {
    stubViewApi();
    // The app's layout (app-layout.tsx) wraps each screen in this landmark.
    renderWithProviders(
      <main id="main" tabIndex={-1}>
        <SubscriptionViewRoute />
      </main>,
      { route: '/subscriptionview' },
    );

    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Not now' }),
    );

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });
});

describe('SubscriptionViewRoute plans', () => {
  it('reads Alabama’s plans without a session and shows them', async () => {
    const fetchMock = stubViewApi();
    sessionStorage.setItem('planLeadAsked', '1');
    renderView();

    expect(
      await screen.findByRole('heading', { name: 'State Negotiated Rates', level: 3 }),
    ).toBeTruthy();
    const calls = callsTo(fetchMock, '/api/master/getsubscription');
    expect(calls.map((call) => call.url.searchParams.get('stateId'))).toEqual(['1']);
    expect(new Headers(calls[0]?.init?.headers).has('authorization')).toBe(false);
    expect(screen.getByRole('heading', { name: 'All States', level: 3 })).toBeTruthy();
    expect(
      screen.getByRole('heading', { name: 'Exciting Offer Coming Soon', level: 3 }),
    ).toBeTruthy();
    expect(screen.getByText('$75.00/File')).toBeTruthy();
    expect(screen.getByText(PAYMENT_MESSAGES.rxBanner)).toBeTruthy();
    expect(screen.getByText(PAYMENT_MESSAGES.monthlyInvoice)).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Select State:' })).toBeTruthy();
  });

  it('says plainly that no plans are offered when the catalogue is empty, with no error', async () => {
    stubViewApi({ '/api/master/getsubscription': jsonResponse(200, { data: [] }) });
    sessionStorage.setItem('planLeadAsked', '1');
    renderView();

    expect(await screen.findByText(NO_PLANS_MESSAGE)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('shows a failure to read the plans as an error, and reads them again on Try again', async () => {
    let answer = jsonResponse(503, { message: 'The catalogue is not available right now.' });
    stubViewApi({ '/api/master/getsubscription': () => answer });
    sessionStorage.setItem('planLeadAsked', '1');
    renderView();

    expect((await screen.findByRole('alert')).textContent).toBe(
      'The catalogue is not available right now.',
    );
    answer = jsonResponse(200, { data: ALABAMA_PLANS });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));

    expect(
      await screen.findByRole('heading', { name: 'State Negotiated Rates', level: 3 }),
    ).toBeTruthy();
  });

  it('sends a visitor who chooses a plan to /login with the reason', async () => {
    stubViewApi();
    sessionStorage.setItem('planLeadAsked', '1');
    renderView();

    fireEvent.click(await screen.findByRole('button', { name: 'Checkout: Individual Search 5' }));

    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        `/login {"notice":"${PAYMENT_MESSAGES.signInToPurchase}","tone":"info"}`,
      ),
    );
  });
});
