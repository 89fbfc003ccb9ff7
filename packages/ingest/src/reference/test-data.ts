import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { it } from 'vitest';

/**
 * Tests on the shared real data (../shared/data from the project root, or SHARED_DATA_DIR):
 * a missing file fails in CI (CI=true) and skips elsewhere with a notice naming it, as
 * shared/data/README.md asks. The files are never copied into the repository.
 */
export const SHARED_DATA_DIR =
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../../shared/data');

export function sharedDataPath(relativePath: string): string {
  return resolve(SHARED_DATA_DIR, relativePath);
}

/** `it(name, fn)` given the absolute path of `relativePath`, or a skip / failure when it is missing. */
export function itWithDataFile(
  name: string,
  relativePath: string,
  fn: (path: string) => unknown,
  timeout?: number,
): void {
  const path = sharedDataPath(relativePath);
  if (existsSync(path)) {
    it(name, () => fn(path), timeout);
  } else if (process.env.CI === 'true') {
    it(name, () => {
      throw new Error(`Missing test data file ${path} (required in CI)`);
    });
  } else {
    console.warn(`Skipping "${name}": test data file ${path} not found`);
    it.skip(name, () => undefined);
  }
}
