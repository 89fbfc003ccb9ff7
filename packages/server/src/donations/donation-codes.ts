import { createHash, randomInt, randomUUID } from 'node:crypto';
import {
  OTP_LENGTH,
  OTP_MAX_ATTEMPTS,
  PAYMENT_MESSAGES,
  normaliseEmail,
  type Result,
} from '@ratelens/core';
import { inTransaction, type Pool } from '@ratelens/db';
import { AUTH_MESSAGES } from '../auth/auth-service.ts';
import { hashToken, randomToken, sameHash } from '../auth/tokens.ts';
import type { CaptchaService } from '../captcha/captcha-service.ts';
import { AppError, badRequest, fieldError, tooManyRequests, unauthorized } from '../http/errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import { donationCodeEmail } from '../mail/templates.ts';

/*
 * The donation page's e-mail check (search-and-accounts §2 "Donation entry", §7
 * `Donation/donationUserSendOtp`, `Donation/donationUserOtpVerify`; issue 5 point 7): a 4-digit
 * code e-mailed through the Mailer, kept hashed, expiring after 10 minutes, single use, locked
 * after 5 wrong tries. Sending is bot-checked (ALTCHA) and limited per e-mail address here and per
 * client address by the route. A verified code yields the donation token that the donation
 * payment calls carry as `Donation-Token`: it is how the server knows the donor's e-mail.
 */

export const OTP_TTL_MS = 10 * 60_000;
export const DONATION_TOKEN_TTL_MS = 60 * 60_000;

export const DONATION_MESSAGES = {
  sent: (email: string) =>
    `We have sent a ${OTP_LENGTH}-digit code to ${email}. It expires in ${OTP_TTL_MS / 60_000} minutes.`,
  verified: 'Your e-mail address is verified. You can now make your donation.',
  wrongCode: (left: number) =>
    `The code is not correct. You have ${left} more ${left === 1 ? 'try' : 'tries'}.`,
  expired: 'This code has expired or has already been used. Please ask for a new code.',
  locked: 'Too many wrong codes. Please ask for a new code.',
  tooManySends:
    'Too many codes have been sent to this e-mail address. Please try again in an hour.',
  tokenMissing: 'Please confirm your e-mail address with the code we send you before donating.',
  tokenInvalid: 'Your e-mail confirmation has expired. Please confirm your e-mail address again.',
} as const;

export interface DonationCodesDeps {
  pool: Pool;
  mailer: Mailer;
  captcha: CaptchaService;
  /** Codes one e-mail address may be sent per hour. */
  sendsPerHour: number;
}

interface CodeRow {
  id: string;
  codeHash: string;
  expiresAt: Date;
  attempts: number;
}

/** The code is salted with its row id: equal codes of two rows hash differently. */
function codeHash(id: string, code: string): string {
  return createHash('sha256').update(`${id}:${code}`).digest('hex');
}

export class DonationCodes {
  constructor(private readonly deps: DonationCodesDeps) {}

  async send(body: { email: string; altcha: string }, now: Date = new Date()): Promise<Result> {
    if (!(await this.deps.captcha.redeem(body.altcha)))
      throw fieldError('altcha', 'captcha', AUTH_MESSAGES.captchaFailed);
    const email = normaliseEmail(body.email);
    const code = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
    await inTransaction(this.deps.pool, async (client) => {
      // One code at a time per address: concurrent sends queue here, so the count below holds.
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `donation-otp:${email}`,
      ]);
      const { rows } = await client.query<{ sent: number }>(
        `SELECT count(*)::int AS sent FROM otp_codes WHERE email = $1 AND created_at > $2`,
        [email, new Date(now.getTime() - 3_600_000)],
      );
      if ((rows[0]?.sent ?? 0) >= this.deps.sendsPerHour)
        throw tooManyRequests(DONATION_MESSAGES.tooManySends);
      await client.query(`UPDATE otp_codes SET used_at = $2 WHERE email = $1 AND used_at IS NULL`, [
        email,
        now,
      ]);
      const id = randomUUID();
      await client.query(
        `INSERT INTO otp_codes (id, email, code_hash, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)`,
        [id, email, codeHash(id, code), new Date(now.getTime() + OTP_TTL_MS), now],
      );
    });
    try {
      await this.deps.mailer.send(donationCodeEmail(email, code, OTP_TTL_MS / 60_000));
    } catch {
      throw new AppError(503, PAYMENT_MESSAGES.otpMailNotSent);
    }
    return { isSuccess: true, message: DONATION_MESSAGES.sent(email) };
  }

  /**
   * Checks a code. Every try spends one of the code's 5 attempts before it is compared, so even
   * concurrent guesses get 5 comparisons at most; the right code is spent with its try.
   */
  async verify(
    body: { email: string; Otp: string },
    now: Date = new Date(),
  ): Promise<{ isSuccess: boolean; message: string; donationToken?: string }> {
    const email = normaliseEmail(body.email);
    const { rows } = await this.deps.pool.query<CodeRow>(
      `SELECT id, code_hash AS "codeHash", expires_at AS "expiresAt", attempts FROM otp_codes
        WHERE email = $1 AND used_at IS NULL ORDER BY created_at DESC LIMIT 1`,
      [email],
    );
    const row = rows[0];
    if (!row || row.expiresAt.getTime() <= now.getTime())
      throw fieldError('Otp', 'expired', DONATION_MESSAGES.expired);
    const spent = await this.deps.pool.query<{ attempts: number }>(
      `UPDATE otp_codes SET attempts = attempts + 1
        WHERE id = $1 AND used_at IS NULL AND attempts < $2 RETURNING attempts`,
      [row.id, OTP_MAX_ATTEMPTS],
    );
    const attempts = spent.rows[0]?.attempts;
    if (attempts === undefined) throw tooManyRequests(DONATION_MESSAGES.locked);
    if (!sameHash(codeHash(row.id, body.Otp), row.codeHash)) {
      const left = OTP_MAX_ATTEMPTS - attempts;
      if (left <= 0) throw tooManyRequests(DONATION_MESSAGES.locked);
      throw fieldError('Otp', 'mismatch', DONATION_MESSAGES.wrongCode(left));
    }
    const token = randomToken();
    const used = await this.deps.pool.query(
      `UPDATE otp_codes SET used_at = $2, donation_token_hash = $3, donation_token_expires_at = $4
        WHERE id = $1 AND used_at IS NULL RETURNING id`,
      [row.id, now, hashToken(token), new Date(now.getTime() + DONATION_TOKEN_TTL_MS)],
    );
    if (used.rows.length === 0) throw badRequest(DONATION_MESSAGES.expired);
    return { isSuccess: true, message: DONATION_MESSAGES.verified, donationToken: token };
  }

  /** The verified e-mail a donation token stands for. */
  async donorEmail(token: string | undefined, now: Date = new Date()): Promise<string> {
    if (!token) throw unauthorized(DONATION_MESSAGES.tokenMissing);
    const { rows } = await this.deps.pool.query<{ email: string }>(
      `SELECT email FROM otp_codes WHERE donation_token_hash = $1 AND donation_token_expires_at > $2`,
      [hashToken(token), now],
    );
    const email = rows[0]?.email;
    if (!email) throw unauthorized(DONATION_MESSAGES.tokenInvalid);
    return email;
  }
}
