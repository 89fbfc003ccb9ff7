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

/** A payer's rate as payers_information holds it. */
const aetnaPpo = {
  payer_name: 'Aetna',
  plan_name: 'PPO',
  standard_charge_dollar: 120,
  methodology: 'fee schedule',
};
const ratesOf = (records: ChargeRecord[]) =>
  records.map((r) => r.payers.map((p) => [p.payerName, p.planName, p.dollar]));

describe("a payer's rate written in the fields of its standard charge", () => {
  it("is read as that charge's rate, and said with its fields as written", async () => {
    const { records, report } = await readCharge('rate-in-charge.json', {
      setting: 'outpatient',
      gross_charge: 100,
      ...aetnaPpo,
    });
    expect(ratesOf(records)).toEqual([[['Aetna', 'PPO', 120]]]);
    expect(report.examples('json.rate-in-charge')[0]?.message).toContain(
      ': payer_name, plan_name, standard_charge_dollar, methodology',
    );
    expect(report.count('json.unknown-field')).toBe(0);
  });

  it('is read when its fields are written another way, as in an entry', async () => {
    const { records } = await readCharge('rate-in-charge-spelt.json', {
      setting: 'outpatient',
      gross_charge: 100,
      Payer_Name: 'Aetna',
      planName: 'PPO',
      'Standard Charge Dollar': 120,
      methodology: 'fee schedule',
    });
    expect(ratesOf(records)).toEqual([[['Aetna', 'PPO', 120]]]);
  });

  it('is read beside payers_information when it names its payer and gives a rate', async () => {
    const { records, report } = await readCharge('rate-in-charge-and-list.json', {
      setting: 'outpatient',
      gross_charge: 100,
      ...aetnaPpo,
      payers_information: [{ ...aetnaPpo, payer_name: 'Cigna', standard_charge_dollar: 90 }],
    });
    expect(ratesOf(records)).toEqual([
      [
        ['Cigna', 'PPO', 90],
        ['Aetna', 'PPO', 120],
      ],
    ]);
    expect(report.count('json.rate-in-charge')).toBe(1);
  });

  it('beside payers_information, a payer name alone is an unknown field, as it was', async () => {
    const { records, report } = await readCharge('name-in-charge-and-list.json', {
      setting: 'outpatient',
      gross_charge: 100,
      payer_name: 'Aetna',
      methodology: 'fee schedule',
      payers_information: [{ ...aetnaPpo, payer_name: 'Cigna' }],
    });
    expect(ratesOf(records)).toEqual([[['Cigna', 'PPO', 120]]]);
    expect(report.count('json.rate-in-charge')).toBe(0);
    expect(report.examples('json.unknown-field').map((e) => e.message)).toEqual([
      expect.stringContaining('"payer_name": "Aetna"'),
      expect.stringContaining('"methodology": "fee schedule"'),
    ]);
  });

  it('without payers_information, a rate without a payer is read, and rejected for it', async () => {
    const { records, report } = await readCharge('dollar-in-charge.json', {
      setting: 'outpatient',
      gross_charge: 100,
      standard_charge_dollar: 120,
    });
    expect(ratesOf(records)).toEqual([[]]);
    expect(report.rejectedPayers).toBe(1);
    expect(report.count('required.payer_name')).toBe(1);
  });
});

describe('a list under another name than CMS gives it', () => {
  it('payers, payers_info, payer_list are read as payers_information, and said as written', async () => {
    for (const name of ['payers', 'payers_info', 'PayerInfo', 'payer_list']) {
      const { records, report } = await readCharge(`${name}.json`, {
        setting: 'outpatient',
        gross_charge: 100,
        [name]: [aetnaPpo],
      });
      expect(ratesOf(records), name).toEqual([[['Aetna', 'PPO', 120]]]);
      expect(report.examples('json.field-other-name')[0]?.message, name).toContain(
        `: "${name}" for payers_information`,
      );
    }
  });

  it('codes and code_info are read as code_information', async () => {
    for (const name of ['codes', 'code_info']) {
      const { records, report } = await readCharge(
        `${name}.json`,
        { setting: 'outpatient', gross_charge: 100 },
        undefined,
        (json) => json.replace('"code_information"', JSON.stringify(name)),
      );
      expect(
        records.map((r) => r.codes),
        name,
      ).toEqual([[{ code: '0258', type: 'RC' }]]);
      expect(report.count('json.field-other-name'), name).toBe(1);
    }
  });

  it('charges is read as standard_charges', async () => {
    const { records, report } = await readCharge(
      'charges.json',
      { setting: 'outpatient', gross_charge: 100 },
      undefined,
      (json) => json.replace('"standard_charges"', '"charges"'),
    );
    expect(records.map((r) => r.gross)).toEqual([100]);
    expect(report.examples('json.field-other-name')[0]?.message).toContain(
      ': "charges" for standard_charges',
    );
  });
});

describe('payers_information written as an object keyed by payer name', () => {
  /** An entry that names no payer, as one under a payer's name may. */
  const ppo = { plan_name: 'PPO', standard_charge_dollar: 120, methodology: 'fee schedule' };

  it('is read as its entries, each under the payer its key names, and said', async () => {
    const { records, report } = await readCharge('keyed.json', {
      setting: 'outpatient',
      gross_charge: 100,
      payers_information: { Aetna: ppo, Cigna: { ...ppo, plan_name: 'HMO' } },
    });
    expect(ratesOf(records)).toEqual([
      [
        ['Aetna', 'PPO', 120],
        ['Cigna', 'HMO', 120],
      ],
    ]);
    expect(report.examples('json.payers-by-name')[0]?.message).toContain(
      ': an object with "Aetna", "Cigna"',
    );
    expect(report.rejectedPayers).toBe(0);
  });

  it('reads each entry of a list under a key', async () => {
    const { records } = await readCharge('keyed-list.json', {
      setting: 'outpatient',
      gross_charge: 100,
      payers_information: { Aetna: [ppo, { ...ppo, plan_name: 'HMO' }] },
    });
    expect(ratesOf(records)).toEqual([
      [
        ['Aetna', 'PPO', 120],
        ['Aetna', 'HMO', 120],
      ],
    ]);
  });

  it('keeps the payer name an entry gives itself', async () => {
    const { records } = await readCharge('keyed-named.json', {
      setting: 'outpatient',
      gross_charge: 100,
      payers_information: { commercial: { ...ppo, payer_name: 'Cigna' } },
    });
    expect(ratesOf(records)).toEqual([[['Cigna', 'PPO', 120]]]);
  });

  it('still finds a key written twice in an entry', async () => {
    // The names the keys give are no keys of the text: a list of two under one key, each given
    // its name, must not be counted as two keys written, which would hide the one written twice.
    const { report } = await readCharge(
      'keyed-duplicate.json',
      {
        setting: 'outpatient',
        gross_charge: 100,
        payers_information: { Aetna: [{ ...ppo, plan_name: 'TWICE' }, ppo] },
      },
      undefined,
      (json) => json.replace('"plan_name":"TWICE"', '"plan_name":"HMO","plan_name":"EPO"'),
    );
    expect(report.examples('json.duplicate-key')[0]?.message).toContain('plan_name');
  });
});

/** A v3.0 file of the one item `item`, its text edited by `edit`, read whole. */
async function readItem(name: string, item: object, edit: (json: string) => string = (j) => j) {
  const path = join(dir, name);
  await writeFile(
    path,
    edit(JSON.stringify(v3JsonHeader({ standard_charge_information: [item] }))),
  );
  const reader = await openMrf(path);
  const records: ChargeRecord[] = [];
  for await (const record of reader.records) records.push(record);
  return { records, report: reader.report };
}

describe("an item's code written in the item's own fields", () => {
  const visit = {
    description: 'Office visit',
    standard_charges: [{ setting: 'outpatient', gross_charge: 100 }],
  };

  it('is read as its code, and said with its fields as written', async () => {
    const { records, report } = await readItem('code-in-item.json', {
      ...visit,
      code: '99213',
      Type: 'CPT',
    });
    expect(records.map((r) => r.codes)).toEqual([[{ code: '99213', type: 'CPT' }]]);
    expect(report.examples('json.code-in-item')[0]?.message).toContain(': code, Type');
    expect(report.count('json.unknown-field')).toBe(0);
    expect(report.count('required.code')).toBe(0);
  });

  it('is read when the code is a number', async () => {
    const { records } = await readItem('code-number-in-item.json', {
      ...visit,
      code: 99213,
      type: 'CPT',
    });
    expect(records.map((r) => r.codes)).toEqual([[{ code: '99213', type: 'CPT' }]]);
  });

  it('beside code_information with entries, is an unknown field, as it was', async () => {
    const { records, report } = await readItem('code-in-item-and-list.json', {
      ...visit,
      code: '99214',
      code_information: [{ code: '99213', type: 'CPT' }],
    });
    expect(records.map((r) => r.codes)).toEqual([[{ code: '99213', type: 'CPT' }]]);
    expect(report.count('json.code-in-item')).toBe(0);
    expect(report.count('json.unknown-field')).toBe(1);
  });

  it('a type alone is an unknown field, and the item has no code', async () => {
    const { records, report } = await readItem('type-in-item.json', { ...visit, type: 'CPT' });
    expect(records).toEqual([]);
    expect(report.count('required.code')).toBe(1);
    expect(report.count('json.unknown-field')).toBe(1);
  });

  it('still finds a key written twice in the item', async () => {
    const { report } = await readItem(
      'code-in-item-duplicate.json',
      { ...visit, code: '99213', type: 'CPT', description: 'TWICE' },
      (json) => json.replace('"description":"TWICE"', '"description":"A","description":"B"'),
    );
    expect(report.examples('json.duplicate-key')[0]?.message).toContain('description');
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
