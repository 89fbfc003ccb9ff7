/**
 * Parses seeded damaged copies of a reference file (`mutate`) and checks how each parse ends: a
 * result, or a ReferenceFileError that names the file. Prints one JSON line: how many variants were
 * parsed, how many refused, and what went wrong with the others. Its own process, so that a parser
 * caught in a loop is stopped by the caller's timeout instead of hanging the test run.
 *   node --import tsx packages/ingest/src/testing/reference-mutations.ts <kind> <file> <variants>
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  parseCbsaDelineation,
  parseGpciFile,
  parseHcpcsLevel2,
  parseLocalityCounties,
  parseNadac,
  parseOppsCapFile,
  parseRvuFile,
  parseZipLocality,
  ReferenceFileError,
} from '../reference/index.ts';
import { mutate } from './mutate.ts';

export const REFERENCE_PARSERS = {
  cbsa: parseCbsaDelineation,
  hcpcs: parseHcpcsLevel2,
  rvu: parseRvuFile,
  gpci: parseGpciFile,
  'locality-counties': parseLocalityCounties,
  'opps-cap': parseOppsCapFile,
  'zip-locality': parseZipLocality,
  nadac: parseNadac,
} satisfies Record<string, (source: string) => Promise<unknown>>;

export type ReferenceKind = keyof typeof REFERENCE_PARSERS;

export interface ReferenceMutationOutcome {
  parsed: number;
  refused: number;
  /** "seed 12: …" for every variant that threw something else or a message without the file. */
  failures: string[];
}

export async function parseMutations(
  kind: ReferenceKind,
  path: string,
  variants: number,
): Promise<ReferenceMutationOutcome> {
  const parse = REFERENCE_PARSERS[kind];
  const original = await readFile(path);
  const dir = await mkdtemp(join(tmpdir(), 'ratelens-mutated-reference-'));
  const outcome: ReferenceMutationOutcome = { parsed: 0, refused: 0, failures: [] };
  try {
    for (let seed = 1; seed <= variants; seed++) {
      const name = `${seed}-${basename(path)}`;
      const file = join(dir, name);
      await writeFile(file, mutate(original, seed));
      try {
        await parse(file);
        outcome.parsed++;
      } catch (error) {
        if (!(error instanceof ReferenceFileError)) {
          outcome.failures.push(`seed ${seed}: threw ${String(error)}`);
        } else if (!error.message.startsWith(`${name}: expected `)) {
          outcome.failures.push(
            `seed ${seed}: the message does not name the file: ${error.message}`,
          );
        } else outcome.refused++;
      }
      await rm(file);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return outcome;
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  const [kind, file, variants] = process.argv.slice(2);
  if (!kind || !(kind in REFERENCE_PARSERS) || !file || !variants) {
    console.error(
      `Usage: reference-mutations.ts <${Object.keys(REFERENCE_PARSERS).join('|')}> <file> <variants>`,
    );
    process.exit(2);
  }
  console.log(JSON.stringify(await parseMutations(kind as ReferenceKind, file, Number(variants))));
}
