import type { MrfFormat, MrfHeader, PayerCharge } from '../model.ts';
import { CMS_ATTESTATION } from '../read/header.ts';
import { MAX_CODES } from './catalogue.ts';
import type { DemoItem, DemoModifier, DemoStandardCharge } from './charges.ts';
import { csvRow } from './csv.ts';
import type { FileSink } from './file-sink.ts';

/**
 * Writers for the three CMS v3.0.0 layouts, item by item into a FileSink. Column names and
 * order follow the CMS templates (V3.0.0_Tall_CSV_Format_Template.csv and
 * V3.0.0_Wide_CSV_Format_Template.csv); JSON follows V3.0.0_Hospital_price_transparency_schema.
 */

export interface MrfContent {
  header: MrfHeader;
  /** Payer/plan pairs in column order (the wide layout has columns per pair). */
  plans: readonly { payerName: string; planName: string }[];
  modifiers: readonly DemoModifier[];
  items: Iterable<DemoItem>;
  /** Stop after the item that brings the file to this many bytes (the file stays valid). */
  stopAtBytes?: number;
}

export interface WriteCounts {
  items: number;
  standardCharges: number;
  rates: number;
}

export async function writeMrf(
  sink: FileSink,
  format: MrfFormat,
  content: MrfContent,
): Promise<WriteCounts> {
  switch (format) {
    case 'json':
      return writeJson(sink, content);
    case 'csv-tall':
    case 'csv-wide':
      return writeCsv(sink, format, content);
  }
}

async function writeItems(
  sink: FileSink,
  content: MrfContent,
  writeItem: (item: DemoItem, first: boolean) => Promise<void>,
): Promise<WriteCounts> {
  const counts: WriteCounts = { items: 0, standardCharges: 0, rates: 0 };
  for (const item of content.items) {
    await writeItem(item, counts.items === 0);
    counts.items++;
    counts.standardCharges += item.standardCharges.length;
    for (const charge of item.standardCharges) counts.rates += charge.payers.length;
    if (content.stopAtBytes !== undefined && sink.bytes >= content.stopAtBytes) break;
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------
// JSON

async function writeJson(sink: FileSink, content: MrfContent): Promise<WriteCounts> {
  const { header } = content;
  const top = {
    hospital_name: header.hospitalName,
    last_updated_on: header.lastUpdatedOn,
    version: header.version,
    location_name: header.locationNames,
    hospital_address: header.addresses,
    license_information: { license_number: header.licenseNumber, state: header.licenseState },
    attestation: {
      attestation: CMS_ATTESTATION,
      confirm_attestation: header.attestationConfirmed,
      attester_name: header.attesterName,
    },
    type_2_npi: header.type2Npis,
    modifier_information: content.modifiers.map((modifier) => ({
      description: modifier.description,
      code: modifier.code,
      setting: modifier.setting,
      modifier_payer_information: modifier.payers.map((payer) => ({
        payer_name: payer.payerName,
        plan_name: payer.planName,
        description: payer.description,
      })),
    })),
  };
  // The header is small and pretty-printed; the item array, which can reach gigabytes, comes
  // last with one item per line so that streaming readers meet the header first.
  const opening = JSON.stringify(top, null, 2).slice(0, -2);
  await sink.write(`${opening},\n  "standard_charge_information": [`);
  const counts = await writeItems(sink, content, (item, first) =>
    sink.write(`${first ? '' : ','}\n    ${JSON.stringify(jsonItem(item))}`),
  );
  await sink.write('\n  ]\n}\n');
  return counts;
}

function jsonItem(item: DemoItem): object {
  return {
    description: item.description,
    code_information: item.codes,
    ...(item.drugUnit !== null && item.drugType !== null
      ? { drug_information: { unit: item.drugUnit, type: item.drugType } }
      : {}),
    standard_charges: item.standardCharges.map((charge) => ({
      setting: charge.setting,
      ...(charge.modifiers.length > 0 ? { modifier_code: charge.modifiers } : {}),
      ...optional('gross_charge', charge.gross),
      ...optional('discounted_cash', charge.discountedCash),
      ...optional('minimum', charge.min),
      ...optional('maximum', charge.max),
      payers_information: charge.payers.map(jsonPayer),
      ...optional('additional_generic_notes', charge.genericNotes),
    })),
  };
}

function jsonPayer(payer: PayerCharge): object {
  return {
    payer_name: payer.payerName,
    plan_name: payer.planName,
    methodology: payer.methodology,
    ...optional('standard_charge_dollar', payer.dollar),
    ...optional('standard_charge_percentage', payer.percentage),
    ...optional('standard_charge_algorithm', payer.algorithm),
    ...optional('median_amount', payer.median),
    ...optional('10th_percentile', payer.p10),
    ...optional('90th_percentile', payer.p90),
    ...optional('count', payer.count),
    ...optional('additional_payer_notes', payer.notes),
  };
}

function optional<K extends string, V>(key: K, value: V | null): Partial<Record<K, V>> {
  return value === null ? {} : ({ [key]: value } as Record<K, V>);
}

// ---------------------------------------------------------------------------------------------
// CSV

type Cell = string | number | null;

const CODE_COLUMNS = Array.from({ length: MAX_CODES }, (_, i) => [
  `code|${i + 1}`,
  `code|${i + 1}|type`,
]).flat();

const ITEM_COLUMNS = [
  'description',
  ...CODE_COLUMNS,
  'modifiers',
  'setting',
  'drug_unit_of_measurement',
  'drug_type_of_measurement',
  'standard_charge|gross',
  'standard_charge|discounted_cash',
];

const TALL_PAYER_COLUMNS = [
  'payer_name',
  'plan_name',
  'standard_charge|negotiated_dollar',
  'standard_charge|negotiated_percentage',
  'standard_charge|negotiated_algorithm',
  'median_amount',
  '10th_percentile',
  '90th_percentile',
  'count',
  'standard_charge|methodology',
];

const TRAILING_COLUMNS = ['standard_charge|min', 'standard_charge|max', 'additional_generic_notes'];

function widePlanColumns(payerName: string, planName: string): string[] {
  const pair = `${payerName}|${planName}`;
  return [
    `standard_charge|${pair}|negotiated_dollar`,
    `standard_charge|${pair}|negotiated_percentage`,
    `standard_charge|${pair}|negotiated_algorithm`,
    `median_amount|${pair}`,
    `10th_percentile|${pair}`,
    `90th_percentile|${pair}`,
    `count|${pair}`,
    `standard_charge|${pair}|methodology`,
    `additional_payer_notes|${pair}`,
  ];
}

/** The column names of the third row (the first two rows carry the file's header). */
export function csvColumns(format: 'csv-tall' | 'csv-wide', plans: MrfContent['plans']): string[] {
  const payerColumns =
    format === 'csv-tall'
      ? TALL_PAYER_COLUMNS
      : plans.flatMap((plan) => widePlanColumns(plan.payerName, plan.planName));
  return [...ITEM_COLUMNS, ...payerColumns, ...TRAILING_COLUMNS];
}

async function writeCsv(
  sink: FileSink,
  format: 'csv-tall' | 'csv-wide',
  content: MrfContent,
): Promise<WriteCounts> {
  const { header, plans } = content;
  const columns = csvColumns(format, plans);
  const pad = (cells: Cell[]): Cell[] => [
    ...cells,
    ...Array<Cell>(columns.length - cells.length).fill(null),
  ];
  await sink.write(
    csvRow(
      pad([
        'hospital_name',
        'last_updated_on',
        'version',
        'location_name',
        'hospital_address',
        `license_number|${header.licenseState ?? ''}`,
        'type_2_npi',
        CMS_ATTESTATION,
        'attester_name',
      ]),
    ) +
      csvRow(
        pad([
          header.hospitalName,
          header.lastUpdatedOn,
          header.version,
          header.locationNames.join('|'),
          header.addresses.join('|'),
          header.licenseNumber,
          header.type2Npis.join('|'),
          header.attestationConfirmed === true ? 'true' : 'false',
          header.attesterName,
        ]),
      ) +
      csvRow(columns),
  );

  const counts = await writeItems(sink, content, async (item) => {
    let text = '';
    for (const charge of item.standardCharges) {
      const start = itemCells(item, charge);
      const end: Cell[] = [charge.min, charge.max];
      if (format === 'csv-tall') {
        for (const payer of charge.payers) {
          // The tall template has no payer-notes column: CMS puts them in additional_generic_notes.
          const notes = joinNotes(charge.genericNotes, payer.notes);
          text += csvRow([...start, ...tallPayerCells(payer), ...end, notes]);
        }
      } else {
        const byPlan = new Map(charge.payers.map((payer) => [planKey(payer), payer]));
        const payerCells = plans.flatMap((plan) => widePayerCells(byPlan.get(planKey(plan))));
        text += csvRow([...start, ...payerCells, ...end, charge.genericNotes]);
      }
    }
    await sink.write(text);
  });

  await writeModifierRows(sink, format, content, pad);
  return counts;
}

function itemCells(item: DemoItem, charge: DemoStandardCharge): Cell[] {
  const codes = CODE_COLUMNS.map((_, i) => {
    const code = item.codes[Math.floor(i / 2)];
    if (code === undefined) return null;
    return i % 2 === 0 ? code.code : code.type;
  });
  return [
    item.description,
    ...codes,
    charge.modifiers.length > 0 ? charge.modifiers.join('|') : null,
    charge.setting,
    item.drugUnit,
    item.drugType,
    charge.gross,
    charge.discountedCash,
  ];
}

function tallPayerCells(payer: PayerCharge): Cell[] {
  return [payer.payerName, payer.planName, ...payerValues(payer)];
}

function widePayerCells(payer: PayerCharge | undefined): Cell[] {
  if (payer === undefined) return Array<Cell>(9).fill(null);
  return [...payerValues(payer), payer.notes];
}

function payerValues(payer: PayerCharge): Cell[] {
  return [
    payer.dollar,
    payer.percentage,
    payer.algorithm,
    payer.median,
    payer.p10,
    payer.p90,
    payer.count,
    payer.methodology,
  ];
}

/**
 * Modifier rows, as in the CMS examples: the modifier's description, its code in the modifiers
 * column, no item code, and per plan the payment adjustment as a percentage with its wording.
 */
async function writeModifierRows(
  sink: FileSink,
  format: 'csv-tall' | 'csv-wide',
  content: MrfContent,
  pad: (cells: Cell[]) => Cell[],
): Promise<void> {
  const blankCodes = Array<Cell>(CODE_COLUMNS.length).fill(null);
  let text = '';
  for (const modifier of content.modifiers) {
    const start: Cell[] = [
      modifier.description,
      ...blankCodes,
      modifier.code,
      modifier.setting,
      null,
      null,
      null,
      null,
    ];
    if (format === 'csv-tall') {
      for (const payer of modifier.payers) {
        const values = [payer.payerName, payer.planName, null, payer.percentage];
        text += csvRow(pad([...start, ...values, ...Array<Cell>(8).fill(null), payer.description]));
      }
    } else {
      const byPlan = new Map(modifier.payers.map((payer) => [planKey(payer), payer]));
      const payerCells = content.plans.flatMap((plan) => {
        const payer = byPlan.get(planKey(plan));
        const cells = Array<Cell>(9).fill(null);
        if (payer !== undefined) {
          cells[1] = payer.percentage;
          cells[8] = payer.description;
        }
        return cells;
      });
      text += csvRow(pad([...start, ...payerCells]));
    }
  }
  await sink.write(text);
}

function planKey(plan: { payerName: string; planName: string }): string {
  return `${plan.payerName}|${plan.planName}`;
}

function joinNotes(generic: string | null, payer: string | null): string | null {
  if (generic === null) return payer;
  return payer === null ? generic : `${generic} ${payer}`;
}
