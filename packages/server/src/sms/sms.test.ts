import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { reportSmsText, TwilioError, twilioSms, type TwilioOptions } from './sms.ts';

const ACCOUNT_SID = `AC${'0a'.repeat(16)}`;
const AUTH_TOKEN = 'f'.repeat(32);
const FROM = '+15005550006';

interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: URLSearchParams;
}

/**
 * A local server answering as Twilio's Messages API documents: 201 with the message resource,
 * 401 `{code: 20003}` for bad credentials, 400 `{code, message, more_info, status}` for a number
 * it refuses. A number ending in 0408 gets no answer at all.
 */
let server: Server;
let baseUrl: string;
const received: Received[] = [];

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer((request, response) => {
    void (async () => {
      const form = new URLSearchParams(await bodyOf(request));
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        form,
      });
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      const expected = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`;
      const to = form.get('To') ?? '';
      if (request.headers.authorization !== expected)
        return reply(401, {
          code: 20003,
          message: 'Authenticate',
          more_info: 'https://www.twilio.com/docs/errors/20003',
          status: 401,
        });
      if (to.endsWith('0408')) return; // never answers
      if (to.endsWith('0400'))
        return reply(400, {
          code: 21211,
          message: `The 'To' number ${to} is not a valid phone number.`,
          more_info: 'https://www.twilio.com/docs/errors/21211',
          status: 400,
        });
      return reply(201, {
        sid: `SM${'1b'.repeat(16)}`,
        account_sid: ACCOUNT_SID,
        to,
        from: form.get('From'),
        messaging_service_sid: form.get('MessagingServiceSid'),
        body: form.get('Body'),
        status: 'queued',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        error_code: null,
        error_message: null,
      });
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the twilio sms driver', () => {
  // Built inside each test: the server's address is known only once beforeAll has run.
  const driver = (options: Partial<TwilioOptions> = {}) =>
    twilioSms({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, from: FROM, baseUrl, ...options });

  it('posts the message as a form to the account’s Messages.json with basic auth', async () => {
    await driver().send({ to: '+15551234567', text: 'Your report: https://x.test/a?b=1&c=2' });
    const request = received.at(-1);
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
    expect(request?.authorization).toBe(
      `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`,
    );
    expect(request?.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(request?.form ?? [])).toEqual({
      To: '+15551234567',
      From: FROM,
      Body: 'Your report: https://x.test/a?b=1&c=2',
    });
  });

  it('sends through a Messaging Service when the sender is one', async () => {
    const service = `MG${'2c'.repeat(16)}`;
    await driver({ from: service }).send({ to: '+15551234567', text: 'hi' });
    const form = received.at(-1)?.form;
    expect(form?.get('MessagingServiceSid')).toBe(service);
    expect(form?.has('From')).toBe(false);
  });

  it('throws Twilio’s message and code when it refuses the number', async () => {
    const error = await driver()
      .send({ to: '+15550000400', text: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TwilioError);
    expect(error).toMatchObject({
      message: "The 'To' number +15550000400 is not a valid phone number.",
      status: 400,
      code: 21211,
    });
  });

  it('throws when the credentials are wrong', async () => {
    await expect(
      driver({ authToken: 'e'.repeat(32) }).send({ to: '+15551234567', text: 'hi' }),
    ).rejects.toMatchObject({
      message: 'Authenticate',
      status: 401,
      code: 20003,
    });
  });

  it('gives up when Twilio does not answer in time', async () => {
    await expect(
      driver({ timeoutMs: 300 }).send({ to: '+15550000408', text: 'hi' }),
    ).rejects.toThrow('Twilio did not answer within 300 ms.');
  });

  it('fails loudly when Twilio cannot be reached', async () => {
    await expect(
      driver({ baseUrl: 'http://127.0.0.1:1' }).send({ to: '+15551234567', text: 'hi' }),
    ).rejects.toThrow('Twilio could not be reached.');
  });

  it('refuses a number that is not in E.164 form before calling Twilio', async () => {
    const count = received.length;
    await expect(driver().send({ to: '5551234567', text: 'hi' })).rejects.toThrow(/E\.164/);
    expect(received).toHaveLength(count);
  });
});

describe('reportSmsText', () => {
  const text = reportSmsText(
    'https://ratelens.example/api/reports/abc',
    new Date('2026-11-24T15:00:00Z'),
  );

  it('carries the link and the day it expires', () => {
    expect(text).toBe(
      'RateLens: your rate report is ready: https://ratelens.example/api/reports/abc (link expires November 24, 2026). One-time message, no marketing. Msg & data rates may apply. Reply STOP to opt out.',
    );
  });

  it('keeps the promises of the SMS consent in the terms', () => {
    expect(text).toMatch(/One-time message/);
    expect(text).toMatch(/no marketing/);
    expect(text).toMatch(/Msg & data rates may apply/);
    expect(text).toMatch(/Reply STOP to opt out/);
  });
});

describe('SMS configuration', () => {
  it('uses the outbox and 72-hour report links by default', () => {
    expect(parseConfig({})).toMatchObject({ SMS_DRIVER: 'outbox', REPORT_LINK_TTL_HOURS: 72 });
  });

  it('names each Twilio setting the twilio driver is missing', () => {
    expect(() => parseConfig({ SMS_DRIVER: 'twilio' })).toThrow(
      /TWILIO_ACCOUNT_SID: is required when SMS_DRIVER=twilio[\s\S]*TWILIO_AUTH_TOKEN: is required when SMS_DRIVER=twilio[\s\S]*TWILIO_FROM: is required when SMS_DRIVER=twilio/,
    );
    expect(() =>
      parseConfig({ SMS_DRIVER: 'twilio', TWILIO_ACCOUNT_SID: ACCOUNT_SID, TWILIO_FROM: FROM }),
    ).toThrow(
      /^Invalid configuration:\n {2}TWILIO_AUTH_TOKEN: is required when SMS_DRIVER=twilio$/,
    );
  });

  it('accepts a complete Twilio configuration', () => {
    expect(
      parseConfig({
        SMS_DRIVER: 'twilio',
        TWILIO_ACCOUNT_SID: ACCOUNT_SID,
        TWILIO_AUTH_TOKEN: AUTH_TOKEN,
        TWILIO_FROM: FROM,
        REPORT_LINK_TTL_HOURS: '24',
      }),
    ).toMatchObject({ SMS_DRIVER: 'twilio', REPORT_LINK_TTL_HOURS: 24 });
  });

  it('rejects a malformed account SID, sender and link lifetime', () => {
    expect(() => parseConfig({ TWILIO_ACCOUNT_SID: 'AC123' })).toThrow(
      /TWILIO_ACCOUNT_SID: must be an Account SID/,
    );
    expect(() => parseConfig({ TWILIO_FROM: '555-1234' })).toThrow(/TWILIO_FROM: must be/);
    expect(() => parseConfig({ REPORT_LINK_TTL_HOURS: '0' })).toThrow(/REPORT_LINK_TTL_HOURS/);
  });
});
