import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared reference and test data (../shared/data beside the repository, or SHARED_DATA_DIR).
 * It is never copied into the repository. A test that needs a file fails in CI (CI=true) when the
 * file is missing, and elsewhere skips with a printed notice naming it (shared/data/README.md).
 */
export const SHARED_DATA_DIR =
  process.env.SHARED_DATA_DIR ??
  fileURLToPath(new URL('../../../../../shared/data/', import.meta.url));

export function sharedDataPath(relativePath: string, dataDir: string = SHARED_DATA_DIR): string {
  return join(dataDir, relativePath);
}

/** The absolute path of a shared data file, or null (with a printed notice) when it is absent outside CI. */
export function sharedDataFile(
  relativePath: string,
  env: NodeJS.ProcessEnv = process.env,
  dataDir: string = SHARED_DATA_DIR,
): string | null {
  const path = sharedDataPath(relativePath, dataDir);
  if (existsSync(path)) return path;
  if (env.CI === 'true') throw new Error(`Shared data file missing (required in CI): ${path}`);
  console.warn(`Skipping: shared data file not found: ${path}`);
  return null;
}
