import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RefreshStatus } from '@ratelens/core';
import { ingestFile, loadStates } from '@ratelens/ingest';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, signedInAdmin, signedInUser, useTestApp } from '../test/app.ts';
import { SCHEDULED_REFRESH_QUEUE, startWorker, type RefreshOutput } from './worker.ts';

// One database for the file, as a deployment lives: no worker ever, then a server's request,
// then a worker's scheduled refresh, then the ways a refresh ends that a test cannot wait for.
const test = useTestApp();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ratelens-refresh-status-'));
  await loadStates(test.database.connection.pool);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const status = (headers: Record<string, string>) =>
  test.app.inject({ method: 'GET', url: '/api/admin/refresh', headers });

async function adminStatus(): Promise<RefreshStatus> {
  const response = await status(authHeaders(await signedInAdmin(test)));
  expect(response.statusCode).toBe(200);
  return response.json<RefreshStatus>();
}

/** A Vermont hospital's price file (CMS tall CSV, v3) of `date`, with one charge. */
function priceFile(name: string, licence: string, date: string): string {
  return [
    'hospital_name,last_updated_on,version,location_name,hospital_address,license_number|VT,type_2_npi,' +
      '"To the best of its knowledge and belief, this hospital has included all applicable standard charge information in accordance with the requirements of 45 CFR 180.50, and the information encoded is true, accurate, and complete as of the date in the file. This hospital has included all payer-specific negotiated charges in dollars that can be expressed as a dollar amount. For payer-specific negotiated charges that cannot be expressed as a dollar amount in the machine-readable file or not knowable in advance, the hospital attests that the payer-specific negotiated charge is based on a contractual algorithm, percentage or formula that precludes the provision of a dollar amount and has provided all necessary information available to the hospital for the public to be able to derive the dollar amount, including, but not limited to, the specific fee schedule or components referenced in such percentage, algorithm or formula.",attester_name',
    `${name},${date},3.0.0,${name},"111 Colchester Ave, Burlington, VT 05401",${licence},1234567893|0000000001,true,Pat Attester`,
    'description,code|1,code|1|type,setting,standard_charge|gross,standard_charge|discounted_cash,payer_name,plan_name,standard_charge|negotiated_dollar,standard_charge|min,standard_charge|max,standard_charge|methodology',
    'MRI of brain (no contrast),70551,CPT,outpatient,1200,1080,Platform Health Insurance,PPO,400,400,400,fee schedule',
    '',
  ].join('\r\n');
}

/** A hospital's file written to `dir` and loaded: its path. */
async function loadedFile(name: string, licence: string): Promise<string> {
  const file = path.join(dir, `${licence}.csv`);
  await writeFile(file, priceFile(name, licence, '2026-04-01'));
  expect((await ingestFile(test.database.connection, file)).status).toBe('loaded');
  return file;
}

/** Waits for a job to end, and answers it. */
async function ended(boss: PgBoss, queue: string, id: string) {
  for (let waited = 0; waited < 60_000; waited += 200) {
    const job = await boss.getJobById<object>(queue, id);
    if (job && ['completed', 'failed', 'cancelled'].includes(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`job ${id} did not end within 60 s`);
}

/** pg-boss on the test database, sending and fetching only, as a worker's handler would. */
async function withBoss<T>(use: (boss: PgBoss) => Promise<T>): Promise<T> {
  const boss = new PgBoss({
    connectionString: test.database.url,
    supervise: false,
    schedule: false,
  });
  await boss.start();
  try {
    return await use(boss);
  } finally {
    await boss.stop({ graceful: false });
  }
}

/** An instant `ms` ago, give or take the test's own minute, as an ISO string. */
const ago = (ms: number) =>
  expect.toSatisfy((iso: string) => Math.abs(Date.now() - ms - Date.parse(iso)) < 60_000) as string;

describe('GET api/admin/refresh', () => {
  it('says plainly that no worker has ever run when pg-boss has no tables yet', async () => {
    const { rows } = await test.database.connection.pool.query<{ job: string | null }>(
      `SELECT to_regclass('pgboss.job')::text AS job`,
    );
    expect(rows).toEqual([{ job: null }]);
    expect(await adminStatus()).toEqual({
      worker: 'never',
      workerSeenAt: null,
      schedule: null,
      nextRunAt: null,
      latest: null,
      requests: { waiting: 0, running: 0 },
    });
  });

  it('is for administrators only (401 signed out, 403 otherwise)', async () => {
    expect((await status({})).statusCode).toBe(401);
    const user = await signedInUser(test.app);
    expect((await status(authHeaders(user))).statusCode).toBe(403);
  });

  it('counts a request a server sent with no worker to take it, and still says none has run', async () => {
    // A server with WORKER=off sends requests (and so creates pg-boss's tables), but runs no worker.
    const { rows } = await test.database.connection.pool.query<{ id: string }>(
      `INSERT INTO hospitals (source_key, name) VALUES (gen_random_uuid()::text, 'Asked Hospital')
       RETURNING id`,
    );
    const id = rows[0]?.id ?? '';
    await test.database.connection.pool.query(
      `INSERT INTO mrf_files (hospital_id, source, status, finished_at)
       VALUES ($1, 'https://asked.example/prices.json', 'loaded', now())`,
      [id],
    );
    const admin = await signedInAdmin(test);
    const asked = await test.app.inject({
      method: 'POST',
      url: `/api/admin/hospitals/${id}/refresh`,
      headers: authHeaders(admin),
    });
    expect(asked.statusCode).toBe(202);
    expect(await adminStatus()).toMatchObject({
      worker: 'never',
      schedule: null,
      latest: null,
      requests: { waiting: 1, running: 0 },
    });
    // Taken back before a worker starts: its address leads nowhere, and no test reads it.
    await test.database.connection.pool.query(
      `DELETE FROM pgboss.job WHERE name = 'rates-refresh'`,
    );
    await test.database.connection.pool.query(`DELETE FROM mrf_files WHERE hospital_id = $1`, [id]);
  });

  it('after a scheduled refresh, says when it ran, that it completed, its counts and when the next is due', async () => {
    const changed = await loadedFile('Status Changed Hospital', 'VT-STATUS-1');
    await loadedFile('Status Same Hospital', 'VT-STATUS-2');
    const broken = await loadedFile('Status Broken Hospital', 'VT-STATUS-3');
    // One hospital publishes a newer file, another breaks its own.
    await writeFile(changed, priceFile('Status Changed Hospital', 'VT-STATUS-1', '2026-05-01'));
    await writeFile(broken, 'not a price file\r\n');

    const worker = await startWorker({
      pool: test.database.connection.pool,
      refreshSchedule: '30 4 * * *',
      log: { info: () => {}, warn: () => {}, error: () => {} },
      pollingIntervalSeconds: 0.5,
    });
    try {
      // What the schedule sends when it fires, sent now.
      const id = (await worker.boss.send(SCHEDULED_REFRESH_QUEUE, {})) ?? '';
      const job = await ended(worker.boss, SCHEDULED_REFRESH_QUEUE, id);
      expect(job.state, JSON.stringify(job.output)).toBe('completed');
      expect((job.output as RefreshOutput).failed).toBe(1);

      const answer = await adminStatus();
      expect(answer).toEqual({
        worker: 'running',
        workerSeenAt: ago(0),
        schedule: '30 4 * * *',
        nextRunAt: nextHalfPastFourUtc(),
        latest: {
          startedAt: job.startedOn.toISOString(),
          endedAt: job.completedOn?.toISOString(),
          ending: 'completed',
          reason: null,
          timeLimitSeconds: 23 * 3600,
          counts: {
            loaded: 1,
            unchanged: 1,
            skipped: 0,
            older: 0,
            failed: 1,
            unreadable: 0,
            missing: 0,
            notRead: 0,
          },
        },
        requests: { waiting: 0, running: 0 },
      });
      expect(Date.parse(answer.latest?.startedAt ?? '')).toBeLessThanOrEqual(
        Date.parse(answer.latest?.endedAt ?? ''),
      );
    } finally {
      await worker.stop();
    }
  }, 90_000);

  it('finds the latest refresh once pg-boss has archived it', async () => {
    // pg-boss moves a job that ended to its archive after 12 hours: last night's, by the afternoon.
    const before = (await adminStatus()).latest;
    expect(before?.ending).toBe('completed');
    await test.database.connection.pool.query(
      `WITH moved AS (DELETE FROM pgboss.job WHERE name = $1 RETURNING *)
       INSERT INTO pgboss.archive (id, name, priority, data, state, retry_limit, retry_count,
              retry_delay, retry_backoff, start_after, started_on, singleton_key, singleton_on,
              expire_in, created_on, completed_on, keep_until, dead_letter, policy, output)
       SELECT id, name, priority, data, state, retry_limit, retry_count, retry_delay,
              retry_backoff, start_after, started_on, singleton_key, singleton_on, expire_in,
              created_on, completed_on, keep_until, dead_letter, policy, output FROM moved`,
      [SCHEDULED_REFRESH_QUEUE],
    );
    expect((await adminStatus()).latest).toEqual(before);
  });

  it('says that a refresh runs, since when, then the error it failed with', async () => {
    await withBoss(async (boss) => {
      const id = (await boss.send(SCHEDULED_REFRESH_QUEUE, {})) ?? '';
      // Taken up, as a worker's handler is given it.
      const [job] = await boss.fetch(SCHEDULED_REFRESH_QUEUE, { includeMetadata: true });
      expect(job?.id).toBe(id);
      expect((await adminStatus()).latest).toEqual({
        startedAt: job?.startedOn.toISOString(),
        endedAt: null,
        ending: 'running',
        reason: null,
        timeLimitSeconds: 23 * 3600,
        counts: null,
      });
      // As pg-boss records a handler's error.
      await boss.fail(SCHEDULED_REFRESH_QUEUE, id, new Error('The database went away.'));
      expect((await adminStatus()).latest).toMatchObject({
        startedAt: job?.startedOn.toISOString(),
        endedAt: ago(0),
        ending: 'failed',
        reason: 'The database went away.',
        counts: null,
      });
    });
  });

  it('says that a refresh was cut at its time limit', async () => {
    await withBoss(async (boss) => {
      // A second to run, not 23 hours; pg-boss fails it as the second passes, as it would the
      // night's refresh still reading at its limit.
      const id = (await boss.send(SCHEDULED_REFRESH_QUEUE, {}, { expireInSeconds: 1 })) ?? '';
      await boss.fetch(SCHEDULED_REFRESH_QUEUE);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await boss.fail(SCHEDULED_REFRESH_QUEUE, id, new Error('handler execution exceeded 1000ms'));
      expect((await adminStatus()).latest).toMatchObject({
        ending: 'timed-out',
        reason: 'handler execution exceeded 1000ms',
        timeLimitSeconds: 1,
        counts: null,
      });
    });
  });

  it('says that no worker runs when none has kept the schedule lately', async () => {
    await test.database.connection.pool.query(
      `UPDATE pgboss.version SET cron_on = now() - interval '3 hours'`,
    );
    expect(await adminStatus()).toMatchObject({
      worker: 'stopped',
      workerSeenAt: ago(3 * 3600_000),
      // The schedule the last worker set stays: it fires when a worker runs again.
      schedule: '30 4 * * *',
    });
  });

  it('says that the daily refresh is off when the worker was started with it off', async () => {
    const worker = await startWorker({
      pool: test.database.connection.pool,
      refreshSchedule: 'off',
      log: { info: () => {}, warn: () => {}, error: () => {} },
    });
    await worker.stop();
    expect(await adminStatus()).toMatchObject({ schedule: null, nextRunAt: null });
  });
});

/** The next 04:30 UTC after now (the schedule "30 4 * * *"). */
function nextHalfPastFourUtc(): string {
  const next = new Date();
  next.setUTCHours(4, 30, 0, 0);
  if (next.getTime() <= Date.now()) next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}
