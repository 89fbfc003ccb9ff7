import { describe, expect, it } from 'vitest';
import type { ChargeRecord, MrfHeader } from '../model.ts';
import { ValidationReport } from '../validate/report.ts';
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
