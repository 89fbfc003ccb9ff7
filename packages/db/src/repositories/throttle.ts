import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { authThrottle } from '../schema.ts';

export type ThrottleScope = 'login-account' | 'login-address';
export type ThrottleRow = typeof authThrottle.$inferSelect;

export async function findThrottle(
  db: Executor,
  scope: ThrottleScope,
  key: string,
): Promise<ThrottleRow | undefined> {
  const [row] = await db
    .select()
    .from(authThrottle)
    .where(and(eq(authThrottle.scope, scope), eq(authThrottle.key, key)))
    .limit(1);
  return row;
}

/** The count of a key's row after one more attempt: a count older than the window starts again. */
function countedOnce(windowMinutes: number) {
  const window = sql`make_interval(mins => ${windowMinutes})`;
  const expired = sql`${authThrottle.windowStartedAt} < now() - ${window}`;
  return {
    failures: sql`CASE WHEN ${expired} THEN 1 ELSE ${authThrottle.failures} + 1 END`,
    windowStartedAt: sql`CASE WHEN ${expired} THEN now() ELSE ${authThrottle.windowStartedAt} END`,
  };
}

/** Locks a key for `lockMinutes`, its count starting again; returns the row. */
export async function lockThrottle(
  db: Executor,
  scope: ThrottleScope,
  key: string,
  lockMinutes: number,
): Promise<ThrottleRow | undefined> {
  const [locked] = await db
    .update(authThrottle)
    .set({
      lockedUntil: sql`now() + make_interval(mins => ${lockMinutes})`,
      failures: 0,
      windowStartedAt: sql`now()`,
    })
    .where(and(eq(authThrottle.scope, scope), eq(authThrottle.key, key)))
    .returning();
  return locked;
}

/**
 * Counts one failure in a window of `windowMinutes`; a failure after the window starts a new
 * count. Reaching `threshold` locks the key for `lockMinutes`. Returns the row after the update.
 */
export async function recordFailure(
  db: Executor,
  scope: ThrottleScope,
  key: string,
  options: { windowMinutes: number; threshold: number; lockMinutes: number },
): Promise<ThrottleRow> {
  const [row] = await db
    .insert(authThrottle)
    .values({ scope, key, failures: 1 })
    .onConflictDoUpdate({
      target: [authThrottle.scope, authThrottle.key],
      set: countedOnce(options.windowMinutes),
    })
    .returning();
  if (!row) throw new Error('throttle upsert returned nothing');
  if (row.failures >= options.threshold)
    return (await lockThrottle(db, scope, key, options.lockMinutes)) ?? row;
  return row;
}

/**
 * Counts an attempt before it is checked (a password before argon2 has compared it), so that
 * attempts made at the same moment are each counted: each one's upsert waits for the row the
 * one before it wrote, and none sees a count that the others' checks have not yet raised. While
 * the key is locked nothing is counted and null is answered. The caller clears the key on
 * success (clearThrottle) and locks it when the count reaches its threshold (lockThrottle).
 */
export async function countAttempt(
  db: Executor,
  scope: ThrottleScope,
  key: string,
  windowMinutes: number,
): Promise<ThrottleRow | null> {
  const [row] = await db
    .insert(authThrottle)
    .values({ scope, key, failures: 1 })
    .onConflictDoUpdate({
      target: [authThrottle.scope, authThrottle.key],
      set: countedOnce(windowMinutes),
      setWhere: sql`${authThrottle.lockedUntil} IS NULL OR ${authThrottle.lockedUntil} <= now()`,
    })
    .returning();
  return row ?? null;
}

export async function clearThrottle(
  db: Executor,
  scope: ThrottleScope,
  key: string,
): Promise<void> {
  await db
    .delete(authThrottle)
    .where(and(eq(authThrottle.scope, scope), eq(authThrottle.key, key)));
}
