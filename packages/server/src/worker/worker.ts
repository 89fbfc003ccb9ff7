import { errorMessage, type RefreshCounts } from '@ratelens/core';
import { connect, deleteExpiredReports, type Connection, type Pool } from '@ratelens/db';
import {
  markInterruptedRuns,
  ProgressBar,
  refreshSourcesInUse,
  refreshSummary,
  type IngestResult,
} from '@ratelens/ingest';
import PgBoss from 'pg-boss';
import { renewalsSchedule, type Config } from '../config.ts';
import { deliverQueuedMail, type MailDelivery } from '../mail/mail-queue.ts';
import { smtpTransport, type MailTransport } from '../mail/mailer.ts';
import type { PaymentGateway } from '../payments/gateway.ts';
import { paymentGatewayFor } from '../payments/gateway-for.ts';
import { runRenewals, type JobLog, type RenewalSummary } from '../payments/renewals.ts';
import { failDeadJobs, JobLocks } from './job-locks.ts';
import { prune, type RetentionOutput, type RetentionSettings } from './retention.ts';

/**
 * The queue of the refreshes administrators ask for, one hospital's file each (ADR 0021,
 * RefreshRequests). Its policy, `short`, keeps at most one waiting per hospital and never holds
 * a job back: under `stately` a hospital's second request, waiting while its first ran, was the
 * oldest job, and pg-boss, failing to start it, started no other job of the queue either.
 */
export const REFRESH_QUEUE = 'rates-refresh';

/**
 * The queue of the scheduled refresh of every hospital's file in use: `stately`, one running
 * and at most one waiting (a schedule that fires while a long refresh runs), in a queue of its
 * own so that the one waiting holds up nothing but itself.
 */
export const SCHEDULED_REFRESH_QUEUE = 'rates-refresh-all';

/**
 * How many refreshes administrators asked for one worker runs at once, beside the scheduled
 * refresh (a lane of its own): a request for one hospital whose file takes an hour does not hold
 * up another's.
 */
export const REQUESTS_AT_ONCE = 2;

/** The queue of the renewal job (ADR 0017): renewals, due installments, graces that ended. */
export const RENEWALS_QUEUE = 'renewals';

/** The queue of the hourly job that deletes the reports whose links have expired (ADR 0016). */
export const REPORT_EXPIRY_QUEUE = 'reports-expiry';
/** Twenty past every hour, UTC: a link lasts REPORT_LINK_TTL_HOURS (72 by default). */
export const REPORT_EXPIRY_SCHEDULE = '20 * * * *';

/**
 * The queue of the job that records as failed the ingests whose process died (a `kill -9` of
 * `npm run ingest`, a machine that went down), every ten minutes: their hospital's page lists
 * them as loading until then.
 */
export const INTERRUPTED_INGESTS_QUEUE = 'interrupted-ingests';
export const INTERRUPTED_INGESTS_SCHEDULE = '*/10 * * * *';

/**
 * The queue of the job that tries again the e-mail the SMTP server has not taken yet (ADR 0005),
 * every minute: a message is tried when it is queued, and waits longer after each refusal.
 */
export const MAIL_QUEUE = 'mail-delivery';
export const MAIL_SCHEDULE = '* * * * *';

/**
 * The queue of the daily job that deletes what was kept for ever (retention.ts): the runs that
 * found a hospital's file unchanged again, and the e-mail and texts the outbox drivers kept.
 */
export const RETENTION_QUEUE = 'retention';
/** 03:00 UTC every day, before the refresh's default 04:30 adds the day's runs. */
export const RETENTION_SCHEDULE = '0 3 * * *';

/** Where the worker's lines go: the server's logger, or the console of `npm run worker`. */
export interface WorkerLog {
  info: (message: string) => void;
  warn: (message: string) => void;
  error: (message: string) => void;
}

/** The renewal job's settings: the gateway it charges, and when it runs. */
export interface RenewalsWork {
  gateway: PaymentGateway;
  /** Five cron fields in UTC (renewalsSchedule of RENEWALS_INTERVAL_MINUTES), or `off`. */
  schedule: string;
  gatewayTimeoutMs: number;
}

export interface WorkerOptions {
  /** The database's pool: the worker opens connections of its own with its settings. */
  pool: Pool;
  /** Five cron fields in UTC, or `off`: the refresh then runs only when a job is sent. */
  refreshSchedule: string;
  log: WorkerLog;
  /**
   * How often an idle worker asks for a job: 2 s for a refresh (pg-boss's default), 30 s for
   * the scheduled jobs; tests set one figure for all.
   */
  pollingIntervalSeconds?: number;
  /** How often a file being read says how far it is (a large file takes an hour); 60 s. */
  progressEveryMs?: number;
  /** The renewal job; without it the worker leaves its queue and schedule as they are. */
  renewals?: RenewalsWork;
  /**
   * The SMTP server the queued e-mail goes to (MAIL_DRIVER=smtp); without it nothing is queued,
   * and the job's schedule is dropped.
   */
  mail?: MailTransport;
  /** How long the retention job keeps what it prunes; without it its queue and schedule stay. */
  retention?: RetentionSettings;
}

/**
 * What a refresh job leaves as its output (pg-boss keeps it with the job; the administrators' page
 * of failing files shows the latest scheduled one's, refresh-status.ts): its counts, its summary,
 * and why it stopped early when it left files unread.
 */
export interface RefreshOutput extends RefreshCounts {
  summary: string;
  /** "the worker is stopping", "the job's time limit, 23 h, is near"; null when all were read. */
  stoppedBecause: string | null;
}

export interface Worker {
  boss: PgBoss;
  /**
   * Starts no further file, charge, e-mail or batch of deletions, waits up to `timeoutMs` for the
   * one at hand, then lets go (pg-boss marks its job failed). Once: later calls wait for the first.
   */
  stop: (timeoutMs?: number) => Promise<void>;
}

/** Every queue the worker's jobs are on: those whose worker died are failed (failDeadJobs). */
const WORKER_QUEUES = [
  REFRESH_QUEUE,
  SCHEDULED_REFRESH_QUEUE,
  RENEWALS_QUEUE,
  REPORT_EXPIRY_QUEUE,
  INTERRUPTED_INGESTS_QUEUE,
  MAIL_QUEUE,
  RETENTION_QUEUE,
];

/**
 * The share of a job's time limit after which it starts no further work (no further file, for a
 * refresh): the work at hand then has the rest to end in before pg-boss records the job failed.
 */
const TAKE_NO_MORE_AFTER = 0.9;

/**
 * The background worker: pg-boss queues in the same PostgreSQL (its own schema, `pgboss`). It
 * reads every hospital's file in use again on `refreshSchedule`, as `npm run ingest -- --refresh`
 * does, and one hospital's when an administrator asks (REFRESH_QUEUE). A schedule fires once
 * whichever number of workers run; each worker runs one scheduled refresh and REQUESTS_AT_ONCE
 * administrators' requests at a time.
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const { pool, log } = options;
  const url = pool.options.connectionString;
  if (!url) throw new Error('The worker needs the database pool to have a connection string');
  const boss = new PgBoss({ connectionString: url, application_name: 'ratelens-worker', max: 2 });
  boss.on('error', (error) => log.error(`Worker: ${errorMessage(error)}`));
  await boss.start();
  // Connections of its own, without the server's statement timeout: a load's COPY and its index
  // builds run for minutes on a large file.
  const connection = connect(url, { applicationName: 'ratelens-worker', statementTimeoutMs: 0 });
  const stopping = new AbortController();
  const locks = new JobLocks(url, log);
  const jobs: JobKit = { log, locks, stopping: stopping.signal };
  try {
    await createRefreshQueue(boss, pool);
    await createScheduledRefreshQueue(boss, pool);
    // The schedule was REFRESH_QUEUE's until that queue became administrators' alone.
    await boss.unschedule(REFRESH_QUEUE);
    if (options.refreshSchedule === 'off') await boss.unschedule(SCHEDULED_REFRESH_QUEUE);
    else await boss.schedule(SCHEDULED_REFRESH_QUEUE, options.refreshSchedule, {}, { tz: 'UTC' });

    // A refresh cut off when its process stopped left its run 'loading' and its tables behind: the
    // hospital's page would say it is loading until some ingest ran. Tidied now, as an ingest does,
    // and every ten minutes after (INTERRUPTED_INGESTS_QUEUE); so are the jobs such a process left
    // active, which would otherwise hold up their queue until their time limit.
    await tidyInterrupted(boss, connection, log);
    const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
    // A scheduled job may start half a minute late: its lanes ask less often.
    const scheduledPollingSeconds = options.pollingIntervalSeconds ?? 30;
    const refreshJob = job(jobs, 'Refresh', (data, signals) =>
      refresh(connection, refreshOf(data), {
        ...signals,
        log,
        progressEveryMs: options.progressEveryMs ?? 60_000,
      }),
    );
    // Each `work` takes one job at a time: one scheduled refresh, and so many requests beside it.
    await boss.work(SCHEDULED_REFRESH_QUEUE, { pollingIntervalSeconds }, refreshJob);
    for (let lane = 0; lane < REQUESTS_AT_ONCE; lane++)
      await boss.work(REFRESH_QUEUE, { pollingIntervalSeconds }, refreshJob);
    if (options.renewals)
      await workRenewals(boss, pool, options.renewals, jobs, scheduledPollingSeconds);
    if (options.mail) await workMail(boss, pool, options.mail, jobs, scheduledPollingSeconds);
    else await boss.unschedule(MAIL_QUEUE);
    await workReportExpiry(boss, connection, jobs, scheduledPollingSeconds);
    await workInterruptedIngests(boss, connection, jobs, scheduledPollingSeconds);
    if (options.retention)
      await workRetention(boss, connection, options.retention, jobs, scheduledPollingSeconds);
  } catch (error) {
    await boss.stop({ graceful: false });
    await locks.close();
    await connection.close();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    boss,
    stop: (timeoutMs = 5000) =>
      (stopped ??= (async () => {
        stopping.abort(new Error('the worker is stopping'));
        await boss.stop({ graceful: true, timeout: timeoutMs, wait: true });
        await locks.close();
        await connection.close();
      })()),
  };
}

/** The advisory lock under which queues are created (createQueue). */
const QUEUES_LOCK = 'ratelens:pg-boss queues';

/**
 * A pg-boss queue, created unless it is there, and given `options`'s policy, retry limit and time
 * limit if it has others (a queue made by an earlier version). The time limit is in seconds:
 * pg-boss 10's createQueue and updateQueue read `expireInSeconds` alone, and a queue given
 * `expireInHours` (as ours were until session 56) stored none, so each of its jobs had pg-boss's
 * default of 15 minutes. pg-boss's own creation, run by two processes at once for a queue that is
 * not there yet (a server and `npm run worker` started together on a new database), deadlocks:
 * each holds what the other's foreign key to the queue table waits for. So it is run under an
 * advisory lock on `pool`, after a look that spares the lock.
 */
async function createQueue(boss: PgBoss, pool: Pool, options: QueueSettings): Promise<void> {
  if (!settled(await boss.getQueue(options.name), options)) await settleQueue(boss, pool, options);
  // A job keeps the settings of its queue when it was sent: those waiting take the queue's now,
  // or the old ones go on with them (stately's rules; 15 minutes to run, from before session 56).
  await pool.query(
    `UPDATE pgboss.job
        SET policy = $2, expire_in = make_interval(secs => $3), retry_limit = $4
      WHERE name = $1 AND state < 'active'
        AND (policy IS DISTINCT FROM $2 OR expire_in <> make_interval(secs => $3) OR retry_limit <> $4)`,
    [options.name, options.policy, options.expireInSeconds, options.retryLimit],
  );
}

/** Creates the queue, or gives it `options`'s settings, under the queues' advisory lock. */
async function settleQueue(boss: PgBoss, pool: Pool, options: QueueSettings): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [QUEUES_LOCK]);
    try {
      const found = await boss.getQueue(options.name);
      if (found === null) await boss.createQueue(options.name, options);
      else if (!settled(found, options)) await boss.updateQueue(options.name, options);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [QUEUES_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** What our queues set: the time limit in seconds, as pg-boss reads it (createQueue). */
type QueueSettings = PgBoss.Queue & {
  policy: NonNullable<PgBoss.Queue['policy']>;
  retryLimit: number;
  expireInSeconds: number;
};

/** Whether a queue found is there with `wanted`'s policy, retry limit and time limit. */
function settled(found: PgBoss.Queue | null, wanted: QueueSettings): boolean {
  return (
    found !== null &&
    (found.policy ?? 'standard') === wanted.policy &&
    found.retryLimit === wanted.retryLimit &&
    found.expireInSeconds === wanted.expireInSeconds
  );
}

/**
 * The queue of administrators' requests, created once (RefreshRequests sends to it). `short`: at
 * most one request waits per hospital (the key), and none is held back by another. Two refreshes
 * of one hospital at once are safe (swaps take turns; the second finds the first's file in use),
 * and RefreshRequests sends none while one for the hospital runs. A file can take hours.
 */
export async function createRefreshQueue(boss: PgBoss, pool: Pool): Promise<void> {
  await createQueue(boss, pool, {
    name: REFRESH_QUEUE,
    policy: 'short',
    retryLimit: 0,
    expireInSeconds: 23 * 3600,
  });
}

/**
 * The scheduled refresh's queue: one running and at most one waiting, whichever workers run; a
 * refresh of many hospitals can take hours, and the next day's schedule retries one that failed.
 */
async function createScheduledRefreshQueue(boss: PgBoss, pool: Pool): Promise<void> {
  await createQueue(boss, pool, {
    name: SCHEDULED_REFRESH_QUEUE,
    policy: 'stately',
    retryLimit: 0,
    expireInSeconds: 23 * 3600,
  });
}

/**
 * Ingests whose process died, recorded as failed (markInterruptedRuns), and jobs whose worker
 * died, failed (failDeadJobs); how many of each, said.
 */
async function tidyInterrupted(
  boss: PgBoss,
  connection: Connection,
  log: WorkerLog,
): Promise<{ marked: number; jobs: number }> {
  const marked = await markInterruptedRuns(connection);
  if (marked > 0)
    log.info(
      `Worker: ${marked} ${marked === 1 ? 'ingest' : 'ingests'} cut off when a process stopped, recorded as failed`,
    );
  const jobs = await failDeadJobs(boss, connection.pool, WORKER_QUEUES);
  if (jobs > 0)
    log.warn(
      `Worker: ${jobs} ${jobs === 1 ? 'job' : 'jobs'} left running by a worker that stopped (killed, or its machine went down), recorded as failed`,
    );
  return { marked, jobs };
}

/** What every job's handler shares: the log, the jobs' locks, the worker's stop. */
interface JobKit {
  log: WorkerLog;
  locks: JobLocks;
  stopping: AbortSignal;
}

/** When a job's handler is to stop. */
interface JobSignals {
  /** Start no further work: the worker is stopping, or the job's time limit is near. */
  signal: AbortSignal;
  /** Stop the work at hand: the job's time limit has passed, and pg-boss recorded it failed. */
  cut: AbortSignal;
}

/** A duration in words: "23 h", "90 s". */
const inWords = (ms: number) =>
  ms >= 3_600_000 && ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${Math.round(ms / 1000)} s`;

/**
 * A job's handler (one job at a time) that holds the job's lock while it runs (JobLocks), stops
 * in time, and logs what pg-boss would keep to itself. pg-boss records a job failed when its time
 * limit passes, but only races the handler with a timer: the handler ran on beside its
 * successor. So, past TAKE_NO_MORE_AFTER of the limit, `signal` tells it to start no further
 * work, and at the limit `cut` to stop the work at hand, said as an error. A failure is logged
 * before pg-boss records it: a job's error is kept with the job, where nobody reads it.
 */
function job<T>(
  { log, locks, stopping }: JobKit,
  name: string,
  handler: (data: unknown, signals: JobSignals) => Promise<T>,
): (jobs: PgBoss.Job<unknown>[]) => Promise<T> {
  return async ([given]) => {
    if (!given) throw new Error(`${name}: pg-boss gave no job`);
    const limitMs = Number(given.expireInSeconds) * 1000;
    const started = performance.now();
    // Not AbortSignal.any: every job would leave a listener on the worker's own signal.
    const takeNoMore = new AbortController();
    const cut = new AbortController();
    const onStop = () => takeNoMore.abort(stopping.reason);
    if (stopping.aborted) onStop();
    else stopping.addEventListener('abort', onStop, { once: true });
    const near = setTimeout(
      () => takeNoMore.abort(new Error(`the job's time limit, ${inWords(limitMs)}, is near`)),
      limitMs * TAKE_NO_MORE_AFTER,
    );
    const over = setTimeout(() => {
      log.error(
        `${name} ran past its time limit (${inWords(limitMs)}): pg-boss records it failed; the work at hand is stopped`,
      );
      const reason = new Error(`the job ran past its time limit, ${inWords(limitMs)}`);
      takeNoMore.abort(reason);
      cut.abort(reason);
    }, limitMs);
    try {
      await locks.hold(given.id);
      return await handler(given.data, { signal: takeNoMore.signal, cut: cut.signal });
    } catch (error) {
      log.error(`${name} failed: ${errorMessage(error)}`);
      throw error;
    } finally {
      clearTimeout(near);
      clearTimeout(over);
      stopping.removeEventListener('abort', onStop);
      if (cut.signal.aborted)
        log.warn(
          `${name} ended ${inWords(performance.now() - started - limitMs)} after its time limit; pg-boss had recorded it failed`,
        );
      locks.releaseSoon(given.id);
    }
  };
}

/**
 * A job on a schedule (five cron fields in UTC, or `off`), in a lane of its own: one run at a time
 * however many workers there are, at most one waiting (a run that outlasts its interval), no retry
 * (the next run is one), an hour to run. Its output is what `handler` answers.
 */
async function workOnSchedule(
  boss: PgBoss,
  pool: Pool,
  kit: JobKit,
  { queue, schedule, pollingIntervalSeconds, name }: ScheduledJob,
  handler: (signals: JobSignals) => Promise<object>,
): Promise<void> {
  await createQueue(boss, pool, {
    name: queue,
    policy: 'stately',
    retryLimit: 0,
    expireInSeconds: 3600,
  });
  if (schedule === 'off') await boss.unschedule(queue);
  else await boss.schedule(queue, schedule, {}, { tz: 'UTC' });
  await boss.work(
    queue,
    { pollingIntervalSeconds },
    job(kit, name, (_data, signals) => handler(signals)),
  );
}

/** A scheduled job: its queue, when, how often an idle lane asks, and its name in the log. */
interface ScheduledJob {
  queue: string;
  schedule: string;
  pollingIntervalSeconds: number;
  name: string;
}

/**
 * The renewal job (ADR 0017) on its schedule; a refresh of every hospital, which takes hours,
 * does not hold it up. Every charge is an order under an idempotency key. A stop starts no further
 * charge, each of which may wait PAYMENT_GATEWAY_TIMEOUT_MS for the gateway: the rest are due at
 * the next run. Its output is the run's summary.
 */
async function workRenewals(
  boss: PgBoss,
  pool: Pool,
  { gateway, schedule, gatewayTimeoutMs }: RenewalsWork,
  kit: JobKit,
  pollingIntervalSeconds: number,
): Promise<void> {
  const { log } = kit;
  const line = (details: object, message: string) =>
    `Renewals: ${message} ${JSON.stringify(details)}`;
  const jobLog: JobLog = {
    info: (details, message) => log.info(line(details, message)),
    warn: (details, message) => log.warn(line(details, message)),
    error: (details, message) => log.error(line(details, message)),
  };
  await workOnSchedule(
    boss,
    pool,
    kit,
    { queue: RENEWALS_QUEUE, schedule, pollingIntervalSeconds, name: 'Renewals' },
    async ({ signal }): Promise<RenewalSummary> => {
      const summary = await runRenewals(pool, gateway, new Date(), {
        gatewayTimeoutMs,
        log: jobLog,
        signal,
      });
      jobLog.info(
        { renewals: summary },
        summary.stoppedBecause === null
          ? 'renewal job ran'
          : `renewal job stopped early (${summary.stoppedBecause}), the rest is for the next run`,
      );
      return summary;
    },
  );
}

/**
 * Every minute, the queued e-mail that is due is tried again (deliverQueuedMail). A stop tries no
 * further message: a backlog left by a mail server that was down can be long, and each try may
 * wait SMTP_TIMEOUT_MS; the next run tries the rest.
 */
async function workMail(
  boss: PgBoss,
  pool: Pool,
  transport: MailTransport,
  kit: JobKit,
  pollingIntervalSeconds: number,
): Promise<void> {
  const { log } = kit;
  await workOnSchedule(
    boss,
    pool,
    kit,
    {
      queue: MAIL_QUEUE,
      schedule: MAIL_SCHEDULE,
      pollingIntervalSeconds,
      name: 'Trying queued e-mail again',
    },
    async ({ signal }): Promise<MailDelivery> => {
      const delivery = await deliverQueuedMail(pool, transport, { log, signal });
      const stopped = delivery.stoppedBecause
        ? `; stopped early (${delivery.stoppedBecause}), the rest is for the next run`
        : '';
      if (delivery.sent + delivery.retrying + delivery.failed > 0 || stopped)
        log.info(
          `Mail: ${delivery.sent} sent, ${delivery.retrying} to try again, ${delivery.failed} given up on${stopped}`,
        );
      return delivery;
    },
  );
}

/**
 * Every hour, the reports whose links have expired are deleted: a report holds what a person
 * searched for, and a new report deleted the expired ones only when someone asked for one. It
 * takes no stop signal: it is one statement (deleteExpiredReports, on the index of `expires_at`),
 * which deletes every expired report or none, so there is no point between reports to stop at; and
 * it finds only those expired since the last run or the last report made (storeReport deletes
 * them too).
 */
async function workReportExpiry(
  boss: PgBoss,
  connection: Connection,
  kit: JobKit,
  pollingIntervalSeconds: number,
): Promise<void> {
  await workOnSchedule(
    boss,
    connection.pool,
    kit,
    {
      queue: REPORT_EXPIRY_QUEUE,
      schedule: REPORT_EXPIRY_SCHEDULE,
      pollingIntervalSeconds,
      name: 'Deleting expired reports',
    },
    async () => {
      const deleted = await deleteExpiredReports(connection.db);
      if (deleted > 0)
        kit.log.info(
          `Reports: deleted ${deleted} ${deleted === 1 ? 'report' : 'reports'} whose link had expired`,
        );
      return { deleted };
    },
  );
}

/**
 * Every ten minutes, the ingests whose process died are recorded as failed, and the jobs whose
 * worker died are failed (tidyInterrupted).
 */
async function workInterruptedIngests(
  boss: PgBoss,
  connection: Connection,
  kit: JobKit,
  pollingIntervalSeconds: number,
): Promise<void> {
  await workOnSchedule(
    boss,
    connection.pool,
    kit,
    {
      queue: INTERRUPTED_INGESTS_QUEUE,
      schedule: INTERRUPTED_INGESTS_SCHEDULE,
      pollingIntervalSeconds,
      name: 'Recording interrupted ingests',
    },
    () => tidyInterrupted(boss, connection, kit.log),
  );
}

/**
 * Every day, the runs that found a hospital's file unchanged again and the outbox's sent messages
 * are deleted past their retention, in batches (retention.ts); a stop leaves the rest for the
 * next day. One line says how many.
 */
async function workRetention(
  boss: PgBoss,
  connection: Connection,
  settings: RetentionSettings,
  kit: JobKit,
  pollingIntervalSeconds: number,
): Promise<void> {
  await workOnSchedule(
    boss,
    connection.pool,
    kit,
    {
      queue: RETENTION_QUEUE,
      schedule: RETENTION_SCHEDULE,
      pollingIntervalSeconds,
      name: 'Deleting old runs and messages',
    },
    async ({ signal }): Promise<RetentionOutput> => {
      const output = await prune(connection.pool, settings, { signal });
      const stopped = output.stoppedBecause
        ? `; stopped early (${output.stoppedBecause}), the rest is for the next run`
        : '';
      kit.log.info(
        `Retention: deleted ${output.runs} ${output.runs === 1 ? 'run' : 'runs'} that found a file unchanged again (older than ${settings.runDays} days) and ${output.messages} outbox ${output.messages === 1 ? 'message' : 'messages'} (sent more than ${settings.outboxDays} days ago)${stopped}`,
      );
      return output;
    },
  );
}

/** The worker's jobs as the configuration sets them: the server's and `npm run worker`'s. */
export function workerOptions(
  config: Config,
  pool: Pool,
  log: WorkerLog,
): Omit<WorkerOptions, 'pollingIntervalSeconds' | 'progressEveryMs'> {
  return {
    pool,
    log,
    refreshSchedule: config.REFRESH_SCHEDULE,
    renewals: {
      gateway: paymentGatewayFor(config, pool),
      schedule: renewalsSchedule(config.RENEWALS_INTERVAL_MINUTES),
      gatewayTimeoutMs: config.PAYMENT_GATEWAY_TIMEOUT_MS,
    },
    retention: { runDays: config.RUN_RETENTION_DAYS, outboxDays: config.OUTBOX_RETENTION_DAYS },
    ...(config.MAIL_DRIVER === 'smtp' && config.SMTP_URL
      ? { mail: smtpTransport(config.SMTP_URL, config.MAIL_FROM) }
      : {}),
  };
}

/**
 * What the worker does and when, in words, for the start-up lines: every job it schedules, so that
 * whoever starts it can tell which runs and when without reading the code.
 */
export function workerWhen(config: Config): string {
  const renewals = renewalsSchedule(config.RENEWALS_INTERVAL_MINUTES);
  return [
    refreshWhen(config.REFRESH_SCHEDULE),
    renewals === 'off'
      ? 'subscriptions are renewed only by npm run renewals (RENEWALS_INTERVAL_MINUTES=0)'
      : `subscriptions are renewed on the schedule "${renewals}"`,
    ...(config.MAIL_DRIVER === 'smtp'
      ? ['e-mail the SMTP server has not taken is tried again every minute']
      : []),
    'expired reports are deleted every hour at 20 past',
    'ingests cut off when their process stopped are recorded as failed every ten minutes',
    `runs that found a file unchanged again are deleted after ${config.RUN_RETENTION_DAYS} days (RUN_RETENTION_DAYS) and sent outbox messages after ${config.OUTBOX_RETENTION_DAYS} (OUTBOX_RETENTION_DAYS), every day at 03:00 UTC`,
  ].join('; ');
}

/** What a refresh job asks for: every hospital's file (the schedule's), or one hospital's. */
export interface RefreshRequest {
  hospitalId?: string;
}

/** A job's data as a request: anything but a hospital id (text) asks for every file. */
function refreshOf(data: unknown): RefreshRequest {
  const hospitalId = (data as { hospitalId?: unknown } | undefined)?.hospitalId;
  return typeof hospitalId === 'string' ? { hospitalId } : {};
}

/** One refresh job: the sources in use read again, each file's outcome and a summary logged. */
async function refresh(
  connection: Connection,
  request: RefreshRequest,
  { signal, cut, log, progressEveryMs }: JobSignals & { log: WorkerLog; progressEveryMs: number },
): Promise<RefreshOutput> {
  log.info(
    request.hospitalId
      ? `Refresh: reading again where the file in use of hospital ${request.hospitalId} came from, as an administrator asked`
      : 'Refresh: reading again where every hospital’s file in use came from',
  );
  const { statuses, unreadable, missing, notRead } = await refreshSourcesInUse(connection, {
    hospitalId: request.hospitalId,
    say: (line) => log.info(`Refresh: ${line}`),
    signal,
    fileSignal: cut,
    starting: (file) => {
      // As the command's progress bar does in a log: bytes read, MB/s and records per second.
      const started = performance.now();
      let said = started;
      return {
        progress: (bytes, total, records, phase) => {
          const now = performance.now();
          if (now - said < progressEveryMs) return;
          said = now;
          const seconds = (now - started) / 1000;
          log.info(
            `Refresh: ${ProgressBar.line(file.source, bytes, total, records, seconds, phase)}`,
          );
        },
        result: (result) => log.info(`Refresh: ${file.source}: ${outcome(result)}`),
      };
    },
  });
  const summary = refreshSummary(statuses, unreadable, missing);
  log.info(`Refresh: ${summary}`);
  const count = (status: string) => statuses.filter((s) => s === status).length;
  return {
    loaded: count('loaded'),
    unchanged: count('unchanged'),
    skipped: count('skipped'),
    older: count('older'),
    failed: count('failed'),
    unreadable,
    missing,
    notRead,
    summary,
    stoppedBecause: notRead > 0 ? errorMessage(signal.reason) : null,
  };
}

/** A file's outcome in a line: its status, and what was loaded when it was. */
function outcome(result: IngestResult): string {
  const loaded =
    result.status === 'loaded'
      ? `, ${result.items.toLocaleString('en-US')} items and ${result.rates.toLocaleString('en-US')} rates`
      : '';
  return `${result.status}${loaded} (${result.hospital ?? 'hospital unknown'}, ${result.seconds.toFixed(1)} s)`;
}

/** When the hospitals' files are read again, in words, for the start-up lines. */
export function refreshWhen(schedule: string): string {
  return schedule === 'off'
    ? 'hospital files are read again only when a refresh is asked for (REFRESH_SCHEDULE=off)'
    : `hospital files are read again on the schedule "${schedule}" (cron, UTC)`;
}
