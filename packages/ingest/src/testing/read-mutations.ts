/**
 * Reads seeded damaged copies of a file (`mutate`) and checks how each read ends: records that
 * keep the rules, or an MrfReadError. Prints one JSON line: how many variants were read, how many
 * refused, and what went wrong with the others. Its own process, so that a reader caught in a loop
 * is stopped by the caller's timeout instead of hanging the test run.
 * With an entry name, `file` is a zip archive and each damaged copy is read as `copy.zip#entry`.
 * With --small-chunks, each copy is read a second time in chunks of SMALL_CHUNK bytes, which
 * must end the same way: a stream's chunks may end anywhere (see `sameInSmallChunks`). That read
 * takes several times as long.
 *   node --import tsx packages/ingest/src/testing/read-mutations.ts <file> <variants> [entry] [--small-chunks]
 */
import { readFile, rm, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { ChargeRecord } from '../model.ts';
import { MrfReadError, openMrf } from '../read/index.ts';
import { mutate } from './mutate.ts';

/** Chunks small enough that every few bytes of a damaged place fall on a chunk's end. */
export const SMALL_CHUNK = 7;

export interface MutationOutcome {
  read: number;
  refused: number;
  /**
   * "seed 12: …" for every variant that broke a rule, threw something else, or ended otherwise
   * when read in small chunks.
   */
  failures: string[];
}

/**
 * How a read of `source` ends: 'read' with records that keep the rules (brokenRule) and as many
 * as its report counts, 'refused' with an MrfReadError, or else what went wrong.
 */
export async function cleanEnd(source: string): Promise<string> {
  const problems: string[] = [];
  try {
    const reader = await openMrf(source);
    let records = 0;
    for await (const record of reader.records) {
      // A record that continues an earlier one adds rates, not a charge.
      if (record.continues === undefined) records++;
      const broken = brokenRule(record);
      if (broken) problems.push(`${record.location}: ${broken}`);
    }
    const reported = reader.report.recordsRead + reader.report.modifiersRead;
    if (reported !== records) problems.push(`${records} records, report says ${reported}`);
  } catch (error) {
    if (error instanceof MrfReadError) return 'refused';
    problems.push(`threw ${String(error)}`);
  }
  return problems.length === 0 ? 'read' : problems.join('; ');
}

/** How a read ended: its records and the report's rules, or its refusal. */
async function readEnd(source: string, chunkSize?: number): Promise<string> {
  try {
    const reader = await openMrf(source, chunkSize ? { chunkSize } : {});
    const records: string[] = [];
    for await (const r of reader.records)
      records.push(`${r.location} ${r.description} ${r.gross} ${r.payers.length}`);
    const rules = reader.report.rules().map((r) => `${r.rule} ${r.count}`);
    return `read ${records.length}: ${records.join('; ')} | ${rules.join('; ')}`;
  } catch (error) {
    return error instanceof MrfReadError ? `refused ${error.code}` : `threw ${String(error)}`;
  }
}

/** Null when the variant ends the same read whole and in small chunks, else how each ended. */
async function sameInSmallChunks(source: string): Promise<string | null> {
  const [whole, small] = [await readEnd(source), await readEnd(source, SMALL_CHUNK)];
  if (whole === small) return null;
  return `whole: ${whole.slice(0, 300)}; in ${SMALL_CHUNK}-byte chunks: ${small.slice(0, 300)}`;
}

function isAmount(value: number | null): boolean {
  return value === null || Number.isFinite(value);
}

/** What every record that leaves a reader keeps, whatever the file was; null when it does. */
export function brokenRule(record: ChargeRecord): string | null {
  if (record.description.length === 0) return 'no description';
  if (record.codes.length === 0 && record.modifiers.length === 0) return 'no code or modifier';
  if (record.codes.some((c) => c.code.length === 0 || c.type.length === 0)) return 'empty code';
  for (const v of [record.gross, record.discountedCash, record.min, record.max, record.drugUnit]) {
    if (!isAmount(v)) return `amount ${String(v)}`;
  }
  for (const p of record.payers) {
    if (p.payerName.length === 0 || p.planName.length === 0) return 'rate without payer or plan';
    for (const v of [p.dollar, p.percentage, p.estimatedAmount, p.median, p.p10, p.p90]) {
      if (!isAmount(v)) return `rate amount ${String(v)}`;
    }
  }
  return null;
}

export async function readMutations(
  path: string,
  variants: number,
  entry?: string,
  smallChunks = false,
): Promise<MutationOutcome> {
  const original = await readFile(path);
  const dir = await mkdtemp(join(tmpdir(), 'ratelens-mutated-'));
  const outcome: MutationOutcome = { read: 0, refused: 0, failures: [] };
  try {
    for (let seed = 1; seed <= variants; seed++) {
      const file = join(dir, `${seed}-${basename(path)}`);
      await writeFile(file, mutate(original, seed));
      const end = await cleanEnd(entry ? `${file}#${entry}` : file);
      if (end === 'read') outcome.read++;
      else if (end === 'refused') outcome.refused++;
      else outcome.failures.push(`seed ${seed}: ${end}`);
      const chunked = smallChunks && (await sameInSmallChunks(entry ? `${file}#${entry}` : file));
      if (chunked) outcome.failures.push(`seed ${seed}: ${chunked}`);
      await rm(file);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return outcome;
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  const args = process.argv.slice(2);
  const smallChunks = args.includes('--small-chunks');
  const [file, variants, entry] = args.filter((arg) => arg !== '--small-chunks');
  if (!file || !variants) {
    console.error('Usage: read-mutations.ts <file> <variants> [entry] [--small-chunks]');
    process.exit(2);
  }
  console.log(JSON.stringify(await readMutations(file, Number(variants), entry, smallChunks)));
}
