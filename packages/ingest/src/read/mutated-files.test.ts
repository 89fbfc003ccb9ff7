import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedDataFile } from '../testing/shared-data.ts';
import type { MutationOutcome } from '../testing/read-mutations.ts';

/**
 * Files from the wild are damaged in ways no list of cases foresees. Each CMS example is read
 * again after a few seeded random edits (a byte changed, a span cut, doubled or inserted, the
 * file cut short): every read must end, with records that keep the rules or with an
 * MrfReadError; never another exception, a NaN amount, a record a rule should have kept out, or
 * a loop (the reads run in a child process with a time limit: two such loops were found so).
 */
const EXAMPLES = [
  'V2.0.0_JSON_Format_Example.json',
  'V2.0.0_Tall_CSV_Format_Example.csv',
  'V2.0.0_Wide_CSV_Format_Example.csv',
  'v3_json_format_example.json',
  'V3.0.0_Tall_CSV_Format_Example.csv',
  'V3.0.0_Wide_CSV_Format_Example.csv',
];
const VARIANTS_PER_FILE = 200;
const SCRIPT = fileURLToPath(new URL('../testing/read-mutations.ts', import.meta.url));

describe('damaged copies of the CMS examples', () => {
  for (const name of EXAMPLES) {
    const path = sharedDataFile(`cms-hpt-examples/${name}`);
    it.skipIf(!path)(
      `${name}: ${VARIANTS_PER_FILE} variants, each read ends cleanly`,
      () => {
        const child = spawnSync(
          process.execPath,
          ['--import', 'tsx', SCRIPT, path as string, String(VARIANTS_PER_FILE)],
          { encoding: 'utf8', timeout: 60_000 },
        );
        expect(child.signal, 'the reads did not finish within 60 s').toBeNull();
        expect(child.stderr).toBe('');
        const outcome = JSON.parse(child.stdout) as MutationOutcome;
        expect(outcome.failures).toEqual([]);
        // The edits are neither all harmless nor all fatal.
        expect(outcome.read).toBeGreaterThan(0);
        expect(outcome.refused).toBeGreaterThan(0);
        expect(outcome.read + outcome.refused).toBe(VARIANTS_PER_FILE);
      },
      70_000,
    );
  }
});
