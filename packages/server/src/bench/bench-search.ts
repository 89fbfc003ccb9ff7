/**
 * `npm run bench:search`: latency and throughput of the rate search (`OobRates/getoobrates`) and
 * the code box (`OobRates/GetCodeDescriptionbyMSA`) under concurrent clients on loopback.
 *
 * It keeps an embedded PostgreSQL in --dir (default .data-bench) holding the demo data at --scale
 * (default 306: just over 10 million rates), loaded once and reused by later runs, starts the real
 * server (`packages/server/src/main.ts`, production settings) in its own process, signs in one
 * employer-member account per client, then drives each call with --connections closed-loop
 * clients for --duration seconds after a warm-up, and prints p50/p95/p99, requests per second
 * and errors, with the targets (p95 < 100 ms and < 30 ms, no errors), and the mean size of an
 * answer as sent. With --compressed the clients ask for Brotli or gzip as a browser does and
 * decompress each answer inside the measured time (docs/decisions/0019).
 *   npm run bench:search [-- --scale 305] [--connections 50] [--duration 20] [--dir .data-bench]
 *                        [--compressed] [--profile /tmp/profile]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ROLES } from '@ratelens/core';
import { connect, freePort, insertUser, runMigrations, startEmbeddedPostgres } from '@ratelens/db';
import { loadDemoData } from '@ratelens/ingest';
import { hashPassword } from '../auth/passwords.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '306' },
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    dir: { type: 'string', default: '.data-bench' },
    compressed: { type: 'boolean', default: false },
    /** Write a V8 CPU profile of the server to this folder (open it in Chrome DevTools). */
    profile: { type: 'string' },
  },
});
const scale = Number(values.scale);
const connections = Number(values.connections);
const durationS = Number(values.duration);
const warmupS = Number(values.warmup);
const dir = path.resolve(values.dir);
const PASSWORD = 'Bench-Password-1!';
const ACCEPT_ENCODING: Record<string, string> = values.compressed
  ? { 'accept-encoding': 'br, gzip' }
  : {};
const mainScript = fileURLToPath(new URL('../main.ts', import.meta.url));

function bar(done: number, total: number, label: string): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stdout.write(
    `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`,
  );
  if (done === total) process.stdout.write('\n');
}

async function prepareDatabase() {
  const marker = path.join(dir, 'bench-scale');
  const loaded = existsSync(marker) ? (await readFile(marker, 'utf8')).trim() : null;
  if (loaded !== String(scale)) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
  }
  const postgres = await startEmbeddedPostgres(path.join(dir, 'pg'));
  await runMigrations(postgres.url);
  const connection = connect(postgres.url);
  if (loaded !== String(scale)) {
    console.log(`Loading the demo data at scale ${scale} (once; later runs reuse ${dir})…`);
    const result = await loadDemoData(connection, path.join(dir, 'demo'), {
      scale,
      onHospital: (done, total) => bar(done, total, 'hospitals'),
    });
    await rm(path.join(dir, 'demo'), { recursive: true, force: true });
    console.log(
      `Loaded ${result.rates.toLocaleString('en-US')} rates in ${result.seconds.toFixed(0)} s.`,
    );
    await connection.pool.query('VACUUM ANALYZE');
    await writeFile(marker, String(scale));
  }
  const {
    rows: [count],
  } = await connection.pool.query<{ n: string }>('SELECT count(*) AS n FROM negotiated_rates');
  return { postgres, connection, rates: Number(count?.n ?? 0) };
}

interface Json {
  status: number;
  body: string;
  /** The answer's size as sent, compressed or not. */
  wireBytes: number;
}

function decoded(raw: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return brotliDecompressSync(raw).toString();
  if (encoding === 'gzip') return gunzipSync(raw).toString();
  return raw.toString();
}

const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

function request(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Json> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent,
        headers: {
          ...ACCEPT_ENCODING,
          ...headers,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          try {
            const body = decoded(raw, res.headers['content-encoding']);
            resolve({ status: res.statusCode ?? 0, body, wireBytes: raw.length });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function startServer(databaseUrl: string, port: number): Promise<ChildProcess> {
  const profile = values.profile
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values.profile)}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', mainScript], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ALTCHA_HMAC_KEY: randomBytes(32).toString('hex'),
      DEMO_DATA: 'off',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      // Production refuses the sandbox gateway; the benchmark pays for nothing, so no gateway
      // is ever reached (nothing listens on port 9).
      PAYMENT_GATEWAY: 'authorizenet',
      AUTHORIZENET_URL: 'http://127.0.0.1:9/xml/v1/request.api',
      AUTHORIZENET_API_LOGIN_ID: 'bench',
      AUTHORIZENET_TRANSACTION_KEY: '0123456789abcdef',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    try {
      const health = await request(port, 'GET', '/api/health', {});
      if (health.status === 200) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('the server did not start within 60 s');
}

async function signInClients(connection: ReturnType<typeof connect>, port: number) {
  const run = randomBytes(4).toString('hex');
  const passwordHash = await hashPassword(PASSWORD);
  const emails = Array.from({ length: connections }, (_, i) => `bench-${run}-${i}@example.com`);
  for (const email of emails)
    await insertUser(connection.db, {
      email,
      passwordHash,
      role: ROLES.webUser,
      fullName: 'Bench Client',
      emailConfirmed: true,
    });
  // Members of an employer: searches are unlimited, so every request runs the full search.
  const {
    rows: [org],
  } = await connection.pool.query<{ id: string }>(
    `INSERT INTO organisations (name, account_email) VALUES ('Bench Employer', $1) RETURNING id`,
    [`employer-${run}@example.com`],
  );
  await connection.pool.query(
    `INSERT INTO organisation_members (organisation_id, email) SELECT $1, unnest($2::text[])`,
    [org?.id, emails],
  );
  const sessions: Record<string, string>[] = [];
  for (const email of emails) {
    const response = await request(
      port,
      'POST',
      '/api/Auth/login',
      {},
      { UserName: email, password: PASSWORD },
    );
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.body}`);
    const login = JSON.parse(response.body) as { token: string; secval: string };
    sessions.push({ authorization: `Bearer ${login.token}`, secret_key: login.secval });
  }
  return sessions;
}

interface Scenario {
  name: string;
  target: number;
  next: (i: number) => { method: string; url: string; body?: unknown };
}

async function drive(port: number, sessions: Record<string, string>[], scenario: Scenario) {
  let sent = 0;
  const latencies: number[] = [];
  let errors = 0;
  let wireBytes = 0;
  let firstError = '';
  let recording = false;
  let stop = false;
  const client = async (c: number) => {
    const headers = sessions[c] ?? {};
    while (!stop) {
      const { method, url, body } = scenario.next(sent++);
      const started = performance.now();
      try {
        const response = await request(port, method, url, headers, body);
        if (!recording) continue;
        latencies.push(performance.now() - started);
        wireBytes += response.wireBytes;
        if (response.status !== 200) {
          errors += 1;
          firstError ||= `${response.status} ${response.body.slice(0, 200)}`;
        }
      } catch (error) {
        if (!recording) continue;
        errors += 1;
        firstError ||= String(error);
      }
    }
  };
  const clients = sessions.map((_, c) => client(c));
  await new Promise((r) => setTimeout(r, warmupS * 1000));
  recording = true;
  const started = performance.now();
  await new Promise((r) => setTimeout(r, durationS * 1000));
  stop = true;
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients);
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    errors,
    firstError,
    meanKb: wireBytes / Math.max(1, latencies.length) / 1000,
  };
}

async function main(): Promise<void> {
  const { postgres, connection, rates } = await prepareDatabase();
  const { rows: areas } = await connection.pool.query<{ state: string; cbsa: string }>(
    `SELECT DISTINCT state_code AS state, cbsa_code AS cbsa FROM hospitals WHERE cbsa_code IS NOT NULL ORDER BY 1, 2`,
  );
  const codes = ['99213', '99214', '70551', '80053', '99284', '71046', '85025', '93000'];
  const words = ['992', 'mri', 'blood', '705', 'visit', 'x-ray', 'emergency', '850'];
  const port = await freePort();
  const server = await startServer(postgres.url, port);
  try {
    const sessions = await signInClients(connection, port);
    const scenarios: Scenario[] = [
      {
        name: 'getoobrates',
        target: 100,
        next: (i) => {
          const area = areas[i % areas.length];
          return {
            method: 'POST',
            url: '/api/OobRates/getoobrates',
            body: {
              code: codes[Math.floor(i / areas.length) % codes.length],
              stateCode: area?.state,
              msaID: area?.cbsa,
              paymentMethod: 'OUTPATIENT',
            },
          };
        },
      },
      {
        name: 'GetCodeDescriptionbyMSA',
        target: 30,
        next: (i) => {
          const area = areas[i % areas.length];
          const filter = {
            stateCode: area?.state,
            msaId: area?.cbsa,
            queryText: words[Math.floor(i / areas.length) % words.length],
          };
          return {
            method: 'GET',
            url: `/api/OobRates/GetCodeDescriptionbyMSA?FilterJson=${encodeURIComponent(JSON.stringify(filter))}`,
          };
        },
      },
    ];
    console.log(
      `\n${rates.toLocaleString('en-US')} rates loaded${rates < 10_000_000 ? ' (fewer than the 10 million the target asks for: raise --scale)' : ''}; ` +
        `${areas.length} metro areas; ${connections} clients; ${warmupS} s warm-up, ${durationS} s measured per call; ` +
        `${values.compressed ? 'answers compressed (Accept-Encoding: br, gzip)' : 'answers plain (no Accept-Encoding)'}.\n`,
    );
    for (const scenario of scenarios) {
      const r = await drive(port, sessions, scenario);
      const met = r.p95 < scenario.target && r.errors === 0;
      console.log(
        `${scenario.name.padEnd(24)} p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  ` +
          `${r.rps.toFixed(0)} req/s  ${r.requests} requests  ${r.errors} errors  ${r.meanKb.toFixed(1)} kB/answer  ` +
          `target p95 < ${scenario.target} ms, 0 errors: ${met ? 'met' : 'NOT met'}`,
      );
      if (r.firstError) console.log(`  first error: ${r.firstError}`);
    }
  } finally {
    agent.destroy();
    server.kill('SIGINT');
    await new Promise((r) => server.once('exit', r));
    await connection.pool.end();
    await postgres.stop();
  }
}

await main();
