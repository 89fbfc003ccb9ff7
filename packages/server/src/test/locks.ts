import type { Pool, PoolClient } from '@ratelens/db';
import { expect, vi } from 'vitest';

/**
 * Runs `held` while the hospitals table is locked, so that the calls it starts wait in the
 * database, holding whatever place they took, until `waiting` of them do; then `meanwhile`, then
 * the lock is let go. Answers what `held` started. `meanwhile` is given the locking transaction's
 * connection: what it writes there, the waiting calls find committed when they go on.
 */
export function whileHospitalsLocked<T>(
  pool: Pool,
  waiting: number,
  held: () => Promise<T>[],
  meanwhile: (locker: PoolClient) => Promise<void>,
): Promise<T[]> {
  return whileTableLocked(pool, 'hospitals', waiting, held, meanwhile);
}

/** The same with another table locked. */
export async function whileTableLocked<T>(
  pool: Pool,
  table: 'hospitals' | 'charge_items',
  waiting: number,
  held: () => Promise<T>[],
  meanwhile: (locker: PoolClient) => Promise<void>,
): Promise<T[]> {
  const blocker = await pool.connect();
  try {
    await blocker.query('BEGIN');
    await blocker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const started = held();
    await vi.waitFor(async () => expect(await waitingOnLocks(pool)).toBe(waiting), {
      timeout: 10_000,
      interval: 50,
    });
    // And no more come a moment later: a call that should have waited for another is not late.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await waitingOnLocks(pool)).toBe(waiting);
    await meanwhile(blocker);
    await blocker.query('COMMIT');
    return await Promise.all(started);
  } finally {
    await blocker.query('ROLLBACK').catch(() => undefined);
    blocker.release();
  }
}

async function waitingOnLocks(pool: Pool): Promise<number | undefined> {
  const { rows } = await pool.query<{ waiting: number }>(
    `SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return rows[0]?.waiting;
}
