import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

export const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

/** Arbitrary constant shared by every RateLens process: "RATELENS" as a 64-bit number would do too. */
const MIGRATION_LOCK_ID = 7_352_001;

/**
 * Applies the committed migrations. Several servers may start at once against one database, so
 * the work is serialised by a session-level advisory lock held on the connection that migrates.
 */
export async function runMigrations(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, application_name: 'ratelens-migrate' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migrate(drizzle(client), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await client.end();
  }
}
