import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: four levels above packages/ingest/src/read. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Absolute path of a file in the shared data folder (../shared/data from the repository root). */
export function sharedDataPath(relativePath: string): string {
  return join(REPO_ROOT, '..', 'shared', 'data', relativePath);
}

/**
 * A shared data file for a test, or null when the test must skip. The data is never copied into
 * the repository: in CI (CI=true) a missing file is a failure; elsewhere the test skips with a
 * printed notice naming the file.
 */
export function sharedDataFile(relativePath: string): string | null {
  const path = sharedDataPath(relativePath);
  if (existsSync(path)) return path;
  if (process.env.CI === 'true') {
    throw new Error(`Shared test data is missing in CI: ${path}`);
  }
  console.warn(`[skipped] shared test data not found: ${path}`);
  return null;
}
