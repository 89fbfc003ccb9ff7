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

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    driver: 'smtp',
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}
