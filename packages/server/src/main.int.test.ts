import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { afterAll, describe, expect, it } from 'vitest';

const opened: TestDatabase[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const database of opened) await database.drop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function emptyDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  opened.push(database);
  return database;
}

/**
 * Runs the server as `npm start` does after its build, on `database`, until it says it is running;
 * then stops it with SIGINT. Resolves with what it printed and its exit code.
 */
async function startAndStop(
  database: TestDatabase,
  demoData: 'on' | 'off',
): Promise<{ printed: string; code: number | null }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ratelens-start-'));
  dirs.push(dataDir);
  return new Promise((resolve, reject) => {
    const server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        DEMO_DATA: demoData,
        PORT: '0',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    let stopping = false;
    const collect = (chunk: Buffer) => {
      printed += chunk.toString();
      // Once: the first SIGINT stops the server, which ignores any later one (stop-signals.ts).
      if (!stopping && printed.includes('RateLens is running at')) {
        stopping = true;
        server.kill('SIGINT');
      }
    };
    server.stdout.on('data', collect);
    server.stderr.on('data', collect);
    server.on('error', reject);
    server.on('close', (code) => resolve({ printed, code }));
  });
}

const count = async (database: TestDatabase, sql: string) =>
  Number(
    (await database.connection.pool.query<{ n: string }>(`SELECT (${sql})::text AS n`)).rows[0]?.n,
  );

const LOADED =
  /Loaded demo data: (\d+) fictional hospitals in (\d+) states, ([\d,]+) rates, in \d+\.\d s\. Set DEMO_DATA=off to start empty\./;

describe('npm start', () => {
  it('on an empty database loads the demo data and says what it loaded, once', async () => {
    const database = await emptyDatabase();
    const first = await startAndStop(database, 'on');
    expect(first.code, first.printed).toBe(0);
    expect(first.printed).toContain(
      'The database has no hospitals yet: loading the demo data (fictional hospitals)…',
    );
    const said = LOADED.exec(first.printed);
    expect(said, first.printed).not.toBeNull();
    const [hospitals, states, rates] = (said ?? [])
      .slice(1)
      .map((n) => Number(n.replace(/,/g, '')));
    // The figures it prints are what the database holds.
    expect(hospitals).toBe(await count(database, 'SELECT count(*) FROM hospitals'));
    expect(states).toBe(await count(database, 'SELECT count(DISTINCT state_code) FROM hospitals'));
    // Rates of charges: a modifier's record (no code) and its payer entries are no rates.
    expect(rates).toBe(
      await count(
        database,
        `SELECT count(*) FROM negotiated_rates r
          WHERE EXISTS (SELECT 1 FROM item_codes c
                         WHERE c.hospital_id = r.hospital_id AND c.item_id = r.item_id)`,
      ),
    );
    expect(states).toBeGreaterThanOrEqual(6);
    expect(first.printed).toContain('RateLens stopped; the database is shut down cleanly.');

    // The database has hospitals now: a second start loads nothing.
    const second = await startAndStop(database, 'on');
    expect(second.code, second.printed).toBe(0);
    expect(second.printed).not.toContain('demo data');
    expect(await count(database, 'SELECT count(*) FROM hospitals')).toBe(hospitals);
  }, 120_000);

  it('with DEMO_DATA=off starts with no hospital, and with the states for its filters', async () => {
    const database = await emptyDatabase();
    expect(await count(database, 'SELECT count(*) FROM states')).toBe(0);
    const run = await startAndStop(database, 'off');
    expect(run.code, run.printed).toBe(0);
    expect(run.printed).not.toContain('demo data');
    expect(run.printed).toContain('RateLens is running at http://localhost:');
    expect(await count(database, 'SELECT count(*) FROM hospitals')).toBe(0);
    // The background worker runs in the server by default, with the daily refresh, the hourly
    // renewals and its other jobs scheduled.
    expect(run.printed).toContain(
      'Background worker: on; hospital files are read again on the schedule "30 4 * * *" (cron, UTC); subscriptions are renewed on the schedule "0 * * * *"; expired reports are deleted every hour at 20 past; ingests cut off when their process stopped are recorded as failed every ten minutes; runs that found a file unchanged again are deleted after 90 days (RUN_RETENTION_DAYS) and sent outbox messages after 30 (OUTBOX_RETENTION_DAYS), every day at 03:00 UTC.',
    );
    expect(
      await count(database, `SELECT count(*) FROM pgboss.schedule WHERE cron = '30 4 * * *'`),
    ).toBe(1);
    expect(
      await count(
        database,
        `SELECT count(*) FROM pgboss.schedule WHERE name = 'renewals' AND cron = '0 * * * *'`,
      ),
    ).toBe(1);
    // The 50 states, DC and Puerto Rico: before, only demo data or `npm run reference` put them
    // there, and with neither, master/getallstates answered [] and the state filters were empty.
    expect(await count(database, 'SELECT count(*) FROM states')).toBe(52);
  }, 60_000);
});
