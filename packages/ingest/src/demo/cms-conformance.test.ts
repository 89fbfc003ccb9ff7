import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { validateCsv, validateFilename, validateJson } from '@cmsgov/hpt-validator';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMrf } from '../read/index.ts';
import { generateDemo, type DemoManifest, type DemoManifestEntry } from './generate-demo.ts';
import { parseCsv, sharedDataFile } from './test-support.ts';

const SCHEMA = sharedDataFile('cms-hpt-examples/V3.0.0_Hospital_price_transparency_schema.json');
const TALL_TEMPLATE = sharedDataFile('cms-hpt-examples/V3.0.0_Tall_CSV_Format_Template.csv');
const WIDE_TEMPLATE = sharedDataFile('cms-hpt-examples/V3.0.0_Wide_CSV_Format_Template.csv');

let root = '';
let manifest: DemoManifest;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ratelens-demo-cms-'));
  manifest = await generateDemo({ outDir: root, seed: 3 });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const byFormat = (format: DemoManifestEntry['format']): DemoManifestEntry[] =>
  manifest.hospitals.filter((h) => h.format === format);

async function schemaValidator(): Promise<ValidateFunction> {
  // The schema declares draft-07, which is what the default Ajv class implements.
  const ajv = new Ajv({ allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(await readFile(SCHEMA ?? '', 'utf8')) as object);
}

describe('generated JSON files', () => {
  it.skipIf(SCHEMA === null)('validate against the CMS V3.0.0 JSON schema', async () => {
    const validate = await schemaValidator();
    const files = byFormat('json');
    expect(files.length).toBeGreaterThan(0);
    for (const h of files) {
      const valid = validate(JSON.parse(await readFile(h.path, 'utf8')));
      expect({ file: h.path, errors: valid ? null : validate.errors?.slice(0, 5) }).toEqual({
        file: h.path,
        errors: null,
      });
    }
  });

  it.skipIf(SCHEMA === null)(
    'fail the schema once a percentage loses its v3 count (the check can fail)',
    async () => {
      const validate = await schemaValidator();
      const [h] = byFormat('json');
      const file = JSON.parse(await readFile(h?.path ?? '', 'utf8')) as {
        standard_charge_information: {
          standard_charges: { payers_information: Record<string, unknown>[] }[];
        }[];
      };
      const payer = file.standard_charge_information
        .flatMap((item) => item.standard_charges)
        .flatMap((charge) => charge.payers_information)
        .find((p) => p.standard_charge_percentage !== undefined);
      expect(payer).toBeDefined();
      delete payer?.count;
      expect(validate(file)).toBe(false);
    },
  );
});

/**
 * The template's third row with its placeholders expanded as the file uses them: `[i]` once per
 * code column pair, `[payer_name]|[plan_name]` once per payer/plan pair (wide only).
 */
function expectedColumns(template: string[], columns: string[]): string[] {
  const codeCount = columns.filter((name) => /^code\|\d+$/.test(name)).length;
  const pairs = columns
    .map((name) => /^standard_charge\|(.+\|.+)\|negotiated_dollar$/.exec(name)?.[1])
    .filter((pair) => pair !== undefined);
  const expected: string[] = [];
  for (let i = 0; i < template.length; i++) {
    const name = template[i] ?? '';
    const placeholder = name.includes('[i]') ? '[i]' : name.includes('[payer_name]') ? 'pp' : null;
    if (placeholder === null) {
      expected.push(name);
      continue;
    }
    const group: string[] = [];
    while (
      i < template.length &&
      (template[i] ?? '').includes(placeholder === 'pp' ? '[payer_name]' : '[i]')
    ) {
      group.push(template[i] ?? '');
      i++;
    }
    i--;
    const values =
      placeholder === '[i]' ? Array.from({ length: codeCount }, (_, n) => String(n + 1)) : pairs;
    for (const value of values) {
      for (const g of group) {
        expected.push(
          placeholder === '[i]'
            ? g.replaceAll('[i]', value)
            : g.replace('[payer_name]|[plan_name]', value),
        );
      }
    }
  }
  return expected;
}

const nonEmpty = (row: string[] | undefined): string[] => (row ?? []).filter((cell) => cell !== '');

describe.each([
  ['csv-tall', TALL_TEMPLATE],
  ['csv-wide', WIDE_TEMPLATE],
] as const)('generated %s files', (format, templatePath) => {
  it.skipIf(templatePath === null)('repeat the CMS template header rows exactly', async () => {
    const template = parseCsv(await readFile(templatePath ?? '', 'utf8'));
    const files = byFormat(format);
    expect(files.length).toBeGreaterThan(0);
    for (const h of files) {
      const [first, second, columns = []] = parseCsv(await readFile(h.path, 'utf8'));
      expect(nonEmpty(first)).toEqual(
        nonEmpty(template[0]).map((name) => name.replace('[state]', h.state)),
      );
      expect(second?.[2]).toBe('3.0.0');
      expect(columns).toEqual(expectedColumns(template[2] ?? [], columns));
    }
  });

  it('give every row the column count of the header', async () => {
    for (const h of byFormat(format)) {
      const rows = parseCsv(await readFile(h.path, 'utf8'));
      const width = rows[2]?.length ?? 0;
      expect(width).toBeGreaterThan(20);
      for (const [index, row] of rows.entries()) {
        expect({ row: index + 1, cells: row.length }).toEqual({ row: index + 1, cells: width });
      }
    }
  });

  it('quote fields that hold commas and double quotes', async () => {
    const description = 'Wrist and hand brace, prefabricated, 8" long';
    for (const h of byFormat(format)) {
      const text = await readFile(h.path, 'utf8');
      expect(text).toContain('"Wrist and hand brace, prefabricated, 8"" long"');
      const rows = parseCsv(text);
      const brace = rows.filter((row) => row[1] === 'L3908');
      expect(brace.length).toBeGreaterThan(0);
      for (const row of brace) expect(row[0]).toBe(description);
    }
  });
});

describe('every generated file', () => {
  it('passes the official CMS validator (@cmsgov/hpt-validator) without errors or alerts', async () => {
    for (const h of manifest.hospitals) {
      const stream = createReadStream(h.path);
      const result =
        h.format === 'json'
          ? await validateJson(stream, '3.0.0')
          : await validateCsv(stream, '3.0.0');
      expect({
        file: basename(h.path),
        errors: result.errors.slice(0, 3),
        alerts: result.alerts?.slice(0, 3) ?? [],
        filename: validateFilename(basename(h.path)),
      }).toEqual({ file: basename(h.path), errors: [], alerts: [], filename: true });
    }
  });

  it('passes our own readers without an error or a warning', async () => {
    for (const h of manifest.hospitals) {
      const reader = await openMrf(h.path);
      for await (const record of reader.records) expect(record).toBeDefined();
      expect({ file: basename(h.path), rules: reader.report.rules() }).toEqual({
        file: basename(h.path),
        rules: [],
      });
    }
  });
});
