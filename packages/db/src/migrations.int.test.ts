import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { migrationsFolder, runMigrations } from './migrate.ts';
import { withDatabase } from './client.ts';

/** Migrations that move data, run on a database holding rows in the shape before them. */

const serverUrl = inject('serverUrl');
const name = `migrations_${randomBytes(6).toString('hex')}`;
const url = withDatabase(serverUrl, name);
let client: pg.Client;
let folder: string;

/** Migrates an empty database up to and including the migration tagged `tag`. */
async function migrateUpTo(tag: string): Promise<void> {
  folder = await mkdtemp(path.join(tmpdir(), 'ratelens-migrations-'));
  await cp(migrationsFolder, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
    entries: { tag: string }[];
  };
  const last = journal.entries.findIndex((entry) => entry.tag === tag);
  if (last < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  await writeFile(journalPath, JSON.stringify(journal));
  await migrate(drizzle(client), { migrationsFolder: folder });
}

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  client = new pg.Client({ connectionString: url });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await rm(folder, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

describe('0010_payer_plans', () => {
  it('keeps every rate with its payer, plan and line of business, one payer_plans row per pair', async () => {
    await migrateUpTo('0009_hospital_classification');
    await client.query(
      `INSERT INTO payers (id, canonical_name) VALUES (1, 'Aetna'), (2, 'Medicare')`,
    );
    const hospitals = [
      '11111111-1111-4111-8111-111111111111',
      '22222222-2222-4222-8222-222222222222',
    ];
    // Two hospitals (rows in the DEFAULT partition, as written without an ingest), sharing a pair.
    await client.query(
      `INSERT INTO negotiated_rates (hospital_id, rate_id, item_id, payer_id, payer_name, plan_name, line_of_business, dollar, effective_amount, effective_origin) VALUES
        ($1, 1, 1, 1, 'Aetna', 'PPO', 'commercial', 10, 10, 'dollar'),
        ($1, 2, 1, 2, 'MEDICARE [2001]', 'HB MVH MEDICARE', 'other', 20, 20, 'dollar'),
        ($1, 3, 2, 1, 'Aetna', 'PPO', 'commercial', 30, 30, 'dollar'),
        ($2, 1, 1, 1, 'Aetna', 'PPO', 'commercial', 40, 40, 'dollar')`,
      hospitals,
    );

    await runMigrations(url);

    const { rows } = await client.query<unknown[]>({
      text: `SELECT r.hospital_id, r.rate_id, r.item_id, pp.payer_id, pp.payer_name, pp.plan_name, pp.line_of_business, r.dollar
               FROM negotiated_rates r JOIN payer_plans pp ON pp.id = r.plan_id
              ORDER BY r.hospital_id, r.rate_id`,
      rowMode: 'array',
    });
    expect(rows).toEqual([
      [hospitals[0], 1, 1, 1, 'Aetna', 'PPO', 'commercial', '10'],
      [hospitals[0], 2, 1, 2, 'MEDICARE [2001]', 'HB MVH MEDICARE', 'other', '20'],
      [hospitals[0], 3, 2, 1, 'Aetna', 'PPO', 'commercial', '30'],
      [hospitals[1], 1, 1, 1, 'Aetna', 'PPO', 'commercial', '40'],
    ]);
    const { rows: plans } = await client.query('SELECT count(*)::int AS n FROM payer_plans');
    expect(plans[0]).toEqual({ n: 2 });
    // The old columns are gone and the key is (hospital, item, rate): a second rate 3 of item 2 is refused.
    await expect(
      client.query(
        `INSERT INTO negotiated_rates (hospital_id, rate_id, item_id, plan_id) VALUES ($1, 3, 2, 1)`,
        [hospitals[0]],
      ),
    ).rejects.toThrow(/duplicate key/);
    const { rows: columns } = await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'negotiated_rates' AND column_name LIKE '%name%'`,
    );
    expect(columns).toEqual([]);
  });
});
