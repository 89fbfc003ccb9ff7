// @vitest-environment jsdom
import { PAYMENT_MESSAGES } from '@ratelens/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../auth/session.ts';
import { approved, declined } from '../../test/payments-fixtures.ts';
import { jsonResponse } from '../../test/render.tsx';
import { signInAs } from '../../test/sign-in.ts';
import { sendPayment, type PaymentRequest } from './payment-call.ts';

const REQUEST: PaymentRequest = {
  path: '/api/Payment/CardPayment',
  body: { items: [] },
  idempotencyKey: 'attempt-0001',
  authenticated: true,
  fallback: PAYMENT_MESSAGES.paymentFailed,
};

function answer(response: Response | Error) {
  const fetchMock = vi.fn(() =>
    response instanceof Error ? Promise.reject(response) : Promise.resolve(response),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

describe('sendPayment', () => {
  it('sends the Idempotency-Key with the session headers', async () => {
    signInAs('user');
    const fetchMock = answer(jsonResponse(200, approved(7500)));

    const outcome = await sendPayment(REQUEST);

    expect(outcome).toEqual({ ok: true, response: approved(7500) });
    const headers = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1]
      .headers as Record<string, string>;
    expect(headers).toMatchObject({
      'Idempotency-Key': 'attempt-0001',
      Authorization: 'Bearer access-1',
      secret_key: 'secret-1',
    });
  });

  it("shows a decline's first error text, as a known outcome", async () => {
    signInAs('user');
    answer(jsonResponse(200, declined('This transaction has been declined.')));

    expect(await sendPayment(REQUEST)).toEqual({
      ok: false,
      message: 'This transaction has been declined.',
      settled: true,
    });
  });

  it('reads a decline answered with an error status too', async () => {
    signInAs('user');
    answer(jsonResponse(402, declined('The card has been declined.')));

    expect(await sendPayment(REQUEST)).toMatchObject({
      message: 'The card has been declined.',
      settled: true,
    });
  });

  it("says the spec's words when the server cannot be reached, as an unknown outcome", async () => {
    signInAs('user');
    answer(new TypeError('Failed to fetch'));

    expect(await sendPayment(REQUEST)).toEqual({
      ok: false,
      message: PAYMENT_MESSAGES.paymentFailed,
      settled: false,
    });
  });

  it('treats a server error as an unknown outcome', async () => {
    signInAs('user');
    answer(jsonResponse(500, { message: 'Internal error.' }));

    expect(await sendPayment(REQUEST)).toEqual({
      ok: false,
      message: PAYMENT_MESSAGES.paymentFailed,
      settled: false,
    });
  });

  it("shows the server's reason for a refused payment and keeps the session", async () => {
    signInAs('user');
    answer(jsonResponse(409, { message: 'The price of your order changed. Please check it.' }));

    expect(await sendPayment(REQUEST)).toMatchObject({
      message: 'The price of your order changed. Please check it.',
      settled: true,
    });
    expect(localStorage.getItem('token')).toBe('access-1');
  });

  it('sends a donation without the session, with the headers it is given', async () => {
    const fetchMock = answer(jsonResponse(200, approved(2500)));

    await sendPayment({
      ...REQUEST,
      path: '/api/Payment/DonationCardPayment',
      authenticated: false,
      headers: { 'Donation-Token': 'token-1' },
    });

    const headers = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1]
      .headers as Record<string, string>;
    expect(headers['Donation-Token']).toBe('token-1');
    expect(headers['Idempotency-Key']).toBe('attempt-0001');
    expect(headers.Authorization).toBeUndefined();
  });
});
