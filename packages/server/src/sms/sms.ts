import { insertOutboxMessage, type Executor } from '@ratelens/db';
import { ConfigError, type Config } from '../config.ts';
import { escapeHtml } from '../http/html.ts';
import { reportDate } from '../reports/report-format.ts';

export interface SmsMessage {
  /** E.164, e.g. +15551234567. */
  to: string;
  text: string;
}

/** Sends text messages. Chosen by SMS_DRIVER; every driver is a real one, as for mail. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/**
 * The one text of "Text me a report" (§4). It keeps the promises of the SMS consent section of
 * the terms (packages/web/src/content/terms.md §11): one message, for this request only, no
 * marketing, message and data rates, STOP to opt out.
 */
export function reportSmsText(link: string, expiresAt: Date): string {
  return `RateLens: your rate report is ready: ${link} (link expires ${reportDate(expiresAt)}). One-time message, no marketing. Msg & data rates may apply. Reply STOP to opt out.`;
}

const E164 = /^\+[1-9]\d{6,14}$/;

function checkNumber(to: string): void {
  if (!E164.test(to)) throw new Error('The phone number must be in E.164 form, e.g. +15551234567.');
}

/** Keeps every message in outbox_messages (channel 'sms'); outside production /dev/outbox shows them. */
export function outboxSms(db: Executor): SmsSender {
  return {
    async send({ to, text }) {
      checkNumber(to);
      await insertOutboxMessage(db, {
        channel: 'sms',
        to,
        subject: 'SMS',
        text,
        html: escapeHtml(text),
      });
    },
  };
}

export interface TwilioOptions {
  accountSid: string;
  /** Secret: only ever sent in the Authorization header. */
  authToken: string;
  /** A Twilio number in E.164, or a Messaging Service SID (MG…). */
  from: string;
  baseUrl?: string;
  timeoutMs?: number;
}

/** Twilio's answer to a refused request: `{ code, message, more_info, status }`. */
export class TwilioError extends Error {
  override name = 'TwilioError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | null,
  ) {
    super(message);
  }
}

async function jsonOf(response: Response): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await response.json();
    return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Twilio's Programmable Messaging REST API, spoken directly (no SDK): POST a form to
 * /2010-04-01/Accounts/{AccountSid}/Messages.json with HTTP basic auth; 201 with the message's
 * sid means accepted for delivery.
 */
export function twilioSms({
  accountSid,
  authToken,
  from,
  baseUrl = 'https://api.twilio.com',
  timeoutMs = 10_000,
}: TwilioOptions): SmsSender {
  const url = `${baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const sender: Record<string, string> = from.startsWith('MG')
    ? { MessagingServiceSid: from }
    : { From: from };
  return {
    async send({ to, text }) {
      checkNumber(to);
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            authorization,
            accept: 'application/json',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ To: to, ...sender, Body: text }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        if (error instanceof Error && error.name === 'TimeoutError')
          throw new Error(`Twilio did not answer within ${timeoutMs} ms.`, { cause: error });
        throw new Error('Twilio could not be reached.', { cause: error });
      }
      const body = await jsonOf(response);
      if (!response.ok) {
        throw new TwilioError(
          typeof body.message === 'string'
            ? body.message
            : `Twilio answered ${response.status} ${response.statusText}.`,
          response.status,
          typeof body.code === 'number' ? body.code : null,
        );
      }
      if (typeof body.sid !== 'string')
        throw new Error(`Twilio answered ${response.status} without a message sid.`);
    },
  };
}

/** The driver SMS_DRIVER names; twilio with its three settings (config.ts requires them). */
export function smsSenderFor(config: Config, db: Executor): SmsSender {
  switch (config.SMS_DRIVER) {
    case 'outbox':
      return outboxSms(db);
    case 'twilio': {
      const { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM } = config;
      if (!TWILIO_ACCOUNT_SID || !TWILIO_AUTH_TOKEN || !TWILIO_FROM)
        throw new ConfigError(
          'SMS_DRIVER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM.',
        );
      return twilioSms({
        accountSid: TWILIO_ACCOUNT_SID,
        authToken: TWILIO_AUTH_TOKEN,
        from: TWILIO_FROM,
        ...(config.TWILIO_BASE_URL ? { baseUrl: config.TWILIO_BASE_URL } : {}),
      });
    }
  }
}
