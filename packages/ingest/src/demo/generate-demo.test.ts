import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo, type DemoManifest } from './generate-demo.ts';
import { hashDirectory, parseCsv } from './test-support.ts';

interface JsonCharge {
  minimum?: number;
  maximum?: number;
  gross_charge?: number;
  discounted_cash?: number;
  payers_information: { standard_charge_dollar?: number }[];
}
interface JsonFile {
  standard_charge_information: { standard_charges: JsonCharge[] }[];
}

let root = '';
let manifest: DemoManifest;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ratelens-demo-'));
  manifest = await generateDemo({ outDir: join(root, 'a'), seed: 7 });
  await generateDemo({ outDir: join(root, 'b'), seed: 7 });
  await generateDemo({ outDir: join(root, 'c'), seed: 8 });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('generateDemo', () => {
  it('writes byte-identical files for the same seed', async () => {
    const first = await hashDirectory(join(root, 'a'));
    expect(Object.keys(first)).toHaveLength(manifest.hospitals.length);
    expect(await hashDirectory(join(root, 'b'))).toEqual(first);
  });

  it('writes different files for a different seed', async () => {
    const first = await hashDirectory(join(root, 'a'));
    const other = await hashDirectory(join(root, 'c'));
    expect(Object.keys(other)).toEqual(Object.keys(first));
    for (const name of Object.keys(first)) expect(other[name]).not.toBe(first[name]);
  });

  it('places at least twelve hospitals in at least six states', () => {
    expect(manifest.hospitals.length).toBeGreaterThanOrEqual(12);
    expect(new Set(manifest.hospitals.map((h) => h.state)).size).toBeGreaterThanOrEqual(6);
  });

  it("covers Alaska's four CBSAs through their ZIP codes and one Alaska hospital outside any CBSA", () => {
    const alaska = manifest.hospitals.filter((h) => h.state === 'AK');
    const zipsByCbsa = new Map<string | null, string[]>();
    for (const h of alaska) zipsByCbsa.set(h.cbsa, [...(zipsByCbsa.get(h.cbsa) ?? []), h.zip]);
    expect(zipsByCbsa.get('11260')).toEqual(expect.arrayContaining(['99508', '99654']));
    expect(zipsByCbsa.get('21820')).toContain('99701');
    expect(zipsByCbsa.get('27940')).toContain('99801');
    expect(zipsByCbsa.get('28540')).toContain('99901');
    expect(zipsByCbsa.get(null)?.length ?? 0).toBeGreaterThanOrEqual(1);
  });

  it('puts "Demo" in every hospital name', () => {
    for (const h of manifest.hospitals) expect(h.hospitalName).toContain('Demo');
  });

  it('writes mostly JSON, at least two tall CSV files and at least one wide CSV file', () => {
    const formats = manifest.hospitals.map((h) => h.format);
    expect(formats.filter((f) => f === 'csv-tall').length).toBeGreaterThanOrEqual(2);
    expect(formats.filter((f) => f === 'csv-wide').length).toBeGreaterThanOrEqual(1);
    expect(formats.filter((f) => f === 'json').length).toBeGreaterThan(formats.length / 2);
  });

  it('names files <ein>_<hospital-name>_standardcharges.<ext>', () => {
    for (const h of manifest.hospitals) {
      expect(h.path).toMatch(/\/\d{9}_[a-z0-9-]+_standardcharges\.(json|csv)$/);
    }
  });

  it('produces between 20,000 and 50,000 rates at scale 1, as the manifest counts them', () => {
    expect(manifest.totals.rates).toBeGreaterThanOrEqual(20_000);
    expect(manifest.totals.rates).toBeLessThanOrEqual(50_000);
    expect(manifest.hospitals.reduce((sum, h) => sum + h.rates, 0)).toBe(manifest.totals.rates);
  });

  it('multiplies items with the scale', async () => {
    const scaled = await generateDemo({ outDir: join(root, 'scaled'), seed: 7, scale: 3 });
    expect(scaled.totals.items).toBe(manifest.totals.items * 3);
  });

  it('rejects a scale that is not a positive integer', async () => {
    await expect(generateDemo({ outDir: join(root, 'bad'), scale: 0.5 })).rejects.toThrow(
      RangeError,
    );
  });

  it('keeps JSON minimum and maximum equal to the lowest and highest payer dollar amount', async () => {
    let checked = 0;
    for (const h of manifest.hospitals.filter((entry) => entry.format === 'json')) {
      const file = JSON.parse(await readFile(h.path, 'utf8')) as JsonFile;
      for (const item of file.standard_charge_information) {
        for (const charge of item.standard_charges) {
          const dollars = charge.payers_information.flatMap((p) =>
            p.standard_charge_dollar === undefined ? [] : [p.standard_charge_dollar],
          );
          expect(charge.minimum).toBe(dollars.length > 0 ? Math.min(...dollars) : undefined);
          expect(charge.maximum).toBe(dollars.length > 0 ? Math.max(...dollars) : undefined);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('prices discounted cash below the gross charge and every payer dollar at or below it', async () => {
    for (const h of manifest.hospitals.filter((entry) => entry.format === 'json')) {
      const file = JSON.parse(await readFile(h.path, 'utf8')) as JsonFile;
      for (const item of file.standard_charge_information) {
        for (const charge of item.standard_charges) {
          if (charge.gross_charge === undefined) continue;
          expect(charge.discounted_cash).toBeLessThan(charge.gross_charge);
          expect(charge.maximum ?? 0).toBeLessThanOrEqual(charge.gross_charge);
        }
      }
    }
  });

  it('keeps tall CSV min and max equal to the extremes of the payer dollars of each charge', async () => {
    for (const h of manifest.hospitals.filter((entry) => entry.format === 'csv-tall')) {
      const [, , columns = [], ...rows] = parseCsv(await readFile(h.path, 'utf8'));
      const at = (name: string): number => columns.indexOf(name);
      const groups = new Map<string, string[][]>();
      for (const row of rows) {
        if (row[at('code|1')] === '') continue; // modifier rows carry no item code
        const key = [row[at('description')], row[at('setting')], row[at('modifiers')]].join('~');
        groups.set(key, [...(groups.get(key) ?? []), row]);
      }
      expect(groups.size).toBeGreaterThan(200);
      for (const group of groups.values()) {
        const dollars = group
          .map((row) => row[at('standard_charge|negotiated_dollar')])
          .filter((value) => value !== '' && value !== undefined)
          .map(Number);
        for (const row of group) {
          const expected = dollars.length > 0 ? String(Math.min(...dollars)) : '';
          expect(row[at('standard_charge|min')]).toBe(expected);
          const expectedMax = dollars.length > 0 ? String(Math.max(...dollars)) : '';
          expect(row[at('standard_charge|max')]).toBe(expectedMax);
        }
      }
    }
  });
});
