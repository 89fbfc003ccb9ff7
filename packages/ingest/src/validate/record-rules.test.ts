import { describe, expect, it } from 'vitest';
import { payerChargeWith, type ChargeRecord, type CmsVersion, type PayerCharge } from '../model.ts';
import { CMS_ATTESTATION } from '../read/header.ts';
import { openMrf } from '../read/index.ts';
import { writeTestFile } from '../testing/test-file.ts';
import { checkPayer, checkRecord, cmsCount } from './record-rules.ts';
import { ValidationReport } from './report.ts';
import type { RuleId } from './rules.ts';

/** The rules checkPayer reported for a rate of a `version` file, and how many reject it. */
function payerRules(
  p: PayerCharge,
  {
    version = '3.0.0',
    modifierOnly = false,
  }: { version?: CmsVersion; modifierOnly?: boolean } = {},
): { rules: RuleId[]; rejecting: number } {
  const report = new ValidationReport();
  const rejecting = checkPayer(
    p,
    { version, report },
    'row 4',
    p.methodology !== null,
    null,
    modifierOnly,
  );
  return { rules: report.rules().map((r) => r.rule), rejecting };
}

const PERCENT_RATE = {
  methodology: 'percent of total billed charges',
  percentage: 50,
} as const;

/** A charge of one CPT code, with `fields` set. */
function charge(fields: Partial<ChargeRecord> = {}): ChargeRecord {
  return {
    location: 'row 4',
    description: 'X-ray chest',
    codes: [{ code: '71046', type: 'CPT' }],
    setting: 'outpatient',
    modifiers: [],
    drugUnit: null,
    drugType: null,
    gross: 250,
    discountedCash: null,
    min: 100,
    max: 150,
    genericNotes: null,
    payers: [],
    ...fields,
  };
}

/** The rules checkRecord reported for a 3.0.0 charge, and how many errors reject it. */
function recordRules(r: ChargeRecord): { rules: RuleId[]; errors: number } {
  const report = new ValidationReport();
  const errors = checkRecord(
    r,
    { version: '3.0.0', report },
    r.payers.some((p) => p.dollar !== null),
  );
  return { rules: report.rules().map((rule) => rule.rule), errors };
}

const V3_HEADER =
  'hospital_name,last_updated_on,version,location_name,hospital_address,license_number|MA,type_2_npi,' +
  `"${CMS_ATTESTATION}",attester_name\n` +
  'Test Hospital,2026-01-15,3.0.0,Test Hospital,1 Main St,1234,1234567893,true,A Person\n';
const TALL_COLUMNS =
  'description,code|1,code|1|type,modifiers,setting,drug_unit_of_measurement,drug_type_of_measurement,' +
  'standard_charge|gross,standard_charge|discounted_cash,payer_name,plan_name,' +
  'standard_charge|negotiated_dollar,standard_charge|negotiated_percentage,standard_charge|negotiated_algorithm,' +
  'median_amount,10th_percentile,90th_percentile,count,standard_charge|min,standard_charge|max,' +
  'standard_charge|methodology,additional_generic_notes\n';

/** A v3 tall CSV of these rows, read whole. */
async function readTall(rows: string) {
  const reader = await openMrf(await writeTestFile('rates.csv', V3_HEADER + TALL_COLUMNS + rows));
  const records: ChargeRecord[] = [];
  for await (const record of reader.records) records.push(record);
  return { records, report: reader.report };
}

/** A v3 JSON file of one X-ray whose one rate is `payer`, read whole. */
async function readJsonRate(payer: object, version = '3.0.0') {
  const json = {
    hospital_name: 'Test Hospital',
    last_updated_on: '2026-01-15',
    version,
    standard_charge_information: [
      {
        description: 'X-ray chest',
        code_information: [{ code: '71046', type: 'CPT' }],
        standard_charges: [
          {
            setting: 'outpatient',
            gross_charge: 250,
            payers_information: [{ payer_name: 'Aetna', plan_name: 'PPO', ...payer }],
          },
        ],
      },
    ],
  };
  const reader = await openMrf(await writeTestFile('rates.json', JSON.stringify(json)));
  const records: ChargeRecord[] = [];
  for await (const record of reader.records) records.push(record);
  return { records, report: reader.report };
}

describe("a modifier's rate", () => {
  it('is kept when its notes alone price it, as CMS asks one of notes, dollar, percentage or algorithm', () => {
    const notesOnly = payerChargeWith('Aetna', 'PPO', { notes: '150% payment adjustment' });
    expect(payerRules(notesOnly, { modifierOnly: true })).toEqual({ rules: [], rejecting: 0 });
    // Without notes either, it says nothing: rejected; so are notes of "N/A".
    expect(payerRules(payerChargeWith('Aetna', 'PPO'), { modifierOnly: true })).toEqual({
      rules: ['required.modifier-value'],
      rejecting: 1,
    });
    const placeholder = payerChargeWith('Aetna', 'PPO', { notes: 'N/A' });
    expect(payerRules(placeholder, { modifierOnly: true })).toEqual({
      rules: ['required.modifier-value'],
      rejecting: 1,
    });
    // An item's rate still needs a value.
    expect(
      payerRules(payerChargeWith('Aetna', 'PPO', { methodology: 'other', notes: 'x' })),
    ).toEqual({
      rules: ['required.negotiated-value'],
      rejecting: 1,
    });
  });

  it('is read from a tall CSV row of modifiers, payer and notes only, and the row is no charge without a price', async () => {
    const { records, report } = await readTall(
      'X-ray chest,71046,CPT,,outpatient,,,250,,Aetna,PPO,120,,,,,,,100,150,fee schedule,\n' +
        'Bilateral procedure,,,50,both,,,,,Aetna,PPO,,,,,,,,,,,150% payment adjustment\n',
    );
    expect(report.errorCount).toBe(0);
    expect(records[1]).toMatchObject({
      modifiers: ['50'],
      payers: [expect.objectContaining({ payerName: 'Aetna', notes: '150% payment adjustment' })],
    });
  });
});

describe("a rate's count", () => {
  it.each([
    ['<11', '1 through 10'],
    ['< 11', '1 through 10'],
    ['Less than 11', '1 through 10'],
    ['fewer than 11', '1 through 10'],
    ['<=10', '1 through 10'],
    ['≤ 10', '1 through 10'],
    ['1 thru 10', '1 through 10'],
    ['7', '1 through 10'],
    ['1,200', '1200'],
  ])('reads %j as %j', (written, count) => {
    expect(cmsCount(written)).toBe(count);
  });

  it.each([['10+'], ['>10'], ['11 or more'], ['<12'], ['many']])(
    'reads %j, which is no number of claims, as none',
    (written) => {
      expect(cmsCount(written)).toBeNull();
    },
  );

  it('written as a placeholder is none written: said as a placeholder, and asked for', () => {
    const p = payerChargeWith('Aetna', 'PPO', { ...PERCENT_RATE, count: 'N/A' });
    const { rules } = payerRules(p);
    expect(p.count).toBeNull();
    expect(rules).toContain('value.placeholder');
    expect(rules).toContain('v3.count-required');
    expect(rules).not.toContain('v3.count-invalid');
  });
});

describe('an algorithm written as a placeholder', () => {
  it('is none: beside a dollar amount it is left out, said as a placeholder', () => {
    const p = payerChargeWith('Aetna', 'PPO', {
      methodology: 'fee schedule',
      dollar: 120,
      algorithm: 'N/A',
    });
    const { rules, rejecting } = payerRules(p);
    expect(p.algorithm).toBeNull();
    expect(rules).toContain('value.placeholder');
    expect(rejecting).toBe(0);
  });

  it('alone, is no rate: asked for its value, not kept as a rate with no amount', () => {
    const p = payerChargeWith('Aetna', 'PPO', { methodology: 'other', algorithm: 'n/a' });
    const { rules, rejecting } = payerRules(p);
    expect(rules).toContain('required.negotiated-value');
    expect(rejecting).toBeGreaterThan(0);
  });
});

describe('the v3 percentiles rule', () => {
  it.each([
    ['missing', null],
    ['unreadable', 'many'],
    ['"1 through 10"', '1 through 10'],
  ])('asks the percentiles of a percentage rate whose count is %s, as CMS does', (_, count) => {
    const { rules } = payerRules(payerChargeWith('Aetna', 'PPO', { ...PERCENT_RATE, count }));
    expect(rules).toContain('v3.percentiles-required');
  });

  it('does not ask them of a rate whose count is "0", nor of a dollar rate', () => {
    const zero = payerChargeWith('Aetna', 'PPO', { ...PERCENT_RATE, count: '0', notes: 'none' });
    expect(payerRules(zero).rules).toEqual([]);
    const dollar = payerChargeWith('Aetna', 'PPO', { methodology: 'fee schedule', dollar: 120 });
    expect(payerRules(dollar).rules).toEqual([]);
  });
});

describe('an estimated or allowed amount written but unusable', () => {
  it.each<[string, string, RuleId]>([
    ['nine 9s', '999999999', 'number.nine-nines'],
    ['unreadable', 'abc', 'allowed.invalid'],
    ['negative', '-5', 'allowed.invalid'],
  ])(
    'has its own issue only when %s, not also the rule that asks for it',
    async (_, median, rule) => {
      const { records, report } = await readTall(
        `X-ray chest,71046,CPT,,outpatient,,,250,,Aetna,PPO,,50,,${median},90,110,25,,,percent of total billed charges,\n`,
      );
      expect(report.count(rule)).toBe(1);
      expect(report.count('v3.percentiles-required')).toBe(0);
      // Left out: the rate holds none, never NaN.
      expect(records[0]?.payers[0]).toMatchObject({ percentage: 50, median: null, p10: 90 });
    },
  );

  it('is so in JSON and for the 2.2.0 estimated amount too', async () => {
    const percent = {
      methodology: 'percent of total billed charges',
      standard_charge_percentage: 50,
    };
    const v3 = await readJsonRate({
      ...percent,
      median_amount: 999999999,
      '10th_percentile': 'abc',
      '90th_percentile': 110,
      count: '25',
    });
    expect(v3.report.count('number.nine-nines')).toBe(1);
    expect(v3.report.count('allowed.invalid')).toBe(1);
    expect(v3.report.count('v3.percentiles-required')).toBe(0);
    expect(v3.records[0]?.payers[0]).toMatchObject({ median: null, p10: null, p90: 110 });
    for (const estimated of [999999999, 'abc', { amount: 1 }]) {
      const v22 = await readJsonRate({ ...percent, estimated_amount: estimated }, '2.2.0');
      expect(v22.report.count('v2.estimated-amount-required')).toBe(0);
      expect(v22.records[0]?.payers[0]?.estimatedAmount).toBeNull();
    }
    // Not written, it is asked for.
    const none = await readJsonRate(percent, '2.2.0');
    expect(none.report.count('v2.estimated-amount-required')).toBe(1);
  });
});

describe("CMS's alerts", () => {
  it('reads a count of nine 9s as none, with a warning (CMS\'s alert "Nine 9s used for count")', () => {
    const p = payerChargeWith('Aetna', 'PPO', {
      ...PERCENT_RATE,
      median: 100,
      p10: 90,
      p90: 110,
      count: '999999999',
    });
    expect(payerRules(p)).toEqual({ rules: ['count.nine-nines'], rejecting: 0 });
    expect(p.count).toBeNull();
  });

  it('warns of an estimated amount in a 3.0.0 file, which 3.0.0 no longer has, and keeps it', () => {
    const fields = { methodology: 'fee schedule', dollar: 120, estimatedAmount: 118 } as const;
    const v3 = payerChargeWith('Aetna', 'PPO', fields);
    expect(payerRules(v3)).toEqual({ rules: ['v3.estimated-amount'], rejecting: 0 });
    expect(v3.estimatedAmount).toBe(118);
    expect(payerRules(payerChargeWith('Aetna', 'PPO', fields), { version: '2.2.0' }).rules).toEqual(
      [],
    );
  });
});

describe('figures that cannot all be right', () => {
  const rate = (fields: Partial<PayerCharge>) => payerChargeWith('Aetna', 'PPO', fields);

  it("warns of a dollar rate outside its charge's own minimum and maximum, and keeps it", () => {
    const r = charge({ payers: [rate({ methodology: 'fee schedule', dollar: 10_000 })] });
    expect(recordRules(r)).toEqual({ rules: ['plausible.outside-min-max'], errors: 0 });
    // At the minimum or maximum, or a rounding away, it is none.
    for (const dollar of [100, 150, 150.004, 99.996]) {
      const within = charge({ payers: [rate({ methodology: 'fee schedule', dollar })] });
      expect(recordRules(within).rules, String(dollar)).toEqual([]);
    }
  });

  it('warns of a minimum above the maximum once, not of every rate outside them', () => {
    const r = charge({
      min: 150,
      max: 100,
      payers: [rate({ methodology: 'fee schedule', dollar: 120 })],
    });
    expect(recordRules(r)).toEqual({ rules: ['plausible.min-above-max'], errors: 0 });
  });

  it('warns of a percentage of billed charges over 100, but not of 150% of a fee schedule', () => {
    const billed = charge({ payers: [rate({ ...PERCENT_RATE, percentage: 4500 })] });
    expect(recordRules(billed)).toEqual({ rules: ['plausible.percentage-over-100'], errors: 0 });
    const schedule = charge({ payers: [rate({ methodology: 'fee schedule', percentage: 150 })] });
    expect(recordRules(schedule).rules).toEqual([]);
  });
});

describe('a code written as a placeholder', () => {
  it('is left out, so a charge with no other code has none', async () => {
    const { records, report } = await readTall(
      'X-ray chest,N/A,CPT,,outpatient,,,250,,Aetna,PPO,120,,,,,,,100,150,fee schedule,\n' +
        'X-ray knee,0,RC,,outpatient,,,300,,Aetna,PPO,140,,,,,,,100,150,fee schedule,\n',
    );
    expect(records).toEqual([]);
    expect(report.count('code.placeholder')).toBe(2);
    expect(report.count('required.code')).toBe(2);
  });

  it('is left out as it is read, so a modifier row coded "N/A" is judged as one', async () => {
    // Judged with its placeholder code, the row was an item's: its setting was asked for, its
    // notes were no price, and the row was rejected.
    const { records, report } = await readTall(
      'Bilateral procedure,N/A,CPT,50,,,,,,Aetna,PPO,,,,,,,,,,,150% payment adjustment\n',
    );
    expect(records).toMatchObject([
      { codes: [], modifiers: ['50'], payers: [{ notes: '150% payment adjustment' }] },
    ]);
    expect(report.count('code.placeholder')).toBe(1);
    expect(report.errorCount).toBe(0);
  });
});
