import type { Pool } from '@ratelens/db';
import PgBoss from 'pg-boss';
import { createRefreshQueue, REFRESH_QUEUE, type RefreshRequest } from './worker.ts';

/**
 * What became of a request: queued, or one for the same hospital was waiting already, or was
 * being run (the API's contract has no word of its own for that: the page follows the run all
 * the same).
 */
export type RefreshAsked = 'waiting' | 'already-waiting';

/**
 * Sends refresh jobs for the worker, from the web server, whether or not it runs a worker itself
 * (WORKER=off sends them to `npm run worker`). pg-boss is started on the first request, on the
 * server's own pool, sending only: no polling, no schedules, no maintenance.
 */
export class RefreshRequests {
  #boss: Promise<PgBoss> | undefined;

  constructor(private readonly pool: Pool) {}

  /** Asks the worker to read one hospital's file again. */
  async ask(hospitalId: string): Promise<RefreshAsked> {
    const boss = await (this.#boss ??= this.#start());
    // A request for the hospital that runs stands for this one too: it is not queued again. (Two
    // asking at the same moment may both send: two refreshes of one hospital are safe, and the
    // queue's `short` policy holds no other job back for them.)
    const { rows } = await this.pool.query(
      `SELECT 1 FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state = 'active'`,
      [REFRESH_QUEUE, hospitalId],
    );
    if (rows.length > 0) return 'already-waiting';
    const request: RefreshRequest = { hospitalId };
    // The queue's policy keeps one waiting job per key: a second click finds the first.
    const id = await boss.send(REFRESH_QUEUE, request, { singletonKey: hospitalId });
    return id ? 'waiting' : 'already-waiting';
  }

  async close(): Promise<void> {
    const boss = this.#boss;
    this.#boss = undefined;
    if (boss) await (await boss).stop({ graceful: false, close: false });
  }

  async #start(): Promise<PgBoss> {
    const boss = new PgBoss({
      db: { executeSql: (text, values) => this.pool.query(text, values) },
      supervise: false,
      schedule: false,
    });
    // Its calls' errors reach the caller; doing no background work, it emits none of its own.
    boss.on('error', () => {});
    try {
      await boss.start();
      await createRefreshQueue(boss, this.pool);
      return boss;
    } catch (error) {
      // The next request tries again.
      this.#boss = undefined;
      throw error;
    }
  }
}
