import { errorMessage } from '@ratelens/core';
import { connect, type Connection, type Pool, type PoolClient } from '@ratelens/db';
import type PgBoss from 'pg-boss';

/**
 * How long a job may be active before a missing lock counts: pg-boss marks a job active when it
 * hands it out, and its handler takes the job's lock a moment later (JobLocks.hold).
 */
export const DEAD_JOB_GRACE_SECONDS = 60;

/**
 * How long a job's lock is kept after its handler ends: pg-boss records the job's end (completed,
 * failed) just after, without waiting, and until then the job is active. Let go at once, a tidy
 * in that moment would find an active job with a free lock and fail a job that had ended well.
 */
export const LOCK_KEPT_AFTER_END_MS = 10_000;

/** How often the lock's connection is checked while jobs hold locks on it. */
const HEARTBEAT_MS = 30_000;
/**
 * How long the heartbeat's query may take before the connection counts as lost. A connection a
 * firewall dropped without a word would otherwise be found out only when TCP gives up
 * retransmitting, some 15 minutes later.
 */
const HEARTBEAT_TIMEOUT_MS = 10_000;

/** The message a job whose worker died is failed with (failDeadJobs). */
export const DEAD_JOB_ERROR =
  'The worker running this job stopped before it ended (the process was killed or the machine went down).';

/** Where JobLocks says what became of its connection. */
interface LockLog {
  warn: (message: string) => void;
}

/** A job's advisory-lock key: held by the worker process that runs it, while it runs. */
const lockSql = (fn: string) => `SELECT ${fn}(hashtextextended('ratelens:job:' || $1, 0))`;

/**
 * The jobs this worker process runs, each under a session advisory lock on a connection of its
 * own. pg-boss records a job as active until its handler ends or its time limit (23 hours for a
 * refresh) passes: a worker killed with -9, or by the OOM killer, would leave its job active that
 * long, and a `stately` queue runs nothing else meanwhile. A job whose lock nobody holds has no
 * live worker (failDeadJobs), as an ingest's run without its lock has none (markInterruptedRuns).
 * Should the connection drop (the database restarted), it is opened again and the locks of the
 * jobs still running taken again.
 */
export class JobLocks {
  readonly #url: string;
  readonly #log: LockLog;
  readonly #held = new Set<string>();
  /**
   * Held jobs whose locks a new connection could not take again yet: the old session, which the
   * server has not seen end, still holds them. Tried again at each heartbeat.
   */
  readonly #relock = new Set<string>();
  #connection: Connection | undefined;
  #client: Promise<PoolClient> | undefined;
  #retry: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(url: string, log: LockLog) {
    this.#url = url;
    this.#log = log;
  }

  /** Takes the lock of a job this process is starting. */
  async hold(jobId: string): Promise<void> {
    const client = await this.#open();
    if (this.#held.has(jobId)) return;
    await client.query(lockSql('pg_advisory_lock'), [jobId]);
    this.#held.add(jobId);
  }

  /**
   * Lets go of a job's lock once its handler has ended, LOCK_KEPT_AFTER_END_MS later: by then
   * pg-boss has recorded the job's end. (Closing lets go of every lock at once.)
   */
  releaseSoon(jobId: string): void {
    setTimeout(() => void this.release(jobId), LOCK_KEPT_AFTER_END_MS).unref();
  }

  /** Lets go of a job's lock now. */
  async release(jobId: string): Promise<void> {
    this.#relock.delete(jobId);
    if (!this.#held.delete(jobId)) return;
    try {
      await (await this.#client)?.query(lockSql('pg_advisory_unlock'), [jobId]);
    } catch {
      // The connection went, and the lock with it.
    }
  }

  /** Closes the connection: every lock it held is let go. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearInterval(this.#heartbeat);
    this.#held.clear();
    this.#relock.clear();
    const client = await this.#client?.catch(() => undefined);
    this.#client = undefined;
    client?.release(true);
    await this.#connection?.close();
    this.#connection = undefined;
  }

  #open() {
    if (this.#closed) return Promise.reject(new Error('The worker is stopping'));
    this.#connection ??= connect(this.#url, {
      applicationName: 'ratelens-worker-locks',
      statementTimeoutMs: 0,
      max: 1,
      // A connection idle for hours, whose server or a firewall between dropped it without a
      // word, is found out by TCP's probes and the heartbeat, not left holding locks it lost.
      keepAlive: true,
    });
    const connection = this.#connection;
    const opening = (this.#client ??= (async () => {
      const client = await connection.pool.connect();
      if (this.#closed) {
        // Closed while connecting: the connection would keep the pool from ending.
        client.release(true);
        throw new Error('The worker is stopping');
      }
      // The connection lost (said by the client between queries, or by the heartbeat's query):
      // opened again, once.
      const lost = (error: unknown) => {
        if (this.#client !== opening) return;
        this.#client = undefined;
        clearInterval(this.#heartbeat);
        this.#log.warn(
          `Worker: lost the connection that holds its jobs' locks (${errorMessage(error)}); opening it again`,
        );
        client.release(true);
        this.#reopen();
      };
      client.on('error', lost);
      // After a lost connection: the jobs still running take their locks again, without waiting
      // for a session the server has not seen end yet (its locks are tried again later).
      for (const id of this.#held) this.#relock.add(id);
      try {
        await this.#takeAgain(client);
      } catch (error) {
        lost(error);
        throw error;
      }
      if (this.#closed) {
        client.release(true);
        throw new Error('The worker is stopping');
      }
      // A query now and then, given HEARTBEAT_TIMEOUT_MS: a connection lost while idle says so
      // then, and is opened again, rather than at the next job's.
      clearInterval(this.#heartbeat);
      this.#heartbeat = setInterval(() => {
        if (this.#held.size === 0) return;
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer in ${HEARTBEAT_TIMEOUT_MS / 1000} s`)),
            HEARTBEAT_TIMEOUT_MS,
          );
        });
        Promise.race([client.query('SELECT 1'), late])
          .then(() => this.#takeAgain(client))
          .catch(lost)
          .finally(() => clearTimeout(timer));
      }, HEARTBEAT_MS);
      this.#heartbeat.unref();
      return client;
    })());
    opening.catch(() => {
      if (this.#client === opening) this.#client = undefined;
    });
    return opening;
  }

  /** Takes again, without waiting, the locks of held jobs that were lost with a connection. */
  async #takeAgain(client: PoolClient): Promise<void> {
    for (const id of [...this.#relock]) {
      const { rows } = await client.query<{ ok: boolean }>(
        `${lockSql('pg_try_advisory_lock')} AS ok`,
        [id],
      );
      if (rows[0]?.ok || !this.#held.has(id)) this.#relock.delete(id);
      if (rows[0]?.ok && !this.#held.has(id))
        await client.query(lockSql('pg_advisory_unlock'), [id]);
    }
  }

  /** Opens the connection again while jobs run, every 5 seconds until the database answers. */
  #reopen() {
    if (this.#closed || this.#held.size === 0) return;
    this.#open().catch(() => {
      this.#retry = setTimeout(() => this.#reopen(), 5000);
      this.#retry.unref();
    });
  }
}

/**
 * Fails the jobs of `queues` that are active with no worker alive to run them: active for more
 * than DEAD_JOB_GRACE_SECONDS, and their lock (JobLocks) free. Answers how many. Each is failed
 * while this holds its lock, so that no live worker can be running it meanwhile.
 */
export async function failDeadJobs(boss: PgBoss, pool: Pool, queues: string[]): Promise<number> {
  const { rows } = await pool.query<{ id: string; name: string }>(
    `SELECT id, name FROM pgboss.job
      WHERE name = ANY($1) AND state = 'active'
        AND started_on < now() - make_interval(secs => $2)`,
    [queues, DEAD_JOB_GRACE_SECONDS],
  );
  let failed = 0;
  for (const { id, name } of rows) {
    const client = await pool.connect();
    try {
      const {
        rows: [lock],
      } = await client.query<{ ok: boolean }>(`${lockSql('pg_try_advisory_lock')} AS ok`, [id]);
      if (!lock?.ok) continue;
      try {
        const job = await boss.getJobById(name, id);
        if (job?.state === 'active') {
          await boss.fail(name, id, { message: DEAD_JOB_ERROR });
          failed++;
        }
      } finally {
        await client.query(lockSql('pg_advisory_unlock'), [id]);
      }
    } finally {
      client.release();
    }
  }
  return failed;
}
