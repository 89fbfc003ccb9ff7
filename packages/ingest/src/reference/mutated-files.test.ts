import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedDataFile } from '../testing/shared-data.ts';
import type { ReferenceKind, ReferenceMutationOutcome } from '../testing/reference-mutations.ts';

/**
 * Reference files are loaded whole or not at all (a table of CBSAs or GPCIs with a row missing
 * would misplace hospitals or misprice Medicare), so damage must end in a ReferenceFileError that
 * names the file and what was expected where, never another exception or a loop. Each published
 * file is parsed again after a few seeded random edits, in a child process with a time limit.
 */
const FILES: [ReferenceKind, string][] = [
  ['cbsa', 'census-cbsa/list1_2023.xlsx'],
  ['cbsa', 'census-cbsa/list1_2023_county_to_cbsa.csv'],
  ['hcpcs', 'hcpcs-level2/hcpcs_level2_2025oct_codes.csv'],
  ['rvu', 'cms-pfs-rvu-2025/PPRRVU2025_Oct.csv'],
  ['gpci', 'cms-pfs-rvu-2025/GPCI2025.csv'],
  ['locality-counties', 'cms-pfs-rvu-2025/25LOCCO.csv'],
  ['opps-cap', 'cms-pfs-rvu-2025/OPPSCAP_Oct.csv'],
  ['zip-locality', 'cms-zip-locality/ZIP5_OCT2025.txt'],
];
const VARIANTS_PER_FILE = 25;
const SCRIPT = fileURLToPath(new URL('../testing/reference-mutations.ts', import.meta.url));

describe('damaged copies of the reference files', () => {
  for (const [kind, name] of FILES) {
    const path = sharedDataFile(name);
    it.skipIf(!path)(
      `${name}: ${VARIANTS_PER_FILE} variants, each parse ends with a result or a clear refusal`,
      () => {
        const child = spawnSync(
          process.execPath,
          ['--import', 'tsx', SCRIPT, kind, path as string, String(VARIANTS_PER_FILE)],
          { encoding: 'utf8', timeout: 60_000 },
        );
        expect(child.signal, 'the parses did not finish within 60 s').toBeNull();
        expect(child.stderr).toBe('');
        const outcome = JSON.parse(child.stdout) as ReferenceMutationOutcome;
        expect(outcome.failures).toEqual([]);
        expect(outcome.refused).toBeGreaterThan(0);
        expect(outcome.parsed + outcome.refused).toBe(VARIANTS_PER_FILE);
      },
      70_000,
    );
  }
});
