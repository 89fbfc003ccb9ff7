import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateCsv, validateJson } from '@cmsgov/hpt-validator';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { CMS_AFFIRMATION, CMS_ATTESTATION } from '../read/header.ts';
import { MrfReadError, openMrf } from '../read/index.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';

/**
 * CMS's own validator (@cmsgov/hpt-validator, the one `npm run bench:ingest` races) beside ours, on
 * the CMS v2.0.0 and v3 examples, and on 2.1.0 and 2.2.0 files made from them (CMS publishes no
 * example of either), with one value changed at a time: left out, emptied, null, a
 * negative number, or a word that is no CMS value. Wherever CMS's validator finds an error the
 * unchanged example did not have, ours must say something too: refuse the file, or report a rule
 * more often than for the unchanged example (an error, or a warning saying how the value was
 * read). Ours may read more than CMS's accepts, as the issue asks, but never in silence. Before
 * session 41 ours said nothing in 33 of these changes to each JSON example and 44 to 98 to each
 * CSV example: a code's type without its code, a code entry that is no object, a null or ""
 * anywhere, the attestation's statement, a count on a modifier's row, percentiles beside no rate.
 * The JSON examples' values are changed once per place in the schema (the first item's code, not
 * every item's), to keep the test quick; changing every value of the v3 example (about a minute)
 * found one more, an empty list, also said since.
 * The other way round, on every file but the v2.0.0 examples: where CMS's validator finds no new
 * error, ours must not reject more than the unchanged example, but for what rejectedAsMeant
 * names. It found a wide payer's notes on a row where that payer had no rate rejected as a rate
 * (session 41); a modifier's row without a setting, a drug's unit written as text, and a rate
 * rejected for an estimated or allowed amount it could not read (session 42).
 */
const EXAMPLES = 'cms-hpt-examples';
/** Of the changes to each example, at least this many break CMS's rules (154 to 2,048, session 41). */
const BROKEN_AT_LEAST = 20;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ratelens-agreement-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What our reader made of a file: each rule's count and what it rejected, or how it refused it. */
type OurReading = { rules: Map<string, number>; rejected: number } | string;

async function ourReading(path: string): Promise<OurReading> {
  try {
    const reader = await openMrf(path);
    for await (const record of reader.records) void record;
    const rules = new Map(reader.report.rules().map((r) => [r.rule, r.count]));
    return { rules, rejected: reader.report.rejected() };
  } catch (error) {
    if (error instanceof MrfReadError) return `refused (${error.code})`;
    throw error;
  }
}

/** The rules ours reported more often for the changed file than for the example. */
function moreOften(changed: OurReading, example: OurReading): string[] {
  if (typeof changed === 'string' || typeof example === 'string') return [];
  return [...changed.rules]
    .filter(([rule, count]) => count > (example.rules.get(rule) ?? 0))
    .map(([rule]) => rule);
}

/** Whether ours said more of the changed file than of the example: a refusal, or a rule more often. */
function saysMore(changed: OurReading, example: OurReading): boolean {
  return typeof changed === 'string' || moreOften(changed, example).length > 0;
}

/**
 * Why ours may reject what CMS's validator lets pass. It refuses a file of a version
 * it does not know (issue 3 asks it to; CMS's validator is told the version). And it rejects what
 * holds no price it could show: a rate naming no payer, and a rate with no dollar amount,
 * percentage or algorithm where CMS's validator does not ask one (`noValueMeant`: all but the
 * 3.0.0 JSON schema and tall CSV rules, where it finds the error as well; a modifier's rate
 * priced by its notes alone is no such rate). Since session 42 a modifier's row with no setting
 * is read, as CMS's validator reads it; since session 43 one whose setting is no CMS value is
 * read too, for every setting, and said (CMS's CSV validator does not check it; its JSON schema
 * does). Anything else rejected that CMS's validator accepts would be rates lost for a rule CMS
 * does not have. (Not asked of the v2.0.0 examples: they carry modifiers, which no schema before
 * 2.2.0 defines and CMS's 2.0.0 validator passes over, while ours reads them. The 2.1.0 files
 * made from them, without those, ask it.) Until the audit of the rules a rate with no value was
 * allowed in every file, which hid that a modifier's rate priced by its notes alone was rejected.
 */
function rejectedAsMeant(changed: OurReading, example: OurReading, noValueMeant: boolean): boolean {
  if (changed === 'refused (unknown-version)') return true;
  const meant = noValueMeant
    ? ['required.negotiated-value', 'required.payer_name']
    : ['required.payer_name'];
  const rules = moreOften(changed, example);
  return rules.length > 0 && rules.every((rule) => meant.includes(rule));
}

/** Whether ours rejected more of the changed file than of the example, or refused it. */
function rejectsMore(changed: OurReading, example: OurReading): boolean {
  if (typeof changed === 'string') return true;
  return typeof example !== 'string' && changed.rejected > example.rejected;
}

/** The errors CMS's validator finds in a changed file that it did not find in the example. */
function newErrors<T>(errors: T[], example: T[]): T[] {
  const known = new Set(example.map((e) => JSON.stringify(e)));
  return errors.filter((e) => !known.has(JSON.stringify(e)));
}

type Json = null | string | number | boolean | Json[] | { [key: string]: Json };

/**
 * The path of every value in the document, one per shape (the first item's `code`, not every
 * item's): `["standard_charge_information", 0, "code_information", 0, "code"]`.
 */
function valuePaths(value: Json, path: (string | number)[] = [], seen = new Set<string>()) {
  const paths: (string | number)[][] = [];
  const shape = path.map((step) => (typeof step === 'number' ? '#' : step)).join('.');
  if (Array.isArray(value))
    value.forEach((v, i) => paths.push(...valuePaths(v, [...path, i], seen)));
  else if (value !== null && typeof value === 'object')
    for (const [key, v] of Object.entries(value))
      paths.push(...valuePaths(v, [...path, key], seen));
  if (path.length > 0 && !seen.has(shape)) {
    seen.add(shape);
    paths.push(path);
  }
  return paths;
}

const JSON_CHANGES: [string, Json | undefined][] = [
  ['left out', undefined],
  ['""', ''],
  ['null', null],
  ['-5', -5],
  ['"bogus value"', 'bogus value'],
  // A valid number, and values of the wrong shape (session 43: each found a case).
  ['0.001', 0.001],
  ['[]', []],
  ['{}', {}],
];

/** What CMS's validator finds in a file: its errors. */
type CmsValidate = (path: string) => Promise<{ message: string }[]>;

/** Where ours and CMS's validator parted, over every changed copy of one example. */
interface Comparison {
  /** Changes CMS's validator called a new error and ours read without a word. */
  unsaid: string[];
  /** Changes CMS's validator let pass and ours rejected more for (not v2.0.0; see rejectedAsMeant). */
  lost: string[];
  /** How many changes CMS's validator called a new error. */
  broken: number;
}

/**
 * Reads the example and each changed copy (`[where, content]`) with CMS's validator and ours,
 * each copy written to one file in turn; `bothWays` asks the reverse question too, and
 * `noValueMeant` says whether a rate with no value may be rejected there (see rejectedAsMeant).
 */
async function compare(
  example: string,
  cmsErrors: CmsValidate,
  { bothWays, noValueMeant }: { bothWays: boolean; noValueMeant: boolean },
  changes: Iterable<[where: string, content: string]>,
): Promise<Comparison> {
  const before = await ourReading(example);
  if (typeof before === 'string') throw new Error(`the example itself was ${before}`);
  // CMS's own v2.0.0 CSV examples break its validator's rule for codes on their modifier rows.
  const cmsBefore = await cmsErrors(example);
  const file = join(dir, `changed${example.slice(example.lastIndexOf('.'))}`);
  const result: Comparison = { unsaid: [], lost: [], broken: 0 };
  for (const [where, content] of changes) {
    await writeFile(file, content);
    const cms = newErrors(await cmsErrors(file), cmsBefore);
    const ours = await ourReading(file);
    if (cms.length > 0) {
      result.broken++;
      if (!saysMore(ours, before)) result.unsaid.push(`${where}: CMS says ${cms[0]?.message}`);
    } else if (
      bothWays &&
      rejectsMore(ours, before) &&
      !rejectedAsMeant(ours, before, noValueMeant)
    ) {
      result.lost.push(`${where}: ours rejected (${moreOften(ours, before).join(', ')})`);
    }
  }
  return result;
}

function expectAgreement({ unsaid, lost, broken }: Comparison): void {
  expect(unsaid).toEqual([]);
  // And nothing CMS's validator lets pass is rejected, but what rejectedAsMeant allows.
  expect(lost).toEqual([]);
  // The changes broke CMS's rules often enough for the comparison to mean something.
  expect(broken).toBeGreaterThan(BROKEN_AT_LEAST);
}

/** The JSON document with each value (once per place, see valuePaths) changed in each way. */
function* jsonChanges(example: Json): Generator<[string, string]> {
  for (const steps of valuePaths(example)) {
    for (const [change, value] of JSON_CHANGES) {
      const copy = structuredClone(example);
      let parent = copy as Record<string | number, Json>;
      for (const step of steps.slice(0, -1)) parent = parent[step] as Record<string, Json>;
      const last = steps.at(-1) as string | number;
      if (value !== undefined) parent[last] = value;
      else if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
      yield [`${steps.join('.')} ${change}`, JSON.stringify(copy)];
    }
  }
}

const csvText = (table: string[][]) =>
  table
    .map((row) => row.map((v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)))
    .map((row) => row.join(','))
    .join('\n');

/** The CSV with each value of its header and charges changed in each way. */
function* csvChanges(rows: string[][]): Generator<[string, string]> {
  // Row 2 holds the header's values, rows 4 on the charges' (row 3 names the columns).
  for (const row of [...rows.keys()].filter((r) => r === 1 || r >= 3)) {
    for (let column = 0; column < (rows[row]?.length ?? 0); column++) {
      const named = rows[row === 1 ? 0 : 2]?.[column];
      // '0.001', a valid number, where a value brings rules with it (a drug's unit asks its type).
      for (const value of ['', '-5', 'bogus value', '0.001']) {
        const copy = rows.map((r) => [...r]);
        (copy[row] as string[])[column] = value;
        yield [`row ${row + 1}, ${named} "${value}"`, csvText(copy)];
      }
    }
  }
}

/** What a v3 CSV column is called in 2.2.0: null for one 2.2.0 does not have. */
function columnIn22(name: string): string | null {
  const [base = '', ...rest] = name.split('|').map((part) => part.trim());
  if (['10th_percentile', '90th_percentile', 'count'].includes(base)) return null;
  if (['type_2_npi', 'attester_name', 'general_contract_provisions'].includes(base)) return null;
  if (base === 'median_amount') return ['estimated_amount', ...rest].join(' | ');
  if (base === 'location_name') return 'hospital_location';
  if (name === CMS_ATTESTATION) return CMS_AFFIRMATION;
  return name;
}

/**
 * A v3 CSV example as the 2.2.0 template has it (CMS publishes no 2.2.0 CSV example): the 2.2.0
 * header (hospital_location, the affirmation, no NPIs or attester), and for the median,
 * percentiles and count an estimated_amount of the median's value.
 */
function asVersion22(rows: string[][]): string[][] {
  const [names = [], values = [], columns = [], ...charges] = rows;
  const kept = (row: string[], named: string[]) =>
    row.filter((_, i) => i >= named.length || columnIn22(named[i] ?? '') !== null);
  const renamed = (named: string[]) => kept(named, named).map((name) => columnIn22(name) ?? name);
  const header = kept(values, names).map((value, i) =>
    renamed(names)[i] === 'version' ? '2.2.0' : value,
  );
  return [renamed(names), header, renamed(columns), ...charges.map((row) => kept(row, columns))];
}

/** Deletes the keys from an object of a JSON document (a copy). */
function drop(value: Json, keys: string[]): void {
  for (const key of keys) delete (value as Record<string, Json>)[key];
}

/** The v3 JSON example as the 2.2.0 schema has it, made as asVersion22 makes a CSV one. */
function asVersion22Json(v3: Json): Json {
  const document = structuredClone(v3) as Record<string, Json>;
  const location = document.location_name;
  drop(document, ['location_name', 'type_2_npi', 'attestation', 'general_contract_provisions']);
  for (const item of document.standard_charge_information as Record<string, Json>[]) {
    // A drug's unit is a string in 2.2.0, a number since 3.0.0.
    const drug = item.drug_information as Record<string, Json> | undefined;
    if (typeof drug?.unit === 'number') drug.unit = String(drug.unit);
    for (const charge of item.standard_charges as Record<string, Json>[]) {
      drop(charge, ['modifier_code']);
      for (const payer of (charge.payers_information ?? []) as Record<string, Json>[]) {
        // 2.2.0 asks an estimate of every rate without a dollar amount. The example's one such rate
        // without a median (count "0": an algorithm capping it at $550,000) is given its cap, so
        // that the made file breaks no rule (an error's place moves when an item is left out).
        if (payer.median_amount !== undefined) payer.estimated_amount = payer.median_amount;
        else if (payer.standard_charge_dollar === undefined) payer.estimated_amount = 550_000;
        drop(payer, ['median_amount', '10th_percentile', '90th_percentile', 'count']);
      }
    }
  }
  for (const modifier of (document.modifier_information ?? []) as Json[])
    drop(modifier, ['setting']);
  return {
    ...document,
    version: '2.2.0',
    hospital_location: location ?? null,
    affirmation: { affirmation: CMS_AFFIRMATION, confirm_affirmation: true },
  };
}

/**
 * The v2.0.0 JSON example as the 2.1.0 schema has it: no estimated_amount (2.1.0 has none), and no
 * modifier_information (which the example carries, though no schema before 2.2.0 defines it).
 */
function asVersion21Json(v200: Json): Json {
  const document = structuredClone(v200) as Record<string, Json>;
  drop(document, ['modifier_information']);
  for (const item of document.standard_charge_information as Record<string, Json>[])
    for (const charge of item.standard_charges as Record<string, Json>[])
      for (const payer of (charge.payers_information ?? []) as Json[])
        drop(payer, ['estimated_amount']);
  return { ...document, version: '2.1.0' };
}

/**
 * A v2.0.0 CSV example as 2.1.0: its version, and without its rows that price a modifier alone
 * (CMS's validator asks a code of every row before 2.2.0, so it finds them broken already). Its
 * estimated_amount columns, which 2.1.0 does not have, are left: CMS's validator ignores them, and
 * ours must reject no rate for them.
 */
function asVersion21(rows: string[][]): string[][] {
  const [names = [], values = [], columns = [], ...charges] = rows;
  const at = (name: string) => columns.findIndex((column) => column.replace(/ /g, '') === name);
  const [code, modifiers] = [at('code|1'), at('modifiers')];
  const modifierOnly = (row: string[]) => !row[code] && Boolean(row[modifiers]);
  const header = values.map((value, i) => (names[i] === 'version' ? '2.1.0' : value));
  return [names, header, columns, ...charges.filter((row) => !modifierOnly(row))];
}

/** The files the test reads: a CMS example, or one made from it for a version with none. */
const MADE = {
  'v2.2.0': { from: 'v3.0.0', json: asVersion22Json, csv: asVersion22 },
  'v2.1.0': { from: 'v2.0.0', json: asVersion21Json, csv: asVersion21 },
} as const;
type Version = 'v3.0.0' | 'v2.0.0' | keyof typeof MADE;
const madeFrom = (version: Version) =>
  version in MADE ? ` (made from the ${MADE[version as keyof typeof MADE].from} example)` : '';

describe("CMS's validator and ours agree that a broken value is worth saying", () => {
  for (const [name, version] of [
    ['v3_json_format_example.json', 'v3.0.0'],
    ['v3_json_format_example.json', 'v2.2.0'],
    ['V2.0.0_JSON_Format_Example.json', 'v2.1.0'],
    ['V2.0.0_JSON_Format_Example.json', 'v2.0.0'],
  ] as const)
    itWithDataFile(
      `the ${version} JSON example${madeFrom(version)}, each value changed in eight ways`,
      `${EXAMPLES}/${name}`,
      async (path) => {
        const read = JSON.parse(await readFile(path, 'utf8')) as Json;
        const example = version in MADE ? MADE[version as keyof typeof MADE].json(read) : read;
        // The example as this test writes JSON, so that only the changed value differs.
        const written = join(dir, 'example.json');
        await writeFile(written, JSON.stringify(example));
        const cms: CmsValidate = async (file) =>
          (await validateJson(createReadStream(file), version)).errors;
        const ways = { bothWays: version !== 'v2.0.0', noValueMeant: version !== 'v3.0.0' };
        expectAgreement(await compare(written, cms, ways, jsonChanges(example)));
      },
      120_000,
    );

  for (const [name, version] of [
    ['V3.0.0_Tall_CSV_Format_Example.csv', 'v3.0.0'],
    ['V3.0.0_Wide_CSV_Format_Example.csv', 'v3.0.0'],
    ['V3.0.0_Tall_CSV_Format_Example.csv', 'v2.2.0'],
    ['V3.0.0_Wide_CSV_Format_Example.csv', 'v2.2.0'],
    ['V2.0.0_Tall_CSV_Format_Example.csv', 'v2.1.0'],
    ['V2.0.0_Wide_CSV_Format_Example.csv', 'v2.1.0'],
    ['V2.0.0_Tall_CSV_Format_Example.csv', 'v2.0.0'],
    ['V2.0.0_Wide_CSV_Format_Example.csv', 'v2.0.0'],
  ] as const) {
    itWithDataFile(
      `the ${version} ${name.includes('Tall') ? 'tall' : 'wide'} CSV example${madeFrom(version)}, each value of its header and charges changed in four ways`,
      `${EXAMPLES}/${name}`,
      async (path) => {
        const read: string[][] = parse(await readFile(path, 'utf8'), {
          bom: true,
          relax_column_count: true,
        });
        const rows = version in MADE ? MADE[version as keyof typeof MADE].csv(read) : read;
        // The example as this test writes CSV, so that only the changed value differs.
        const example = join(dir, 'example.csv');
        await writeFile(example, csvText(rows));
        const cms: CmsValidate = async (file) =>
          (await validateCsv(createReadStream(file), version)).errors;
        const tall = name.includes('Tall');
        const ways = {
          bothWays: version !== 'v2.0.0',
          noValueMeant: version !== 'v3.0.0' || !tall,
        };
        expectAgreement(await compare(example, cms, ways, csvChanges(rows)));
      },
      120_000,
    );
  }
});
