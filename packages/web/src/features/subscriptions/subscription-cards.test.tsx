// @vitest-environment jsdom
import { PAYMENT_MESSAGES, SPEC_MESSAGES } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../auth/session.ts';
import { stubApi, type Answer } from '../../test/api-stub.ts';
import { subscriptionCard } from '../../test/payments-fixtures.ts';
import { jsonResponse, renderWithProviders } from '../../test/render.tsx';
import { callsTo, sentJson } from '../../test/search-api-stub.ts';
import { signInAs } from '../../test/sign-in.ts';
import { SubscriptionCards } from './subscription-cards.tsx';

const PACK = subscriptionCard({
  state: null,
  individualSearch: true,
  subscriptiontype: 'Individual Search',
  subscriptionTitle: 'Individual Search 15',
  totalSearchCount: 15,
  remaningSearchCount: 12,
  mySubscriptionID: '0f4c1a2b-3d4e-4f50-8a6b-7c8d9e0f1a2b',
});

function stubCardsApi(answers: Record<string, Answer> = {}) {
  return stubApi({
    '/api/subscription/getsubscription': jsonResponse(200, [subscriptionCard(), PACK]),
    '/api/subscription/updateAutoRenewal': jsonResponse(200, { status: true, message: 'Done.' }),
    ...answers,
  });
}

const card = (title: string) => within(screen.getByRole('article', { name: title }));

beforeEach(() => signInAs('user'));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('SubscriptionCards', () => {
  it("says 'You dont have any Subscription' when there is none", async () => {
    stubCardsApi({ '/api/subscription/getsubscription': jsonResponse(200, []) });
    renderWithProviders(<SubscriptionCards userId="user-1" />);

    expect(await screen.findByText(SPEC_MESSAGES.noSubscription)).toBeTruthy();
  });

  it('shows each active subscription with its expiry, searches left and payment method', async () => {
    const fetchMock = stubCardsApi();
    renderWithProviders(<SubscriptionCards userId="user-1" />);

    await screen.findByRole('article', { name: 'State Negotiated Rates' });
    expect(card('State Negotiated Rates').getByText('Alabama (Annual)')).toBeTruthy();
    expect(card('State Negotiated Rates').getByText('Expires on November 21, 2099')).toBeTruthy();
    expect(
      card('State Negotiated Rates').getByText('Payment method: Visa ending 1111'),
    ).toBeTruthy();
    expect(card('Individual Search 15').getByText('12 of 15 searches left')).toBeTruthy();
    expect(sentJson(callsTo(fetchMock, '/api/subscription/getsubscription')[0])).toEqual({
      userID: 'user-1',
    });
  });

  it('flips the switch at once, shows a loader, then the spec message', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = stubCardsApi({
      '/api/subscription/updateAutoRenewal': () =>
        new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderWithProviders(<SubscriptionCards userId="user-1" />);
    const toggle = (await screen.findAllByRole('switch', { name: 'Auto-renewal' }))[0];
    if (!toggle) throw new Error('no switch');

    fireEvent.click(toggle);

    expect(toggle).toHaveProperty('checked', true);
    expect(card('State Negotiated Rates').getByRole('status').textContent).toBe('Saving...');
    await waitFor(() =>
      expect(callsTo(fetchMock, '/api/subscription/updateAutoRenewal')).toHaveLength(1),
    );
    answer(jsonResponse(200, { status: true, message: 'Done.' }));
    expect(
      await card('State Negotiated Rates').findByText(
        'Your subscription auto-renewal for Alabama (Annual) has been activated.',
      ),
    ).toBeTruthy();
    expect(toggle).toHaveProperty('checked', true);
    expect(sentJson(callsTo(fetchMock, '/api/subscription/updateAutoRenewal')[0])).toEqual({
      userID: 'user-1',
      mySubscriptionID: subscriptionCard().mySubscriptionID,
      autoRenewStatus: true,
    });
  });

  it("flips back with the server's reason when it says no", async () => {
    stubCardsApi({
      '/api/subscription/updateAutoRenewal': jsonResponse(200, {
        status: false,
        message: 'Auto-renewal needs a saved payment method.',
      }),
    });
    renderWithProviders(<SubscriptionCards userId="user-1" />);
    const toggle = within(
      await screen.findByRole('article', { name: 'Individual Search 15' }),
    ).getByRole('switch', { name: 'Auto-renewal' });

    fireEvent.click(toggle);

    expect(
      await card('Individual Search 15').findByText('Auto-renewal needs a saved payment method.'),
    ).toBeTruthy();
    expect(toggle).toHaveProperty('checked', false);
  });

  it("flips back with 'Try Again!!' when the call fails", async () => {
    stubCardsApi({
      '/api/subscription/updateAutoRenewal': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderWithProviders(<SubscriptionCards userId="user-1" />);
    const toggle = within(
      await screen.findByRole('article', { name: 'State Negotiated Rates' }),
    ).getByRole('switch', { name: 'Auto-renewal' });

    fireEvent.click(toggle);

    expect(
      await card('State Negotiated Rates').findByText(PAYMENT_MESSAGES.autoRenewTryAgain),
    ).toBeTruthy();
    expect(toggle).toHaveProperty('checked', false);
  });
});
