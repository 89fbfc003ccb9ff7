import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JobLocks } from './job-locks.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const lockKey = (job: string) => `hashtextextended('ratelens:job:' || '${job}', 0)`;

describe('JobLocks', () => {
  it('opens its connection again without waiting for a lock another session took meanwhile', async () => {
    const pool = database.connection.pool;
    const warnings: string[] = [];
    const locks = new JobLocks(database.url, { warn: (line) => warnings.push(line) });
    const other = await pool.connect();
    try {
      await locks.hold('job-a');
      // Another session waits for job-a's lock; the locks' session is then ended by the server,
      // and the waiting session takes the lock first, as a session the server has not yet seen
      // end would still hold it.
      const waiting = other.query(`SELECT pg_advisory_lock(${lockKey('job-a')})`);
      await vi.waitFor(async () => {
        const { rows } = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        expect(rows[0]?.n).toBe(1);
      });
      await pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'ratelens-worker-locks'`,
      );
      await waiting;
      // A new job's lock is taken at once: the connection opened again did not wait for job-a's.
      await vi.waitFor(() => expect(warnings.join('\n')).toContain('opening it again'));
      const taken = await Promise.race([
        locks.hold('job-b').then(() => 'taken'),
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 3000)),
      ]);
      expect(taken).toBe('taken');
      const { rows } = await pool.query<{ held: boolean }>(
        `SELECT NOT pg_try_advisory_lock(${lockKey('job-b')}) AS held`,
      );
      expect(rows[0]?.held).toBe(true);
    } finally {
      await other.query(`SELECT pg_advisory_unlock_all()`).catch(() => undefined);
      other.release();
      await locks.close();
    }
  }, 30_000);
});
