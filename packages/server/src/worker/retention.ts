import { errorMessage } from '@ratelens/core';
import type { Queryable } from '@ratelens/db';
import { STARTS_ENTRY } from '../inventory/run-entries.ts';

/**
 * Rows one statement deletes at most: a first run on a table that grew for years holds no long
 * transaction and no lock on many rows at once, and the ingests and pages go on beside it.
 */
export const RETENTION_BATCH = 10_000;

/** How long the worker's daily retention job keeps what it prunes (ADR 0021, "Retention"). */
export interface RetentionSettings {
  /** RUN_RETENTION_DAYS: ingest runs that found their file unchanged or skipped. */
  runDays: number;
  /** OUTBOX_RETENTION_DAYS: e-mail and texts the outbox drivers kept, from when they were sent. */
  outboxDays: number;
}

/** What a retention run deleted, and why it stopped early when it did (the job's output). */
export interface RetentionOutput {
  runs: number;
  messages: number;
  /** "the worker is stopping", "the job's time limit, 1 h, is near"; null when it ended. */
  stoppedBecause: string | null;
}

export interface PruneOptions {
  /** Start no further batch: the rest waits for the next run. */
  signal?: AbortSignal;
  batchSize?: number;
}

/**
 * The runs of `mrf_files` a daily refresh piles up: `unchanged` (its file in use, the same bytes
 * again) and `skipped` (the same bytes as a file read before and not in use), one a day for each
 * file. Runs that repeat the one before them are one entry of the hospital's page, "Read 300
 * times, from … to …" (STARTS_ENTRY); of each such entry this deletes the runs started more than
 * $1 days ago but its first and its last, and counts them on its first (`repeats_pruned`), so the
 * page says what it said. So each source keeps its latest run for each hospital, and every run
 * other code reads: the latest unchanged one (the refresh reads again the list it came through,
 * LAST_LISTED_IN in ingest's refresh.ts; the page says when the file was last found the newest);
 * every run that is not a repeat, and so the latest that did not fail (the failing-files page
 * counts failures since it). Never deleted: `loaded` (its rates in use, its partitions named
 * after it), `replaced` and `older` (read whole: later ingests know a file by their bytes,
 * READ_WHOLE), `failed` (administrators read them) and `loading`. Nothing refers to a run by a
 * foreign key. $2 runs at most, the oldest first.
 */
const PRUNE_RUNS = `
  WITH run AS (
    SELECT id, hospital_id, source, status, started_at,
           ${STARTS_ENTRY} AS starts_entry,
           lead(status) OVER w AS next_status
      FROM mrf_files
    WINDOW w AS (PARTITION BY hospital_id, source ORDER BY started_at)
  ),
  numbered AS (
    SELECT *, sum(starts_entry) OVER (PARTITION BY hospital_id, source ORDER BY started_at) AS entry
      FROM run
  ),
  gone AS (
    SELECT id, hospital_id, source, entry FROM numbered
     WHERE status IN ('unchanged', 'skipped') AND starts_entry = 0 AND next_status = status
       AND started_at < now() - make_interval(days => $1)
     ORDER BY started_at LIMIT $2
  ),
  firsts AS (
    SELECT n.id, count(*)::int AS repeats
      FROM gone g
      JOIN numbered n USING (hospital_id, source, entry)
     WHERE n.starts_entry = 1
     GROUP BY n.id
  ),
  counted AS (
    UPDATE mrf_files f SET repeats_pruned = f.repeats_pruned + firsts.repeats
      FROM firsts WHERE f.id = firsts.id
  )
  DELETE FROM mrf_files WHERE id IN (SELECT id FROM gone)`;

/**
 * The outbox drivers' messages sent more than $1 days ago: addresses, phone numbers and links
 * nobody needs once the links have expired. Every row is a message sent (`sent_at` is set as it
 * is kept, never null); e-mail not yet sent waits in `mail_queue`, which this leaves alone.
 */
const PRUNE_OUTBOX = `
  DELETE FROM outbox_messages WHERE id IN (
    SELECT id FROM outbox_messages WHERE sent_at < now() - make_interval(days => $1) LIMIT $2)`;

/** Runs `statement` ($1 the days, $2 the batch) until a batch deletes fewer, or a stop. */
async function inBatches(
  db: Queryable,
  statement: string,
  days: number,
  { signal, batchSize = RETENTION_BATCH }: PruneOptions,
): Promise<{ deleted: number; ended: boolean }> {
  let deleted = 0;
  while (!signal?.aborted) {
    const { rowCount } = await db.query(statement, [days, batchSize]);
    deleted += rowCount ?? 0;
    if ((rowCount ?? 0) < batchSize) return { deleted, ended: true };
  }
  return { deleted, ended: false };
}

/** The worker's daily retention run: the runs, then the outbox; a stop leaves the rest. */
export async function prune(
  db: Queryable,
  { runDays, outboxDays }: RetentionSettings,
  options: PruneOptions = {},
): Promise<RetentionOutput> {
  const runs = await inBatches(db, PRUNE_RUNS, runDays, options);
  const messages = await inBatches(db, PRUNE_OUTBOX, outboxDays, options);
  return {
    runs: runs.deleted,
    messages: messages.deleted,
    stoppedBecause:
      runs.ended && messages.ended ? null : errorMessage(options.signal?.reason ?? 'stopped'),
  };
}
