import { errorMessage } from '@ratelens/core';
import { connect, type Connection, type Pool } from '@ratelens/db';
import {
  markInterruptedRuns,
  ProgressBar,
  refreshSourcesInUse,
  refreshSummary,
  type IngestResult,
} from '@ratelens/ingest';
import PgBoss from 'pg-boss';

/** The queue of the job that reads hospitals' files in use again: all, or one's (ADR 0021). */
export const REFRESH_QUEUE = 'rates-refresh';

/**
 * How many refresh jobs one worker runs at once. The queue runs one refresh of every hospital at a
 * time (createRefreshQueue), which takes hours when files are large: a second lane lets an
 * administrator's request for one hospital run beside it instead of waiting for its end.
 */
export const REFRESHES_AT_ONCE = 2;

/** Where the worker's lines go: the server's logger, or the console of `npm run worker`. */
export interface WorkerLog {
  info: (message: string) => void;
  error: (message: string) => void;
}

export interface WorkerOptions {
  /** The database's pool: the worker opens connections of its own with its settings. */
  pool: Pool;
  /** Five cron fields in UTC, or `off`: the refresh then runs only when a job is sent. */
  refreshSchedule: string;
  log: WorkerLog;
  /** How often an idle worker asks for a job (pg-boss's default is 2 s). */
  pollingIntervalSeconds?: number;
  /** How often a file being read says how far it is (a large file takes an hour); 60 s. */
  progressEveryMs?: number;
}

/** What a refresh job leaves as its output (pg-boss keeps it with the job). */
export interface RefreshOutput {
  loaded: number;
  unchanged: number;
  skipped: number;
  older: number;
  failed: number;
  unreadable: number;
  missing: number;
  summary: string;
}

export interface Worker {
  boss: PgBoss;
  /**
   * Starts no further file, waits up to `timeoutMs` for the job at hand, then lets go (pg-boss
   * marks it failed). Once: later calls wait for the first.
   */
  stop: (timeoutMs?: number) => Promise<void>;
}

/**
 * The background worker: pg-boss queues in the same PostgreSQL (its own schema, `pgboss`). It
 * reads every hospital's file in use again on `refreshSchedule`, as `npm run ingest -- --refresh`
 * does, and one hospital's when an administrator asks (createRefreshQueue says how many at once).
 * A schedule fires once whichever number of workers run; each worker runs REFRESHES_AT_ONCE jobs
 * at a time.
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
  try {
    await createRefreshQueue(boss);
    if (options.refreshSchedule === 'off') await boss.unschedule(REFRESH_QUEUE);
    else await boss.schedule(REFRESH_QUEUE, options.refreshSchedule, {}, { tz: 'UTC' });

    // A refresh cut off when its process stopped left its run 'loading' and its tables behind: the
    // hospital's page would say it is loading until some ingest ran. Tidied now, as an ingest does.
    const interrupted = await markInterruptedRuns(connection);
    if (interrupted > 0)
      log.info(
        `Worker: ${interrupted} ${interrupted === 1 ? 'ingest' : 'ingests'} cut off when a process stopped, recorded as failed`,
      );
    // Each `work` takes one job at a time: so many refreshes run side by side in this worker.
    for (let lane = 0; lane < REFRESHES_AT_ONCE; lane++)
      await boss.work(
        REFRESH_QUEUE,
        { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
        async ([job]) =>
          refresh(connection, refreshOf(job?.data), {
            signal: stopping.signal,
            log,
            progressEveryMs: options.progressEveryMs ?? 60_000,
          }),
      );
  } catch (error) {
    await boss.stop({ graceful: false });
    await connection.close();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    boss,
    stop: (timeoutMs = 5000) =>
      (stopped ??= (async () => {
        stopping.abort();
        await boss.stop({ graceful: true, timeout: timeoutMs, wait: true });
        await connection.close();
      })()),
  };
}

/**
 * The queue, created once (pg-boss ignores a second creation). One refresh runs at a time per
 * key (the scheduled one has none, an administrator's is keyed by its hospital), at most one
 * waits; a refresh of many hospitals can take hours, and the next day's schedule retries one that
 * failed.
 */
export async function createRefreshQueue(boss: PgBoss): Promise<void> {
  await boss.createQueue(REFRESH_QUEUE, {
    name: REFRESH_QUEUE,
    policy: 'stately',
    retryLimit: 0,
    expireInHours: 23,
  });
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
  {
    signal,
    log,
    progressEveryMs,
  }: { signal: AbortSignal; log: WorkerLog; progressEveryMs: number },
): Promise<RefreshOutput> {
  log.info(
    request.hospitalId
      ? `Refresh: reading again where the file in use of hospital ${request.hospitalId} came from, as an administrator asked`
      : 'Refresh: reading again where every hospital’s file in use came from',
  );
  const { statuses, unreadable, missing } = await refreshSourcesInUse(connection, {
    hospitalId: request.hospitalId,
    say: (line) => log.info(`Refresh: ${line}`),
    signal,
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
    summary,
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
