import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, connect as connectTcp, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { ingestFile, loadStates } from '@ratelens/ingest';
import { serveFiles, type FileServer } from '@ratelens/ingest/testing/file-server';
import { itWithDataFile } from '@ratelens/ingest/testing/it-with-data-file';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect } from 'vitest';
import { RefreshRequests } from './refresh-requests.ts';
import { REFRESH_QUEUE, startWorker, type Worker } from './worker.ts';

/*
 * What the worker does when things go wrong: a hospital asked for twice, a database that goes
 * away while a job runs, a worker killed with -9, a job past its time limit. Each test has a
 * database of its own: a refresh of every hospital reads only that test's files.
 */

const CMS_V3_JSON = 'cms-hpt-examples/v3_json_format_example.json';

let database: TestDatabase;
let dir: string;
let stops: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ratelens-worker-faults-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  database = await createTestDatabase();
  await loadStates(database.connection.pool);
});
afterEach(async () => {
  for (const stop of stops.reverse()) await stop();
  stops = [];
  await database.drop();
});

/** The CMS example as a hospital's file. */
async function hospitalFile(example: string, name: string, licence: string): Promise<Buffer> {
  const json = JSON.parse(await readFile(example, 'utf8')) as Record<string, unknown>;
  json.hospital_name = name;
  json.license_information = { license_number: licence, state: 'CA' };
  json.last_updated_on = '2026-04-01';
  return Buffer.from(JSON.stringify(json));
}

/**
 * A web server of hospitals' files whose answers longer than `hold.after` bytes (none at first)
 * send that much, then the rest once `release` is called: a file being read, for as long as a
 * test needs.
 */
async function heldServer(files: Record<string, Buffer>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const hold = { after: Number.POSITIVE_INFINITY, until: released };
  const server: FileServer = await serveFiles(files, { holdBack: hold });
  stops.push(async () => {
    release();
    await server.close();
  });
  return { server, hold, release: () => release() };
}

/** A local hospital file, loaded: answers its path and hospital id. */
async function localHospital(example: string, name: string) {
  const file = path.join(dir, `${name}.json`);
  await writeFile(file, await hospitalFile(example, `Faults ${name}`, `F-${name}`));
  const { hospitalId, status } = await ingestFile(database.connection, file);
  expect(status).toBe('loaded');
  return { file, hospitalId: hospitalId ?? '' };
}

const statuses = async (source: string) =>
  (
    await database.connection.pool.query<{ status: string }>(
      `SELECT status FROM mrf_files WHERE source = $1 ORDER BY started_at`,
      [source],
    )
  ).rows.map((row) => row.status);

/**
 * Whether a file has been read twice: two runs, neither still loading. The second run's row is
 * written as `loading` when it starts; counting rows alone, a loaded machine caught it there.
 */
const readTwice = (runs: string[]) => runs.length === 2 && !runs.includes('loading');

/** Waits until `done` answers true, asking every 100 ms; throws `what` after `ms`. */
async function until(what: string, done: () => Promise<boolean> | boolean, ms = 20_000) {
  for (let waited = 0; waited < ms; waited += 100) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not within ${ms / 1000} s`);
}

/** A worker in this process on the test database; its lines go to `lines`. */
async function worker(lines: string[]): Promise<Worker> {
  const started = await startWorker({
    pool: database.connection.pool,
    refreshSchedule: 'off',
    log: {
      info: (line) => lines.push(line),
      warn: (line) => lines.push(`warning: ${line}`),
      error: (line) => lines.push(`error: ${line}`),
    },
    pollingIntervalSeconds: 0.5,
  });
  stops.push(() => started.stop(500));
  return started;
}

/** Administrators' requests, as the web server sends them. */
function requests(): RefreshRequests {
  const sent = new RefreshRequests(database.connection.pool);
  stops.push(() => sent.close());
  return sent;
}

/** `npm run worker` on `url`, its output gathered in `out`. */
function workerProcess(url: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/server/src/worker/main.ts'],
    {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: url,
        REFRESH_SCHEDULE: 'off',
        RENEWALS_INTERVAL_MINUTES: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const run = { child, out: '', code: undefined as number | null | undefined };
  child.stdout?.on('data', (chunk: Buffer) => (run.out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (run.out += chunk.toString()));
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code) => {
      run.code = code;
      resolve();
    }),
  );
  stops.push(async () => {
    if (run.code === undefined) child.kill('SIGKILL');
    await exited;
  });
  return { run, exited };
}

/**
 * A TCP proxy to PostgreSQL at `url`: `cut` drops every connection and refuses new ones, as a
 * database that restarts does; `restore` takes them again, on the same port.
 */
async function databaseProxy(url: string) {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connectTcp(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on('error', close);
      socket.on('close', close);
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve) =>
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
    );
  const port = await listen(0);
  const cut = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  stops.push(() => (server.listening ? cut() : Promise.resolve()));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return { url: proxied.toString(), cut, restore: () => listen(port) };
}

describe('the worker, when things go wrong', () => {
  itWithDataFile(
    "a hospital asked for again while its file is read holds up no other hospital's request",
    CMS_V3_JSON,
    async (example) => {
      const files = { '/slow.json': await hospitalFile(example, 'Faults Slow', 'F-slow') };
      const { server, hold, release } = await heldServer(files);
      const slow = server.url('/slow.json');
      const { hospitalId: slowId } = await ingestFile(database.connection, slow);
      const other = await localHospital(example, 'other');
      hold.after = 0;

      const lines: string[] = [];
      await worker(lines);
      const sent = requests();
      expect(await sent.ask(slowId ?? '')).toBe('waiting');
      await until('the slow file being read', async () =>
        (await statuses(slow)).includes('loading'),
      );
      // Asked again while its file is read: under `stately`, this second request was the oldest
      // job, and no other job of the queue started until the first ended.
      const again = await sent.ask(slowId ?? '');
      expect(await sent.ask(other.hospitalId)).toBe('waiting');
      await until("the other hospital's file read while the slow one is", async () =>
        readTwice(await statuses(other.file)),
      );
      expect(await statuses(other.file)).toEqual(['loaded', 'unchanged']);
      expect(await statuses(slow)).toEqual(['loaded', 'loading']);
      // The request running stands for the second: none is queued behind it.
      expect(again).toBe('already-waiting');
      const { rows } = await database.connection.pool.query(
        `SELECT 1 FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state = 'created'`,
        [REFRESH_QUEUE, slowId],
      );
      expect(rows).toEqual([]);
      release();
      await until('the slow file read', async () => !(await statuses(slow)).includes('loading'));
      expect(lines.filter((line) => line.startsWith('error:'))).toEqual([]);
    },
    60_000,
  );

  itWithDataFile(
    'keeps running, and logs it, when the database goes away while a job runs',
    CMS_V3_JSON,
    async (example) => {
      // A hospital whose file is found through its cms-hpt.txt: a refresh reads the list first,
      // over the network, before it asks anything of the database.
      const files = {
        '/cms-hpt.txt': Buffer.from('location-name: Faults Listed\nmrf-url: /listed.json\n'),
        '/listed.json': await hospitalFile(example, 'Faults Listed', 'F-listed'),
      };
      const { server, hold, release } = await heldServer(files);
      files['/cms-hpt.txt'] = Buffer.from(
        `location-name: Faults Listed\nmrf-url: ${server.url('/listed.json')}\n`,
      );
      const list = server.url('/cms-hpt.txt');
      const { hospitalId } = await ingestFile(database.connection, server.url('/listed.json'), {
        listing: { listedIn: list, sourcePageUrl: null, contactName: null, contactEmail: null },
      });
      const other = await localHospital(example, 'after-restart');
      hold.after = 10;

      const proxy = await databaseProxy(database.url);
      const { run } = workerProcess(proxy.url);
      await until('the worker started', () => run.out.includes('RateLens worker is running'));
      const sent = requests();
      expect(await sent.ask(hospitalId ?? '')).toBe('waiting');
      await until('the request taken up', async () => {
        const { rows } = await database.connection.pool.query(
          `SELECT 1 FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state = 'active'`,
          [REFRESH_QUEUE, hospitalId],
        );
        return rows.length > 0;
      });
      // The database goes away while the job reads the list; the job then ends, and pg-boss's
      // call to record that fails with nobody listening.
      await proxy.cut();
      release();
      await until(
        'the failure logged, or the worker ended',
        () => run.out.includes('nobody to handle it') || run.code !== undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(run.code, run.out).toBeUndefined();
      expect(run.out).toMatch(/A promise rejected with nobody to handle it \(kept running\): /);

      // The database is back: the worker takes the next request.
      await proxy.restore();
      expect(await sent.ask(other.hospitalId)).toBe('waiting');
      await until(
        'the next request read',
        async () => readTwice(await statuses(other.file)),
        40_000,
      );
      expect(await statuses(other.file)).toEqual(['loaded', 'unchanged']);
      expect(run.code, run.out).toBeUndefined();
    },
    90_000,
  );

  itWithDataFile(
    'fails the job of a worker killed with -9, so that its hospital can be asked for again',
    CMS_V3_JSON,
    async (example) => {
      const files = { '/killed.json': await hospitalFile(example, 'Faults Killed', 'F-killed') };
      const { server, hold } = await heldServer(files);
      const source = server.url('/killed.json');
      const { hospitalId } = await ingestFile(database.connection, source);
      hold.after = 0;

      const { run, exited } = workerProcess(database.url);
      await until('the worker started', () => run.out.includes('RateLens worker is running'));
      const sent = requests();
      expect(await sent.ask(hospitalId ?? '')).toBe('waiting');
      await until('the file being read', async () => (await statuses(source)).includes('loading'));
      run.child.kill('SIGKILL');
      await exited;
      const pool = database.connection.pool;
      const { rows } = await pool.query<{ id: string }>(
        `SELECT id FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state = 'active'`,
        [REFRESH_QUEUE, hospitalId],
      );
      expect(rows).toHaveLength(1);
      const id = rows[0]?.id ?? '';
      // A minute on (a job's handler takes its lock as it starts: a younger job is left alone).
      await pool.query(
        `UPDATE pgboss.job SET started_on = started_on - interval '2 minutes' WHERE id = $1`,
        [id],
      );

      const lines: string[] = [];
      const { boss } = await worker(lines);
      const job = await boss.getJobById(REFRESH_QUEUE, id);
      expect(job?.state).toBe('failed');
      expect(job?.output).toMatchObject({
        message:
          'The worker running this job stopped before it ended (the process was killed or the machine went down).',
      });
      expect(lines).toContain(
        'warning: Worker: 1 job left running by a worker that stopped (killed, or its machine went down), recorded as failed',
      );
      expect(await statuses(source)).toEqual(['loaded', 'failed']);
      // Its hospital can be asked for again, and the request is taken up.
      expect(await sent.ask(hospitalId ?? '')).toBe('waiting');
      await until('the new request read', async () => (await statuses(source)).length === 3);
    },
    60_000,
  );

  itWithDataFile(
    'a refresh past its time limit starts no further file, stops the one at hand, and says so',
    CMS_V3_JSON,
    async (example) => {
      const files = {
        '/a.json': await hospitalFile(example, 'Faults Limit A, whose name is longer', 'F-a'),
        '/b.json': await hospitalFile(example, 'Faults Limit B', 'F-b'),
      };
      const { server, hold, release } = await heldServer(files);
      const [first, second] = [server.url('/a.json'), server.url('/b.json')];
      for (const file of [first, second])
        expect((await ingestFile(database.connection, file)).status).toBe('loaded');
      // The first file (sources are read in their order) is read on and on; the second is not held.
      hold.after = files['/b.json'].length;

      const lines: string[] = [];
      const { boss } = await worker(lines);
      const id = (await boss.send(REFRESH_QUEUE, {}, { expireInSeconds: 2 })) ?? '';
      await until('the job failed by pg-boss at its time limit', async () =>
        ['failed', 'completed'].includes((await boss.getJobById(REFRESH_QUEUE, id))?.state ?? ''),
      );
      release();
      await until('the refresh ended', () =>
        lines.some((line) => line.startsWith('Refresh: Read again')),
      );
      expect((await boss.getJobById(REFRESH_QUEUE, id))?.state).toBe('failed');
      expect(await statuses(second)).toEqual(['loaded']);
      expect(lines).toContain(
        'error: Refresh ran past its time limit (2 s): pg-boss records it failed; the work at hand is stopped',
      );
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^Refresh: Cut short \(the job's time limit, 2 s, is near\): 1 file of 2 not read/,
        ),
      );
      expect(await statuses(first)).toEqual(['loaded', 'failed']);
    },
    60_000,
  );
});
