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
  const window = sql`make_interval(mins => ${options.windowMinutes})`;
  const [row] = await db
    .insert(authThrottle)
    .values({ scope, key, failures: 1 })
    .onConflictDoUpdate({
      target: [authThrottle.scope, authThrottle.key],
      set: {
        failures: sql`CASE WHEN ${authThrottle.windowStartedAt} < now() - ${window} THEN 1 ELSE ${authThrottle.failures} + 1 END`,
        windowStartedAt: sql`CASE WHEN ${authThrottle.windowStartedAt} < now() - ${window} THEN now() ELSE ${authThrottle.windowStartedAt} END`,
      },
    })
    .returning();
  if (!row) throw new Error('throttle upsert returned nothing');
  if (row.failures >= options.threshold) {
    const [locked] = await db
      .update(authThrottle)
      .set({
        lockedUntil: sql`now() + make_interval(mins => ${options.lockMinutes})`,
        failures: 0,
        windowStartedAt: sql`now()`,
      })
      .where(and(eq(authThrottle.scope, scope), eq(authThrottle.key, key)))
      .returning();
    return locked ?? row;
  }
  return row;
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
