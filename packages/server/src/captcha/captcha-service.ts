import { isCaptchaRedeemed, redeemCaptcha, type Executor } from '@ratelens/db';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib';
import type { CaptchaChallenge } from '@ratelens/core';

const CHALLENGE_LIFETIME_MS = 10 * 60 * 1000;

export interface CaptchaService {
  challenge(): Promise<CaptchaChallenge>;
  /** True when the payload solves one of our challenges, unexpired and not yet spent. */
  check(payload: string): Promise<boolean>;
  /** Like check, and spends the payload so that it can never be used again. */
  redeem(payload: string): Promise<boolean>;
}

interface Decoded {
  signature: string;
  expiresAt: Date;
}

function decode(payload: string): Decoded | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as {
      signature?: unknown;
      salt?: unknown;
    };
    if (typeof parsed.signature !== 'string' || typeof parsed.salt !== 'string') return undefined;
    const expires = Number(extractParams(payload).expires);
    return {
      signature: parsed.signature,
      expiresAt:
        Number.isFinite(expires) && expires > 0
          ? new Date(expires * 1000)
          : new Date(Date.now() + CHALLENGE_LIFETIME_MS),
    };
  } catch {
    return undefined;
  }
}

/** ALTCHA: a self-hosted proof of work; HMAC-signed challenges, each solution spendable once. */
export function captchaService(db: Executor, hmacKey: string, maxNumber: number): CaptchaService {
  async function valid(payload: string): Promise<Decoded | undefined> {
    const decoded = decode(payload);
    if (!decoded) return undefined;
    const ok = await verifySolution(payload, hmacKey, true).catch(() => false);
    return ok ? decoded : undefined;
  }
  return {
    async challenge() {
      const challenge = await createChallenge({
        hmacKey,
        maxNumber,
        expires: new Date(Date.now() + CHALLENGE_LIFETIME_MS),
      });
      return { ...challenge, maxnumber: maxNumber };
    },
    async check(payload) {
      const decoded = await valid(payload);
      return decoded !== undefined && !(await isCaptchaRedeemed(db, decoded.signature));
    },
    async redeem(payload) {
      const decoded = await valid(payload);
      return decoded !== undefined && redeemCaptcha(db, decoded.signature, decoded.expiresAt);
    },
  };
}
