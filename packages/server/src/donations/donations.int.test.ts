import { PAYMENT_MESSAGES, type PaymentResponse } from '@ratelens/core';
import { listOutboxMessages } from '@ratelens/db';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bankAccount, billing, card, newKey, ordersOf } from '../payments/payment-fixtures.ts';
import { solvedCaptcha, uniqueEmail, useTestApp } from '../test/app.ts';
import { DONATION_MESSAGES } from './donation-codes.ts';

const test = useTestApp({
  RENEWALS_INTERVAL_MINUTES: '0',
  PAYMENT_RATE_LIMIT_PER_MINUTE: '1000',
  DONATION_OTP_PER_HOUR: '3',
});

type Answer = { isSuccess: boolean; message: string; donationToken?: string };

async function sendCode(email: string, address = '10.0.0.1'): Promise<LightMyRequestResponse> {
  return test.app.inject({
    method: 'POST',
    url: '/api/Donation/donationUserSendOtp',
    remoteAddress: address,
    payload: { email, Otp: '', altcha: await solvedCaptcha(test.app) },
  });
}

async function codeSentTo(email: string): Promise<string> {
  const [message] = await listOutboxMessages(test.database.connection.db, { to: email });
  const code = message ? /\b(\d{4})\b/.exec(message.text)?.[1] : undefined;
  if (!code) throw new Error(`no code e-mailed to ${email}`);
  return code;
}

async function verify(email: string, Otp: string): Promise<LightMyRequestResponse> {
  return test.app.inject({
    method: 'POST',
    url: '/api/Donation/donationUserOtpVerify',
    payload: { email, Otp },
  });
}

const wrongCode = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0');

async function donorToken(email = uniqueEmail('donor')): Promise<string> {
  await sendCode(
    email,
    `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  );
  const token = (await verify(email, await codeSentTo(email))).json<Answer>().donationToken;
  if (!token) throw new Error('no donation token');
  return token;
}

async function donate(
  token: string | undefined,
  body: Record<string, unknown>,
  path = 'DonationCardPayment',
  key = newKey(),
): Promise<LightMyRequestResponse> {
  return test.app.inject({
    method: 'POST',
    url: `/api/Payment/${path}`,
    headers: { 'idempotency-key': key, ...(token ? { 'donation-token': token } : {}) },
    payload: {
      paymentDetails: path === 'DonationCardPayment' ? card() : bankAccount(),
      billingAddress: billing(),
      ...body,
    },
  });
}

describe('Donation/donationUserSendOtp', () => {
  it('e-mails a 4-digit code through the outbox', async () => {
    const email = uniqueEmail('donor');
    const response = await sendCode(email);
    expect(response.statusCode).toBe(200);
    expect(response.json<Answer>()).toEqual({
      isSuccess: true,
      message: DONATION_MESSAGES.sent(email),
    });
    expect(await codeSentTo(email)).toMatch(/^\d{4}$/);
  });

  it('needs a solved bot check, spendable once (400 naming altcha)', async () => {
    const altcha = await solvedCaptcha(test.app);
    const send = (email: string) =>
      test.app.inject({
        method: 'POST',
        url: '/api/Donation/donationUserSendOtp',
        payload: { email, Otp: '', altcha },
      });
    expect((await send(uniqueEmail('donor'))).statusCode).toBe(200);
    const replayed = await send(uniqueEmail('donor'));
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('altcha');
  });

  it('sends at most DONATION_OTP_PER_HOUR codes to one address an hour (429)', async () => {
    const email = uniqueEmail('donor');
    for (let i = 0; i < 3; i += 1)
      expect((await sendCode(email, `10.2.0.${i}`)).statusCode).toBe(200);
    const fourth = await sendCode(email, '10.2.0.9');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json<Answer>().message).toBe(DONATION_MESSAGES.tooManySends);
  });

  it('limits the codes one client address asks for (429)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 13; i += 1)
      statuses.push((await sendCode(uniqueEmail('donor'), '10.3.0.1')).statusCode);
    expect(statuses.slice(0, 12).every((s) => s === 200)).toBe(true);
    expect(statuses[12]).toBe(429);
  });
});

describe('Donation/donationUserOtpVerify', () => {
  it('answers a donation token for the right code, once', async () => {
    const email = uniqueEmail('donor');
    await sendCode(email, '10.4.0.1');
    const code = await codeSentTo(email);
    const response = await verify(email, code);
    expect(response.statusCode).toBe(200);
    const body = response.json<Answer>();
    expect(body).toMatchObject({ isSuccess: true, message: DONATION_MESSAGES.verified });
    expect(body.donationToken).toMatch(/^[\w-]{43}$/);

    const again = await verify(email, code);
    expect(again.statusCode).toBe(400);
    expect(again.json<Answer>().message).toBe(DONATION_MESSAGES.expired);
  });

  it('refuses an expired code', async () => {
    const email = uniqueEmail('donor');
    await sendCode(email, '10.4.0.2');
    await test.database.connection.pool.query(
      `UPDATE otp_codes SET expires_at = now() - interval '1 second' WHERE email = $1`,
      [email],
    );
    const response = await verify(email, await codeSentTo(email));
    expect(response.statusCode).toBe(400);
    expect(response.json<Answer>().message).toBe(DONATION_MESSAGES.expired);
  });

  it('keeps only the newest code', async () => {
    const email = uniqueEmail('donor');
    await sendCode(email, '10.4.0.3');
    await sendCode(email, '10.4.0.4');
    const { rows } = await test.database.connection.pool.query(
      `SELECT id FROM otp_codes WHERE email = $1 AND used_at IS NULL`,
      [email],
    );
    expect(rows).toHaveLength(1);
    expect((await verify(email, await codeSentTo(email))).statusCode).toBe(200);
  });

  it('locks the code after 5 wrong tries, even for the right one', async () => {
    const email = uniqueEmail('donor');
    await sendCode(email, '10.4.0.5');
    const code = await codeSentTo(email);
    const wrong = wrongCode(code);
    const messages: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await verify(email, wrong);
      expect(response.statusCode).toBe(400);
      messages.push(response.json<Answer>().message);
    }
    expect(messages[0]).toBe(DONATION_MESSAGES.wrongCode(4));
    expect(messages[3]).toBe(DONATION_MESSAGES.wrongCode(1));
    const fifth = await verify(email, wrong);
    expect(fifth.statusCode).toBe(429);
    const right = await verify(email, code);
    expect(right.statusCode).toBe(429);
    expect(right.json<Answer>().message).toBe(DONATION_MESSAGES.locked);
  });

  it('refuses a code that is not 4 digits (400 naming Otp)', async () => {
    const response = await verify(uniqueEmail('donor'), '12a4');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('Otp');
  });
});

describe('donation payments', () => {
  it('need the Donation-Token of a verified e-mail (401)', async () => {
    const missing = await donate(undefined, { items: [{ actualPrice: '25' }] });
    expect(missing.statusCode).toBe(401);
    expect(missing.json<Answer>().message).toBe(DONATION_MESSAGES.tokenMissing);
    const forged = await donate('not-a-token', { items: [{ actualPrice: '25' }] });
    expect(forged.statusCode).toBe(401);
  });

  it('charge the amount given, for the verified donor', async () => {
    const email = uniqueEmail('donor');
    const token = await donorToken(email);
    const response = await donate(token, { items: [{ actualPrice: '25.50' }] });
    expect(response.statusCode).toBe(200);
    expect(response.json<PaymentResponse>()).toMatchObject({
      orderStatus: 'paid',
      amountCents: 2550,
      transactionResponse: { responseCode: '1' },
    });
    const orders = await ordersOf(test.database.connection.pool, `donation:${email}`);
    expect(orders).toEqual([expect.objectContaining({ kind: 'donation', amountCents: 2550 })]);
  });

  it('refuse a negative, zero, huge or malformed amount, naming the field (400)', async () => {
    const token = await donorToken();
    for (const actualPrice of ['-5', '0', '0.00', '025', '1e5', '10.999', '100000.01', -5, 'abc']) {
      const response = await donate(token, { items: [{ actualPrice }] });
      expect(response.statusCode, String(actualPrice)).toBe(400);
      expect(response.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe(
        'items.0.actualPrice',
      );
    }
  });

  it('by echeck are declined over $100.00 with the gateway’s text', async () => {
    const token = await donorToken();
    const small = await donate(token, { items: [{ actualPrice: '100' }] }, 'DonationCeckPayment');
    expect(small.json<PaymentResponse>().orderStatus).toBe('paid');
    const large = await donate(token, { items: [{ actualPrice: 150 }] }, 'DonationCeckPayment');
    expect(large.json<PaymentResponse>()).toMatchObject({
      orderStatus: 'declined',
      transactionResponse: { errors: [{ errorText: 'This transaction has been declined.' }] },
    });
  });

  it('are charged once for a repeated request, by card or by bank account', async () => {
    for (const path of ['DonationCardPayment', 'DonationCeckPayment']) {
      const email = uniqueEmail('donor');
      const token = await donorToken(email);
      const key = newKey();
      const first = await donate(token, { items: [{ actualPrice: '10' }] }, path, key);
      const again = await donate(token, { items: [{ actualPrice: '10' }] }, path, key);
      expect(again.json()).toEqual(first.json());
      const changed = await donate(token, { items: [{ actualPrice: '11' }] }, path, key);
      expect(changed.statusCode, path).toBe(409);
      expect(await ordersOf(test.database.connection.pool, `donation:${email}`)).toHaveLength(1);
    }
  });

  it('answer the donation failure message when the gateway does not answer', async () => {
    const token = await donorToken();
    const response = await donate(token, {
      items: [{ actualPrice: '10' }],
      billingAddress: billing('46291'),
    });
    expect(response.statusCode).toBe(504);
    expect(response.json<PaymentResponse>().transactionResponse.errors?.[0]?.errorText).toBe(
      PAYMENT_MESSAGES.donationFailed,
    );
  });
});
