import {
  RefreshCountsSchema,
  type RefreshEnding,
  type RefreshStatus,
  type ScheduledRefresh,
} from '@ratelens/core';
import type { Pool } from '@ratelens/db';
import cronParser from 'cron-parser';
import { z } from 'zod';
import { REFRESH_QUEUE, SCHEDULED_REFRESH_QUEUE } from './worker.ts';

/**
 * How long after a worker last kept the schedules none is taken to be running: each running
 * worker's pg-boss writes `pgboss.version.cron_on` every 30 s (its cron monitor), so a minute at
 * most goes by between two writes.
 */
const WORKER_SILENT_AFTER = '2 minutes';

/** The answer when pg-boss's tables are not there: no worker, nor any request, ever. */
const NEVER_RAN: RefreshStatus = {
  worker: 'never',
  workerSeenAt: null,
  schedule: null,
  nextRunAt: null,
  latest: null,
  requests: { waiting: 0, running: 0 },
};

/**
 * The daily refresh as pg-boss's tables tell it (ADR 0021), for the administrators' page of
 * failing files: whether a worker runs, the schedule and when it next fires, the latest scheduled
 * refresh and how it ended, and administrators' one-hospital requests. pg-boss keeps its tables
 * in the schema `pgboss` (its default: neither the worker nor RefreshRequests names another),
 * created by the first process that starts it; with none ever started (WORKER=off, no `npm run
 * worker`, no request sent) they are not there, and that is the answer.
 */
export async function refreshStatus(pool: Pool): Promise<RefreshStatus> {
  const {
    rows: [tables],
  } = await pool.query<{ present: boolean }>(
    `SELECT to_regclass('pgboss.version') IS NOT NULL AS present`,
  );
  if (!tables?.present) return NEVER_RAN;
  const [worker, schedule, latest, requests] = await Promise.all([
    workerSeen(pool),
    scheduleOf(pool),
    latestRefresh(pool),
    requestCounts(pool),
  ]);
  // A server that sent requests with WORKER=off created pg-boss's tables, but no worker has run:
  // only a worker's pg-boss keeps schedules, and writes when it did.
  if (worker.seenAt === null) return { ...NEVER_RAN, latest, requests };
  return {
    worker: worker.running ? 'running' : 'stopped',
    workerSeenAt: worker.seenAt.toISOString(),
    schedule: schedule?.cron ?? null,
    nextRunAt: schedule ? nextRun(schedule) : null,
    latest,
    requests,
  };
}

/** When a worker last kept the schedules (pg-boss's cron monitor), and whether that is recent. */
async function workerSeen(pool: Pool): Promise<{ seenAt: Date | null; running: boolean }> {
  const { rows } = await pool.query<{ seen_at: Date | null; running: boolean | null }>(
    `SELECT cron_on AS seen_at, cron_on > now() - interval '${WORKER_SILENT_AFTER}' AS running
       FROM pgboss.version`,
  );
  return { seenAt: rows[0]?.seen_at ?? null, running: rows[0]?.running ?? false };
}

interface Schedule {
  cron: string;
  timezone: string | null;
}

/** The scheduled refresh's schedule; none when REFRESH_SCHEDULE=off (the worker removes it). */
async function scheduleOf(pool: Pool): Promise<Schedule | null> {
  const { rows } = await pool.query<Schedule>(
    `SELECT cron, timezone FROM pgboss.schedule WHERE name = $1`,
    [SCHEDULED_REFRESH_QUEUE],
  );
  return rows[0] ?? null;
}

/** When `schedule` next fires, as pg-boss reads it (cron-parser, in its time zone). */
function nextRun({ cron, timezone }: Schedule): string {
  return cronParser
    .parseExpression(cron, { tz: timezone ?? 'UTC' })
    .next()
    .toDate()
    .toISOString();
}

/** A refresh job's output (RefreshOutput): jobs of earlier versions kept no notRead. */
const StoredOutputSchema = RefreshCountsSchema.extend({
  notRead: z.number().int().min(0).default(0),
  stoppedBecause: z.string().nullable().default(null),
}).transform(({ stoppedBecause, ...counts }) => ({ counts, stoppedBecause }));

/**
 * A failed job's output, as pg-boss stores it: the handler's error serialised (`message`, as
 * failDeadJobs writes too), or a bare value (`pg-boss shut down while active`, or its own
 * `{ value: { message } }` for a job it finds past its limit).
 */
const StoredErrorSchema = z.union([
  z.object({ message: z.string() }).transform((error) => error.message),
  z.object({ value: z.string() }).transform((error) => error.value),
  z.object({ value: z.object({ message: z.string() }) }).transform((error) => error.value.message),
]);

interface JobRow {
  state: 'active' | 'completed' | 'cancelled' | 'failed';
  started_on: Date;
  completed_on: Date | null;
  output: unknown;
  time_limit_seconds: number;
  past_limit: boolean;
}

/**
 * The latest scheduled refresh that started, running or ended. pg-boss moves a job that ended
 * to `pgboss.archive` 12 hours on (and deletes it from there after 7 days): last night's refresh
 * is there by the afternoon, so both are read.
 */
async function latestRefresh(pool: Pool): Promise<ScheduledRefresh | null> {
  const { rows } = await pool.query<JobRow>(
    `SELECT state::text AS state, started_on, completed_on, output,
            extract(epoch FROM expire_in)::int AS time_limit_seconds,
            coalesce(completed_on >= started_on + expire_in, false) AS past_limit
       FROM (SELECT state, started_on, completed_on, output, expire_in FROM pgboss.job
              WHERE name = $1 AND state >= 'active' AND started_on IS NOT NULL
             UNION ALL
             SELECT state, started_on, completed_on, output, expire_in FROM pgboss.archive
              WHERE name = $1 AND state >= 'active' AND started_on IS NOT NULL) jobs
      ORDER BY started_on DESC
      LIMIT 1`,
    [SCHEDULED_REFRESH_QUEUE],
  );
  const job = rows[0];
  if (!job) return null;
  const output = StoredOutputSchema.safeParse(job.output);
  const stored = output.success ? output.data : null;
  const ending = endingOf(job, stored?.counts.notRead ?? 0);
  return {
    startedAt: job.started_on.toISOString(),
    endedAt: job.state === 'active' ? null : (job.completed_on?.toISOString() ?? null),
    ending,
    reason:
      ending === 'stopped-early'
        ? (stored?.stoppedBecause ?? null)
        : ending === 'failed' || ending === 'timed-out'
          ? errorOf(job)
          : null,
    timeLimitSeconds: job.time_limit_seconds,
    counts: stored?.counts ?? null,
  };
}

/**
 * How a job ended. One still running at its limit is failed by pg-boss then (its handler's
 * timer, or its supervisor a little later), so a failed job that ended past it was cut there.
 */
function endingOf(job: JobRow, notRead: number): RefreshEnding {
  switch (job.state) {
    case 'active':
      return 'running';
    case 'completed':
      return notRead > 0 ? 'stopped-early' : 'completed';
    case 'failed':
      return job.past_limit ? 'timed-out' : 'failed';
    case 'cancelled':
      return 'failed';
  }
}

function errorOf(job: JobRow): string | null {
  if (job.state === 'cancelled') return 'The job was cancelled.';
  const error = StoredErrorSchema.safeParse(job.output);
  return error.success ? error.data : null;
}

/** Administrators' one-hospital requests (REFRESH_QUEUE) waiting, and being read. */
async function requestCounts(pool: Pool): Promise<RefreshStatus['requests']> {
  const { rows } = await pool.query<{ waiting: number; running: number }>(
    `SELECT count(*) FILTER (WHERE state < 'active')::int AS waiting,
            count(*) FILTER (WHERE state = 'active')::int AS running
       FROM pgboss.job WHERE name = $1`,
    [REFRESH_QUEUE],
  );
  return rows[0] ?? { waiting: 0, running: 0 };
}
