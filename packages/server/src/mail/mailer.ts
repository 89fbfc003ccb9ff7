import { insertOutboxMessage, type Executor } from '@ratelens/db';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends e-mail. Chosen by MAIL_DRIVER; every driver is a real one (docs/decisions/0005-mail.md). */
export interface Mailer {
  readonly driver: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
}

/** Keeps every message in the database; outside production /dev/outbox shows them. */
export function outboxMailer(db: Executor): Mailer {
  return {
    driver: 'outbox',
    send: (message) => insertOutboxMessage(db, { channel: 'email', ...message }),
  };
}

/** Hands a message to a mail server, or throws: what the SMTP mailer's queue delivers with. */
export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}

/**
 * How long an SMTP server may take to answer the connection, its greeting and each command: a
 * server that hangs would otherwise hold a message for minutes (nodemailer waits 2 and 10).
 */
const SMTP_TIMEOUT_MS = 20_000;

/** Talks SMTP to `smtpUrl` (nodemailer). */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}
