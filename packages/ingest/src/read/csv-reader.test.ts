import { describe, expect, it } from 'vitest';
import type { ChargeRecord, MrfHeader } from '../model.ts';
import { ValidationReport } from '../validate/report.ts';
import { plainLocation } from '../validate/report.ts';
import { CsvMrfParser } from './csv-reader.ts';
import { MrfReadError } from './errors.ts';
import { CMS_AFFIRMATION, CMS_ATTESTATION } from './header.ts';
import { JsonMrfParser } from './json-reader.ts';

const V3_NAMES =
  'hospital_name,last_updated_on,version,location_name,hospital_address,license_number|MA,' +
  `type_2_npi,"${CMS_ATTESTATION}",attester_name\n`;
const V3_VALUES =
  'Test Hospital,2026-01-15,3.0.0,Test Hospital,1 Main St,1234,1234567893,true,A Person\n';
const TALL_COLUMNS =
  'description,code|1,code|1|type,modifiers,setting,drug_unit_of_measurement,' +
  'drug_type_of_measurement,standard_charge|gross,standard_charge|discounted_cash,payer_name,' +
  'plan_name,standard_charge|negotiated_dollar,standard_charge|negotiated_percentage,' +
  'standard_charge|negotiated_algorithm,median_amount,10th_percentile,90th_percentile,count,' +
  'standard_charge|min,standard_charge|max,standard_charge|methodology,additional_generic_notes\n';
const TALL_ROW =
  'X-ray chest,71046,CPT,,outpatient,,,250,200,Aetna,PPO,120,,,,,,,100,150,fee schedule,\n';
/** A wide v3 file's columns for one payer, Aetna's PPO, written as `payer`. */
const widePayer = (payer: string) =>
  [
    `standard_charge|${payer}|negotiated_dollar`,
    `standard_charge|${payer}|negotiated_percentage`,
    `standard_charge|${payer}|negotiated_algorithm`,
    `median_amount|${payer}`,
    `10th_percentile|${payer}`,
    `90th_percentile|${payer}`,
    `count|${payer}`,
    `standard_charge|${payer}|methodology`,
    `additional_payer_notes|${payer}`,
  ].join(',');
const WIDE_ITEM_COLUMNS =
  'description,code|1,code|1|type,modifiers,setting,drug_unit_of_measurement,' +
  'drug_type_of_measurement,standard_charge|gross,standard_charge|discounted_cash,' +
  'standard_charge|min,standard_charge|max,additional_generic_notes';
/** The header rows and columns of a wide v3 file whose payers are `payers` ("Aetna|PPO"). */
const wideFile = (...payers: string[]) =>
  V3_NAMES + V3_VALUES + [WIDE_ITEM_COLUMNS, ...payers.map(widePayer)].join(',') + '\n';
/**
 * A wide row of a brain MRI (gross 1200, cash 1080, min 250, max 400) whose generic notes are
 * `notes`, then each payer's nine values (see widePayer), as `dollarRate` writes them.
 */
const mriRow = (notes: string, ...payers: string[]) =>
  [`MRI brain,70551,CPT,,outpatient,,,1200,1080,250,400,${notes}`, ...payers].join(',') + '\n';
/** A payer's nine wide values: a dollar rate by fee schedule, with its notes. */
const dollarRate = (dollar: number, notes = '') => `${dollar},,,,,,,fee schedule,${notes}`;

/** The CSV read whole by the reader: its header, records and report; or how it was refused. */
function read(csv: string): {
  header: MrfHeader | null;
  records: ChargeRecord[];
  report: ValidationReport;
} {
  const report = new ValidationReport();
  const parser = new CsvMrfParser(report);
  parser.push(Buffer.from(csv));
  parser.end();
  return { header: parser.header, records: parser.out, report };
}

/** The MrfReadError that reading the CSV ends with. */
function refusal(csv: string): MrfReadError {
  try {
    read(csv);
  } catch (error) {
    if (error instanceof MrfReadError) return error;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

describe('the header values row', () => {
  it('reads a name with an unquoted comma as one value when only that join gives valid values', () => {
    const values = V3_VALUES.replace('Test Hospital,', 'Test Hospital, Inc.,');
    const { header, report, records } = read(V3_NAMES + values + TALL_COLUMNS + TALL_ROW);
    expect(header).toMatchObject({
      hospitalName: 'Test Hospital, Inc.',
      version: '3.0.0',
      licenseNumber: '1234',
      type2Npis: ['1234567893'],
      attestationConfirmed: true,
    });
    expect(report.examples('csv.header-misaligned')[0]).toMatchObject({
      location: 'row 2',
      message: expect.stringMatching(
        /10 values for 9 names; read hospital_name "Test Hospital, Inc\."$/,
      ) as unknown,
    });
    expect(records).toHaveLength(1);
  });

  it('gives an address its unquoted commas when every join that fits reads the hospital alike', () => {
    // The commas could as well be the location's: every such join reads the same date, version,
    // licence, NPIs and attestation, and an address is where commas are.
    const values = V3_VALUES.replace('1 Main St', '1 Main St, Oak Bluffs, MA 02557');
    const { header, report, records } = read(V3_NAMES + values + TALL_COLUMNS + TALL_ROW);
    expect(header).toMatchObject({
      locationNames: ['Test Hospital'],
      addresses: ['1 Main St, Oak Bluffs, MA 02557'],
      licenseNumber: '1234',
      type2Npis: ['1234567893'],
      attestationConfirmed: true,
    });
    expect(report.count('csv.header-misaligned')).toBe(1);
    expect(records).toHaveLength(1);
  });

  it('reads in place values that fit there, a note past the last name not read, as before', () => {
    // An attestation written Yes, and a note in a column row 1 does not name, in a row wider
    // than row 1: read where they stand (the note was refused as a comma no join could place).
    const values = V3_VALUES.replace(',true,A Person\n', ',Yes,A Person,see our website\n');
    const { header, report, records } = read(V3_NAMES + values + TALL_COLUMNS + TALL_ROW);
    expect(header).toMatchObject({
      licenseNumber: '1234',
      type2Npis: ['1234567893'],
      attestationConfirmed: true,
      attesterName: 'A Person',
    });
    expect(report.examples('csv.header-misaligned')[0]?.message).toMatch(
      /10 values for 9 names; those past the names not read$/,
    );
    expect(records).toHaveLength(1);
  });

  it('refuses a row with more values than names when no join of them gives valid values', () => {
    const values = V3_VALUES.replace('Test Hospital,2026-01-15', 'Test Hospital, Inc.,soon');
    const error = refusal(V3_NAMES + values + TALL_COLUMNS + TALL_ROW);
    expect(error.message).toMatch(/has 10 values for 9 names: a value with an unquoted comma\?/);
  });

  it('reads a row that leaves out its last values, but refuses one with a value left out before', () => {
    const last = read(V3_NAMES + V3_VALUES.replace(',A Person', '') + TALL_COLUMNS + TALL_ROW);
    expect(last.header).toMatchObject({ type2Npis: ['1234567893'], attesterName: null });
    const error = refusal(V3_NAMES + V3_VALUES.replace('1 Main St,', '') + TALL_COLUMNS + TALL_ROW);
    expect(error.message).toMatch(/has 8 values for 9 names, and its values do not line up/);
  });

  it('refuses a header name written twice in the first row', () => {
    const names = V3_NAMES.replace('\n', ',hospital_name\n');
    const values = V3_VALUES.replace('\n', ',Other Hospital\n');
    const error = refusal(names + values + TALL_COLUMNS + TALL_ROW);
    expect(error.code).toBe('duplicate-columns');
    expect(error.message).toMatch(/"hospital_name" of row 1 appears twice \(columns 1 and 10\)/);
  });

  it('skips a row of empty values between the header names and their values', () => {
    const { header, report } = read(V3_NAMES + ',,,,,,,,\n' + V3_VALUES + TALL_COLUMNS + TALL_ROW);
    expect(header?.hospitalName).toBe('Test Hospital');
    expect(report.examples('csv.blank-header-row').map((e) => e.location)).toEqual(['row 2']);
  });

  it("says a 3.0.0 CSV names its locations with v2's hospital_location, and reads them", () => {
    const names = V3_NAMES.replace('location_name', 'hospital_location');
    const { header, report } = read(names + V3_VALUES + TALL_COLUMNS + TALL_ROW);
    expect(header?.locationNames).toEqual(['Test Hospital']);
    expect(report.count('v3.location-name')).toBe(1);
    expect(report.rejected()).toBe(0);
  });
});

describe('the column names row', () => {
  it('refuses two payer columns whose names differ only in inner spaces', () => {
    const columns = `${WIDE_ITEM_COLUMNS},${widePayer('Blue  Cross|PPO')},${widePayer('Blue Cross|PPO')}\n`;
    const error = refusal(V3_NAMES + V3_VALUES + columns);
    expect(error.code).toBe('duplicate-columns');
    expect(error.message).toMatch(/\(column 13\) and .*\(column 22\) name one payer's column/);
  });

  it("reads no column that keeps the template's [payer_name] placeholder, and says so", () => {
    // A group left over from the template beside the hospital's own: its rate would have loaded
    // under a payer "[payer_name]"; refusing the file would have cost Aetna's too.
    const columns =
      `${WIDE_ITEM_COLUMNS},${widePayer('Aetna|PPO')},` +
      `${widePayer('[payer_name]|[plan_name]')}\n`;
    const row =
      'X-ray chest,71046,CPT,,outpatient,,,250,200,100,150,,' +
      '120,,,,,,,fee schedule,,130,,,,,,,fee schedule,\n';
    const { records, report } = read(V3_NAMES + V3_VALUES + columns + row);
    expect(records[0]?.payers).toEqual([
      expect.objectContaining({ payerName: 'Aetna', planName: 'PPO', dollar: 120 }),
    ]);
    expect(report.count('column.placeholder')).toBe(9);
    expect(report.examples('column.placeholder')[0]).toMatchObject({
      location: 'column 22',
      message: expect.stringMatching(
        /: standard_charge\|\[payer_name\]\|\[plan_name\]\|negotiated_dollar: "\[payer_name\]" stands/,
      ) as unknown,
    });
  });

  it("reads no code column that keeps the template's [i] placeholder, and says so", () => {
    const columns = TALL_COLUMNS.replace('modifiers,', 'code|[i],code|[i]|type,modifiers,');
    const { records, report } = read(
      V3_NAMES + V3_VALUES + columns + TALL_ROW.replace('CPT,,', 'CPT,99999,CPT,,'),
    );
    expect(records[0]?.codes).toEqual([{ code: '71046', type: 'CPT' }]);
    expect(report.count('column.placeholder')).toBe(2);
  });

  it("says once each column the version's template requires that the file leaves out", () => {
    const columns = TALL_COLUMNS.replace('standard_charge|discounted_cash,', '').replace(
      ',count',
      '',
    );
    const row = TALL_ROW.replace(',200,', ',').replace(',120,,,,,,,', ',120,,,,,,');
    const { records, report } = read(
      V3_NAMES + V3_VALUES + columns + row + row.replace('X-ray', 'CT'),
    );
    expect(report.examples('column.missing').map((e) => e.message)).toEqual([
      expect.stringMatching(/: standard_charge\|discounted_cash$/),
      expect.stringMatching(/: count$/),
    ]);
    expect(records).toHaveLength(2);
    expect(report.rejected()).toBe(0);
  });

  it("says once each column of another version than the file's, and reads its values", () => {
    // A v2.2.0 header (hospital_location, no type 2 NPIs) over v3.0's columns.
    const older =
      'hospital_name,last_updated_on,version,hospital_location,hospital_address,' +
      `license_number|MA,"${CMS_AFFIRMATION}"\n` +
      'Test Hospital,2026-01-15,2.2.0,Test Hospital,1 Main St,1234,true\n';
    const row = TALL_ROW.replace(',120,,,,,,,', ',120,,,95,80,130,12,');
    const v3Columns = read(older + TALL_COLUMNS + row);
    expect(v3Columns.header?.version).toBe('2.2.0');
    expect(v3Columns.records[0]?.payers[0]).toMatchObject({ median: 95, p10: 80, p90: 130 });
    expect(v3Columns.report.examples('column.other-version').map((e) => e.message)).toEqual(
      ['median_amount', '10th_percentile', '90th_percentile', 'count'].map((name): unknown =>
        expect.stringMatching(`: ${name}, of version 3.0.0; the file says 2.2.0$`),
      ),
    );
    // A wide file's: once a column whatever the payers.
    const columns = [WIDE_ITEM_COLUMNS, widePayer('Aetna|PPO'), widePayer('Cigna|HMO')].join(',');
    const wide = read(`${older + columns}\n${mriRow('', dollarRate(300), dollarRate(310))}`);
    expect(wide.records[0]?.payers).toHaveLength(2);
    expect(wide.report.count('column.other-version')).toBe(4);
    // The estimated amount in a v3.0 file; and nothing to say of a v3.0 file's own columns.
    const estimated = read(
      V3_NAMES +
        V3_VALUES +
        TALL_COLUMNS.replace(',count,', ',count,estimated_amount,') +
        TALL_ROW.replace(',100,150,', ',,100,150,'),
    );
    expect(estimated.report.examples('column.other-version').map((e) => e.message)).toEqual([
      expect.stringMatching(/: estimated_amount, of versions 2.0.0 to 2.2.1; the file says 3.0.0$/),
    ]);
    expect(
      read(V3_NAMES + V3_VALUES + TALL_COLUMNS + TALL_ROW).report.count('column.other-version'),
    ).toBe(0);
  });

  it('asks a 2.0.0 file only for the columns its template has', () => {
    const names =
      'hospital_name,last_updated_on,version,hospital_location,hospital_address,' +
      `license_number|MA,"${CMS_AFFIRMATION}"\n`;
    const values = 'Test Hospital,2026-01-15,2.0.0,Test Hospital,1 Main St,1234,true\n';
    // No modifiers, drug or estimated amount columns (2.2.0 added them), and no generic notes.
    const columns =
      'description,code|1,code|1|type,setting,standard_charge|gross,standard_charge|discounted_cash,' +
      'payer_name,plan_name,standard_charge|negotiated_dollar,standard_charge|negotiated_percentage,' +
      'standard_charge|negotiated_algorithm,standard_charge|min,standard_charge|max,' +
      'standard_charge|methodology\n';
    const row = 'X-ray chest,71046,CPT,outpatient,250,200,Aetna,PPO,120,,,100,150,fee schedule\n';
    const { records, report } = read(names + values + columns + row);
    expect(records).toHaveLength(1);
    expect(report.examples('column.missing').map((e) => e.message)).toEqual([
      expect.stringMatching(/: additional_generic_notes$/),
    ]);
  });

  it('reads tall columns named payer, plan and modifier as their CMS columns, and says so', () => {
    const columns = TALL_COLUMNS.replace('modifiers', 'modifier')
      .replace('payer_name', 'payer')
      .replace('plan_name', 'plan');
    const { records, report } = read(
      V3_NAMES + V3_VALUES + columns + TALL_ROW.replace(',,outpatient', ',50,outpatient'),
    );
    expect(records[0]).toMatchObject({
      modifiers: ['50'],
      payers: [{ payerName: 'Aetna', planName: 'PPO' }],
    });
    expect(report.count('column.other-name')).toBe(3);
  });
});

describe('a wide modifier row', () => {
  it("keeps a payer's notes as its entry when the modifier's row is priced by notes alone", () => {
    const columns = `${WIDE_ITEM_COLUMNS},${widePayer('Aetna|PPO')}\n`;
    const notes =
      '150% payment adjustment for the item or service to which the modifier is appended';
    const row = `Bilateral procedure,,,50,both,,,,,,,,,,,,,,,,${notes}\n`;
    const { records, report } = read(V3_NAMES + V3_VALUES + columns + row);
    expect(records[0]?.payers).toEqual([
      expect.objectContaining({ payerName: 'Aetna', planName: 'PPO', dollar: null, notes }),
    ]);
    expect(report.count('csv.values-without-rate')).toBe(0);
  });

  it('keeps no entry for a payer whose notes on a modifier row are "N/A"', () => {
    const columns = `${WIDE_ITEM_COLUMNS},${widePayer('Aetna|PPO')}\n`;
    const row = 'Bilateral procedure,,,50,both,,,,,,,,,,,,,,,,N/A\n';
    const { records, report } = read(V3_NAMES + V3_VALUES + columns + row);
    expect(records[0]?.payers ?? []).toEqual([]);
    expect(report.count('csv.values-without-rate')).toBe(1);
  });
});

describe('a 3.0.0 JSON file', () => {
  it("says it names its locations with v2's hospital_location, and reads them", () => {
    const report = new ValidationReport();
    const parser = new JsonMrfParser(report);
    const file = {
      hospital_name: 'Test Hospital',
      last_updated_on: '2026-01-15',
      version: '3.0.0',
      hospital_location: ['Test Hospital'],
      hospital_address: ['1 Main St'],
      license_information: { license_number: '1234', state: 'MA' },
      type_2_npi: ['1234567893'],
      attestation: { attestation: CMS_ATTESTATION, confirm_attestation: true, attester_name: 'A' },
      standard_charge_information: [],
    };
    parser.push(Buffer.from(JSON.stringify(file)));
    parser.end();
    expect(parser.header?.locationNames).toEqual(['Test Hospital']);
    expect(report.count('v3.location-name')).toBe(1);
  });
});

describe('charges whose generic notes differ', () => {
  it('reads wide rows that differ only in their generic notes as two charges, each with its rates', () => {
    const { records, report } = read(
      wideFile('Aetna|PPO', 'Cigna|HMO') +
        mriRow('Facility fee', dollarRate(400), dollarRate(300)) +
        mriRow('Professional fee', dollarRate(150), dollarRate(120)),
    );
    // Before, the second row continued the first: its notes lost, its rates the facility fee's.
    expect(
      records.map((r) => [r.genericNotes, r.continues, r.payers.map((p) => p.dollar)]),
    ).toEqual([
      ['Facility fee', undefined, [400, 300]],
      ['Professional fee', undefined, [150, 120]],
    ]);
    expect([report.recordsRead, report.payersRead]).toEqual([2, 4]);
  });

  it('reads tall rows of one code as two charges when the file has payer notes and their generic notes differ', () => {
    const columns = TALL_COLUMNS.replace('\n', ',additional_payer_notes\n');
    const row = (notes: string, dollar: number) =>
      TALL_ROW.replace(',120,', `,${dollar},`).replace(',\n', `,${notes},\n`);
    const { records, report } = read(
      V3_NAMES + V3_VALUES + columns + row('Facility fee', 120) + row('Professional fee', 90),
    );
    expect(
      records.map((r) => [r.location, r.genericNotes, r.continues, r.payers.map((p) => p.dollar)]),
    ).toEqual([
      ['row 4', 'Facility fee', undefined, [120]],
      ['row 5', 'Professional fee', undefined, [90]],
    ]);
    expect(report.recordsRead).toBe(2);
  });
});

describe('a rate written again', () => {
  it('reads a wide row written twice once, and says where each of its rates was first', () => {
    const row = mriRow('', dollarRate(400), dollarRate(250));
    const { records, report } = read(wideFile('Aetna|PPO', 'Cigna|HMO') + row + row);
    expect(records.map((r) => [r.location, r.continues, r.payers.map((p) => p.dollar)])).toEqual([
      ['row 4', undefined, [400, 250]],
      ['row 5', 1, []],
    ]);
    expect([report.recordsRead, report.payersRead, report.rejected()]).toEqual([1, 2, 0]);
    expect(report.examples('csv.duplicate-rate').map((e) => [e.location, e.message])).toEqual([
      ['row 5, Aetna | PPO', expect.stringMatching(/, and was read once: as row 4$/)],
      ['row 5, Cigna | HMO', expect.stringMatching(/, and was read once: as row 4$/)],
    ]);
  });

  it("reads once a payer's rate repeated on each wide row of a charge another payer writes on several", () => {
    // As CMS's v2.0.0 wide example writes its hip replacement: Aetna's three algorithms, three
    // rows, and Cigna's one rate on each of them (once in the example's JSON and tall files).
    const algorithm = (text: string) => `,,${text},,,,,case rate,`;
    const { records, report } = read(
      wideFile('Aetna|PPO', 'Cigna|HMO') +
        ['MS-DRG', 'See contract', 'Outliers adjusted']
          .map((text) => mriRow('', algorithm(text), dollarRate(250)))
          .join(''),
    );
    expect(
      records.flatMap((r) => r.payers.map((p) => [p.payerName, p.algorithm ?? p.dollar])),
    ).toEqual([
      ['Aetna', 'MS-DRG'],
      ['Cigna', 250],
      ['Aetna', 'See contract'],
      ['Aetna', 'Outliers adjusted'],
    ]);
    expect(report.examples('csv.duplicate-rate').map((e) => e.location)).toEqual([
      'row 5, Cigna | HMO',
      'row 6, Cigna | HMO',
    ]);
  });

  it('reads a tall row written twice in its charge once, but keeps a rate that differs in its notes', () => {
    const noted = TALL_ROW.replace(',\n', ',per contract\n');
    const { records, report } = read(
      V3_NAMES + V3_VALUES + TALL_COLUMNS + TALL_ROW + TALL_ROW + noted,
    );
    expect(records.map((r) => r.payers.map((p) => [p.dollar, p.notes]))).toEqual([
      [
        [120, null],
        [120, 'per contract'],
      ],
    ]);
    expect(report.examples('csv.duplicate-rate').map((e) => [e.location, e.message])).toEqual([
      ['row 5', expect.stringMatching(/: as row 4$/)],
    ]);
    expect(report.payersRead).toBe(2);
  });
});

describe('a row with fewer values than columns', () => {
  it('rejects a wide row with a value left out before its amounts, and reads one short of its last values', () => {
    // The drug unit's empty value left out: every value after it one column to the left.
    const shifted = mriRow('', dollarRate(400), dollarRate(250)).replace(',,,1200,', ',,1200,');
    // Excel leaves out a row's empty values at its end: Cigna's notes, here.
    const trailing = mriRow('', dollarRate(400), dollarRate(250)).replace(/,\n$/, '\n');
    const { records, report } = read(wideFile('Aetna|PPO', 'Cigna|HMO') + shifted + trailing);
    expect(records.map((r) => [r.location, r.gross, r.discountedCash, r.payers.length])).toEqual([
      ['row 5', 1200, 1080, 2],
    ]);
    expect(report.examples('csv.misaligned-short').map((e) => [e.location, e.message])).toEqual([
      [
        'row 4',
        expect.stringMatching(
          /, and was not read: 29 values for 30 columns; drug_type_of_measurement "1200"$/,
        ),
      ],
    ]);
    expect([report.rejectedRecords, report.errorCount]).toEqual([1, 1]);
    expect(report.count('csv.field-count')).toBe(1);
  });

  it('rejects a tall row with a value left out before its amounts as a rate', () => {
    // Its modifiers' empty value left out: the setting where the modifiers go, a payer's name
    // where the discounted cash price goes.
    const shifted = TALL_ROW.replace(',,outpatient,', ',outpatient,');
    const { records, report } = read(V3_NAMES + V3_VALUES + TALL_COLUMNS + shifted + TALL_ROW);
    expect(records.map((r) => [r.location, r.setting, r.payers.length])).toEqual([
      ['row 5', 'outpatient', 1],
    ]);
    expect(report.examples('csv.misaligned-short').map((e) => e.message)).toEqual([
      expect.stringMatching(
        /: 21 values for 22 columns; standard_charge\|discounted_cash "Aetna"$/,
      ),
    ]);
    expect([report.rejectedPayers, report.rejectedRecords]).toEqual([1, 0]);
  });
});

describe("a wide file's columns that name no payer", () => {
  /** A payer's nine wide values without the methodology column's (see widePayer). */
  const noMethodology = (payer: string) =>
    widePayer(payer).replace(`,standard_charge|${payer}|methodology`, '');

  it('reads a methodology column that names no payer as the methodology of each payer without one', () => {
    const columns =
      [WIDE_ITEM_COLUMNS, noMethodology('Aetna|PPO'), widePayer('Cigna|HMO')].join(',') +
      ',standard_charge|methodology\n';
    const row =
      'MRI brain,70551,CPT,,outpatient,,,1200,1080,250,400,,400,,,,,,,,' +
      '250,,,,,,,per diem,,case rate\n';
    // And a row where Aetna has no rate: the shared methodology is none of its own.
    const cignaOnly = row
      .replace(',400,,,,,,,,250,', ',,,,,,,,,250,')
      .replace('MRI brain', 'CT head');
    const { records, report } = read(V3_NAMES + V3_VALUES + columns + row + cignaOnly);
    expect(records.map((r) => r.payers.map((p) => [p.payerName, p.methodology]))).toEqual([
      [
        ['Aetna', 'case rate'],
        ['Cigna', 'per diem'],
      ],
      [['Cigna', 'per diem']],
    ]);
    expect(report.examples('column.shared').map((e) => [e.location, e.message])).toEqual([
      [
        'column 30',
        expect.stringMatching(/: standard_charge\|methodology, read for 1 of 2 payers$/),
      ],
    ]);
    // Before, every Aetna rate was rejected for a missing methodology column, named per payer.
    expect(report.count('column.no-methodology')).toBe(0);
    expect([report.errorCount, report.rejected(), report.count('csv.values-without-rate')]).toEqual(
      [0, 0, 0],
    );
  });

  it("reads payer notes that name no payer as each payer's without its own, and on a modifier's row as its entry", () => {
    const noNotes = (payer: string) =>
      widePayer(payer).replace(`,additional_payer_notes|${payer}`, '');
    const columns =
      [WIDE_ITEM_COLUMNS, noNotes('Aetna|PPO'), widePayer('Cigna|HMO')].join(',') +
      ',additional_payer_notes\n';
    const notes = '150% payment adjustment';
    const rows =
      'MRI brain,70551,CPT,,outpatient,,,1200,1080,250,400,,400,,,,,,,fee schedule,' +
      `250,,,,,,,fee schedule,Cigna's own,See contract\n` +
      `Bilateral procedure,,,50,both,,,,,,,,,,,,,,,,,,,,,,,,,${notes}\n`;
    const { records, report } = read(V3_NAMES + V3_VALUES + columns + rows);
    expect(records.map((r) => r.payers.map((p) => [p.payerName, p.notes]))).toEqual([
      [
        ['Aetna', 'See contract'],
        ['Cigna', "Cigna's own"],
      ],
      [['Aetna', notes]],
    ]);
    expect(report.examples('column.shared').map((e) => e.message)).toEqual([
      expect.stringMatching(/: additional_payer_notes, read for 1 of 2 payers$/),
    ]);
    // Aetna's notes are read: its column is not missing.
    expect(report.count('column.missing')).toBe(0);
  });

  it('says shared payer notes on a row where no payer has a rate, rather than losing them', () => {
    const columns =
      [
        WIDE_ITEM_COLUMNS,
        widePayer('Aetna|PPO').replace(',additional_payer_notes|Aetna|PPO', ''),
      ].join(',') + ',additional_payer_notes\n';
    const row = 'MRI brain,70551,CPT,,outpatient,,,1200,1080,250,400,,,,,,,,,,Not covered\n';
    const { records, report } = read(V3_NAMES + V3_VALUES + columns + row);
    expect(records[0]?.payers).toEqual([]);
    expect(report.examples('csv.values-without-rate').map((e) => [e.location, e.message])).toEqual([
      ['row 4', expect.stringMatching(/: additional_payer_notes$/)],
    ]);
  });

  it('reads no dollar amount that names no payer, and says so naming the column', () => {
    const columns = `${WIDE_ITEM_COLUMNS},${widePayer('Aetna|PPO')},standard_charge|negotiated_dollar\n`;
    const { records, report } = read(
      V3_NAMES + V3_VALUES + columns + mriRow('', dollarRate(400)).replace('\n', ',999\n'),
    );
    expect(records[0]?.payers.map((p) => [p.payerName, p.dollar])).toEqual([['Aetna', 400]]);
    expect(report.examples('column.no-payer').map((e) => [e.location, e.message])).toEqual([
      [
        'column 22',
        'column of a wide file named no payer and plan, so its values were not read (whose they are cannot be told): standard_charge|negotiated_dollar',
      ],
    ]);
  });
});

describe('a wide payer whose columns hold no rate', () => {
  it('reads placeholders in every column, or a methodology alone, as no rate: said, not rejected', () => {
    const placeholders = 'N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A';
    const methodologyOnly = ',,,,,,,fee schedule,';
    const { records, report } = read(
      wideFile('Aetna|PPO', 'Cigna|HMO') +
        mriRow('', dollarRate(400), placeholders) +
        mriRow('', dollarRate(400), methodologyOnly).replace('MRI brain', 'CT head'),
    );
    expect(records.map((r) => r.payers.map((p) => p.payerName))).toEqual([['Aetna'], ['Aetna']]);
    // Before: enum.methodology "N/A", v3.count-invalid "N/A", required.negotiated-value, and two
    // rates rejected.
    expect([report.errorCount, report.rejected()]).toEqual([0, 0]);
    expect(report.examples('csv.values-without-rate').map((e) => e.location)).toEqual([
      'row 4, Cigna | HMO',
      'row 5, Cigna | HMO',
    ]);
  });
});

describe("where a wide rate's issues are said", () => {
  it('names the payer and plan beside the row, readable in plain words', () => {
    const { report } = read(
      wideFile('Aetna|PPO', 'Blue Cross|Gold Plus') +
        mriRow('', dollarRate(400), dollarRate(250).replace('fee schedule', 'capitation')),
    );
    const [example] = report.examples('enum.methodology');
    expect(example?.location).toBe('row 4, Blue Cross | Gold Plus');
    expect(plainLocation(example?.location ?? '')).toBe('row 4, Blue Cross | Gold Plus');
    expect(report.toText({ examples: true })).toContain(
      '  row 4, Blue Cross | Gold Plus: "capitation"',
    );
  });
});

describe('a value quoted after the space that follows its comma', () => {
  it('reads the value inside the quotes, a comma in it kept, and says so once a file', () => {
    const rows =
      TALL_ROW.replace('X-ray chest,71046,CPT,', 'X-ray chest, "71046", "CPT",') +
      TALL_ROW.replace('X-ray chest,71046,CPT,', 'MRI brain,\t"70551", "CPT",').replace(
        'fee schedule,\n',
        'fee schedule, "Facility fee, adult"\n',
      );
    const { records, report } = read(V3_NAMES + V3_VALUES + TALL_COLUMNS + rows);
    expect(records.map((r) => [r.description, r.codes, r.payers[0]?.notes])).toEqual([
      ['X-ray chest', [{ code: '71046', type: 'CPT' }], null],
      ['MRI brain', [{ code: '70551', type: 'CPT' }], 'Facility fee, adult'],
    ]);
    // Before, the codes were read with their quotes (`"71046"`, a type `"CPT"`).
    expect(report.examples('csv.spaced-quote').map((e) => [e.location, e.message])).toEqual([
      ['row 4', expect.stringMatching(/: "71046"$/)],
    ]);
    expect([report.count('csv.spaced-quote'), report.count('whitespace.trimmed')]).toEqual([1, 0]);
  });
});

describe('an inch mark written before the closing quote without doubling', () => {
  it('reads `"Catheter 8""` as Catheter 8" and the values after it in their columns, and says so', () => {
    // Its `""` is a doubled quote to a strict reader, which runs the value on: to the end of the
    // row (its quote read as text), or to the next quoted value (the row short of values).
    const unquoted = TALL_ROW.replace('X-ray chest', '"Catheter 8""');
    const quoted =
      TALL_ROW.replace(/\n$/, '')
        .replace('X-ray chest', 'Catheter 10"')
        .split(',')
        .map((v) => `"${v}"`)
        .join(',') + '\n';
    const { records, report } = read(V3_NAMES + V3_VALUES + TALL_COLUMNS + unquoted + quoted);
    expect(records.map((r) => [r.description, r.codes[0]?.code, r.payers[0]?.dollar])).toEqual([
      ['Catheter 8"', '71046', 120],
      ['Catheter 10"', '71046', 120],
    ]);
    expect(report.examples('csv.inner-quote').map((e) => [e.location, e.message])).toEqual([
      ['row 4', expect.stringMatching(/: "Catheter 8\\""$/)],
      ['row 5', expect.stringMatching(/: "Catheter 10\\""$/)],
    ]);
    expect([report.errorCount, report.rejected(), report.count('csv.unterminated-quote')]).toEqual([
      0, 0, 0,
    ]);
  });
});

describe('a tall row that names a payer but holds no rate', () => {
  it('reads placeholders, a methodology or notes alone as no rate: its charge read, said, not rejected', () => {
    const payerRow = (payer: string, rate: string, methodology: string, notes = '') =>
      TALL_ROW.replace('Aetna,PPO,120,,,', `${payer},${rate},`).replace(
        'fee schedule,\n',
        `${methodology},${notes}\n`,
      );
    const rows =
      TALL_ROW +
      payerRow('Cigna,HMO', 'N/A,N/A,N/A', 'N/A') +
      payerRow('Humana,PPO', ',,', 'fee schedule') +
      payerRow('UHC,PPO', '-,-,-', '-', 'Not covered') +
      payerRow('Cigna,HMO', 'N/A,,', 'N/A').replace('X-ray chest,71046', 'CT head,70450');
    const { records, report } = read(V3_NAMES + V3_VALUES + TALL_COLUMNS + rows);
    expect(records.map((r) => [r.description, r.gross, r.payers.map((p) => p.payerName)])).toEqual([
      ['X-ray chest', 250, ['Aetna']],
      ['CT head', 250, []],
    ]);
    // Before: enum.methodology "N/A", required.negotiated-value, v3.count-required and four
    // rates rejected, where the wide file's payer is said as having no rate.
    expect([report.errorCount, report.rejected()]).toEqual([0, 0]);
    expect(report.examples('csv.values-without-rate').map((e) => e.location)).toEqual([
      'row 5',
      'row 6',
      'row 7',
      'row 8',
    ]);
  });

  it("keeps a modifier's row priced by its generic notes alone as its payer's entry", () => {
    const notes = '150% payment adjustment';
    const modifierRow = TALL_ROW.replace('X-ray chest,71046,CPT,,outpatient', 'Bilateral,,,50,both')
      .replace(',250,200,', ',,,')
      .replace('Aetna,PPO,120,', 'Aetna,PPO,,')
      .replace(',100,150,fee schedule,\n', `,,,,${notes}\n`);
    const { records, report } = read(V3_NAMES + V3_VALUES + TALL_COLUMNS + TALL_ROW + modifierRow);
    expect(records[1]).toMatchObject({ modifiers: ['50'], codes: [] });
    expect(records[1]?.payers.map((p) => [p.payerName, p.notes])).toEqual([['Aetna', notes]]);
    expect(report.count('csv.values-without-rate')).toBe(0);
  });
});

describe('a fill-down export', () => {
  it('says once that rows leave their description and code to the row above, and rejects them as before', () => {
    // A spreadsheet's export writes the item's description and code on its first row only.
    const filledDown = (payer: string) =>
      TALL_ROW.replace('X-ray chest,71046,CPT,', ',,,').replace('Aetna,PPO', payer);
    const ct = (row: string) => row.replace('X-ray chest,71046', 'CT head,70450');
    const rows =
      TALL_ROW +
      filledDown('Cigna,HMO') +
      filledDown('Humana,PPO') +
      ct(TALL_ROW) +
      ct(filledDown('UHC,PPO'));
    const { records, report } = read(V3_NAMES + V3_VALUES + TALL_COLUMNS + rows);
    // Nothing is filled in: a value is never taken from another row.
    expect(records.map((r) => [r.description, r.payers.length])).toEqual([
      ['X-ray chest', 1],
      ['CT head', 1],
    ]);
    expect(report.examples('csv.fill-down').map((e) => [e.location, e.message])).toEqual([
      ['row 5', expect.stringMatching(/: after "X-ray chest"$/)],
    ]);
    expect(report.count('csv.fill-down')).toBe(1);
    expect(report.count('required.description')).toBe(2);
  });

  it('says nothing of a row without a description whose code is written', () => {
    const rows = TALL_ROW + TALL_ROW.replace('X-ray chest,', ',').replace('Aetna', 'Cigna');
    const { report } = read(V3_NAMES + V3_VALUES + TALL_COLUMNS + rows);
    expect([report.count('required.description'), report.count('csv.fill-down')]).toEqual([1, 0]);
  });
});
