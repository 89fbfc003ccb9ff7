import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, migrationsFolder, runMigrations, startEmbeddedPostgres } from '@ratelens/db';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from './config.ts';
import { openDatabase } from './database.ts';
import { createTestDatabase } from '@ratelens/db/testing/database';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ratelens-db-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('uses DATABASE_URL when set and starts no embedded server', async () => {
    const target = await createTestDatabase();
    const dataDir = await tempDir();
    const database = await openDatabase(
      parseConfig({ DATABASE_URL: target.url, DATA_DIR: dataDir }),
      () => {},
    );
    try {
      const { rows } = await database.connection.pool.query<{ count: string }>(
        'SELECT count(*) FROM users',
      );
      expect(rows[0]?.count).toBe('0');
      expect(database.description).not.toContain(new URL(target.url).password);
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      await database.close();
      await target.drop();
    }
  });

  it('starts the embedded server in DATA_DIR, and a second start reuses its data', async () => {
    const dataDir = await tempDir();
    const config = parseConfig({ DATA_DIR: dataDir });
    const first = await openDatabase(config, () => {});
    await first.connection.pool.query(
      `INSERT INTO users (email, password_hash, role) VALUES ('kept@example.com', 'x', 'HCL Web User')`,
    );
    await first.close();
    const second = await openDatabase(config, () => {});
    try {
      const { rows } = await second.connection.pool.query<{ email: string }>(
        'SELECT email FROM users',
      );
      expect(rows.map((r) => r.email)).toEqual(['kept@example.com']);
    } finally {
      await second.close();
    }
  });

  it('lets a second process share an embedded server that is already running', async () => {
    const dataDir = await tempDir();
    const running = await startEmbeddedPostgres(dataDir);
    try {
      const other = await startEmbeddedPostgres(dataDir);
      expect(other.url).toBe(running.url);
      await other.stop();
      const connection = connect(running.url);
      expect((await connection.pool.query('SELECT 1 AS one')).rows[0]).toEqual({ one: 1 });
      await connection.close();
    } finally {
      await running.stop();
    }
  });
});

describe('runMigrations', () => {
  it('applies each migration once when several processes start together', async () => {
    const target = await createTestDatabase();
    try {
      await target.connection.pool.query(
        'DROP SCHEMA public CASCADE; CREATE SCHEMA public; DROP SCHEMA IF EXISTS drizzle CASCADE',
      );
      await Promise.all([
        runMigrations(target.url),
        runMigrations(target.url),
        runMigrations(target.url),
      ]);
      const { rows } = await target.connection.pool.query<{ count: string }>(
        'SELECT count(*) FROM drizzle.__drizzle_migrations',
      );
      const files = (await readdir(migrationsFolder)).filter((f) => f.endsWith('.sql'));
      expect(Number(rows[0]?.count)).toBe(files.length);
    } finally {
      await target.drop();
    }
  });
});
