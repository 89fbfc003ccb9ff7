import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '../auth/auth-service.ts';
import { createTestApp, register, solvedCaptcha, uniqueEmail, type TestApp } from '../test/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../test/smtp-server.ts';
import {
  deliverQueuedMail,
  MAIL_GIVE_UP_HOURS,
  MAIL_KEEP_FAILED_DAYS,
  type MailLog,
} from './mail-queue.ts';
import { smtpTransport } from './mailer.ts';

const FROM = 'RateLens <no-reply@ratelens.test>';
let smtp: TestSmtpServer;
let test: TestApp;
const lines: string[] = [];
const log: MailLog = {
  info: (line) => lines.push(line),
  warn: (line) => lines.push(`warning: ${line}`),
  error: (line) => lines.push(`error: ${line}`),
};

beforeAll(async () => {
  smtp = await startSmtpServer();
  test = await createTestApp({ MAIL_DRIVER: 'smtp', SMTP_URL: smtp.url });
});
afterAll(async () => {
  await test.close();
  await smtp.close();
});
afterEach(() => {
  smtp.refusing = false;
  smtp.delayMs = 0;
});

const pool = () => test.database.connection.pool;
const received = (email: string) => smtp.received.filter((m) => m.to.includes(email));

interface QueueRow {
  attempts: number;
  lastError: string | null;
  failed: boolean;
  /** Minutes from the last try's time to the next try's. */
  waitMinutes: number;
}
async function queued(email: string): Promise<QueueRow[]> {
  const { rows } = await pool().query<QueueRow>(
    `SELECT attempts, last_error AS "lastError", failed_at IS NOT NULL AS failed,
            round(extract(epoch FROM next_attempt_at - now()) / 60)::int AS "waitMinutes"
       FROM mail_queue WHERE "to" = $1`,
    [email],
  );
  return rows;
}

/** Queues a message as a request does, `hoursAgo`, due now; answers its id. */
async function queueMessage(email: string, hoursAgo = 0): Promise<string> {
  const { rows } = await pool().query<{ id: string }>(
    `INSERT INTO mail_queue ("to", subject, text, html, queued_at, next_attempt_at)
     VALUES ($1, 'Queued', 'Plain body', '<p>HTML body</p>', now() - make_interval(hours => $2::int), now())
     RETURNING id`,
    [email, hoursAgo],
  );
  return rows[0]?.id ?? '';
}

describe('the smtp transport', () => {
  it('delivers a message with its sender, recipient, subject and both bodies', async () => {
    await smtpTransport(smtp.url, FROM).send({
      to: 'jane@example.com',
      subject: 'Hello',
      text: 'Plain body',
      html: '<p>HTML body</p>',
    });
    const message = received('jane@example.com').at(-1);
    expect(message?.from).toBe('no-reply@ratelens.test');
    expect(message?.raw).toContain('Subject: Hello');
    expect(message?.raw).toContain('Plain body');
    expect(message?.raw).toContain('<p>HTML body</p>');
  });

  it('fails loudly when the server cannot be reached, or refuses', async () => {
    const message = { to: 'a@example.com', subject: 's', text: 't', html: 'h' };
    await expect(smtpTransport('smtp://127.0.0.1:1', FROM).send(message)).rejects.toThrow();
    smtp.refusing = true;
    await expect(smtpTransport(smtp.url, FROM).send(message)).rejects.toThrow(/451/);
  });
});

describe('e-mail with MAIL_DRIVER=smtp, through the queue', () => {
  it('sends the verification link of a registration at once, and keeps nothing', async () => {
    const email = uniqueEmail();
    expect((await register(test.app, email)).statusCode).toBe(200);
    await vi.waitFor(() => expect(received(email)).toHaveLength(1), { timeout: 10_000 });
    const message = received(email)[0];
    expect(message?.raw).toContain('Subject: Verify your RateLens e-mail address');
    expect(message?.raw.replace(/=\r?\n/g, '')).toMatch(
      /http:\/\/localhost:3000\/confirmEmail\?email=/,
    );
    await vi.waitFor(async () => expect(await queued(email)).toEqual([]));
  });

  it('answers a registration while the mail server refuses, and sends its message once it takes it', async () => {
    smtp.refusing = true;
    const email = uniqueEmail();
    const response = await register(test.app, email);
    // The account is made and the person told so, as the spec words it: no 500 for a mail server.
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ isSuccess: true, message: AUTH_MESSAGES.registered });
    // Tried at once, refused, and left to wait a minute.
    await vi.waitFor(async () => expect((await queued(email))[0]?.lastError).not.toBeNull());
    const [row] = await queued(email);
    expect(row).toMatchObject({ attempts: 1, failed: false, waitMinutes: 1 });
    expect(row?.lastError).toMatch(/451/);
    expect(received(email)).toEqual([]);

    smtp.refusing = false;
    const transport = smtpTransport(smtp.url, FROM);
    // Not before its time.
    expect(await deliverQueuedMail(pool(), transport, { log })).toEqual({
      sent: 0,
      retrying: 0,
      failed: 0,
      stoppedBecause: null,
    });
    const inTwoMinutes = new Date(Date.now() + 2 * 60_000);
    const delivery = await deliverQueuedMail(pool(), transport, { log, now: inTwoMinutes });
    expect(delivery).toMatchObject({ sent: 1, failed: 0 });
    expect(received(email)).toHaveLength(1);
    expect(received(email)[0]?.raw).toContain('Subject: Verify your RateLens e-mail address');
    expect(await queued(email)).toEqual([]);
  });

  it('answers a request for a reset link alike whether the mail server is up or not', async () => {
    const email = uniqueEmail();
    expect((await register(test.app, email)).statusCode).toBe(200);
    smtp.refusing = true;
    const forget = async (address: string) =>
      test.app.inject({
        method: 'POST',
        url: '/api/Auth/ForgetPassword',
        payload: { Email: address, altcha: await solvedCaptcha(test.app) },
      });
    const known = await forget(email);
    const unknown = await forget(uniqueEmail());
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    await vi.waitFor(async () =>
      expect((await queued(email)).map((row) => row.attempts)).toContain(1),
    );
  });

  it('waits longer after each refusal, and gives up after a day in the queue', async () => {
    smtp.refusing = true;
    const transport = smtpTransport(smtp.url, FROM);
    const email = uniqueEmail();
    const id = await queueMessage(email);
    for (const [tries, wait] of [
      [1, 1],
      [2, 2],
      [3, 4],
    ] as const) {
      // Each try moves the clock to a second after the message is due.
      const { rows } = await pool().query<{ due: Date }>(
        `SELECT next_attempt_at + interval '1 second' AS due FROM mail_queue WHERE "to" = $1`,
        [email],
      );
      const now = rows[0]?.due ?? new Date();
      expect(await deliverQueuedMail(pool(), transport, { log, now, id })).toEqual({
        sent: 0,
        retrying: 1,
        failed: 0,
        stoppedBecause: null,
      });
      const { rows: after } = await pool().query<{ attempts: number; wait: number }>(
        `SELECT attempts, (extract(epoch FROM next_attempt_at - $2::timestamptz) / 60)::float8 AS wait
           FROM mail_queue WHERE "to" = $1`,
        [email, now],
      );
      expect(after[0]).toEqual({ attempts: tries, wait });
    }

    const old = uniqueEmail();
    const oldId = await queueMessage(old, MAIL_GIVE_UP_HOURS + 1);
    lines.length = 0;
    const delivery = await deliverQueuedMail(pool(), transport, { log, id: oldId });
    expect(delivery).toEqual({ sent: 0, retrying: 0, failed: 1, stoppedBecause: null });
    expect((await queued(old))[0]).toMatchObject({ failed: true, attempts: 1 });
    expect(lines.find((line) => line.startsWith('error: '))).toMatch(
      /^error: Mail .* \("Queued"\) not sent at try 1: .*451.*; given up after 24 hours in the queue$/,
    );
    // Not tried again, even when its time has long passed.
    smtp.refusing = false;
    const muchLater = new Date(Date.now() + 48 * 3_600_000);
    await deliverQueuedMail(pool(), transport, { log, now: muchLater, id: oldId });
    expect(received(old)).toEqual([]);
  });

  it(`removes a message given up on ${MAIL_KEEP_FAILED_DAYS} days ago, at the worker's pass`, async () => {
    const transport = smtpTransport(smtp.url, FROM);
    const [kept, removed] = [uniqueEmail(), uniqueEmail()];
    for (const [email, days] of [
      [kept, MAIL_KEEP_FAILED_DAYS - 1],
      [removed, MAIL_KEEP_FAILED_DAYS + 1],
    ] as const) {
      const id = await queueMessage(email);
      await pool().query(
        `UPDATE mail_queue SET failed_at = now() - make_interval(days => $2::int) WHERE id = $1`,
        [id, days],
      );
    }
    // A try of one message (a request's) removes nothing; the worker's pass does.
    await deliverQueuedMail(pool(), transport, { log, id: await queueMessage(uniqueEmail()) });
    expect((await queued(removed)).length).toBe(1);
    lines.length = 0;
    await deliverQueuedMail(pool(), transport, { log });
    expect(await queued(removed)).toEqual([]);
    expect(await queued(kept)).toEqual([expect.objectContaining({ failed: true })]);
    expect(lines).toContain(
      `Mail: 1 given up on more than ${MAIL_KEEP_FAILED_DAYS} days ago removed from the queue`,
    );
  });

  it('gives up at once on a message the server refuses for good (5xx)', async () => {
    const email = `nobody-${uniqueEmail()}`;
    const id = await queueMessage(email);
    lines.length = 0;
    const transport = smtpTransport(smtp.url, FROM);
    expect(await deliverQueuedMail(pool(), transport, { log, id })).toEqual({
      sent: 0,
      retrying: 0,
      failed: 1,
      stoppedBecause: null,
    });
    expect((await queued(email))[0]).toMatchObject({ failed: true, attempts: 1 });
    expect(lines).toEqual([
      expect.stringMatching(
        /^error: Mail .* not sent at try 1: .*550 No such mailbox <<address>>; given up at once: the server refused it for good$/,
      ),
    ]);
    // The queue's row keeps the server's words whole; the log, no address.
    expect((await queued(email))[0]?.lastError).toContain(email);
  });

  it('tries again a message whose sender the server refused: ours to mend, not the message', async () => {
    // A wrong MAIL_FROM, a changed SMTP password: mended, the queued links should still go.
    const email = uniqueEmail();
    const id = await queueMessage(email);
    const wrongSender = smtpTransport(smtp.url, 'RateLens <wrong-sender@ratelens.test>');
    expect(await deliverQueuedMail(pool(), wrongSender, { log, id })).toEqual({
      sent: 0,
      retrying: 1,
      failed: 0,
      stoppedBecause: null,
    });
    expect((await queued(email))[0]).toMatchObject({ failed: false, attempts: 1 });
    expect((await queued(email))[0]?.lastError).toMatch(/553/);
  });

  it('sends a message once when a second run comes while the first is sending it', async () => {
    // The worker's run, say, while the request's try waits for a slow server.
    smtp.delayMs = 1500;
    const transport = smtpTransport(smtp.url, FROM);
    const email = uniqueEmail();
    const id = await queueMessage(email);
    const first = deliverQueuedMail(pool(), transport, { log, id });
    await vi.waitFor(async () => expect((await queued(email))[0]?.attempts).toBe(1));
    expect(await deliverQueuedMail(pool(), transport, { log, id })).toEqual({
      sent: 0,
      retrying: 0,
      failed: 0,
      stoppedBecause: null,
    });
    expect(await first).toEqual({ sent: 1, retrying: 0, failed: 0, stoppedBecause: null });
    expect(received(email)).toHaveLength(1);
  });

  it('sends each message once when runs try the queue at the same time', async () => {
    const transport = smtpTransport(smtp.url, FROM);
    const emails = Array.from({ length: 5 }, () => uniqueEmail());
    for (const email of emails) await queueMessage(email);
    await Promise.all([1, 2, 3].map(() => deliverQueuedMail(pool(), transport, { log })));
    for (const email of emails) expect(received(email)).toHaveLength(1);
  });
});
