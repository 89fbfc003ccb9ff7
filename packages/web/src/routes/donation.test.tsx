// @vitest-environment jsdom
import { PAYMENT_MESSAGES } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readDonor, storeDonor } from '../features/donations/donation-session.ts';
import { stubApi } from '../test/api-stub.ts';
import { fillBilling, fillCard, fillEcheck, makePayment } from '../test/payment-form.ts';
import { approved } from '../test/payments-fixtures.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { callsTo, sentJson } from '../test/search-api-stub.ts';
import { DONATION_HEADING, DonationRoute } from './donation.tsx';

function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location">{`${location.pathname} ${JSON.stringify(location.state)}`}</output>
  );
}

function renderDonation() {
  renderWithProviders(
    <Routes>
      <Route path="/donation" element={<DonationRoute />} />
      <Route path="/" element={<LocationProbe />} />
      <Route path="/thankYou" element={<LocationProbe />} />
    </Routes>,
    { route: '/donation' },
  );
}

const amount = () => screen.getByLabelText(/^Amount \(USD\)/);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('DonationRoute', () => {
  it('sends a visitor whose e-mail was not confirmed home', async () => {
    stubApi({});
    renderDonation();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toMatch(/^\/ /));
  });

  it('keeps Make Payment disabled until the amount is positive with at most two decimals', async () => {
    stubApi({});
    storeDonor({ email: 'donor@example.com', donationToken: 'token-1' });
    renderDonation();
    expect(screen.getByRole('heading', { name: DONATION_HEADING, level: 1 })).toBeTruthy();
    fillCard();
    fillBilling();
    const pay = screen.getByRole('button', { name: 'Make Payment' });

    for (const bad of ['0', '012', '12.345', '-5', '1e3']) {
      fireEvent.change(amount(), { target: { value: bad } });
      await waitFor(() => expect(pay).toHaveProperty('disabled', true));
    }
    expect(
      screen.getByText('Amount must be a positive number with at most two decimals.'),
    ).toBeTruthy();

    fireEvent.change(amount(), { target: { value: '25.5' } });
    await waitFor(() => expect(pay).toHaveProperty('disabled', false));
  });

  it('pays by card with the Donation-Token and goes to /thankYou', async () => {
    const fetchMock = stubApi({
      '/api/Payment/DonationCardPayment': jsonResponse(200, approved(2550)),
    });
    storeDonor({ email: 'donor@example.com', donationToken: 'token-1' });
    renderDonation();

    fireEvent.change(amount(), { target: { value: '25.50' } });
    fillCard();
    fillBilling();
    await makePayment();

    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        '/thankYou {"kind":"donation","amountCents":2550,"orderId":"order-1"}',
      ),
    );
    const [call] = callsTo(fetchMock, '/api/Payment/DonationCardPayment');
    expect(sentJson(call)).toMatchObject({
      items: [{ actualPrice: 25.5 }],
      billingAddress: { email: 'donor@example.com' },
    });
    const headers = call?.init?.headers as Record<string, string>;
    expect(headers['Donation-Token']).toBe('token-1');
    expect(headers['Idempotency-Key']).toBeTruthy();
    expect(readDonor()).toBeNull();
  });

  it("says the spec's words when an echeck donation cannot be sent", async () => {
    vi.stubGlobal('scrollTo', vi.fn());
    stubApi({
      '/api/Payment/DonationCeckPayment': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    storeDonor({ email: 'donor@example.com', donationToken: 'token-1' });
    renderDonation();

    fireEvent.change(amount(), { target: { value: '10' } });
    fillEcheck();
    fillBilling();
    await makePayment();

    expect((await screen.findByRole('alert')).textContent).toBe(PAYMENT_MESSAGES.donationFailed);
    expect(readDonor()).not.toBeNull();
  });
});
