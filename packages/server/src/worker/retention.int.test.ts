import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { ingestFile, loadStates } from '@ratelens/ingest';
import { itWithDataFile } from '@ratelens/ingest/testing/it-with-data-file';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InventoryService } from '../inventory/inventory-service.ts';
import { prune, type RetentionOutput } from './retention.ts';
import { RefreshRequests } from './refresh-requests.ts';
import { RETENTION_QUEUE, startWorker } from './worker.ts';

const CMS_V3_JSON = 'cms-hpt-examples/v3_json_format_example.json';
const SETTINGS = { runDays: 90, outboxDays: 30 };

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await loadStates(database.connection.pool);
});
afterAll(async () => {
  await database.drop();
});
beforeEach(async () => {
  await database.connection.pool.query('TRUNCATE mrf_files, outbox_messages, mail_queue');
});

/** Runs of `source` for `hospital`, each of a status and started (and ended) so many days ago. */
async function runs(hospital: string, source: string, each: [status: string, daysAgo: number][]) {
  for (const [status, daysAgo] of each)
    await database.connection.pool.query(
      `INSERT INTO mrf_files (hospital_id, source, status, started_at, finished_at)
       VALUES ($1, $2, $3, now() - make_interval(days => $4), now() - make_interval(days => $4))`,
      [hospital, source, status, daysAgo],
    );
}

/**
 * The runs there are, as "source status days-ago", by source and age, with "(2 more)" for the
 * repeats deleted after a run and counted on it.
 */
async function runsLeft(): Promise<string[]> {
  const { rows } = await database.connection.pool.query<{ run: string }>(
    `SELECT concat_ws(' ', source, status, round(extract(epoch FROM now() - started_at) / 86400),
                      CASE WHEN repeats_pruned > 0 THEN '(' || repeats_pruned || ' more)' END) AS run
       FROM mrf_files ORDER BY source, started_at`,
  );
  return rows.map((row) => row.run);
}

describe('the retention of ingest runs', () => {
  it('deletes the old runs inside a series of unchanged or skipped runs, but its first and last', async () => {
    const hospital = randomUUID();
    await runs(hospital, 'a.json', [
      ['unchanged', 300],
      ['unchanged', 200],
      ['unchanged', 100],
      ['unchanged', 1],
    ]);
    await runs(hospital, 'b.json', [
      ['skipped', 150],
      ['skipped', 120],
      ['skipped', 2],
    ]);
    const output = await prune(database.connection.pool, SETTINGS);
    expect(output).toEqual({ runs: 3, messages: 0, stoppedBecause: null });
    expect(await runsLeft()).toEqual([
      'a.json unchanged 300 (2 more)',
      'a.json unchanged 1',
      'b.json skipped 150 (1 more)',
      'b.json skipped 2',
    ]);
    // The next day finds nothing more to delete.
    expect((await prune(database.connection.pool, SETTINGS)).runs).toBe(0);
  });

  it("leaves the hospital's page as it was: the entry's count and its first and last dates", async () => {
    const pool = database.connection.pool;
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO hospitals (source_key, name, state_code) VALUES ($1, 'Retention Hospital', 'AK')
       RETURNING id`,
      [randomUUID()],
    );
    const hospital = rows[0]?.id ?? '';
    await runs(hospital, 'a.json', [
      ['loaded', 400],
      ['unchanged', 300],
      ['unchanged', 250],
      ['unchanged', 200],
      ['failed', 150],
      ['unchanged', 120],
      ['unchanged', 110],
      ['unchanged', 100],
      ['unchanged', 95],
      ['unchanged', 3],
    ]);
    const inventory = new InventoryService(pool, new RefreshRequests(pool));
    const entries = async () =>
      (await inventory.hospital(hospital)).files.map((file) => ({
        status: file.status,
        timesRead: file.timesRead,
        firstReadAt: file.firstReadAt,
        loadedAt: file.loadedAt,
      }));
    const before = await entries();
    expect(before.map((entry) => [entry.status, entry.timesRead])).toEqual([
      ['unchanged', 5],
      ['failed', 1],
      ['unchanged', 3],
      ['loaded', 1],
    ]);
    expect((await prune(pool, SETTINGS)).runs).toBe(4);
    expect(await entries()).toEqual(before);
    // A second series' first run (120 days ago) now counts three deleted repeats.
    expect(await runsLeft()).toEqual([
      'a.json loaded 400',
      'a.json unchanged 300 (1 more)',
      'a.json unchanged 200',
      'a.json failed 150',
      'a.json unchanged 120 (3 more)',
      'a.json unchanged 3',
    ]);
  });

  it('keeps the runs of the last RUN_RETENTION_DAYS days', async () => {
    await runs(randomUUID(), 'a.json', [
      ['unchanged', 89],
      ['unchanged', 50],
      ['unchanged', 1],
    ]);
    await prune(database.connection.pool, SETTINGS);
    expect(await runsLeft()).toEqual([
      'a.json unchanged 89',
      'a.json unchanged 50',
      'a.json unchanged 1',
    ]);
  });

  it("keeps each hospital's runs of a source apart, and a series' last run however old", async () => {
    await runs(randomUUID(), 'a.json', [
      ['unchanged', 300],
      ['unchanged', 250],
      ['unchanged', 200],
    ]);
    // One file read for two hospitals (a health system's): neither's runs repeat the other's.
    await runs(randomUUID(), 'shared.json', [['unchanged', 300]]);
    await runs(randomUUID(), 'shared.json', [['unchanged', 250]]);
    await runs(randomUUID(), 'shared.json', [['unchanged', 200]]);
    await prune(database.connection.pool, SETTINGS);
    expect(await runsLeft()).toEqual([
      'a.json unchanged 300 (1 more)',
      'a.json unchanged 200',
      'shared.json unchanged 300',
      'shared.json unchanged 250',
      'shared.json unchanged 200',
    ]);
  });

  // The refresh reads again the list the latest unchanged run came through, and the failing-files
  // page counts failures from a hospital's latest run that did not fail.
  it('keeps the latest unchanged run when only failures came after it', async () => {
    const hospital = randomUUID();
    await runs(hospital, 'a.json', [
      ['loaded', 400],
      ['unchanged', 300],
      ['unchanged', 250],
      ['unchanged', 200],
      ['failed', 150],
      ['failed', 1],
    ]);
    await prune(database.connection.pool, SETTINGS);
    expect(await runsLeft()).toEqual([
      'a.json loaded 400',
      'a.json unchanged 300 (1 more)',
      'a.json unchanged 200',
      'a.json failed 150',
      'a.json failed 1',
    ]);
  });

  itWithDataFile(
    'keeps the run whose rates are loaded, and its rates',
    CMS_V3_JSON,
    async (example) => {
      const pool = database.connection.pool;
      const loaded = await ingestFile(database.connection, example);
      expect(loaded.status).toBe('loaded');
      // Read 300 days ago, and found unchanged every day since.
      await pool.query(
        `UPDATE mrf_files SET started_at = now() - interval '300 days' WHERE id = $1`,
        [loaded.runId],
      );
      await runs(loaded.hospitalId ?? '', example, [
        ['unchanged', 200],
        ['unchanged', 100],
        ['unchanged', 1],
      ]);
      const items = `SELECT count(*)::int AS n FROM charge_items WHERE hospital_id = $1 AND mrf_file_id = $2`;
      const before = (await pool.query<{ n: number }>(items, [loaded.hospitalId, loaded.runId]))
        .rows[0]?.n;
      expect(before).toBeGreaterThan(0);

      await prune(pool, SETTINGS);
      const name = path.resolve(example);
      expect(await runsLeft()).toEqual([
        `${name} loaded 300`,
        `${name} unchanged 200 (1 more)`,
        `${name} unchanged 1`,
      ]);
      const after = (await pool.query<{ n: number }>(items, [loaded.hospitalId, loaded.runId]))
        .rows[0]?.n;
      expect(after).toBe(before);
    },
    30_000,
  );

  it('keeps failed runs and runs still loading', async () => {
    const hospital = randomUUID();
    await runs(hospital, 'a.json', [
      ['failed', 300],
      ['failed', 200],
      ['failed', 1],
    ]);
    await runs(hospital, 'b.json', [
      ['loading', 300],
      ['loaded', 100],
    ]);
    await prune(database.connection.pool, SETTINGS);
    expect(await runsLeft()).toEqual([
      'a.json failed 300',
      'a.json failed 200',
      'a.json failed 1',
      'b.json loading 300',
      'b.json loaded 100',
    ]);
  });

  // Later ingests know a file by the bytes of the runs that read it whole (READ_WHOLE).
  it('keeps the runs that read their file whole: replaced and older', async () => {
    await runs(randomUUID(), 'a.json', [
      ['replaced', 300],
      ['older', 250],
      ['older', 200],
      ['loaded', 100],
    ]);
    await prune(database.connection.pool, SETTINGS);
    expect(await runsLeft()).toEqual([
      'a.json replaced 300',
      'a.json older 250',
      'a.json older 200',
      'a.json loaded 100',
    ]);
  });

  it('deletes batch after batch until a batch finds fewer', async () => {
    await runs(randomUUID(), 'a.json', [
      ['unchanged', 500],
      ['unchanged', 400],
      ['unchanged', 300],
      ['unchanged', 200],
      ['unchanged', 100],
      ['unchanged', 1],
    ]);
    const output = await prune(database.connection.pool, SETTINGS, { batchSize: 2 });
    expect(output.runs).toBe(4);
    expect(await runsLeft()).toEqual(['a.json unchanged 500 (4 more)', 'a.json unchanged 1']);
  });

  it('starts no batch once told to stop, and says why', async () => {
    await runs(randomUUID(), 'a.json', [
      ['unchanged', 300],
      ['unchanged', 200],
      ['unchanged', 1],
    ]);
    const stop = new AbortController();
    stop.abort(new Error('the worker is stopping'));
    const output = await prune(database.connection.pool, SETTINGS, { signal: stop.signal });
    expect(output).toEqual({ runs: 0, messages: 0, stoppedBecause: 'the worker is stopping' });
    expect(await runsLeft()).toHaveLength(3);
  });

  it('has nothing that refers to a run or an outbox message by a foreign key', async () => {
    const { rows } = await database.connection.pool.query(
      `SELECT conname FROM pg_constraint
        WHERE contype = 'f' AND confrelid IN ('mrf_files'::regclass, 'outbox_messages'::regclass)`,
    );
    expect(rows).toEqual([]);
  });
});

describe('the retention of the outbox', () => {
  /** A message the outbox drivers kept, sent so many days ago. */
  async function sent(channel: string, to: string, daysAgo: number) {
    await database.connection.pool.query(
      `INSERT INTO outbox_messages (channel, "to", subject, text, html, sent_at)
       VALUES ($1, $2, 'Subject', 'Text', '<p>Text</p>', now() - make_interval(days => $3))`,
      [channel, to, daysAgo],
    );
  }

  it('deletes the messages sent more than OUTBOX_RETENTION_DAYS days ago', async () => {
    await sent('email', 'old@example.com', 45);
    await sent('sms', '+15550000001', 31);
    await sent('email', 'recent@example.com', 29);
    await sent('sms', '+15550000002', 0);
    const output = await prune(database.connection.pool, SETTINGS, { batchSize: 1 });
    expect(output).toEqual({ runs: 0, messages: 2, stoppedBecause: null });
    const { rows } = await database.connection.pool.query<{ to: string }>(
      `SELECT "to" FROM outbox_messages ORDER BY sent_at`,
    );
    expect(rows.map((row) => row.to)).toEqual(['recent@example.com', '+15550000002']);
  });

  it('leaves the e-mail not sent yet, waiting in mail_queue, however old', async () => {
    await database.connection.pool.query(
      `INSERT INTO mail_queue ("to", subject, text, html, queued_at, failed_at)
       VALUES ('waiting@example.com', 'Subject', 'Text', '<p>Text</p>', now() - interval '400 days',
               now() - interval '399 days')`,
    );
    await prune(database.connection.pool, SETTINGS);
    const { rowCount } = await database.connection.pool.query('SELECT 1 FROM mail_queue');
    expect(rowCount).toBe(1);
  });
});

describe('the retention job', () => {
  it('runs every day at 03:00 UTC and says in one line what it deleted', async () => {
    const pool = database.connection.pool;
    await runs(randomUUID(), 'a.json', [
      ['unchanged', 200],
      ['unchanged', 100],
      ['unchanged', 1],
    ]);
    await pool.query(
      `INSERT INTO outbox_messages ("to", subject, text, html, sent_at)
       VALUES ('old@example.com', 'Subject', 'Text', '<p>Text</p>', now() - interval '40 days')`,
    );
    const lines: string[] = [];
    const worker = await startWorker({
      pool,
      refreshSchedule: 'off',
      log: { info: (line) => lines.push(line), warn: () => {}, error: () => {} },
      pollingIntervalSeconds: 0.5,
      retention: SETTINGS,
    });
    try {
      const { rows } = await pool.query(
        `SELECT cron, timezone FROM pgboss.schedule WHERE name = $1`,
        [RETENTION_QUEUE],
      );
      expect(rows).toEqual([{ cron: '0 3 * * *', timezone: 'UTC' }]);
      const id = (await worker.boss.send(RETENTION_QUEUE, {})) ?? '';
      let job = await worker.boss.getJobById<object>(RETENTION_QUEUE, id);
      for (let waited = 0; job?.state !== 'completed' && waited < 20_000; waited += 200) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        job = await worker.boss.getJobById<object>(RETENTION_QUEUE, id);
      }
      expect(job?.output).toEqual({
        runs: 1,
        messages: 1,
        stoppedBecause: null,
      } satisfies RetentionOutput);
    } finally {
      await worker.stop();
    }
    expect(lines).toContain(
      'Retention: deleted 1 run that found a file unchanged again (older than 90 days) and 1 outbox message (sent more than 30 days ago)',
    );
  }, 30_000);
});
