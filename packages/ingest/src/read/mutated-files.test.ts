import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedDataFile } from '../testing/shared-data.ts';
import { cleanEnd, SMALL_CHUNK, type MutationOutcome } from '../testing/read-mutations.ts';
import { OBJECT_NAMES } from '../testing/mutate.ts';
import { zipArchive } from '../testing/zip-archive.ts';

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

/**
 * Runs the damaged reads of `path` (as `copy#entry` when an entry is named) in a child process;
 * with `smallChunks`, each read again in chunks of SMALL_CHUNK bytes, which must end the same way.
 */
function expectCleanEnds(path: string, entry?: string, smallChunks = false): void {
  const args = [
    SCRIPT,
    path,
    String(VARIANTS_PER_FILE),
    ...(entry ? [entry] : []),
    ...(smallChunks ? ['--small-chunks'] : []),
  ];
  const limit = smallChunks ? 150_000 : 60_000;
  const child = spawnSync(process.execPath, ['--import', 'tsx', ...args], {
    encoding: 'utf8',
    timeout: limit,
  });
  expect(child.signal, `the reads did not finish within ${limit / 1000} s`).toBeNull();
  expect(child.stderr).toBe('');
  const outcome = JSON.parse(child.stdout) as MutationOutcome;
  expect(outcome.failures).toEqual([]);
  // The edits are neither all harmless nor all fatal.
  expect(outcome.read).toBeGreaterThan(0);
  expect(outcome.refused).toBeGreaterThan(0);
  expect(outcome.read + outcome.refused).toBe(VARIANTS_PER_FILE);
}

describe('damaged copies of the CMS examples', () => {
  for (const name of EXAMPLES) {
    const path = sharedDataFile(`cms-hpt-examples/${name}`);
    it.skipIf(!path)(
      `${name}: ${VARIANTS_PER_FILE} variants, each read ends cleanly`,
      () => expectCleanEnds(path as string),
      70_000,
    );
  }

  // A stream's chunks may end anywhere: the JSON reader's look-ahead (where a broken item ends)
  // once lost a comma read in an earlier chunk, and read on forever.
  for (const name of EXAMPLES.filter((example) => example.endsWith('.json'))) {
    const path = sharedDataFile(`cms-hpt-examples/${name}`);
    it.skipIf(!path)(
      `${name}: ${VARIANTS_PER_FILE} variants end the same read in ${SMALL_CHUNK}-byte chunks`,
      () => expectCleanEnds(path as string, undefined, true),
      160_000,
    );
  }

  const tall = sharedDataFile('cms-hpt-examples/V3.0.0_Tall_CSV_Format_Example.csv');
  it.skipIf(!tall)(
    `a zip64 archive of two files, its second read by name: ${VARIANTS_PER_FILE} variants`,
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'ratelens-mutated-zip-'));
      try {
        const content = await readFile(tall as string);
        const archive = join(dir, 'two.zip');
        await writeFile(
          archive,
          zipArchive(
            [
              { name: 'a.csv', content, descriptor: true },
              { name: 'b.csv', content, method: 0 },
            ],
            { zip64: true },
          ),
        );
        expectCleanEnds(archive, 'b.csv');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    70_000,
  );
});

/**
 * The places of a file where a reader looks a name up: a CSV's first three rows (the header's
 * names, its values, the column names), each word of them; a JSON file's keys, the first time
 * each is written. As [start, end] byte offsets.
 */
function namePlaces(text: string, json: boolean): [number, number][] {
  if (json) {
    const seen = new Set<string>();
    return [...text.matchAll(/"(\w+)"\s*:/g)].flatMap((m) => {
      if (seen.has(m[1] as string)) return [];
      seen.add(m[1] as string);
      const start = (m.index ?? 0) + 1;
      return [[start, start + (m[1] as string).length] as [number, number]];
    });
  }
  const headerEnd = text.split('\n', 3).join('\n').length;
  return [...text.slice(0, headerEnd).matchAll(/[A-Za-z_]\w*/g)].map((m) => [
    m.index ?? 0,
    (m.index ?? 0) + m[0].length,
  ]);
}

/** Each read of `name`'s copy with a name (namePlaces) replaced by each of OBJECT_NAMES. */
async function expectNamesReadCleanly(name: string, text: string): Promise<void> {
  const places = namePlaces(text, name.endsWith('.json'));
  const dir = await mkdtemp(join(tmpdir(), 'ratelens-object-names-'));
  const failures: string[] = [];
  try {
    for (const [start, end] of places)
      for (const word of OBJECT_NAMES) {
        const file = join(dir, name);
        await writeFile(file, text.slice(0, start) + word + text.slice(end), 'latin1');
        const outcome = await cleanEnd(file);
        if (outcome !== 'read' && outcome !== 'refused')
          failures.push(`"${text.slice(start, end)}" as ${word}: ${outcome}`);
      }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  expect(places.length).toBeGreaterThan(10);
  expect(failures).toEqual([]);
}

describe('every name of the CMS examples replaced, in turn, by one every object has', () => {
  for (const name of EXAMPLES) {
    const path = sharedDataFile(`cms-hpt-examples/${name}`);
    it.skipIf(!path)(
      `${name}: each read ends cleanly`,
      async () => expectNamesReadCleanly(name, await readFile(path as string, 'latin1')),
      60_000,
    );
  }
});

/**
 * The real files, whose shapes no example has: AdventHealth's excerpt (its first items, whole),
 * and Martha's Vineyard's first 400 lines. Damaged as the examples are, and their names replaced.
 */
describe("the real files' beginnings, damaged", () => {
  const REAL = [
    {
      name: 'adventhealth-excerpt.json',
      path: sharedDataFile(
        'mrf-real-json-adventhealth-orlando/adventhealth-orlando_standardcharges_v3.0.0_excerpt.json',
      ),
      lines: Infinity,
    },
    {
      name: 'marthas-vineyard-head.csv',
      path: sharedDataFile(
        'mrf-real-csv-tall-marthas-vineyard/042104691_Marthas-Vineyard-Hospital_StandardCharges.csv',
      ),
      lines: 400,
    },
  ];
  for (const { name, path, lines } of REAL) {
    const head = async () =>
      (await readFile(path as string, 'latin1')).split('\n').slice(0, lines).join('\n');
    it.skipIf(!path)(
      `${name}: ${VARIANTS_PER_FILE} variants, each read ends cleanly`,
      async () => {
        const dir = await mkdtemp(join(tmpdir(), 'ratelens-mutated-real-'));
        try {
          const copy = join(dir, name);
          await writeFile(copy, await head(), 'latin1');
          expectCleanEnds(copy);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
      120_000,
    );
    it.skipIf(!path)(
      `${name}: each name replaced by one every object has, each read ends cleanly`,
      async () => expectNamesReadCleanly(name, await head()),
      120_000,
    );
  }
});
