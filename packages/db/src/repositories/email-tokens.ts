import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { emailTokens } from '../schema.ts';

export type EmailTokenPurpose = 'verify-email' | 'reset-password';
export type EmailTokenRow = typeof emailTokens.$inferSelect;

export async function insertEmailToken(
  db: Executor,
  token: { userId: string; purpose: EmailTokenPurpose; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(emailTokens).values(token);
}

export async function findEmailToken(
  db: Executor,
  tokenHash: string,
  purpose: EmailTokenPurpose,
): Promise<EmailTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.purpose, purpose)))
    .limit(1);
  return row;
}

/** Spends every open token of a purpose for a user: one link works once, and a newer one wins. */
export async function spendEmailTokens(
  db: Executor,
  userId: string,
  purpose: EmailTokenPurpose,
): Promise<void> {
  await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailTokens.userId, userId),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
      ),
    );
}

/** Marks one token used; false when it already was (a second click racing the first). */
export async function consumeEmailToken(db: Executor, id: string): Promise<boolean> {
  const rows = await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailTokens.id, id), isNull(emailTokens.usedAt)))
    .returning({ id: emailTokens.id });
  return rows.length === 1;
}
