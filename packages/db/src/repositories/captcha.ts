import { lt, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { captchaRedemptions } from '../schema.ts';

/** Records a solved challenge as spent; false when it had been spent already (a replay). */
export async function redeemCaptcha(
  db: Executor,
  signature: string,
  expiresAt: Date,
): Promise<boolean> {
  await db.delete(captchaRedemptions).where(lt(captchaRedemptions.expiresAt, sql`now()`));
  const rows = await db
    .insert(captchaRedemptions)
    .values({ signature, expiresAt })
    .onConflictDoNothing()
    .returning({ signature: captchaRedemptions.signature });
  return rows.length === 1;
}

export async function isCaptchaRedeemed(db: Executor, signature: string): Promise<boolean> {
  const result = await db.execute(
    sql`SELECT 1 FROM captcha_redemptions WHERE signature = ${signature}`,
  );
  return result.rows.length > 0;
}
