import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.ts';
import { whileTableLocked } from '../test/locks.ts';

let test: TestApp;

const HEADER =
  'State,Metro Area,Hospital,Demo Data,Code Type,Code,Description,Setting,Payer,Plan,Line of Business,Methodology,Negotiated Rate ($),Derived From,Gross Charge ($),Cash Price ($)';
const FILE_ID = '00000000-0000-4000-8000-000000000001';

async function hospital(
  pool: TestApp['database']['connection']['pool'],
  name: string,
  state: string,
  cbsa: string | null,
  isDemo: boolean,
): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO hospitals (source_key, name, state_code, cbsa_code, is_demo) VALUES ($1, $1, $2, $3, $4) RETURNING id`,
    [name, state, cbsa, isDemo],
  );
  return rows[0]?.id ?? '';
}

/** Rates written straight into the tables the ingester fills. */
function seed(): Promise<void> {
  return seedInto(test);
}

async function seedInto(app: TestApp): Promise<void> {
  const pool = app.database.connection.pool;
  await pool.query(
    `INSERT INTO states (code, name, fips) VALUES ('AK', 'Alaska', '02'), ('MA', 'Massachusetts', '25')`,
  );
  await pool.query(`INSERT INTO cbsas (code, title, kind, state_codes) VALUES
    ('11260', 'Anchorage, AK', 'metropolitan', '{AK}'), ('21820', 'Fairbanks-College, AK', 'metropolitan', '{AK}')`);
  const anchorage = await hospital(
    pool,
    'Demo Northern Lights Medical Center',
    'AK',
    '11260',
    true,
  );
  const fairbanks = await hospital(pool, 'Fairbanks Memorial', 'AK', '21820', false);
  const boston = await hospital(pool, 'Boston General', 'MA', null, false);
  await pool.query(
    `INSERT INTO charge_items (hospital_id, item_id, mrf_file_id, description, setting, modifiers, gross, discounted_cash) VALUES
      ($1, 1, $3, 'Office visit, established patient', 'outpatient', '{}', 200.00, 150.00),
      ($1, 2, $3, '=HYPERLINK("x")', 'inpatient', '{}', 30000.00, NULL),
      ($2, 1, $3, 'Boston item', 'outpatient', '{}', 10, 5)`,
    [anchorage, boston, FILE_ID],
  );
  // 450 items at Fairbanks: more than two batches of 200, one rate each.
  await pool.query(
    `INSERT INTO charge_items (hospital_id, item_id, mrf_file_id, description, setting, modifiers, gross)
     SELECT $1, n, $2, 'Bulk item ' || n, 'outpatient', '{}', n FROM generate_series(1, 450) n`,
    [fairbanks, FILE_ID],
  );
  await pool.query(
    `INSERT INTO payers (id, canonical_name) VALUES (1, 'Aetna'), (2, 'Premera'), (3, 'Moda'), (4, 'Boston Payer')`,
  );
  await pool.query(
    `INSERT INTO payer_plans (id, payer_id, payer_name, plan_name, line_of_business) VALUES
      (1, 1, 'Aetna', 'PPO', 'commercial'), (2, 2, 'Premera, Inc.', 'Gold "Plus"', 'commercial'),
      (3, 3, 'Moda', 'HMO', 'commercial'), (4, 4, 'Boston Payer', 'PPO', 'commercial')`,
  );
  await pool.query(
    `INSERT INTO negotiated_rates (hospital_id, rate_id, item_id, plan_id, methodology, dollar, effective_amount, effective_origin)
     SELECT $1, n, n, 3, 'fee schedule', n, n, 'dollar' FROM generate_series(1, 450) n`,
    [fairbanks],
  );
  await pool.query(
    `INSERT INTO item_codes (hospital_id, item_id, code_type, code, category) VALUES
      ($1, 1, 'CPT', '99213', 'professional'), ($1, 2, 'RC', '0360', 'facility'), ($1, 2, 'MS-DRG', '470', 'facility')`,
    [anchorage],
  );
  await pool.query(
    `INSERT INTO negotiated_rates (hospital_id, rate_id, item_id, plan_id, methodology, dollar, percentage, effective_amount, effective_origin) VALUES
      ($1, 1, 1, 1, 'fee schedule', 120.50, NULL, 120.50, 'dollar'),
      ($1, 2, 1, 2, 'percent of total billed charges', NULL, 45, 90.00, 'percentage-of-gross'),
      ($1, 3, 1, 3, 'fee schedule', NULL, 120, NULL, NULL),
      ($2, 1, 1, 4, 'fee schedule', 1, NULL, 1, 'dollar')`,
    [anchorage, boston],
  );
}

beforeAll(async () => {
  test = await createTestApp();
  await seed();
});
afterAll(async () => {
  await test.close();
});

async function download(app = test.app) {
  const response = await app.inject({ method: 'GET', url: '/api/downloads/alaska-rates.csv' });
  const lines = response.body.replace(/^\ufeff/, '').split('\r\n');
  expect(lines.pop()).toBe(''); // every line ends with CRLF
  return { response, lines };
}

describe('GET api/downloads/alaska-rates.csv', () => {
  it('is a CSV download with the product file name', async () => {
    const { response } = await download();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="ratelens-alaska-rates.csv"; filename*=UTF-8''ratelens-alaska-rates.csv`,
    );
  });

  it('starts with the header and lists each Alaska rate with its item, quoting as CSV needs', async () => {
    const { lines } = await download();
    const demo = 'Alaska,"Anchorage, AK",Demo Northern Lights Medical Center,Yes';
    expect(lines.slice(0, 5)).toEqual([
      HEADER,
      `${demo},CPT,99213,"Office visit, established patient",outpatient,Aetna,PPO,commercial,fee schedule,120.50,the negotiated dollar amount,200.00,150.00`,
      `${demo},CPT,99213,"Office visit, established patient",outpatient,"Premera, Inc.","Gold ""Plus""",commercial,percent of total billed charges,90.00,derived from 45% of billed charges,200.00,150.00`,
      // 120% of a fee schedule is not 120% of billed charges, and has no dollar figure.
      `${demo},CPT,99213,"Office visit, established patient",outpatient,Moda,HMO,commercial,fee schedule,,no dollar amount published,200.00,150.00`,
      // No payer rate: one line for the item's own prices; a formula is neutralised.
      `${demo},MS-DRG; RC,470; 0360,"'=HYPERLINK(""x"")",inpatient,,,,,,,30000.00,`,
    ]);
  });

  it('reads every item of a large hospital once, across batches, and nothing outside Alaska', async () => {
    const { lines } = await download();
    const bulk = lines.filter((line) => line.includes(',Fairbanks Memorial,No,'));
    expect(bulk).toHaveLength(450);
    expect(new Set(bulk).size).toBe(450);
    expect(bulk[449]).toContain(',Bulk item 450,');
    expect(lines.some((line) => line.includes('Boston'))).toBe(false);
  });

  it('is built once for visitors who come together', async () => {
    const fresh = await createTestApp();
    try {
      await seedInto(fresh);
      // Three visitors while the rates cannot be read: one build waits, the others wait for it.
      const answers = await whileTableLocked(
        fresh.database.connection.pool,
        'charge_items',
        1,
        () => [download(fresh.app), download(fresh.app), download(fresh.app)],
        async () => undefined,
      );
      expect(answers.map(({ response }) => response.statusCode)).toEqual([200, 200, 200]);
      expect(new Set(answers.map(({ response }) => response.body)).size).toBe(1);
      expect(answers[0]?.lines.length).toBeGreaterThan(450);
    } finally {
      await fresh.close();
    }
  });

  it('reads its rates in one snapshot: a change committed while it is built is not half in it', async () => {
    const fresh = await createTestApp();
    try {
      await seedInto(fresh);
      // The build has read the hospitals and waits for the items; then a new file's items and the
      // hospital's new name are committed. Read statement by statement, the file took the items
      // of the new data under the name of the old.
      const [built] = await whileTableLocked(
        fresh.database.connection.pool,
        'charge_items',
        1,
        () => [download(fresh.app)],
        async (locker) => {
          await locker.query(
            `UPDATE charge_items SET description = 'Swapped in ' || item_id
              WHERE hospital_id = (SELECT id FROM hospitals WHERE name = 'Fairbanks Memorial')`,
          );
          await locker.query(
            `UPDATE hospitals SET name = 'Fairbanks Memorial Hospital' WHERE name = 'Fairbanks Memorial'`,
          );
        },
      );
      const fairbanks = built?.lines.filter((line) => line.includes(',Fairbanks Memorial,')) ?? [];
      expect(fairbanks).toHaveLength(450);
      expect(fairbanks.filter((line) => line.includes('Bulk item'))).toHaveLength(450);
      // The next visitor gets the data as it is now, whole.
      const now = await vi.waitFor(async () => {
        const answer = await download(fresh.app);
        expect(answer.lines.some((line) => line.includes(',Fairbanks Memorial Hospital,'))).toBe(
          true,
        );
        return answer;
      });
      expect(now.lines.filter((line) => line.includes(',Swapped in '))).toHaveLength(450);
    } finally {
      await fresh.close();
    }
  });

  it('is not built again for an ingest run that found its file unchanged', async () => {
    const fresh = await createTestApp();
    try {
      await seedInto(fresh);
      const pool = fresh.database.connection.pool;
      const first = await download(fresh.app);
      const run = (status: string) =>
        pool.query(
          `INSERT INTO mrf_files (source, status, finished_at) VALUES ($1, $2, now() + interval '1 day')`,
          [`https://example.org/${status}.json`, status],
        );
      // Built again, a download would wait for the locked items; served from storage, it does not.
      const locked = async (check: () => Promise<void>) => {
        const blocker = await pool.connect();
        try {
          await blocker.query('BEGIN');
          await blocker.query('LOCK TABLE charge_items IN ACCESS EXCLUSIVE MODE');
          await check();
        } finally {
          await blocker.query('ROLLBACK');
          blocker.release();
        }
      };
      const waitingOnLocks = async () =>
        (
          await pool.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).rows[0]?.waiting;
      await run('unchanged');
      await locked(async () => {
        const same = await download(fresh.app);
        expect(same.response.headers.etag).toBe(first.response.headers.etag);
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(await waitingOnLocks()).toBe(0);
      });
      // A run that read its file may have changed a payer/plan pair that Alaska rates share.
      await run('loaded');
      await locked(async () => {
        const during = await download(fresh.app);
        expect(during.response.headers.etag).toBe(first.response.headers.etag);
        await vi.waitFor(async () => expect(await waitingOnLocks()).toBe(1));
      });
    } finally {
      await fresh.close();
    }
  });

  it('is served from storage without reading the rates again', async () => {
    const first = await download();
    const blocker = await test.database.connection.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE charge_items IN ACCESS EXCLUSIVE MODE');
      const again = await download();
      expect(again.response.statusCode).toBe(200);
      expect(again.response.body).toBe(first.response.body);
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
  });

  it('is built again when a cleaner emptied the temporary folder', async () => {
    const first = await download();
    const ours = (await readdir(tmpdir())).filter((name) =>
      name.startsWith(`ratelens-alaska-${process.pid}-`),
    );
    expect(ours.length).toBeGreaterThan(0);
    for (const name of ours) await rm(path.join(tmpdir(), name), { recursive: true });
    const again = await download();
    expect(again.response.statusCode).toBe(200);
    expect(again.response.body).toBe(first.response.body);
    expect(again.response.headers.etag).toBe(first.response.headers.etag);
  });

  it('answers 304 to a visitor who has this version, and is built anew when a hospital changes', async () => {
    const first = await download();
    const etag = String(first.response.headers.etag);
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.response.headers['cache-control']).toBe('no-cache');
    const same = await test.app.inject({
      method: 'GET',
      url: '/api/downloads/alaska-rates.csv',
      headers: { 'if-none-match': `W/"other", ${etag}` },
    });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');

    const pool = test.database.connection.pool;
    await pool.query(
      `UPDATE hospitals SET name = 'Fairbanks Memorial Hospital' WHERE name = 'Fairbanks Memorial'`,
    );
    try {
      // While the new version is built (its rates cannot be read yet), the one before is served.
      await whileTableLocked(
        pool,
        'charge_items',
        0,
        () => [],
        async () => {
          const during = await download();
          expect(during.response.headers.etag).toBe(etag);
        },
      );
      const changed = await vi.waitFor(async () => {
        const answer = await download();
        expect(answer.response.headers.etag).not.toBe(etag);
        return answer;
      });
      expect(
        changed.lines.filter((line) => line.includes(',Fairbanks Memorial Hospital,No,')),
      ).toHaveLength(450);
      const stale = await test.app.inject({
        method: 'GET',
        url: '/api/downloads/alaska-rates.csv',
        headers: { 'if-none-match': etag },
      });
      expect(stale.statusCode).toBe(200);
    } finally {
      await pool.query(
        `UPDATE hospitals SET name = 'Fairbanks Memorial' WHERE name = 'Fairbanks Memorial Hospital'`,
      );
    }
  });

  it('is the header alone when the database has no Alaska rates', async () => {
    const empty = await createTestApp();
    try {
      const { response, lines } = await download(empty.app);
      expect(response.statusCode).toBe(200);
      expect(lines).toEqual([HEADER]);
    } finally {
      await empty.close();
    }
  });
});
