import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { ingestFile, loadStates } from '@ratelens/ingest';
import { serveFiles } from '@ratelens/ingest/testing/file-server';
import { itWithDataFile } from '@ratelens/ingest/testing/it-with-data-file';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { smtpTransport } from '../mail/mailer.ts';
import { startSmtpServer } from '../test/smtp-server.ts';
import {
  INTERRUPTED_INGESTS_QUEUE,
  MAIL_QUEUE,
  REFRESH_QUEUE,
  REPORT_EXPIRY_QUEUE,
  SCHEDULED_REFRESH_QUEUE,
  startWorker,
  type RefreshOutput,
  type Worker,
} from './worker.ts';

const CMS_V3_JSON = 'cms-hpt-examples/v3_json_format_example.json';

let database: TestDatabase;
let dir: string;
const workers: Worker[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'ratelens-worker-'));
  await loadStates(database.connection.pool);
});
afterAll(async () => {
  for (const worker of workers) await worker.stop();
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

/** A worker on the test database whose lines are kept in `lines`. */
async function worker(
  refreshSchedule: string,
  lines: string[] = [],
  progressEveryMs?: number,
): Promise<Worker> {
  const started = await startWorker({
    pool: database.connection.pool,
    refreshSchedule,
    log: {
      info: (line) => lines.push(line),
      warn: (line) => lines.push(`warning: ${line}`),
      error: (line) => lines.push(`error: ${line}`),
    },
    pollingIntervalSeconds: 0.5,
    progressEveryMs,
  });
  workers.push(started);
  return started;
}

/**
 * Two hospitals' files in `dir`, loaded as of April 1, then published anew as of May 1 at the same
 * place: a refresh loads each of them again. Answers their paths and the first's hospital id.
 */
async function twoFilesMadeNewer(
  example: string,
  [first, second]: [string, string],
): Promise<{ paths: [string, string]; firstHospitalId: string | null }> {
  const paths: [string, string] = [
    path.join(dir, `${first}.json`),
    path.join(dir, `${second}.json`),
  ];
  // Each hospital publishes its file, of `date`, at its place.
  const publish = (date: string) =>
    Promise.all(
      [first, second].map(async (name, i) =>
        writeFile(paths[i] ?? '', await hospitalFile(example, `Worker ${name}`, `L-${name}`, date)),
      ),
    );
  await publish('2026-04-01');
  const loaded = await ingestFile(database.connection, paths[0]);
  await ingestFile(database.connection, paths[1]);
  await publish('2026-05-01');
  return { paths, firstHospitalId: loaded.hospitalId };
}

/** The CMS example as another hospital's file, of the given date. */
async function hospitalFile(example: string, name: string, licence: string, date: string) {
  const json = JSON.parse(await readFile(example, 'utf8')) as Record<string, unknown>;
  json.hospital_name = name;
  json.license_information = { license_number: licence, state: 'CA' };
  json.last_updated_on = date;
  return JSON.stringify(json);
}

const statuses = async (source: string) =>
  (
    await database.connection.pool.query<{ status: string }>(
      `SELECT status FROM mrf_files WHERE source = $1 ORDER BY started_at`,
      [source],
    )
  ).rows.map((row) => row.status);

/** Waits for a job to end, and answers its state and output. */
async function ended(boss: Worker['boss'], id: string, queue = REFRESH_QUEUE) {
  for (let waited = 0; waited < 60_000; waited += 200) {
    const job = await boss.getJobById<object>(queue, id);
    if (job && ['completed', 'failed', 'cancelled'].includes(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`job ${id} did not end within 60 s`);
}

/**
 * A scheduled job: its schedule is `cron` (UTC), and what the schedule sends when it fires is sent
 * now. Answers the job once it has ended.
 */
async function firedOnSchedule(boss: Worker['boss'], queue: string, cron: string) {
  const { rows } = await database.connection.pool.query<{ cron: string; timezone: string }>(
    `SELECT cron, timezone FROM pgboss.schedule WHERE name = $1`,
    [queue],
  );
  expect(rows).toEqual([{ cron, timezone: 'UTC' }]);
  return ended(boss, (await boss.send(queue, {})) ?? '', queue);
}

describe('the background worker', () => {
  itWithDataFile(
    "a refresh job reads again every hospital's file in use, and loads what changed",
    CMS_V3_JSON,
    async (example) => {
      const changed = path.join(dir, 'changed.json');
      const same = path.join(dir, 'same.json');
      await writeFile(
        changed,
        await hospitalFile(example, 'Worker Changed', '990001', '2026-04-01'),
      );
      await writeFile(same, await hospitalFile(example, 'Worker Same', '990002', '2026-04-01'));
      for (const file of [changed, same])
        expect((await ingestFile(database.connection, file)).status).toBe('loaded');
      // The hospital publishes a newer file at the same place.
      await writeFile(
        changed,
        await hospitalFile(example, 'Worker Changed', '990001', '2026-05-01'),
      );

      const lines: string[] = [];
      // Every step of the read said, as a large file's are once a minute.
      const { boss, stop } = await worker('off', lines, 0);
      const id = await boss.send(SCHEDULED_REFRESH_QUEUE, {});
      expect(id).not.toBeNull();
      const job = await ended(boss, id ?? '', SCHEDULED_REFRESH_QUEUE);
      expect(job.state, JSON.stringify(job.output)).toBe('completed');
      expect(job.output as RefreshOutput).toEqual({
        loaded: 1,
        unchanged: 1,
        skipped: 0,
        older: 0,
        failed: 0,
        unreadable: 0,
        missing: 0,
        notRead: 0,
        summary: 'Read again: 2 files (1 loaded, 1 unchanged).',
        stoppedBecause: null,
      });
      expect(await statuses(changed)).toEqual(['replaced', 'loaded']);
      expect(await statuses(same)).toEqual(['loaded', 'unchanged']);
      expect(lines).toContain('Refresh: Reading again 2 sources of the files in use.');
      expect(lines.some((line) => line.startsWith(`Refresh: ${changed}: loaded, 22 items`))).toBe(
        true,
      );
      expect(lines.at(-1)).toBe('Refresh: Read again: 2 files (1 loaded, 1 unchanged).');
      // How far the changed file's read was, as the command's progress bar says it in a log.
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^Refresh: ${changed} \\[#+\\] 100% [\\d.]+/[\\d.]+ MB [\\d.]+ MB/s, [\\d,]+ records/s$`,
          ),
        ),
      );
      expect(lines.filter((line) => line.startsWith('error:'))).toEqual([]);
      await stop();
    },
    90_000,
  );

  itWithDataFile(
    "a refresh an administrator asked for reads that hospital's file only",
    CMS_V3_JSON,
    async (example) => {
      const {
        paths: [asked, other],
        firstHospitalId,
      } = await twoFilesMadeNewer(example, ['asked', 'other']);

      const lines: string[] = [];
      const { boss, stop } = await worker('off', lines);
      const id = await boss.send(REFRESH_QUEUE, { hospitalId: firstHospitalId });
      const job = await ended(boss, id ?? '');
      await stop();
      expect(job.state, JSON.stringify(job.output)).toBe('completed');
      expect(job.output).toMatchObject({ loaded: 1, unchanged: 0, failed: 0 });
      expect(await statuses(asked)).toEqual(['replaced', 'loaded']);
      expect(await statuses(other)).toEqual(['loaded']);
      expect(lines[0]).toBe(
        `Refresh: reading again where the file in use of hospital ${firstHospitalId} came from, as an administrator asked`,
      );
    },
    90_000,
  );

  itWithDataFile(
    "an administrator's request runs beside a refresh of every hospital that is still reading",
    CMS_V3_JSON,
    async (example) => {
      // The slow hospital's file is on a web server that sends its newer file only in part until
      // released: a refresh of every hospital reads it until then, as it would a 10 GB file.
      const older = Buffer.from(await hospitalFile(example, 'Worker Slow', 'L-slow', '2026-04-01'));
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const files: Record<string, Buffer> = { '/slow.json': older };
      const server = await serveFiles(files, {
        holdBack: { after: older.length, until: released },
      });
      try {
        const slow = server.url('/slow.json');
        const asked = path.join(dir, 'beside.json');
        await writeFile(
          asked,
          await hospitalFile(example, 'Worker Beside', 'L-beside', '2026-04-01'),
        );
        expect((await ingestFile(database.connection, slow)).status).toBe('loaded');
        const { hospitalId } = await ingestFile(database.connection, asked);
        // The newer file is longer than the older (an added location): more than the server sends.
        const newer = JSON.parse(
          await hospitalFile(example, 'Worker Slow', 'L-slow', '2026-05-01'),
        ) as { location_name: string[] };
        newer.location_name.push('Worker Slow Annex');
        files['/slow.json'] = Buffer.from(JSON.stringify(newer));

        const lines: string[] = [];
        const { boss, stop } = await worker('off', lines);
        const everyHospital = (await boss.send(SCHEDULED_REFRESH_QUEUE, {})) ?? '';
        // Its files are read in the order of their sources: the local ones first, then the slow one.
        for (let waited = 0; waited < 60_000; waited += 100) {
          if ((await statuses(slow)).includes('loading')) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const request = await boss.send(
          REFRESH_QUEUE,
          { hospitalId },
          { singletonKey: hospitalId ?? '' },
        );
        const job = await ended(boss, request ?? '');
        expect(job.state, JSON.stringify(job.output)).toBe('completed');
        expect(job.output).toMatchObject({ loaded: 0, unchanged: 1, failed: 0 });
        // The refresh of every hospital is still reading the slow file.
        expect((await boss.getJobById(SCHEDULED_REFRESH_QUEUE, everyHospital))?.state).toBe(
          'active',
        );
        expect(await statuses(slow)).toEqual(['loaded', 'loading']);
        release();
        const all = await ended(boss, everyHospital, SCHEDULED_REFRESH_QUEUE);
        await stop();
        expect(all.state, JSON.stringify(all.output)).toBe('completed');
        expect(await statuses(slow)).toEqual(['replaced', 'loaded']);
        expect(lines.filter((line) => line.startsWith('error:'))).toEqual([]);
      } finally {
        release();
        await server.close();
      }
    },
    90_000,
  );

  itWithDataFile(
    'stopped during a refresh, starts no further file and lets the one at hand finish',
    CMS_V3_JSON,
    async (example) => {
      // Both changed: a refresh would load both. The worker is stopped as the first is loaded.
      const {
        paths: [first, second],
      } = await twoFilesMadeNewer(example, ['stop-first', 'stop-second']);
      const lines: string[] = [];
      let stopping: Promise<void> | undefined;
      const started = await startWorker({
        pool: database.connection.pool,
        refreshSchedule: 'off',
        pollingIntervalSeconds: 0.5,
        log: {
          info: (line) => {
            lines.push(line);
            if (line.startsWith(`Refresh: ${first}: loaded`)) stopping ??= started.stop();
          },
          warn: (line) => lines.push(`warning: ${line}`),
          error: (line) => lines.push(`error: ${line}`),
        },
      });
      workers.push(started);
      const id = await started.boss.send(SCHEDULED_REFRESH_QUEUE, {});
      for (let waited = 0; !stopping && waited < 60_000; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      await stopping;
      // The file read longest ago first: the first was loaded, the second not read.
      expect(await statuses(first)).toEqual(['replaced', 'loaded']);
      expect(await statuses(second)).toEqual(['loaded']);
      // The earlier tests' files, read before these, were read again first.
      expect(lines.at(-1)).toMatch(/^Refresh: Read again: \d+ files \(\d+ loaded/);
      expect(lines.filter((line) => line.includes(second))).toEqual([]);
      const boss = new PgBoss({
        connectionString: database.url,
        supervise: false,
        schedule: false,
      });
      await boss.start();
      try {
        const job = await boss.getJobById(SCHEDULED_REFRESH_QUEUE, id ?? '');
        expect(job?.state).toBe('completed');
        // Its output says so: the administrators' page tells it from one that read every file.
        expect(job?.output).toMatchObject({
          notRead: 1,
          stoppedBecause: 'the worker is stopping',
        });
      } finally {
        await boss.stop({ graceful: false });
      }
    },
    90_000,
  );

  it('records as failed, when it starts, an ingest that a stopped process cut off', async () => {
    const pool = database.connection.pool;
    const {
      rows: [run],
    } = await pool.query<{ id: string }>(
      `INSERT INTO mrf_files (source, status) VALUES ('/gone/cut-off.json', 'loading') RETURNING id`,
    );
    const lines: string[] = [];
    await (await worker('off', lines)).stop();
    const {
      rows: [after],
    } = await pool.query<{ status: string; error: string }>(
      'SELECT status, error FROM mrf_files WHERE id = $1',
      [run?.id],
    );
    expect(after).toEqual({
      status: 'failed',
      error:
        'The ingest stopped before it finished (the process ended); the previous data is unchanged.',
    });
    expect(lines).toContain('Worker: 1 ingest cut off when a process stopped, recorded as failed');
  }, 30_000);

  it('logs a job that fails, as well as recording it failed', async () => {
    const lines: string[] = [];
    const { boss, stop } = await worker('off', lines);
    // Data that no request the server sends has: a hospital id that is no uuid.
    const job = await ended(boss, (await boss.send(REFRESH_QUEUE, { hospitalId: 'nine' })) ?? '');
    await stop();
    expect(job.state).toBe('failed');
    expect(lines).toContain('error: Refresh failed: invalid input syntax for type uuid: "nine"');
  }, 30_000);

  it('records as failed, every ten minutes, an ingest whose process died since it started', async () => {
    const pool = database.connection.pool;
    const lines: string[] = [];
    const { boss, stop } = await worker('off', lines);
    // `npm run ingest` killed with -9 after the worker started: its run is left loading.
    const {
      rows: [run],
    } = await pool.query<{ id: string }>(
      `INSERT INTO mrf_files (source, status, progress) VALUES ('/gone/killed.json', 'loading', '{"bytesRead": 1, "totalBytes": 2, "records": 0}') RETURNING id`,
    );
    const job = await firedOnSchedule(boss, INTERRUPTED_INGESTS_QUEUE, '*/10 * * * *');
    await stop();
    expect(job.output).toEqual({ marked: 1, jobs: 0 });
    const { rows } = await pool.query<{ status: string; progress: unknown }>(
      'SELECT status, progress FROM mrf_files WHERE id = $1',
      [run?.id],
    );
    expect(rows).toEqual([{ status: 'failed', progress: null }]);
    expect(lines).toContain('Worker: 1 ingest cut off when a process stopped, recorded as failed');
  }, 30_000);

  it('deletes, every hour, the reports whose links have expired', async () => {
    const pool = database.connection.pool;
    const {
      rows: [user],
    } = await pool.query<{ id: string }>(
      `INSERT INTO users (email, password_hash, role) VALUES ('reports@example.com', 'x', 'user') RETURNING id`,
    );
    await pool.query(
      `INSERT INTO reports (token_hash, user_id, file_name, pdf, expires_at)
       VALUES ('expired', $1, 'a.pdf', '\\x25', now() - interval '1 minute'),
              ('live', $1, 'b.pdf', '\\x25', now() + interval '1 hour')`,
      [user?.id],
    );
    const lines: string[] = [];
    const { boss, stop } = await worker('off', lines);
    const job = await firedOnSchedule(boss, REPORT_EXPIRY_QUEUE, '20 * * * *');
    await stop();
    expect(job.output).toEqual({ deleted: 1 });
    const { rows } = await pool.query<{ token_hash: string }>(`SELECT token_hash FROM reports`);
    expect(rows).toEqual([{ token_hash: 'live' }]);
    expect(lines).toContain('Reports: deleted 1 report whose link had expired');
  }, 30_000);

  it('tries again, every minute, the e-mail the SMTP server has not taken yet', async () => {
    const smtp = await startSmtpServer();
    const pool = database.connection.pool;
    try {
      await pool.query(
        `INSERT INTO mail_queue ("to", subject, text, html, attempts, last_error)
         VALUES ('later@example.com', 'Waited', 'Plain body', '<p>HTML body</p>', 1, '451 busy')`,
      );
      const lines: string[] = [];
      const started = await startWorker({
        pool,
        refreshSchedule: 'off',
        log: { info: (line) => lines.push(line), warn: () => {}, error: () => {} },
        pollingIntervalSeconds: 0.5,
        mail: smtpTransport(smtp.url, 'RateLens <no-reply@ratelens.test>'),
      });
      workers.push(started);
      const job = await firedOnSchedule(started.boss, MAIL_QUEUE, '* * * * *');
      await started.stop();
      expect(job.output).toEqual({ sent: 1, retrying: 0, failed: 0, stoppedBecause: null });
      expect(smtp.received.map((m) => m.to)).toEqual([['later@example.com']]);
      expect((await pool.query('SELECT 1 FROM mail_queue')).rowCount).toBe(0);
      expect(lines).toContain('Mail: 1 sent, 0 to try again, 0 given up on');
      expect(lines.some((line) => /^Mail \S+ \("Waited"\) sent at try 2$/.test(line))).toBe(true);
    } finally {
      await smtp.close();
    }
  }, 30_000);

  it('stopped while it tries the queued e-mail, tries no further message and leaves the rest untouched', async () => {
    const smtp = await startSmtpServer();
    // A slow server: ten messages take ten seconds, twice the time a stop waits for a job.
    smtp.delayMs = 1000;
    const pool = database.connection.pool;
    try {
      await pool.query(
        `INSERT INTO mail_queue ("to", subject, text, html, attempts, last_error, next_attempt_at)
         SELECT 'backlog-' || n || '@example.com', 'Backlog ' || n, 'Plain', '<p>HTML</p>', 1, '451 busy',
                now() - make_interval(mins => 20 - n)
           FROM generate_series(1, 10) AS n`,
      );
      const queued = async () =>
        (
          await pool.query<{ to: string; attempts: number; next: Date; error: string | null }>(
            `SELECT "to", attempts, next_attempt_at AS next, last_error AS error
               FROM mail_queue ORDER BY "to"`,
          )
        ).rows;
      const before = await queued();
      const lines: string[] = [];
      const started = await startWorker({
        pool,
        refreshSchedule: 'off',
        log: { info: (line) => lines.push(line), warn: () => {}, error: () => {} },
        pollingIntervalSeconds: 0.5,
        mail: smtpTransport(smtp.url, 'RateLens <no-reply@ratelens.test>'),
      });
      workers.push(started);
      await started.boss.send(MAIL_QUEUE, {});
      // The second message is at the server, which has not yet said it took it.
      await vi.waitFor(() => expect(smtp.received.length).toBe(2), { timeout: 10_000 });
      const stopping = performance.now();
      await started.stop();
      // The message at hand, not the eight after it: less than the 5 s a stop waits for a job
      // that goes on (with room for a busy machine).
      expect(performance.now() - stopping).toBeLessThan(4500);
      const sent = smtp.received.flatMap((mail) => mail.to);
      expect(sent).toHaveLength(2);
      expect(lines).toContain(
        'Mail: 2 sent, 0 to try again, 0 given up on; stopped early (the worker is stopping), the rest is for the next run',
      );
      // Every message was sent and is gone, or is as it was queued; none is tried after the stop.
      const left = await queued();
      expect(left).toEqual(before.filter((mail) => !sent.includes(mail.to)));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(smtp.received).toHaveLength(2);
      expect(await queued()).toEqual(left);
    } finally {
      await smtp.close();
      await pool.query(`DELETE FROM mail_queue`);
    }
  }, 30_000);

  it('keeps the refresh on REFRESH_SCHEDULE (cron, UTC), and drops it when that is off', async () => {
    const schedules = async () =>
      (
        await database.connection.pool.query<{ name: string; cron: string; timezone: string }>(
          `SELECT name, cron, timezone FROM pgboss.schedule WHERE name = ANY($1)`,
          [[REFRESH_QUEUE, SCHEDULED_REFRESH_QUEUE]],
        )
      ).rows;
    const first = await worker('15 3 * * *');
    expect(await schedules()).toEqual([
      { name: SCHEDULED_REFRESH_QUEUE, cron: '15 3 * * *', timezone: 'UTC' },
    ]);
    await first.stop();
    const second = await worker('off');
    expect(await schedules()).toEqual([]);
    await second.stop();
  }, 30_000);

  it('gives a refresh 23 hours and a scheduled job one, also on a queue an earlier version made', async () => {
    // As an earlier version made it: `expireInHours`, which pg-boss 10 does not store on a queue,
    // so that its jobs had pg-boss's default of 15 minutes.
    await (await worker('off')).stop();
    const pool = database.connection.pool;
    await pool.query(`UPDATE pgboss.queue SET expire_seconds = NULL`);
    // And administrators' requests under `stately`, with one waiting, as before session 56.
    await pool.query(`UPDATE pgboss.queue SET policy = 'stately' WHERE name = $1`, [REFRESH_QUEUE]);
    const old = new PgBoss({ connectionString: database.url, supervise: false, schedule: false });
    await old.start();
    const waiting =
      (await old.send(
        REFRESH_QUEUE,
        { hospitalId: '00000000-0000-4000-8000-000000000000' },
        { singletonKey: 'old-request' },
      )) ?? '';
    await old.stop({ graceful: false });
    await (await worker('off')).stop();
    const { rows: jobs } = await pool.query<{ policy: string; expire: number }>(
      `SELECT policy, extract(epoch FROM expire_in)::int AS expire FROM pgboss.job WHERE id = $1`,
      [waiting],
    );
    // Sent while the queue had no time limit of its own: 15 minutes, now the queue's 23 hours.
    expect(jobs).toEqual([{ policy: 'short', expire: 23 * 3600 }]);
    await pool.query(`DELETE FROM pgboss.job WHERE id = $1`, [waiting]);
    const { rows } = await pool.query<{ name: string; expire: number | null }>(
      `SELECT name, expire_seconds AS expire FROM pgboss.queue WHERE name = ANY($1) ORDER BY name`,
      [[REFRESH_QUEUE, SCHEDULED_REFRESH_QUEUE, REPORT_EXPIRY_QUEUE, INTERRUPTED_INGESTS_QUEUE]],
    );
    expect(Object.fromEntries(rows.map((row) => [row.name, row.expire]))).toEqual({
      [REFRESH_QUEUE]: 23 * 3600,
      [SCHEDULED_REFRESH_QUEUE]: 23 * 3600,
      [REPORT_EXPIRY_QUEUE]: 3600,
      [INTERRUPTED_INGESTS_QUEUE]: 3600,
    });
    // A request sent without a time limit of its own takes the queue's.
    const boss = new PgBoss({ connectionString: database.url, supervise: false, schedule: false });
    await boss.start();
    try {
      const id = (await boss.send(REFRESH_QUEUE, {}, { singletonKey: 'expiry-check' })) ?? '';
      const job = await boss.getJobById(REFRESH_QUEUE, id);
      expect(Number(job?.expireInSeconds)).toBe(23 * 3600);
      await boss.cancel(REFRESH_QUEUE, id);
    } finally {
      await boss.stop({ graceful: false });
    }
  }, 30_000);

  it('runs one refresh at a time: a refresh asked for while one waits is not queued twice', async () => {
    await (await worker('off')).stop();
    // With no worker to take it, the first refresh waits; the queue's policy refuses the second.
    const boss = new PgBoss({ connectionString: database.url, supervise: false, schedule: false });
    await boss.start();
    try {
      const waiting = await boss.send(SCHEDULED_REFRESH_QUEUE, {});
      expect(waiting).not.toBeNull();
      expect(await boss.send(SCHEDULED_REFRESH_QUEUE, {})).toBeNull();
      await boss.cancel(SCHEDULED_REFRESH_QUEUE, waiting ?? '');
    } finally {
      await boss.stop({ graceful: false });
    }
  }, 30_000);
});

/**
 * Runs `npm run worker` with `env` until it exits, stopping it with SIGINT once it says it is
 * running; resolves with what it printed and its exit code.
 */
function runWorker(env: Record<string, string>): Promise<{ out: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'packages/server/src/worker/main.ts'],
      {
        env: { ...process.env, NODE_ENV: 'test', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    const collect = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('RateLens worker is running')) child.kill('SIGINT');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => resolve({ out, code }));
  });
}

describe('npm run worker', () => {
  it('runs the worker alone until stopped, and says when files are read again', async () => {
    const printed = await runWorker({
      DATABASE_URL: database.url,
      REFRESH_SCHEDULE: '0 5 * * 1',
      RENEWALS_INTERVAL_MINUTES: '0',
    });
    expect(printed.code, printed.out).toBe(0);
    expect(printed.out).toContain(
      'hospital files are read again on the schedule "0 5 * * 1" (cron, UTC); subscriptions are renewed only by npm run renewals (RENEWALS_INTERVAL_MINUTES=0); expired reports are deleted every hour at 20 past; ingests cut off when their process stopped are recorded as failed every ten minutes; runs that found a file unchanged again are deleted after 90 days (RUN_RETENTION_DAYS) and sent outbox messages after 30 (OUTBOX_RETENTION_DAYS), every day at 03:00 UTC.',
    );
    expect(printed.out).toContain('RateLens worker stopped.');
  }, 60_000);

  it('does not start the embedded database itself, and says what it needs', async () => {
    const dataDir = path.join(dir, 'no-server');
    const printed = await runWorker({ DATABASE_URL: '', DATA_DIR: dataDir });
    expect(printed.code).toBe(1);
    expect(printed.out).toContain(
      `No database: npm run worker uses DATABASE_URL, or the embedded database of a server running on DATA_DIR (${dataDir}). Start the server first (npm start), or set DATABASE_URL.`,
    );
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
  }, 60_000);
});
