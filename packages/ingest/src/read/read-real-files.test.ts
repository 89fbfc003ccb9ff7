import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChargeRecord, PayerCharge } from '../model.ts';
import { FileSink } from '../demo/file-sink.ts';
import { writeMrf } from '../demo/write-mrf.ts';
import { openMrf, type MrfReader } from './index.ts';
import { sharedDataFile } from '../testing/shared-data.ts';

const MARTHAS_VINEYARD =
  'mrf-real-csv-tall-marthas-vineyard/042104691_Marthas-Vineyard-Hospital_StandardCharges.csv';
const ADVENT_FULL =
  'mrf-real-json-adventhealth-orlando/adventhealth-orlando_standardcharges_v3.0.0_reassembled.json';
const ADVENT_EXCERPT =
  'mrf-real-json-adventhealth-orlando/adventhealth-orlando_standardcharges_v3.0.0_excerpt.json';

async function readAll(path: string): Promise<{ reader: MrfReader; records: ChargeRecord[] }> {
  const reader = await openMrf(path);
  const records: ChargeRecord[] = [];
  for await (const record of reader.records) records.push(record);
  return { reader, records };
}

function payerCount(records: ChargeRecord[]): number {
  return records.reduce((n, r) => n + r.payers.length, 0);
}

function pairs(records: ChargeRecord[]): Set<string> {
  return new Set(records.flatMap((r) => r.payers.map((p) => `${p.payerName}|${p.planName}`)));
}

describe("Martha's Vineyard tall CSV (v3.0.0, Windows-1252)", () => {
  const path = sharedDataFile(MARTHAS_VINEYARD);

  it.skipIf(!path)(
    'reads all 10,452 rates for 29 payer/plan pairs, grouped into 3,534 charges',
    async () => {
      const { reader, records } = await readAll(path as string);
      expect(reader.header.format).toBe('csv-tall');
      expect(reader.header.version).toBe('3.0.0');
      expect(payerCount(records)).toBe(10_452);
      // 3,534 runs of rows with the same item columns (notes aside), counted with Python; with
      // the notes, which are the rates' ("OPPS APC" on some payers' rows), 3,726.
      expect(records).toHaveLength(3_534);
      expect(pairs(records).size).toBe(29);
      expect(reader.report.errorCount).toBe(0);
      expect(reader.report.rejectedRecords).toBe(0);
      // 37 bytes that are not UTF-8, counted with Python: 28 × 0x92 (’) and 9 × 0x96 (–).
      expect(reader.report.count('encoding.cp1252')).toBe(37);
    },
  );

  it.skipIf(!path)('says on which rows the Windows-1252 bytes are, and which', async () => {
    const { reader } = await readAll(path as string);
    const examples = reader.report.examples('encoding.cp1252');
    // Found by hand: the first 0x92 is byte 571,477, on line 1635, then one per line.
    expect(examples.map((e) => e.location)).toEqual([
      'row 1635',
      'row 1636',
      'row 1637',
      'row 1638',
      'row 1639',
    ]);
    expect(examples[0]?.message).toBe(
      'byte was not UTF-8, and was read as Windows-1252: 0x92 at byte 571,477, read as "’": ' +
        '"…\\"Chem IV Infus Tq Ea Add’L Seq Diff Drug Up to 1…"',
    );
  });

  it.skipIf(!path)(
    'reads the header row, the licence state from license_number|MA and the NPI',
    async () => {
      const { header } = await openMrf(path as string);
      expect(header).toMatchObject({
        hospitalName: "Martha's Vineyard Hospital",
        lastUpdatedOn: '2026-03-27',
        locationNames: ["Martha's Vineyard Hospital"],
        addresses: ['1 Hospital Rd Oak Bluffs MA 02557-1477'],
        licenseNumber: '2042',
        licenseState: 'MA',
        type2Npis: ['1194866210'],
        attesterName: 'Daniel Morash',
        attestationConfirmed: true,
        declaredVersion: null,
      });
    },
  );

  it.skipIf(!path)('gives the first row its codes, amounts, percentiles and count', async () => {
    const { records } = await readAll(path as string);
    const first = records[0] as ChargeRecord;
    expect(first.location).toBe('row 4');
    expect(first.description).toBe('1 25 Dihydroxy Inc Fraction');
    expect(first.codes).toEqual([
      { code: 'PX-30000412', type: 'CDM' },
      { code: '82652', type: 'CPT' },
      { code: '0301', type: 'RC' },
    ]);
    expect(first).toMatchObject({ setting: 'outpatient', gross: 200, discountedCash: 150 });
    expect(first).toMatchObject({ min: 39.7, max: 140.96 });
    expect(first.payers[0]).toEqual({
      payerName: 'MEDICARE [2001]',
      planName: 'HB MVH MEDICARE',
      methodology: 'percent of total billed charges',
      dollar: 100,
      percentage: 50,
      algorithm: null,
      estimatedAmount: null,
      median: 67.9,
      p10: 67.9,
      p90: 69.84,
      count: '12',
      notes: null,
    });
  });

  it.skipIf(!path)('decodes the Windows-1252 apostrophe and en dash in descriptions', async () => {
    const { records } = await readAll(path as string);
    const descriptions = new Set(records.map((r) => r.description));
    expect(descriptions).toContain(
      'Chem IV Infus Tq Ea Add\u2019L Seq Diff Drug Up to 1 Hr - 96417',
    );
    expect(descriptions).toContain('Inj Sc/Im Chemo Hormonal Anti-Neoplastic \u2013 96402');
    const chem = records.find((r) => r.description.startsWith('Chem IV Infus Tq'));
    expect(chem?.location).toBe('row 1635');
    expect(chem?.payers[0]).toMatchObject({
      payerName: 'HARVARD PILGRIM [120001]',
      planName: 'HB MVH HPHC HMO / POS / PPO',
      dollar: 569.79,
      percentage: 78.7,
    });
  });

  it.skipIf(!path)(
    'reads the same charges and rates from the file laid out wide, one column group per payer',
    async () => {
      const { reader: tallReader, records: tall } = await readAll(path as string);
      const dir = await mkdtemp(join(tmpdir(), 'ratelens-wide-'));
      try {
        const wide = join(dir, 'marthas-vineyard-wide.csv');
        // Written by the demo data's writer, one item per charge, the plans as first seen.
        const sink = new FileSink(wide);
        await writeMrf(sink, 'csv-wide', {
          header: tallReader.header,
          plans: [...pairs(tall)].map((pair) => {
            const [payerName = '', planName = ''] = pair.split('|');
            return { payerName, planName };
          }),
          modifiers: [],
          items: tall.map(({ description, codes, drugUnit, drugType, ...charge }) => ({
            description,
            codes,
            drugUnit,
            drugType,
            standardCharges: [{ ...charge, setting: charge.setting ?? 'both' }],
          })),
        });
        await sink.close();
        const { reader, records } = await readAll(wide);
        expect(reader.header.format).toBe('csv-wide');
        expect(reader.report.errorCount + reader.report.warningCount).toBe(0);
        // Every value of every charge and rate, the charges in the same order; only the row
        // numbers differ, and the order of a charge's rates (a wide row's is its columns').
        const plan = (p: PayerCharge) => `${p.payerName}|${p.planName}`;
        const values = (r: ChargeRecord) => ({
          ...r,
          location: undefined,
          payers: r.payers.toSorted((a, b) => plan(a).localeCompare(plan(b))),
        });
        expect(records.map(values)).toEqual(tall.map(values));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!path)('hashes the file as published and counts its bytes', async () => {
    const { reader } = await readAll(path as string);
    expect(reader.stats()).toMatchObject({ bytes: 3_540_576, complete: true, compression: 'none' });
    expect(reader.stats().sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('AdventHealth Orlando JSON (v3.0.0)', () => {
  const full = sharedDataFile(ADVENT_FULL);
  const excerpt = sharedDataFile(ADVENT_EXCERPT);

  it.skipIf(!full)(
    'streams all 21,567 items as 23,864 charges with 136,292 rates, then its modifier',
    async () => {
      const { reader, records } = await readAll(full as string);
      expect(records).toHaveLength(23_865);
      const charges = records.slice(0, -1);
      expect(new Set(charges.map((r) => r.location.split('.')[0])).size).toBe(21_567);
      expect(payerCount(charges)).toBe(136_292);
      expect(pairs(charges).size).toBe(60);
      expect(reader.report.errorCount).toBe(0);
      // The report counts the modifier apart: it is no charge, and its entries are no rates.
      expect(reader.report).toMatchObject({
        recordsRead: 23_864,
        payersRead: 136_292,
        modifiersRead: 1,
        modifierEntriesRead: 74,
      });
      // Its pharmacy items write revenue codes 250, 255, 258, 259, 636 and 999 with three digits
      // (2,100 codes; 0250, 0255, 0636 and 0999 also appear with four): read as 0250 and so on.
      // Three items' descriptions (1230, 6003, 16735: "… Coagulation Disorders ") and the attester's
      // name ("Tim Reiner ") end with a space: read trimmed, and counted.
      // Every standard charge has a "billing_class": "facility" that no CMS schema defines
      // (23,864 of them, counted with Python): one field, ignored and reported once.
      expect(reader.report.warningCount).toBe(2_105);
      expect(reader.report.rules().map((r) => [r.rule, r.count])).toEqual([
        ['code.leading-zeros', 2_100],
        ['whitespace.trimmed', 4],
        ['json.unknown-field', 1],
      ]);
      expect(reader.report.examples('json.unknown-field')).toEqual([
        {
          severity: 'warning',
          rule: 'json.unknown-field',
          location: 'standard_charge_information[0].standard_charges[0]',
          message:
            'field is not a CMS field and was ignored: "billing_class": "facility" (in 23,864 standard charges)',
        },
      ]);
      expect(reader.report.examples('whitespace.trimmed').map((e) => e.location)).toEqual([
        'standard_charge_information[1230]',
        'standard_charge_information[6003]',
        'standard_charge_information[16735]',
        'attestation',
      ]);
      expect(reader.header?.attesterName).toBe('Tim Reiner');
      const marcaine = charges.find((r) =>
        r.description.startsWith('MARCAINE/EPINEPHRINE PF 0.25%'),
      );
      expect(marcaine?.codes).toEqual([
        { code: '0250', type: 'RC' },
        { code: 'J0665', type: 'HCPCS' },
        { code: '00409174630', type: 'NDC' },
      ]);
      // modifier_information: TC, described alike for 74 payer/plan pairs (14 with no item rate).
      const modifier = records.at(-1) as ChargeRecord;
      expect(modifier).toMatchObject({
        location: 'modifier_information[0]',
        codes: [],
        modifiers: ['TC'],
        setting: null,
      });
      expect(modifier.description).toMatch(/^Technical Component; represents the costs/);
      expect(modifier.payers).toHaveLength(74);
      expect(modifier.payers.at(-1)).toMatchObject({
        // "UPMC Health Plan", "HMO" in the modifier: spelt as the items spell them first.
        payerName: 'Upmc Health Plan',
        planName: 'Hmo',
        notes: 'The modified price is presented in the standard charge value.',
        dollar: null,
        percentage: null,
        methodology: null,
      });
      expect(pairs(records).size).toBe(74);
      const last = charges[charges.length - 1] as ChargeRecord;
      expect(last.description).toBe('Lith-ion batt elec/pneum VAD');
      expect(last.codes).toEqual([{ code: 'Q0506', type: 'HCPCS' }]);
      expect(last.payers.find((p) => p.payerName === 'Aetna')).toMatchObject({
        planName: 'Medicare Managed Care Plan',
        methodology: 'fee schedule',
        dollar: 1131.46,
        notes: 'APC',
      });
    },
    30_000,
  );

  it.skipIf(!excerpt)('reads the header with its 24 locations, licence and NPI', async () => {
    const { header } = await openMrf(excerpt as string);
    expect(header.hospitalName).toBe('AdventHealth Orlando');
    expect(header.lastUpdatedOn).toBe('2026-04-01');
    expect(header.locationNames).toHaveLength(24);
    expect(header.addresses[0]).toBe('601 E Rollins St, Orlando, FL 32803');
    expect(header).toMatchObject({
      format: 'json',
      version: '3.0.0',
      licenseNumber: '4369',
      licenseState: 'FL',
      type2Npis: ['1306938071'],
      attesterName: 'Tim Reiner',
      attestationConfirmed: true,
    });
  });

  it.skipIf(!excerpt)('reads a percentage rate with count "0" and its notes', async () => {
    const { records, reader } = await readAll(excerpt as string);
    expect(records).toHaveLength(178); // 177 charges and the TC modifier
    expect(payerCount(records)).toBe(3_287 + 74);
    expect(reader.report.errorCount).toBe(0);
    const drg = records.find(
      (r) => r.location === 'standard_charge_information[11].standard_charges[0]',
    );
    expect(drg?.description).toBe('Other Disorders of the Eye Age >17 w/o CC');
    expect(drg?.codes).toEqual([{ code: '047', type: 'MS-DRG' }]);
    expect(drg?.setting).toBe('inpatient');
    expect(drg?.payers[3]).toMatchObject({
      payerName: 'Avmed',
      planName: 'Hmo',
      methodology: 'percent of total billed charges',
      percentage: 56.2,
      dollar: null,
      count: '0',
      notes: 'No services performed during 15-month lookback period.',
    });
  });

  it.skipIf(!excerpt)('reads drug information of an NDC item', async () => {
    const { records } = await readAll(excerpt as string);
    const drug = records.find((r) => r.location.startsWith('standard_charge_information[41].'));
    expect(drug?.description).toBe('MARCAINE/EPINEPHRINE PF 0.25% -1:200000 IJ SOLN');
    expect(drug?.codes).toContainEqual({ code: '00409174630', type: 'NDC' });
    expect(drug).toMatchObject({ drugUnit: 1, drugType: 'EA' });
  });
});

describe('CMS examples', () => {
  const examples = [
    {
      file: 'V2.0.0_JSON_Format_Example.json',
      format: 'json',
      version: '2.0.0',
      records: 11 + 3, // and 3 modifiers of 2 payers each
      payers: 25 + 6,
    },
    {
      file: 'V2.0.0_Tall_CSV_Format_Example.csv',
      format: 'csv-tall',
      version: '2.0.0',
      // 31 rows: a row per payer of 17 charges, each row's notes its rate's (counted with Python).
      records: 17,
      payers: 31,
    },
    {
      file: 'V2.0.0_Wide_CSV_Format_Example.csv',
      format: 'csv-wide',
      version: '2.0.0',
      records: 20,
      // As the JSON and tall twins: rows 4–6, the hip replacement's three algorithms of one payer,
      // each repeat the other payer's one rate (50% of charges), read once (csv.duplicate-rate).
      payers: 31,
    },
    {
      file: 'v3_json_format_example.json',
      format: 'json',
      version: '3.0.0',
      records: 22 + 3,
      payers: 39 + 6, // as many as the tall CSV of the same example
    },
    {
      file: 'V3.0.0_Tall_CSV_Format_Example.csv',
      format: 'csv-tall',
      version: '3.0.0',
      records: 26,
      payers: 45,
      // Its type_2_npi "0000000001 | 0000000002 | 0000000003", and 18 rows' notes that start
      // with a space (each its rate's). Twelve of its column names have spaces around their
      // pipes: "code | 1", "standard_charge | gross" and so on.
      strayValues: 19,
      strayColumns: 12,
    },
    {
      file: 'V3.0.0_Wide_CSV_Format_Example.csv',
      format: 'csv-wide',
      version: '3.0.0',
      records: 26,
      payers: 45,
      // Its type_2_npi ("… | 0000000003  ") and one payer's notes ("… lookback period. ").
      strayValues: 2,
      strayColumns: 0,
    },
  ] as const;

  for (const example of examples) {
    const path = sharedDataFile(`cms-hpt-examples/${example.file}`);
    it.skipIf(!path)(`reads ${example.file} without errors`, async () => {
      const { reader, records } = await readAll(path as string);
      expect(reader.header).toMatchObject({
        format: example.format,
        version: example.version,
        hospitalName: 'West Mercy Hospital',
        licenseNumber: '50056',
        licenseState: 'CA',
      });
      expect(records).toHaveLength(example.records);
      expect(payerCount(records)).toBe(example.payers);
      expect(reader.report.errorCount).toBe(0);
      const stray = 'strayValues' in example ? example : { strayValues: 0, strayColumns: 0 };
      expect(reader.report.count('whitespace.trimmed')).toBe(stray.strayValues);
      expect(reader.report.count('column.stray-spaces')).toBe(stray.strayColumns);
    });
  }

  for (const template of [
    'V2.0.0_Tall_CSV_Format_Template.csv',
    'V2.0.0_Wide_CSV_Format_Template.csv',
    'V3.0.0_Tall_CSV_Format_Template.csv',
    'V3.0.0_Wide_CSV_Format_Template.csv',
  ]) {
    const path = sharedDataFile(`cms-hpt-examples/${template}`);
    it.skipIf(!path)(
      `reads the empty ${template} and reports its missing header values and placeholders`,
      async () => {
        const { reader, records } = await readAll(path as string);
        expect(records).toHaveLength(0);
        expect(reader.report.count('required.hospital_name')).toBe(1);
        expect(reader.header.licenseState).toBeNull();
        // Its columns that keep a placeholder (code|[i], a payer's [payer_name]|[plan_name]).
        expect(reader.report.count('column.placeholder')).toBeGreaterThan(0);
      },
    );
  }

  const jsonV3 = sharedDataFile('cms-hpt-examples/v3_json_format_example.json');
  it.skipIf(!jsonV3)(
    'reads modifier_information as the tall CSV reads its modifier rows',
    async () => {
      const { records } = await readAll(jsonV3 as string);
      const both = records.find((r) => r.location === 'modifier_information[2]');
      expect(both).toMatchObject({
        description: 'Bilateral procedure with co-surgeon',
        codes: [],
        modifiers: ['50', '62'],
        setting: 'both',
      });
      expect(both?.payers.map((p) => [p.payerName, p.planName, p.notes])).toEqual([
        [
          'Platform Health Insurance',
          'PPO',
          '93.75% of the amount for the item or service is appended for each co-surgeon',
        ],
        [
          'Region Health Insurance',
          'HMO',
          '87% of the amount for the item or service is appended for each co-surgeon',
        ],
      ]);
      const tall = sharedDataFile('cms-hpt-examples/V3.0.0_Tall_CSV_Format_Example.csv');
      if (!tall) return;
      // The CSV has a row per payer, one charge, each row's notes its payer's.
      const csv = (await readAll(tall)).records.filter(
        (r) => r.codes.length === 0 && r.modifiers.join('|') === '50|62',
      );
      expect(csv.map((r) => r.description)).toEqual([both?.description]);
      expect(csv.flatMap((r) => r.payers.map((p) => [p.payerName, p.planName, p.notes]))).toEqual(
        both?.payers.map((p) => [p.payerName, p.planName, p.notes]),
      );
    },
  );

  const wideV3 = sharedDataFile('cms-hpt-examples/V3.0.0_Wide_CSV_Format_Example.csv');
  it.skipIf(!wideV3)('takes payer and plan of a wide CSV from the column names', async () => {
    const { records, reader } = await readAll(wideV3 as string);
    expect(reader.header.type2Npis).toEqual(['0000000001', '0000000002', '0000000003']);
    expect(reader.header.lastUpdatedOn).toBe('2026-04-01');
    expect(reader.report.count('date.mm-dd-yyyy')).toBe(1);
    const mri = records[0] as ChargeRecord;
    expect(mri.description).toBe('MRI of brain (no contrast)');
    expect(mri.payers).toEqual([
      expect.objectContaining({
        payerName: 'Platform Health Insurance',
        planName: 'PPO',
        dollar: 400,
      }),
      expect.objectContaining({
        payerName: 'Region Health Insurance',
        planName: 'HMO',
        dollar: 250,
      }),
    ]);
  });

  const wideV2 = sharedDataFile('cms-hpt-examples/V2.0.0_Wide_CSV_Format_Example.csv');
  it.skipIf(!wideV2)(
    'keeps the underscores of v2 wide payer names and reads estimated amounts',
    async () => {
      const { records } = await readAll(wideV2 as string);
      expect(records[0]?.payers[0]).toMatchObject({
        payerName: 'Platform_Health_Insurance',
        planName: 'PPO',
        dollar: 20000,
        algorithm: 'MS-DRG',
        estimatedAmount: 22243.34,
        methodology: 'case rate',
      });
      // The file is Windows-1252: its em dash (0x97) must decode as one.
      expect(records.map((r) => r.description)).toContain(
        'Treatment or observation room \u2014 observation room',
      );
    },
  );

  const tallV3 = sharedDataFile('cms-hpt-examples/V3.0.0_Tall_CSV_Format_Example.csv');
  it.skipIf(!tallV3)(
    'reads column names written with spaces around the pipes ("code | 1")',
    async () => {
      const { records } = await readAll(tallV3 as string);
      const psychoses = records.find((r) => r.description === 'Psychoses');
      expect(psychoses?.codes).toEqual([{ code: '885', type: 'MS-DRG' }]);
      expect(psychoses?.payers).toContainEqual(
        expect.objectContaining({ planName: 'HMO', count: '50', median: 18230.33, p10: 16100.21 }),
      );
    },
  );
});
