import { existsSync } from 'node:fs';
import { it } from 'vitest';
import { sharedDataPath } from './shared-data.ts';

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
      throw new Error(`Shared data file missing (required in CI): ${path}`);
    });
  } else {
    console.warn(`Skipping "${name}": shared data file not found: ${path}`);
    it.skip(name, () => undefined);
  }
}
