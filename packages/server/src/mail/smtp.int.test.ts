import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, register, uniqueEmail } from '../test/app.ts';
import { smtpMailer } from './mailer.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback, speaking the protocol nodemailer talks to in production. */
let server: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  port = (server.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the smtp mail driver', () => {
  it('delivers a message with its sender, recipient, subject and both bodies', async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, 'RateLens <no-reply@ratelens.test>');
    await mailer.send({
      to: 'jane@example.com',
      subject: 'Hello',
      text: 'Plain body',
      html: '<p>HTML body</p>',
    });
    const message = received.at(-1);
    expect(message?.from).toBe('no-reply@ratelens.test');
    expect(message?.to).toEqual(['jane@example.com']);
    expect(message?.raw).toContain('Subject: Hello');
    expect(message?.raw).toContain('Plain body');
    expect(message?.raw).toContain('<p>HTML body</p>');
  });

  it('carries the verification link of a registration when MAIL_DRIVER=smtp', async () => {
    const test = await createTestApp({ MAIL_DRIVER: 'smtp', SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const email = uniqueEmail();
      expect((await register(test.app, email)).statusCode).toBe(200);
      const message = received.find((m) => m.to.includes(email));
      expect(message?.raw).toContain('Subject: Verify your RateLens e-mail address');
      expect(message?.raw.replace(/=\r?\n/g, '')).toMatch(
        /http:\/\/localhost:3000\/confirmEmail\?email=/,
      );
    } finally {
      await test.close();
    }
  });

  it('fails loudly when the server cannot be reached', async () => {
    const mailer = smtpMailer('smtp://127.0.0.1:1', 'RateLens <no-reply@ratelens.test>');
    await expect(
      mailer.send({ to: 'a@example.com', subject: 's', text: 't', html: 'h' }),
    ).rejects.toThrow();
  });
});
