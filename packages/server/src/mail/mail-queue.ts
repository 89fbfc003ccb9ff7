import { errorMessage } from '@ratelens/core';
import type { Pool } from '@ratelens/db';
import type { MailMessage, MailTransport, Mailer } from './mailer.ts';

/**
 * E-mail through a queue in the database (`mail_queue`, ADR 0005): `send` stores the message and
 * returns, so a request never waits for the SMTP server nor fails with it; the message is tried
 * at once, and the worker tries again what is left (MAIL_QUEUE, every minute) with longer waits
 * between tries, until the server takes it or MAIL_GIVE_UP_HOURS have passed.
 */

/** After this long in the queue a message that the server still refuses is given up on. */
export const MAIL_GIVE_UP_HOURS = 24;
/**
 * How long a message given up on is kept (its address, its words and the server's refusal, for
 * whoever looks into it), then removed by the worker's pass: it holds an address and, for a reset
 * or verification e-mail, its link, and nothing tries it again.
 */
export const MAIL_KEEP_FAILED_DAYS = 30;
/**
 * How long a try holds its message: another try (the worker's, another process's) takes it only
 * after that, should the process die before saying how the try went. Longer than a try can take
 * (SMTP_TIMEOUT_MS for each step).
 */
const CLAIM_MINUTES = 5;

/** The wait after `attempts` failed tries: 1, 2, 4, … minutes, at most an hour. */
export function retryDelayMinutes(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1), 60);
}

/** Where the queue's lines go: the server's logger, or the worker's. */
export interface MailLog {
  info: (message: string) => void;
  warn: (message: string) => void;
  error: (message: string) => void;
}

/** The SMTP driver's mailer: queues each message, then tries it without keeping the caller. */
export function queuedMailer(pool: Pool, transport: MailTransport, log: MailLog): Mailer {
  return {
    driver: 'smtp',
    async send(message: MailMessage) {
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO mail_queue ("to", subject, text, html) VALUES ($1, $2, $3, $4) RETURNING id`,
        [message.to, message.subject, message.text, message.html],
      );
      const id = rows[0]?.id;
      if (!id) throw new Error('the message was not queued');
      void deliverQueuedMail(pool, transport, { log, id }).catch((error: unknown) =>
        log.error(`Mail ${id}: could not be tried: ${errorMessage(error)}`),
      );
    },
  };
}

/**
 * A mail server's words without the e-mail addresses they quote ("550 <jane@example.com>: no such
 * mailbox"): the logs hold no address (ADR 0005), the queue's row keeps the words whole. From the
 * first character of a run only, so a long run without an "@" is not tried from each character.
 */
export function withoutAddresses(text: string): string {
  return text.replace(
    /(?<![^\s<>"'(),;:[\]])[^\s<>"'(),;:[\]@]+@[^\s<>"'(),;:[\]@]+/g,
    '<address>',
  );
}

/** What a run of deliverQueuedMail did with the messages that were due. */
export interface MailDelivery {
  sent: number;
  /** Refused or unreachable; tried again later. */
  retrying: number;
  /** Refused for MAIL_GIVE_UP_HOURS: kept with `failed_at`, not tried again. */
  failed: number;
  /** Why the run stopped before the queue was done (the worker stopping), or null. */
  stoppedBecause: string | null;
}

interface QueuedMail extends MailMessage {
  id: string;
  queuedAt: Date;
  attempts: number;
}

/**
 * Tries every message that is due (or the one `id`, if due), each once: a message the server
 * takes is deleted; one it refuses waits retryDelayMinutes, or is given up on once it has been
 * queued MAIL_GIVE_UP_HOURS. A message is claimed before it is tried, one at a time (a claim
 * lasts CLAIM_MINUTES, longer than one try), so two runs at once (the request's try and the
 * worker's, two workers) never send it twice. `now` is the database's clock unless given (tests).
 * Once `signal` is aborted no further message is claimed: the one at hand ends, and the rest,
 * untouched, are tried by the next run.
 */
export async function deliverQueuedMail(
  pool: Pool,
  transport: MailTransport,
  options: { log: MailLog; id?: string; now?: Date; signal?: AbortSignal },
): Promise<MailDelivery> {
  const { log, id = null, now = null, signal } = options;
  const delivery: MailDelivery = { sent: 0, retrying: 0, failed: 0, stoppedBecause: null };
  if (id === null) {
    const { rowCount } = await pool.query(
      `DELETE FROM mail_queue
        WHERE failed_at < coalesce($1::timestamptz, now()) - make_interval(days => $2::int)`,
      [now, MAIL_KEEP_FAILED_DAYS],
    );
    if (rowCount)
      log.info(
        `Mail: ${rowCount} given up on more than ${MAIL_KEEP_FAILED_DAYS} days ago removed from the queue`,
      );
  }
  while (!signal?.aborted) {
    const { rows } = await pool.query<QueuedMail>(
      `UPDATE mail_queue q
          SET attempts = q.attempts + 1,
              next_attempt_at = coalesce($1::timestamptz, now()) + make_interval(mins => $3::int)
        WHERE q.id IN (SELECT id FROM mail_queue
                        WHERE failed_at IS NULL AND next_attempt_at <= coalesce($1::timestamptz, now())
                          AND ($2::uuid IS NULL OR id = $2::uuid)
                        ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING q.id, q."to", q.subject, q.text, q.html, q.queued_at AS "queuedAt", q.attempts`,
      [now, id, CLAIM_MINUTES],
    );
    for (const mail of rows) {
      try {
        await transport.send({
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
      } catch (error) {
        await refused(pool, mail, error, now, log, delivery);
        continue;
      }
      await pool.query('DELETE FROM mail_queue WHERE id = $1', [mail.id]);
      delivery.sent += 1;
      if (mail.attempts > 1)
        log.info(`Mail ${mail.id} ("${mail.subject}") sent at try ${mail.attempts}`);
    }
    if (rows.length === 0 || id !== null) return delivery;
  }
  delivery.stoppedBecause = errorMessage(signal?.reason);
  return delivery;
}

/**
 * Whether the server refused this message for good: a 5xx reply to its recipient (no such
 * mailbox) or to its content (`RCPT TO`, `DATA`). A 4xx reply, no reply at all (the server out of
 * reach, a timeout), and a 5xx to the sign-in or the sender (a changed SMTP password, a wrong
 * MAIL_FROM: ours to mend, after which the message should still go) may pass.
 */
function refusedForGood(error: unknown): boolean {
  const { responseCode, command } = (error ?? {}) as { responseCode?: unknown; command?: unknown };
  return (
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600 &&
    (command === 'RCPT TO' || command === 'DATA')
  );
}

/**
 * A try the server refused or could not take: the message waits, or is given up on when the
 * refusal is for good or it has waited MAIL_GIVE_UP_HOURS.
 */
async function refused(
  pool: Pool,
  mail: QueuedMail,
  error: unknown,
  now: Date | null,
  log: MailLog,
  delivery: MailDelivery,
): Promise<void> {
  const reason = errorMessage(error);
  const forGood = refusedForGood(error);
  const said = `Mail ${mail.id} ("${mail.subject}") not sent at try ${mail.attempts}: ${withoutAddresses(reason)}`;
  const { rows } = await pool.query<{ failed: boolean; next: Date }>(
    `UPDATE mail_queue
        SET last_error = $2,
            failed_at = CASE WHEN $6 OR queued_at <= coalesce($3::timestamptz, now()) - make_interval(hours => $4::int)
                             THEN coalesce($3::timestamptz, now()) END,
            next_attempt_at = coalesce($3::timestamptz, now()) + make_interval(mins => $5::int)
      WHERE id = $1
      RETURNING failed_at IS NOT NULL AS failed, next_attempt_at AS next`,
    [mail.id, reason, now, MAIL_GIVE_UP_HOURS, retryDelayMinutes(mail.attempts), forGood],
  );
  if (rows[0]?.failed) {
    delivery.failed += 1;
    log.error(
      `${said}; given up ${forGood ? 'at once: the server refused it for good' : `after ${MAIL_GIVE_UP_HOURS} hours in the queue`}`,
    );
  } else {
    delivery.retrying += 1;
    log.warn(`${said}; tried again from ${rows[0]?.next.toISOString() ?? 'later'}`);
  }
}
