import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor, Queryable } from '../client.ts';
import { refreshTokens, sessions } from '../schema.ts';

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(
  db: Executor,
  session: { userId: string; secretHash: string; expiresAt: Date },
): Promise<SessionRow> {
  const [row] = await db.insert(sessions).values(session).returning();
  if (!row) throw new Error('session insert returned nothing');
  return row;
}

export async function findSession(db: Executor, id: string): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id)).limit(1);
  return row;
}

export interface SessionWithUser {
  id: string;
  userId: string;
  secretHash: string;
  expiresAt: Date;
  revokedAt: Date | null;
  email: string;
  role: string;
}

/**
 * A session with the e-mail and role of its user, in one round trip. Every authenticated call
 * runs it, so it is a named prepared statement on the pool itself: the query builder cost about
 * 7% of the server's CPU in the search benchmark (docs/decisions/0015-search-entitlements.md).
 */
export async function findSessionWithUser(
  pool: Queryable,
  id: string,
): Promise<SessionWithUser | undefined> {
  const { rows } = await pool.query<SessionWithUser>({
    name: 'find_session_with_user',
    text: `SELECT s.id, s.user_id AS "userId", s.secret_hash AS "secretHash", s.expires_at AS "expiresAt",
                  s.revoked_at AS "revokedAt", u.email, u.role
             FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.id = $1`,
    values: [id],
  });
  return rows[0];
}

export async function revokeSession(db: Executor, id: string, reason: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

export async function revokeUserSessions(
  db: Executor,
  userId: string,
  reason: string,
): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export async function insertRefreshToken(
  db: Executor,
  sessionId: string,
  tokenHash: string,
): Promise<void> {
  await db.insert(refreshTokens).values({ sessionId, tokenHash });
}

export async function findRefreshToken(db: Executor, tokenHash: string) {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/**
 * Marks a refresh token used; false when it already was (a concurrent or replayed refresh), unless
 * it was used less than `graceMs` ago, by the database's clock: a refresh whose answer the client
 * never read (its page reloaded meanwhile) or another tab's at the same moment.
 */
export async function consumeRefreshToken(db: Executor, id: string, graceMs = 0): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: sql`coalesce(${refreshTokens.usedAt}, now())` })
    .where(
      and(
        eq(refreshTokens.id, id),
        sql`(${refreshTokens.usedAt} IS NULL OR ${refreshTokens.usedAt} > now() - make_interval(secs => ${graceMs / 1000}))`,
      ),
    )
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}
