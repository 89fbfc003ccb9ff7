import { describe, expect, it } from 'vitest';
import { payerChargeWith, type ChargeRecord, type PayerCharge } from '../model.ts';
import { RATE_TABLES } from './rate-tables.ts';
import { billingClassOf, RowEncoder, type CodeEntry, type PayerPlanEntry } from './row-encoder.ts';

function record(overrides: Partial<ChargeRecord> = {}): ChargeRecord {
  return {
    location: 'row 4',
    description: 'Knee replacement',
    codes: [{ type: 'MS-DRG', code: '470' }],
    setting: 'inpatient',
    modifiers: [],
    drugUnit: null,
    drugType: null,
    gross: 50000,
    discountedCash: 20000,
    min: null,
    max: null,
    genericNotes: null,
    payers: [],
    ...overrides,
  };
}

function payer(overrides: Partial<PayerCharge> = {}): PayerCharge {
  return {
    ...payerChargeWith('Aetna', 'Aetna PPO', { methodology: 'case rate', dollar: 30000 }),
    ...overrides,
  };
}

function encoder() {
  const lines = { items: [] as string[], codes: [] as string[], rates: [] as string[] };
  const handedOver: CodeEntry[][] = [];
  const planLookups: PayerPlanEntry[][] = [];
  // Ids as payer_plans would hand them out: one per pair, in the order the pairs first come.
  const planIds = new Map<string, number>();
  const sink = (list: string[]) => ({
    write: (line: string) => {
      list.push(line);
      return undefined;
    },
  });
  const rows = new RowEncoder(
    { items: sink(lines.items), codes: sink(lines.codes), rates: sink(lines.rates) },
    (pairs) => {
      planLookups.push(pairs);
      return Promise.resolve(
        pairs.map(({ payerName, planName }) => {
          const key = `${payerName}/${planName}`;
          if (!planIds.has(key)) planIds.set(key, planIds.size + 11);
          return planIds.get(key) as number;
        }),
      );
    },
    (codes) => {
      handedOver.push(codes);
      return Promise.resolve();
    },
  );
  return { rows, lines, handedOver, planLookups };
}

const columns = (line: string) => line.replace(/\n$/, '').split('\t');

describe('RowEncoder', () => {
  it('looks up the new payer/plan pairs of a record together, once per pair, with their canonical payer and line of business', async () => {
    const { rows, lines, planLookups } = encoder();
    await rows.add(
      record({
        payers: [
          payer(),
          payer({ payerName: 'AETNA', planName: 'HB MVH MEDICARE' }),
          payer({ payerName: 'Cigna', planName: 'Open' }),
          payer({ methodology: 'per diem' }),
        ],
      }),
    );
    await rows.add(record({ payers: [payer(), payer({ payerName: 'Cigna', planName: 'Open' })] }));
    expect(planLookups).toEqual([
      [
        {
          payerName: 'Aetna',
          planName: 'Aetna PPO',
          canonicalPayer: 'Aetna',
          lineOfBusiness: 'commercial',
        },
        {
          payerName: 'AETNA',
          planName: 'HB MVH MEDICARE',
          canonicalPayer: 'Aetna',
          lineOfBusiness: 'medicare-advantage',
        },
        {
          payerName: 'Cigna',
          planName: 'Open',
          canonicalPayer: 'Cigna',
          lineOfBusiness: 'commercial',
        },
      ],
    ]);
    expect(lines.rates.map((l) => columns(l)[2])).toEqual(['11', '12', '13', '11', '11', '13']);
    expect(rows.summary).toMatchObject({ hasCommercial: true, hasMedicare: true });
  });

  it('writes the rates of a record that continues an earlier charge under that charge, with no item of its own', async () => {
    const { rows, lines } = encoder();
    await rows.add(record({ payers: [payer()] }));
    await rows.add(record({ description: 'Hip replacement', payers: [payer()] }));
    await rows.add(
      record({ location: 'row 9', continues: 1, payers: [payer({ payerName: 'Cigna' })] }),
    );
    expect(lines.items.map((l) => columns(l).slice(0, 2))).toEqual([
      ['1', 'Knee replacement'],
      ['2', 'Hip replacement'],
    ]);
    expect(lines.codes.map((l) => columns(l)[0])).toEqual(['1', '2']);
    // rate id, item id
    expect(lines.rates.map((l) => columns(l).slice(0, 2))).toEqual([
      ['1', '1'],
      ['2', '2'],
      ['3', '1'],
    ]);
    expect(rows.summary).toMatchObject({ items: 2, rates: 3 });
    await expect(rows.add(record({ continues: 3, payers: [payer()] }))).rejects.toThrow(
      'record continues item 3, not yet added',
    );
  });

  it('sets the commercial and Medicare flags by a rate with an amount, not by a plan named alone; a modifier is no charge', async () => {
    const { rows } = encoder();
    // A JSON file's modifier_information: the plans' descriptions, no price.
    const unpriced = { methodology: null, dollar: null, notes: 'TC: 40% of the global rate' };
    await rows.add(
      record({
        codes: [],
        modifiers: ['TC'],
        payers: [payer(unpriced), payer({ ...unpriced, planName: 'Medicare Advantage HMO' })],
      }),
    );
    expect(rows.summary).toMatchObject({
      items: 0,
      rates: 0,
      hasCommercial: false,
      hasMedicare: false,
    });
    expect(rows.rateMix().plans).toBe(0);
    await rows.add(
      record({
        payers: [
          payer({ methodology: 'percent of total billed charges', dollar: null, percentage: 45 }),
        ],
      }),
    );
    expect(rows.summary).toMatchObject({
      items: 1,
      rates: 1,
      hasCommercial: true,
      hasMedicare: false,
    });
    expect(rows.rateMix().plans).toBe(1);
  });

  it('sets the Medicare flag for original Medicare too, whose line of business is other', async () => {
    const { rows } = encoder();
    // Martha's Vineyard's 1,051 rates of "MEDICARE [2001]" / "HB MVH MEDICARE".
    await rows.add(
      record({ payers: [payer({ payerName: 'MEDICARE [2001]', planName: 'HB MVH MEDICARE' })] }),
    );
    expect(rows.rateMix().byLineOfBusiness).toMatchObject({ other: 1, 'medicare-advantage': 0 });
    expect(rows.summary).toMatchObject({ hasCommercial: false, hasMedicare: true });
  });

  it('sets the Medicare flag for a plan naming original Medicare under another payer', async () => {
    const { rows } = encoder();
    await rows.add(
      record({ payers: [payer({ payerName: 'Humana', planName: 'Original Medicare' })] }),
    );
    expect(rows.rateMix().byLineOfBusiness).toMatchObject({ other: 1 });
    expect(rows.summary).toMatchObject({ hasCommercial: false, hasMedicare: true });
  });

  it("counts the file's rates by canonical payer, plan, line of business and origin of their dollar figure", async () => {
    const { rows } = encoder();
    const ofCharges = { methodology: 'percent of total billed charges', dollar: null } as const;
    await rows.add(
      record({
        payers: [
          payer(),
          payer({ ...ofCharges, payerName: 'AETNA', planName: 'HB MVH MEDICARE', percentage: 45 }),
          payer({ payerName: 'Cigna', planName: 'Open', dollar: null, median: 900 }),
        ],
      }),
    );
    await rows.add(
      record({
        gross: null,
        payers: [
          payer({ dollar: null, estimatedAmount: 700 }),
          // A percentage without a gross charge gives no dollar figure.
          payer({ ...ofCharges, payerName: 'Cigna', planName: 'Open', percentage: 50 }),
        ],
      }),
    );
    expect(rows.rateMix()).toEqual({
      payers: 2,
      plans: 3,
      byLineOfBusiness: {
        commercial: 4,
        'medicare-advantage': 1,
        'medicaid-managed-care': 0,
        exchange: 0,
        other: 0,
      },
      byOrigin: { dollar: 1, 'percentage-of-gross': 1, median: 1, estimated: 1, none: 1 },
    });
  });

  it('writes one COPY line per item, code and rate with the columns of its table', async () => {
    const { rows, lines } = encoder();
    await rows.add(record({ payers: [payer(), payer({ payerName: 'Cigna', planName: 'Open' })] }));
    const width = Object.fromEntries(RATE_TABLES.map((t) => [t.parent, t.columns.length]));
    expect(lines.items.map((l) => columns(l).length)).toEqual([width.charge_items]);
    expect(lines.codes.map((l) => columns(l).length)).toEqual([width.item_codes]);
    expect(lines.rates.map((l) => columns(l).length)).toEqual([
      width.negotiated_rates,
      width.negotiated_rates,
    ]);
    expect(columns(lines.rates[1] ?? '').slice(0, 5)).toEqual([
      '2',
      '1',
      '12',
      'case rate',
      '30000',
    ]);
  });

  it('numbers items and rates across records and counts them in the summary', async () => {
    const { rows, lines } = encoder();
    await rows.add(record({ payers: [payer()] }));
    await rows.add(record({ payers: [payer(), payer()] }));
    expect(lines.rates.map((l) => columns(l).slice(0, 2))).toEqual([
      ['1', '1'],
      ['2', '2'],
      ['3', '2'],
    ]);
    expect(rows.summary).toMatchObject({ items: 2, rates: 3, hasCash: true, hasInpatient: true });
  });

  it('writes a code listed twice on one item once', async () => {
    const { rows, lines } = encoder();
    await rows.add(
      record({
        codes: [
          { type: 'CPT', code: '27447' },
          { type: 'CPT', code: '27447' },
        ],
      }),
    );
    expect(lines.codes).toHaveLength(1);
  });

  it('hands the codes over in batches while reading, and the rest at the end', async () => {
    const { rows, handedOver } = encoder();
    for (let i = 0; i < 20_001; i++)
      await rows.add(record({ codes: [{ type: 'MS-DRG', code: String(i) }] }));
    expect(handedOver.map((batch) => batch.length)).toEqual([20_000]);
    await rows.end();
    expect(handedOver.map((batch) => batch.length)).toEqual([20_000, 1]);
  });

  it('hands over DRG codes with the description of their first item, and no code without one', async () => {
    const { rows, handedOver } = encoder();
    await rows.add(record({ codes: [{ type: 'MS-DRG', code: '470' }] }));
    await rows.add(record({ description: 'Other', codes: [{ type: 'MS-DRG', code: '470' }] }));
    await rows.add(record({ codes: [{ type: 'CPT', code: '27447' }] }));
    for (let i = 0; i < 20_000; i++)
      await rows.add(record({ codes: [{ type: 'CDM', code: String(i) }] }));
    await rows.end();
    expect(handedOver.flat().map((c) => [c.type, c.code, c.description])).toEqual([
      ['MS-DRG', '470', 'Knee replacement'],
    ]);
  });
});

describe('billingClassOf', () => {
  it('is inpatient facility for a DRG, whatever else the item carries', () => {
    expect(
      billingClassOf(
        record({
          codes: [
            { type: 'NDC', code: '1' },
            { type: 'APR-DRG', code: '2' },
          ],
        }),
      ),
    ).toBe('inpatient facility');
  });

  it('follows the setting for procedures, even with a drug code beside them', () => {
    const codes = [
      { type: 'HCPCS', code: 'J1100' },
      { type: 'NDC', code: '0641-0367-21' },
    ];
    expect(billingClassOf(record({ codes, setting: 'outpatient' }))).toBe('outpatient');
    expect(billingClassOf(record({ codes, setting: 'inpatient' }))).toBe('inpatient');
  });

  it('is drugs for an item with only a drug code', () => {
    expect(billingClassOf(record({ codes: [{ type: 'NDC', code: '0641-0367-21' }] }))).toBe(
      'drugs',
    );
  });
});
