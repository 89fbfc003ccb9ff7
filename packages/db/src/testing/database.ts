import { randomBytes } from 'node:crypto';
import { connect, withDatabase, type Connection } from '../index.ts';
import pg from 'pg';
import { inject } from 'vitest';

import { TEMPLATE_DATABASE } from './global-setup.ts';

export interface TestDatabase {
  url: string;
  connection: Connection;
  drop: () => Promise<void>;
}

/** A fresh, migrated database of its own for one test file: a copy of the template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject('serverUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  await admin.end();
  const url = withDatabase(serverUrl, name);
  const connection = connect(url, { applicationName: 'ratelens-test' });
  return {
    url,
    connection,
    drop: async () => {
      await connection.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
