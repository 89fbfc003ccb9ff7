import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChargeRecord } from '../model.ts';
import { v3JsonHeader } from '../testing/json-header.ts';
import { openMrf } from './index.ts';
import { parseFailure } from './json-reader.ts';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ratelens-json-reader-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A v3.0 file of one item whose one standard charge is `charge`, read whole. */
async function readCharge(
  name: string,
  charge: object,
  drug?: object,
  edit: (json: string) => string = (json) => json,
) {
  const path = join(dir, name);
  const json = JSON.stringify(
    v3JsonHeader({
      standard_charge_information: [
        {
          description: 'Saline 10 ML',
          code_information: [{ code: '0258', type: 'RC' }],
          ...(drug ? { drug_information: drug } : {}),
          standard_charges: [charge],
        },
      ],
    }),
  );
  await writeFile(path, edit(json));
  const reader = await openMrf(path);
  const records: ChargeRecord[] = [];
  for await (const record of reader.records) records.push(record);
  return { records, report: reader.report };
}

describe('a standard charge', () => {
  it('whose settings are a list is read as both, and said', async () => {
    const { records, report } = await readCharge('settings.json', {
      setting: ['inpatient', 'outpatient'],
      gross_charge: 12,
    });
    expect(records.map((r) => [r.setting, r.gross])).toEqual([['both', 12]]);
    expect(report.examples('json.wrong-type-read')[0]?.message).toContain(
      'setting ["inpatient","outpatient"]',
    );
    expect(report.rejectedRecords).toBe(0);
  });

  it('whose settings are a list of one is read as that setting', async () => {
    const { records } = await readCharge('setting.json', {
      setting: ['outpatient'],
      gross_charge: 12,
    });
    expect(records.map((r) => r.setting)).toEqual(['outpatient']);
  });

  it('whose settings are a list of something else is still refused', async () => {
    for (const [name, setting] of [
      ['empty.json', []],
      ['numbers.json', [1, 2]],
      ['unknown.json', ['inpatient', 'emergency']],
    ] as const) {
      const { records, report } = await readCharge(name, { setting, gross_charge: 12 });
      expect(records, name).toEqual([]);
      expect(report.rejectedRecords, name).toBe(1);
    }
  });
});

describe('an amount written with commas between its thousands, which JSON has not', () => {
  it('is read as the number it writes, and said', async () => {
    const { records, report } = await readCharge(
      'thousands.json',
      { setting: 'outpatient', gross_charge: 'GROSS', discounted_cash: 'CASH' },
      undefined,
      (json) => json.replace('"GROSS"', '12,345.50').replace('"CASH"', '$1,200'),
    );
    expect(records.map((r) => [r.gross, r.discountedCash])).toEqual([[12345.5, 1200]]);
    expect(report.count('json.invalid-item')).toBe(0);
    expect(report.examples('json.number-form')[0]?.message).toContain('gross_charge: "12,345.50"');
  });
});

describe("an item's drug information", () => {
  it('with a placeholder for its type has no type, said as a placeholder, not as a wrong type', async () => {
    const { records, report } = await readCharge(
      'drug-type.json',
      { setting: 'outpatient', gross_charge: 12 },
      { unit: 10, type: 'N/A' },
    );
    expect(records.map((r) => [r.drugUnit, r.drugType])).toEqual([[10, null]]);
    expect(report.count('enum.drug-type')).toBe(0);
    expect(report.examples('value.placeholder')[0]?.message).toContain('drug type "N/A"');
  });
});

describe('parseFailure', () => {
  const failure = (text: string) => {
    try {
      JSON.parse(text);
    } catch (cause) {
      return parseFailure(cause, text);
    }
    return 'parsed';
  };

  it('shows the text before where JSON.parse stopped, whose position counts from the item', () => {
    expect(failure('{"a": 1 "b": 2}')).toBe(
      "Expected ',' or '}' after property value in JSON at position 8, after “{\"a\": 1 ”",
    );
    const long = `{"description": "${'x'.repeat(100)}",\n  "code": 12 34}`;
    expect(failure(long)).toMatch(/, after “…x+", "code": 12 ”$/);
  });

  it('leaves a message that names no position as it is', () => {
    expect(failure('{"a": }')).toBe('Unexpected token \'}\', "{"a": }" is not valid JSON');
  });
});
