import { describe, expect, it } from 'vitest';
import { ValidationReport } from '../validate/report.ts';
import type { RuleId } from '../validate/rules.ts';
import {
  CODE_TYPES_V2_SET,
  CODE_TYPES_V3_SET,
  ALLOWED,
  allowedAmount,
  amount,
  CHARGE,
  codeType,
  codeValue,
  cmsVersion,
  confirmation,
  isoDate,
  jsonAmount,
  jsonText,
  modifierCodes,
  NameNormaliser,
  PERCENT,
  splitPipes,
  text,
} from './normalise.ts';
import { methodology, setting } from './normalise.ts';

/** What a normaliser returned, and the rules it reported, in order. */
function read<T>(fn: (report: ValidationReport) => T): { value: T; rules: RuleId[] } {
  const report = new ValidationReport();
  const value = fn(report);
  return { value, rules: report.rules().map((rule) => rule.rule) };
}

describe('jsonText', () => {
  it.each([
    ['Office visit', 'Office visit', []],
    [99213, '99213', ['json.number-as-text']],
    [true, 'true', ['json.number-as-text']],
    // Left out is how a JSON file says nothing; null or "" is a value that is none (CMS's
    // validator calls it an error), read as left out and said.
    [undefined, null, []],
    [null, null, ['json.empty-value']],
    ['', null, ['json.empty-value']],
    [' ', null, ['json.empty-value']],
    [{ code: '1' }, null, ['json.wrong-type']],
  ])('reads %j as %j', (value, textValue, rules) => {
    expect(read((r) => jsonText(value, r, 'item 1', 'code'))).toEqual({ value: textValue, rules });
  });
});

describe('isoDate', () => {
  it.each([
    ['2026-04-01', '2026-04-01', []],
    // A time after the date: the schemas' format is a date alone, so it is said.
    ['2026-04-01T00:00:00Z', '2026-04-01', ['date.other-form']],
    ['2026-04-01 13:45', '2026-04-01', ['date.other-form']],
    ['4/1/2026', '2026-04-01', ['date.mm-dd-yyyy']],
    ['04/01/2026 12:00:00 AM', '2026-04-01', ['date.mm-dd-yyyy']],
    ['4/1/2026 0:00', '2026-04-01', ['date.mm-dd-yyyy']],
    ['2026/04/01', '2026-04-01', ['date.other-form']],
    ['2026-4-1', '2026-04-01', ['date.other-form']],
    ['2026.04.01', '2026-04-01', ['date.other-form']],
    ['20260401', '2026-04-01', ['date.other-form']],
    ['4/1/26', '2026-04-01', ['date.other-form']],
    ['1-Apr-2026', '2026-04-01', ['date.other-form']],
    ['01 APR 26', '2026-04-01', ['date.other-form']],
    ['April 1, 2026', '2026-04-01', ['date.other-form']],
    ['Sept. 30 2025', '2025-09-30', ['date.other-form']],
    ['December 31st, 2025', '2025-12-31', ['date.other-form']],
    ['Sunday, January 5, 2025', '2025-01-05', ['date.other-form']],
    ['Wed. Apr 1, 2026', '2026-04-01', ['date.other-form']],
    ['Jan 5, 2025 12:00 AM', '2025-01-05', ['date.other-form']],
    ['January 5, 2025, 00:00:00', '2025-01-05', ['date.other-form']],
    ['45662.0', '2025-01-05', ['date.other-form']],
    // A spreadsheet's day number, as a cell formatted as a number shows a date.
    ['45662', '2025-01-05', ['date.other-form']],
    ['46113', '2026-04-01', ['date.other-form']],
  ])('reads %j as %s', (raw, iso, rules) => {
    expect(read((r) => isoDate(raw, r, 'last_updated_on'))).toEqual({ value: iso, rules });
  });

  it.each([
    '2026-02-30',
    '2026/13/01',
    '20261301',
    '2/30/26',
    '31-Foo-2026',
    'Ma 1, 2026',
    '2026',
    'yesterday',
    '1/4',
    // Europe writes the day first, the US the month: which one cannot be told.
    '01.05.2025',
    // A day number before 2000 or after 2099 is likelier something else.
    '12345',
    '99999',
    '45662.5',
    'Someday, April 1, 2026',
    'April 1, 2026 soon',
  ])('refuses %j', (raw) => {
    expect(read((r) => isoDate(raw, r, 'last_updated_on'))).toEqual({
      value: null,
      rules: ['date.invalid'],
    });
  });
});

describe('confirmation', () => {
  it.each([
    ['true', true, []],
    ['FALSE', false, []],
    ['Yes', true, ['attestation.other-word']],
    ['Y', true, ['attestation.other-word']],
    ['1', true, ['attestation.other-word']],
    ['X', true, ['attestation.other-word']],
    ['TRUE.', true, []],
    ['No', false, ['attestation.other-word']],
    ['maybe', null, ['attestation.unknown-word']],
    ['', null, []],
  ] as const)('reads %j as %s', (raw, value, rules) => {
    expect(read((r) => confirmation(raw, r, 'row 2, attestation'))).toEqual({ value, rules });
  });
});

describe('amount', () => {
  it('reads a percentage written with a % sign, in a percentage field only', () => {
    expect(read((r) => amount('80%', r, 'row 3', 'negotiated_percentage', PERCENT))).toEqual({
      value: 80,
      rules: ['number.percent-sign'],
    });
    expect(read((r) => amount(' 45.5 % ', r, 'row 3', 'negotiated_percentage', PERCENT))).toEqual({
      value: 45.5,
      rules: ['number.percent-sign'],
    });
    expect(read((r) => amount('80%', r, 'row 3', 'negotiated_dollar'))).toEqual({
      value: Number.NaN,
      rules: ['number.invalid'],
    });
  });

  it.each(['$45', '$ 45', '45$', '$45%'])(
    'refuses %j in a percentage field, where a dollar amount or a percentage cannot be told apart',
    (raw) => {
      expect(read((r) => amount(raw, r, 'row 3', 'negotiated_percentage', PERCENT))).toEqual({
        value: Number.NaN,
        rules: ['number.invalid'],
      });
      expect(
        read((r) => jsonAmount(raw, r, 'item', 'standard_charge_percentage', PERCENT)).value,
      ).toBeNaN();
    },
  );

  it('refuses a JSON number too large to read (1e999, which JSON.parse reads as Infinity)', () => {
    const { standard_charge_dollar: huge } = JSON.parse('{"standard_charge_dollar": 1e999}') as {
      standard_charge_dollar: number;
    };
    expect(read((r) => jsonAmount(huge, r, 'item', 'standard_charge_dollar'))).toEqual({
      value: Number.NaN,
      rules: ['number.invalid'],
    });
    expect(read((r) => jsonAmount(huge, r, 'item', 'gross_charge', CHARGE))).toEqual({
      value: null,
      rules: ['charge.amount-invalid'],
    });
  });

  it('reads an estimated or allowed amount written but unusable as NaN, for the rules to tell it from none', () => {
    for (const raw of ['abc', '-5', '0'])
      expect(read((r) => amount(raw, r, 'row 3', 'median_amount', ALLOWED))).toEqual({
        value: Number.NaN,
        rules: ['allowed.invalid'],
      });
    for (const value of [{}, -5, Infinity])
      expect(read((r) => jsonAmount(value, r, 'item', 'median_amount', ALLOWED))).toEqual({
        value: Number.NaN,
        rules: ['allowed.invalid'],
      });
    expect(read((r) => allowedAmount(999_999_999, r, 'row 3', 'median_amount'))).toEqual({
      value: Number.NaN,
      rules: ['number.nine-nines'],
    });
    // Not written, or a placeholder, is none.
    expect(read((r) => amount('', r, 'row 3', 'median_amount', ALLOWED)).value).toBeNull();
    expect(read((r) => amount('N/A', r, 'row 3', 'median_amount', ALLOWED)).value).toBeNull();
  });

  it('keeps a percentage under 1 as written, with a warning that it may be a fraction', () => {
    expect(read((r) => amount('0.45', r, 'row 3', 'negotiated_percentage', PERCENT))).toEqual({
      value: 0.45,
      rules: ['number.percentage-under-one'],
    });
    expect(read((r) => jsonAmount(0.45, r, 'item', 'standard_charge_percentage', PERCENT))).toEqual(
      {
        value: 0.45,
        rules: ['number.percentage-under-one'],
      },
    );
    // 1% and more, and amounts in dollars under $1, are as the templates write them.
    for (const value of [1, 45, 250]) {
      expect(
        read((r) => jsonAmount(value, r, 'item', 'standard_charge_percentage', PERCENT)),
      ).toEqual({ value, rules: [] });
    }
    expect(read((r) => amount('0.45', r, 'row 3', 'negotiated_dollar'))).toEqual({
      value: 0.45,
      rules: [],
    });
    expect(read((r) => jsonAmount(0.45, r, 'item', 'standard_charge_dollar'))).toEqual({
      value: 0.45,
      rules: [],
    });
  });

  it.each(['%', '%%', 'abc%', '-5%', '0%'])('refuses the percentage %j', (raw) => {
    const { value, rules } = read((r) => amount(raw, r, 'row 3', 'negotiated_percentage', PERCENT));
    expect(value).toBeNaN();
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatch(/^number\.(invalid|not-positive)$/);
  });

  it.each(['(80)', '(80.00)', '$(1,200.50)', '( 45 )', '80.00-', '$1,200.50-', '(1 200)'])(
    'refuses %j, a negative as accounting or SAP writes it, as not positive rather than unreadable',
    (raw) => {
      expect(read((r) => amount(raw, r, 'row 3', 'gross'))).toEqual({
        value: Number.NaN,
        rules: ['number.not-positive'],
      });
    },
  );

  it("reads a charge's own 0 (gross, cash, min, max) as none, with an error that keeps the charge", () => {
    for (const [raw, rules] of [
      ['0', ['number.zero']],
      ['0.00', ['number.zero']],
      [' 0 ', ['number.zero', 'whitespace.trimmed']],
      ['$0.00', ['number.zero', 'number.formatted']],
    ] as const) {
      expect(read((r) => amount(raw, r, 'row 3', 'gross', CHARGE))).toEqual({
        value: null,
        rules,
      });
    }
    expect(read((r) => jsonAmount(0, r, 'item', 'gross_charge', CHARGE))).toEqual({
      value: null,
      rules: ['number.zero'],
    });
    // A JSON amount of null or "" is none, and said; left out, it is none without a word.
    for (const value of [null, '', ' ']) {
      expect(read((r) => jsonAmount(value, r, 'item', 'gross_charge', CHARGE))).toEqual({
        value: null,
        rules: ['json.empty-value'],
      });
    }
    expect(read((r) => jsonAmount(undefined, r, 'item', 'gross_charge', CHARGE))).toEqual({
      value: null,
      rules: [],
    });
    // A negative or unreadable one is none too, and said (session 44: before, it was refused and
    // its charge rejected with its rates); a rate's 0 still rejects the rate.
    for (const raw of ['-5', 'abc', '(80.00)'])
      expect(read((r) => amount(raw, r, 'row 3', 'gross', CHARGE))).toEqual({
        value: null,
        rules: ['charge.amount-invalid'],
      });
    expect(read((r) => jsonAmount({}, r, 'item', 'gross_charge', CHARGE))).toEqual({
      value: null,
      rules: ['charge.amount-invalid'],
    });
    expect(read((r) => amount('0', r, 'row 3', 'negotiated_dollar')).rules).toEqual([
      'number.not-positive',
    ]);
  });

  it('still reads plain, formatted and placeholder amounts as before', () => {
    expect(read((r) => amount('1200', r, 'row 3', 'gross', PERCENT))).toEqual({
      value: 1200,
      rules: [],
    });
    expect(read((r) => amount('$1,200.50', r, 'row 3', 'gross'))).toEqual({
      value: 1200.5,
      rules: ['number.formatted'],
    });
    expect(read((r) => amount('N/A', r, 'row 3', 'gross', PERCENT))).toEqual({
      value: null,
      rules: ['value.placeholder'],
    });
  });

  it.each([
    ['USD 400', 400],
    ['400 USD', 400],
    ['usd 1,200.50', 1200.5],
    ['US$400', 400],
    ['$400 USD', 400],
  ])('reads %j, the currency named as a word, as %d', (raw, value) => {
    expect(read((r) => amount(raw, r, 'row 3', 'gross'))).toEqual({
      value,
      rules: ['number.formatted'],
    });
  });

  it.each(['USD', 'US 400', '400 USDX', 'USD 4O0'])('refuses %j', (raw) => {
    expect(Number.isNaN(read((r) => amount(raw, r, 'row 3', 'gross')).value)).toBe(true);
  });

  it('refuses a percentage written with USD, as one written with $', () => {
    expect(Number.isNaN(read((r) => amount('USD 45%', r, 'row 3', 'pct', PERCENT)).value)).toBe(
      true,
    );
  });

  it.each([
    '1200,50',
    '1 234,56',
    '12,34',
    '12 34',
    '125 00',
    '1 2345.00',
    '1,2345.00',
    '0,123',
    '$0,500.00',
    '0 123',
    '0x1F',
    ' 0x1f ',
    '$0x1F',
    '0b101',
    '0o17',
  ])(
    'refuses %j, a decimal comma, a space not between thousands or a number not in decimal, rather than read it as another number',
    (raw) => {
      expect(read((r) => amount(raw, r, 'row 3', 'gross'))).toEqual({
        value: Number.NaN,
        rules: ['number.invalid'],
      });
    },
  );

  it('reads commas that separate thousands, however many', () => {
    for (const [raw, value] of [
      ['1,234', 1234],
      ['$1,234,567.89', 1234567.89],
      [' $ 12,000 ', 12000],
      ['1 234 567.89', 1234567.89],
      ['$ 1 200', 1200],
      ['1  200', 1200],
      ['0.5', 0.5],
      ['.5', 0.5],
    ] as const) {
      expect(read((r) => amount(raw, r, 'row 3', 'gross')).value, raw).toBe(value);
    }
    expect(read((r) => jsonAmount('1200,50', r, 'item', 'gross_charge')).value).toBeNaN();
  });

  it('reads an amount with stray spaces around it, and says so', () => {
    expect(read((r) => amount(' 120 ', r, 'row 3', 'gross'))).toEqual({
      value: 120,
      rules: ['whitespace.trimmed'],
    });
    expect(read((r) => amount('\t120', r, 'row 3', 'gross'))).toEqual({
      value: 120,
      rules: ['whitespace.trimmed'],
    });
    expect(read((r) => amount('   ', r, 'row 3', 'gross'))).toEqual({ value: null, rules: [] });
  });

  it.each(['\u00a0120', '120\u00a0', '\u200b120', '120\u200b', '\ufeff120'])(
    'reads %j, a number beside a no-break, zero-width space or byte-order mark, and says so',
    (raw) => {
      const { value, rules } = read((r) => amount(raw, r, 'row 3', 'gross'));
      expect(value).toBe(120);
      expect(rules).toContain('whitespace.trimmed');
    },
  );
  it('reads "$120" beside a zero-width space as a formatted number', () => {
    expect(read((r) => amount('$120\u200b', r, 'row 3', 'gross'))).toEqual({
      value: 120,
      rules: ['number.formatted'],
    });
  });

  it('reads an amount in scientific notation, and says a spreadsheet may have rounded it', () => {
    expect(read((r) => amount('1.23E+05', r, 'row 3', 'gross'))).toEqual({
      value: 123000,
      rules: ['number.scientific'],
    });
    expect(read((r) => amount('4.5e1', r, 'row 3', 'rate', PERCENT))).toEqual({
      value: 45,
      rules: ['number.scientific'],
    });
    expect(read((r) => amount('1200.50', r, 'row 3', 'gross')).rules).toEqual([]);
  });

  it('reads "$ -", the accounting format of 0, as zero: none for a charge, refused for a rate', () => {
    expect(read((r) => amount(' $ -   ', r, 'row 3', 'gross', CHARGE))).toEqual({
      value: null,
      rules: ['number.zero', 'number.formatted'],
    });
    expect(read((r) => amount('$-', r, 'row 3', 'standard_charge_dollar'))).toEqual({
      value: Number.NaN,
      rules: ['number.not-positive', 'number.formatted'],
    });
    // A bare "-" stays a placeholder, as before.
    expect(read((r) => amount('-', r, 'row 3', 'gross')).rules).toEqual(['value.placeholder']);
  });

  it.each(['nan', 'NaN', '#N/A', ' n/a ', '--', 'Not Applicable', '—'])(
    'reads %j, which pandas and spreadsheets write in empty cells, as no value',
    (raw) => {
      expect(read((r) => amount(raw, r, 'row 3', 'gross'))).toEqual({
        value: null,
        rules: ['value.placeholder'],
      });
    },
  );
});

describe('settings, methodologies and code types spelled another way', () => {
  it.each([
    ['OP', 'outpatient'],
    ['IP', 'inpatient'],
    ['Out-Patient', 'outpatient'],
    ['in patient', 'inpatient'],
    ['Inpatient/Outpatient', 'both'],
    ['IP/OP', 'both'],
    ['Outpatient and Inpatient', 'both'],
    ['Inpt', 'inpatient'],
    ['Inpatient|Outpatient', 'both'],
    ['Inpatient, Outpatient', 'both'],
    ['IP, OP', 'both'],
    ['Inpatient;Outpatient', 'both'],
    ['Both Inpatient and Outpatient', 'both'],
    ['Inpatient and/or Outpatient', 'both'],
    ['Outpatient or Inpatient', 'both'],
  ])('reads the setting %j as %s', (raw, value) => {
    expect(read((r) => setting(raw, r, 'row 3'))).toEqual({ value, rules: ['enum.spelling'] });
  });

  it.each([
    ['fee-schedule', 'fee schedule'],
    ['Case_Rate', 'case rate'],
    ['per-diem', 'per diem'],
    ['PerDiem', 'per diem'],
    ['Percent of total billed charge', 'percent of total billed charges'],
    ['percentage of total billed charges', 'percent of total billed charges'],
    ['Percent of Total Charges', 'percent of total billed charges'],
    ['% of billed charges', 'percent of total billed charges'],
    ['% of Total Billed Charges', 'percent of total billed charges'],
    ['Fee Schedules', 'fee schedule'],
    ['Percent of Billed', 'percent of total billed charges'],
    ['% of Gross Charges', 'percent of total billed charges'],
    ['Pct of Charges', 'percent of total billed charges'],
    ['Per Case', 'case rate'],
    ['Per Diem Rate', 'per diem'],
    ['Per Day', 'per diem'],
  ])('reads the methodology %j as %s', (raw, value) => {
    expect(read((r) => methodology(raw, r, 'row 3'))).toEqual({ value, rules: ['enum.spelling'] });
  });

  it('keeps the letter-case and space warnings for what differs only in those', () => {
    expect(read((r) => methodology('Fee Schedule', r, 'row 3'))).toEqual({
      value: 'fee schedule',
      rules: ['enum.title-case'],
    });
    expect(read((r) => setting(' outpatient', r, 'row 3'))).toEqual({
      value: 'outpatient',
      rules: ['whitespace.trimmed'],
    });
  });

  it('leaves a value that means something else unknown', () => {
    for (const raw of ['O', 'outpatients', 'ER', 'Inpatient, ER', 'IP, Observation']) {
      expect(read((r) => setting(raw, r, 'row 3')).value).toBeUndefined();
    }
    for (const raw of ['fee', 'fee for service', 'percent']) {
      expect(read((r) => methodology(raw, r, 'row 3')).value).toBeUndefined();
    }
  });

  it.each([
    ['MS DRG', 'MS-DRG'],
    ['ms_drg', 'MS-DRG'],
    ['MSDRG', 'MS-DRG'],
    ['APR DRG', 'APR-DRG'],
    ['CPT4', 'CPT'],
    ['CPT-4', 'CPT'],
    ['CPT®', 'CPT'],
    ['HCPC', 'HCPCS'],
    ['Rev Code', 'RC'],
    ['REV', 'RC'],
    ['HCPCS Level II', 'HCPCS'],
    ['HCPCS-II', 'HCPCS'],
    ['NDC11', 'NDC'],
    ['NDC-10', 'NDC'],
    ['National Drug Code', 'NDC'],
    ['ICD-10', 'ICD'],
    ['ICD-10-PCS', 'ICD'],
    ['ICD9', 'ICD'],
    ['Charge Code', 'CDM'],
    ['Chargemaster', 'CDM'],
    ['CPT Code', 'CPT'],
    ['HCPCS Code', 'HCPCS'],
    ['RC Code', 'RC'],
    ['Rev Cd', 'RC'],
    ['C.P.T.', 'CPT'],
    ['MS-DRG Code', 'MS-DRG'],
    ['CPT/HCPCS', 'HCPCS'],
    ['HCPCS/CPT', 'HCPCS'],
    ['CPT-HCPCS', 'HCPCS'],
  ])('reads the code type %j as %s', (raw, value) => {
    expect(read((r) => codeType(CODE_TYPES_V3_SET, r, raw, 'row 3'))).toEqual({
      value,
      rules: ['enum.spelling'],
    });
  });

  it('keeps a type outside the CMS list, or outside the file version, and warns', () => {
    expect(read((r) => codeType(CODE_TYPES_V3_SET, r, 'UB04', 'row 3'))).toEqual({
      value: 'UB04',
      rules: ['enum.code-type'],
    });
    expect(read((r) => codeType(CODE_TYPES_V3_SET, r, 'Code', 'row 3'))).toEqual({
      value: 'CODE',
      rules: ['enum.code-type'],
    });
    expect(read((r) => codeType(CODE_TYPES_V2_SET, r, 'MS LTC DRG', 'row 3'))).toEqual({
      value: 'MS LTC DRG',
      rules: ['enum.code-type'],
    });
    expect(read((r) => codeType(CODE_TYPES_V3_SET, r, 'MS LTC DRG', 'row 3'))).toEqual({
      value: 'MS-LTC-DRG',
      rules: ['enum.spelling'],
    });
  });
});

describe('codeValue', () => {
  it.each([
    ['RC', '450', '0450'],
    ['RC', '1', '0001'],
    ['MS-DRG', '65', '065'],
    ['MS-DRG', '1', '001'],
    ['DRG', '87', '087'],
    ['APR-DRG', '45', '045'],
    ['MS-LTC-DRG', '7', '007'],
    ['CPT', '100', '00100'],
    ['CPT', '1999', '01999'],
    ['HCPCS', '170', '00170'],
  ])('gives %s %j its leading zeros back: %j', (type, code, value) => {
    expect(read((r) => codeValue(r, type, code, 'row 3'))).toEqual({
      value,
      rules: ['code.leading-zeros'],
    });
  });

  it.each([
    ['NDC', '5.04E+10'],
    ['CDM', '1.2345e+14'],
    ['CPT', '9.301E+04'],
  ])("says %s %j is in a spreadsheet's scientific notation, and keeps it", (type, code) => {
    expect(read((r) => codeValue(r, type, code, 'row 3'))).toEqual({
      value: code,
      rules: ['code.scientific'],
    });
  });

  it.each([
    ['HCPCS', 'j0665', 'J0665'],
    ['CPT', '0001u', '0001U'],
  ])('upper-cases %s %j', (type, code, value) => {
    expect(read((r) => codeValue(r, type, code, 'row 3'))).toEqual({
      value,
      rules: ['code.lower-case'],
    });
  });

  it.each([
    ['RC', '0450'],
    ['RC', '045A'],
    ['MS-DRG', '065'],
    ['CPT', '99213'],
    ['CPT', '12'],
    ['HCPCS', 'J0665'],
    ['HCPCS', '0001U'],
    ['NDC', '409174630'],
    ['CDM', '450'],
    ['LOCAL', 'abc'],
    ['APC', '5'],
  ])('keeps %s %j as written', (type, code) => {
    expect(read((r) => codeValue(r, type, code, 'row 3'))).toEqual({ value: code, rules: [] });
  });

  it.each([
    ['RC', '450.0', '0450', ['code.decimal', 'code.leading-zeros']],
    ['CPT', '99213.0', '99213', ['code.decimal']],
    ['MS-DRG', '470.00', '470', ['code.decimal']],
    ['CDM', '123456.0', '123456', ['code.decimal']],
    ['RC', "'0450", '0450', ['code.apostrophe']],
    ['RC', "'450", '0450', ['code.apostrophe', 'code.leading-zeros']],
    ['HCPCS', "'J0665", 'J0665', ['code.apostrophe']],
    ['RC', "'450.0", '0450', ['code.apostrophe', 'code.decimal', 'code.leading-zeros']],
  ])('reads %s %j, as pandas or a spreadsheet wrote it, as %j', (type, code, value, rules) => {
    expect(read((r) => codeValue(r, type, code, 'row 3'))).toEqual({ value, rules });
  });

  it.each([
    ['CPT', 'N/A'],
    ['CPT', '-'],
    ['RC', 'NULL'],
    ['CPT', '0'],
    ['RC', '0000'],
    ['RC', '0.0'],
    ['CDM', 'none'],
    ['HCPCS', '#N/A'],
  ])('reads %s %j, a placeholder, as no code (empty), and says so', (type, code) => {
    const { value, rules } = read((r) => codeValue(r, type, code, 'row 3'));
    expect(value).toBe('');
    expect(rules).toContain('code.placeholder');
  });

  it.each([
    ['ICD', '250.0'],
    ['RC', '450.5'],
    ['CDM', '12.0A'],
    ['LOCAL', "'"],
    ['CDM', "O'Brien"],
  ])('keeps %s %j, which is no decimal whole number, as written', (type, code) => {
    expect(read((r) => codeValue(r, type, code, 'row 3'))).toEqual({ value: code, rules: [] });
  });
});

describe('modifierCodes', () => {
  it.each([
    ['59.0', '59', ['code.decimal']],
    ['50.00', '50', ['code.decimal']],
    ["'59", '59', ['code.apostrophe']],
    ["'25.0", '25', ['code.apostrophe', 'code.decimal']],
    ['tc', 'TC', ['code.lower-case']],
    ['Lt', 'LT', ['code.lower-case']],
    ["'rt", 'RT', ['code.apostrophe', 'code.lower-case']],
  ])('reads %j, as pandas or a spreadsheet wrote it, as %j', (written, value, rules) => {
    expect(read((r) => modifierCodes([written], r, 'row 3'))).toEqual({ value: [value], rules });
  });

  it.each([['59'], ['TC'], ['GA'], ['X1'], ['5.5'], ['59.5'], ['bilateral'], ['F1A']])(
    'keeps %j as written',
    (written) => {
      expect(read((r) => modifierCodes([written], r, 'row 3'))).toEqual({
        value: [written],
        rules: [],
      });
    },
  );

  it.each([
    ['26, TC', ['26', 'TC']],
    ['26,TC', ['26', 'TC']],
    ['GA GY', ['GA', 'GY']],
    ['59; xu', ['59', 'XU']],
    ['LT/RT', ['LT', 'RT']],
    ['26 , TC, 59', ['26', 'TC', '59']],
  ])('reads %j, modifiers separated by another mark than |, as %j', (written, value) => {
    const { value: list, rules } = read((r) => modifierCodes([written], r, 'row 3'));
    expect(list).toEqual(value);
    expect(rules[0]).toBe('modifier.separator');
  });

  it.each([['26,'], ['2, TC'], ['26 TCX'], ['bilateral procedure']])(
    'keeps %j, which is not a list of modifiers, as written',
    (written) => {
      expect(read((r) => modifierCodes([written], r, 'row 3')).value).toEqual([written]);
    },
  );

  it.each([['N/A'], ['NA'], ['n/a'], ['-'], ['None'], ['#N/A'], ['nan'], ['0'], ['00']])(
    'leaves out %j, a placeholder, as no modifier, and says so',
    (written) => {
      const report = new ValidationReport();
      expect(modifierCodes(['26', written, 'TC'], report, 'row 3')).toEqual(['26', 'TC']);
      const [example] = report.examples('value.placeholder');
      expect(example?.message).toContain(`modifier ${JSON.stringify(written)}`);
    },
  );

  it('reads each modifier of a list, names the modifier in the example and keeps the list', () => {
    const report = new ValidationReport();
    const list = ['26', '59.0', 'tc'];
    expect(modifierCodes(list, report, 'row 3')).toBe(list);
    expect(list).toEqual(['26', '59', 'TC']);
    const [example] = report.examples('code.decimal');
    expect(example?.location).toBe('row 3');
    expect(example?.message).toContain('modifier 59.0');
  });
});

describe('cmsVersion', () => {
  it.each([
    ['3.0.0', '3.0.0'],
    ['V3.0', '3.0.0'],
    ['3', '3.0.0'],
    ['2.2', '2.2.0'],
    ['Version 2.2.0', '2.2.0'],
    ['version: 3.0.0', '3.0.0'],
    ['CMS Template v2.0', '2.0.0'],
    ['ver. 2.1.0', '2.1.0'],
    ['v.2.2.1', '2.2.1'],
    ['2.0.0.', '2.0.0'],
  ])('reads %j as %j', (written, version) => {
    expect(cmsVersion(written)).toBe(version);
  });

  it.each(['9.1', '1.0', 'Version 4', 'latest', '2.2.1 draft', 'v2.3', '2022-01-01'])(
    'knows no version in %j',
    (written) => {
      expect(cmsVersion(written)).toBeNull();
    },
  );
});

describe('text and splitPipes', () => {
  it('trim stray spaces, and count them only when given a report', () => {
    expect(read((r) => text(' Office visit ', r, 'row 4', 'description'))).toEqual({
      value: 'Office visit',
      rules: ['whitespace.trimmed'],
    });
    expect(read((r) => text('Office visit', r, 'row 4', 'description'))).toEqual({
      value: 'Office visit',
      rules: [],
    });
    expect(read((r) => text('  ', r, 'row 4', 'description'))).toEqual({ value: null, rules: [] });
    expect(text(' Office visit ')).toBe('Office visit');
  });

  it('trim no-break and zero-width spaces and byte-order marks too, showing them in the example', () => {
    for (const [raw, shownAs] of [
      ['70551\u00a0', '"70551\\u00a0"'],
      ['\u200b70551', '"\\u200b70551"'],
      ['\ufeff70551', '"\\ufeff70551"'],
      ['70551\u2060', '"70551\\u2060"'],
      ['\u3000 70551 \u202f', '"\\u3000 70551 \\u202f"'],
    ]) {
      const report = new ValidationReport();
      expect(text(raw as string, report, 'row 4', 'code|1')).toBe('70551');
      expect(report.count('whitespace.trimmed')).toBe(1);
      expect(report.examples('whitespace.trimmed')[0]?.message).toContain(`code|1 ${shownAs}`);
    }
    expect(read((r) => text('\u00a0\u200b', r, 'row 4', 'code|1'))).toEqual({
      value: null,
      rules: [],
    });
    // Inside a value they are the value's own.
    expect(read((r) => text('A\u00a0B', r, 'row 4', 'description'))).toEqual({
      value: 'A\u00a0B',
      rules: [],
    });
    expect(splitPipes('0000000001\u00a0|\u200b0000000002')).toEqual(['0000000001', '0000000002']);
  });

  it('count a list once, whether its spaces are around the value or its pipes', () => {
    const report = new ValidationReport();
    expect(splitPipes('A | B', report, 'row 2', 'location_name')).toEqual(['A', 'B']);
    expect(splitPipes('A|B ', report, 'row 2', 'location_name')).toEqual(['A', 'B']);
    expect(splitPipes(' A ', report, 'row 2', 'location_name')).toEqual(['A']);
    expect(splitPipes('A||B', report, 'row 2', 'location_name')).toEqual(['A', 'B']);
    expect(splitPipes('A|B', report, 'row 2', 'location_name')).toEqual(['A', 'B']);
    expect(report.count('whitespace.trimmed')).toBe(3);
    expect(report.examples('whitespace.trimmed')[0]?.message).toMatch(/: location_name "A \| B"$/);
  });
});

describe('NameNormaliser', () => {
  it('reads a name with no-break or zero-width spaces as the same name, and says so', () => {
    const report = new ValidationReport();
    const names = new NameNormaliser(report);
    const read = [
      'Aetna PPO',
      'Aetna\u00a0PPO',
      'Aetna PPO\u00a0',
      '\u200bAetna PPO',
      'AETNA  PPO',
    ];
    expect(read.map((raw) => names.name(raw, 'row 4', 'plan_name'))).toEqual(
      Array(5).fill('Aetna PPO'),
    );
    expect(report.count('whitespace.trimmed')).toBe(4);
    // The example names the field, as every other trimmed value's does.
    expect(report.examples('whitespace.trimmed')[0]?.message).toMatch(
      /: plan_name "Aetna\\u00a0PPO"$/,
    );
  });
});
