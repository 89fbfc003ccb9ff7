/**
 * A hospital file's rates read with nothing of the readers under test: `JSON.parse` for a JSON
 * file, a plain CSV split for a tall or wide CSV file. Tests compare them with what an ingest
 * stored, rate by rate. Only what the readers are documented to normalise is normalised here:
 * letter case and spacing of text, spaces around `|` in column names, a byte-order mark,
 * Windows-1252, and revenue codes written without their leading zeros.
 */
import { PERCENT_OF_BILLED_CHARGES } from '@ratelens/core';
import type { Queryable } from '@ratelens/db';
import { expect } from 'vitest';
import { parseCsv } from '../demo/test-support.ts';

/** A value as the file or the database gives it. */
type Value = string | number | null | undefined;

export interface FileRate {
  description: Value;
  /** `TYPE:code`, in any order. */
  codes: string[];
  setting: Value;
  gross: Value;
  payer: Value;
  plan: Value;
  methodology: Value;
  dollar: Value;
  percentage: Value;
  /**
   * The dollar amount, else percentage × gross charge (a percentage of billed charges only), else
   * the median or estimated amount.
   */
  effective: number | null;
}

const number = (value: Value): number | null =>
  value === undefined || value === null || String(value).trim() === ''
    ? null
    : Number(String(value).replace(/,/g, ''));

function effective(
  dollar: Value,
  percentage: Value,
  methodology: Value,
  gross: Value,
  ...estimates: Value[]
): number | null {
  // "115%" of a fee schedule (the v2.0.0 example's workers' compensation rate) is no share of gross.
  const ofBilledCharges = String(methodology).trim() === PERCENT_OF_BILLED_CHARGES;
  const share = ofBilledCharges ? number(percentage) : null;
  const charge = number(gross);
  return (
    number(dollar) ??
    (share !== null && charge !== null ? (share * charge) / 100 : null) ??
    estimates.map(number).find((value) => value !== null) ??
    null
  );
}

function code(type: Value, value: Value): string {
  const kind = String(type).trim().toUpperCase();
  const text = String(value).trim();
  return `${kind}:${kind === 'RC' && /^\d{1,3}$/.test(text) ? text.padStart(4, '0') : text}`;
}

interface JsonPayer {
  payer_name: string;
  plan_name: string;
  methodology?: string;
  standard_charge_dollar?: number;
  standard_charge_percentage?: number;
  median_amount?: number;
  estimated_amount?: number;
}

interface JsonDocument {
  standard_charge_information: {
    description: string;
    code_information: { code: string; type: string }[];
    standard_charges: {
      setting: string;
      gross_charge?: number;
      payers_information?: JsonPayer[];
    }[];
  }[];
  modifier_information?: { modifier_payer_information?: unknown[] }[];
}

/** The rates of a CMS JSON file (v2 or v3), and how many payer entries its modifiers have. */
export function jsonFileRates(text: string): { rates: FileRate[]; modifierEntries: number } {
  const document = JSON.parse(text) as JsonDocument;
  const rates = document.standard_charge_information.flatMap((item) =>
    item.standard_charges.flatMap((charge) =>
      (charge.payers_information ?? []).map((payer) => ({
        description: item.description,
        codes: item.code_information.map((c) => code(c.type, c.code)),
        setting: charge.setting,
        gross: charge.gross_charge,
        payer: payer.payer_name,
        plan: payer.plan_name,
        methodology: payer.methodology,
        dollar: payer.standard_charge_dollar,
        percentage: payer.standard_charge_percentage,
        effective: effective(
          payer.standard_charge_dollar,
          payer.standard_charge_percentage,
          payer.methodology,
          charge.gross_charge,
          payer.median_amount,
          payer.estimated_amount,
        ),
      })),
    ),
  );
  const modifierEntries = (document.modifier_information ?? []).reduce(
    (sum, modifier) => sum + (modifier.modifier_payer_information ?? []).length,
    0,
  );
  return { rates, modifierEntries };
}

// Windows-1252's characters for bytes 0x80–0x9F (the rest is Latin-1); undefined bytes stay.
const WINDOWS_1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/** UTF-8 (with or without a byte-order mark) when the bytes are valid UTF-8, else Windows-1252. */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    // Node's own TextDecoder('windows-1252') reads 0x80–0x9F as Latin-1 control characters.
    return Buffer.from(bytes)
      .toString('latin1')
      .replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252[c.charCodeAt(0) - 0x80] ?? c);
  }
}

/**
 * The rates of a CMS CSV file, tall or wide: a tall row with a payer is a rate; in a wide row,
 * each payer and plan whose columns hold anything is one. Rows without a code (modifiers) count.
 * A rate written again for the same charge (a wide file repeats one payer's rate on each row of a
 * charge another payer writes on several) is one rate, as the reader reads it.
 */
export function csvFileRates(bytes: Uint8Array): FileRate[] {
  const seen = new Set<string>();
  return allCsvRates(bytes).flatMap(({ rate, written }) => {
    if (seen.has(written)) return [];
    seen.add(written);
    return [rate];
  });
}

/** Each rate of the file, with everything written of it and its charge (`written`). */
function allCsvRates(bytes: Uint8Array): { rate: FileRate; written: string }[] {
  const [, , names = [], ...rows] = parseCsv(decodeText(bytes));
  const header = names.map((name) => name.trim().replace(/\s*\|\s*/g, '|'));
  const column = new Map(header.map((name, i) => [name, i]));
  const codeColumns = header.filter((name) => /^code\|\d+$/.test(name));
  const pairs = header.flatMap((name) => {
    const match = /^standard_charge\|(.+)\|(.+)\|methodology$/.exec(name);
    return match ? [{ payer: match[1] ?? '', plan: match[2] ?? '' }] : [];
  });
  const tall = column.has('payer_name');
  const groupOf = (payer: string, plan: string) =>
    header.filter(
      (name) => name.includes(`|${payer}|${plan}|`) || name.endsWith(`|${payer}|${plan}`),
    );
  const payerColumns = new Set(pairs.flatMap(({ payer, plan }) => groupOf(payer, plan)));
  return rows
    .filter((row) => row.some((value) => value.trim() !== ''))
    .flatMap((row) => {
      const at = (name: string) => row[column.get(name) ?? -1] ?? '';
      const item = {
        description: at('description'),
        codes: codeColumns
          .filter((name) => at(name).trim() !== '')
          .map((name) => code(at(`${name}|type`), at(name))),
        setting: at('setting'),
        gross: at('standard_charge|gross'),
      };
      const rate = (payer: string, plan: string, value: (field: string) => string) => ({
        ...item,
        payer,
        plan,
        methodology: value('methodology'),
        dollar: value('negotiated_dollar'),
        percentage: value('negotiated_percentage'),
        effective: effective(
          value('negotiated_dollar'),
          value('negotiated_percentage'),
          value('methodology'),
          item.gross,
          value('median_amount'),
          value('estimated_amount'),
        ),
      });
      if (tall) {
        if (at('payer_name').trim() === '') return [];
        return [
          {
            rate: rate(at('payer_name'), at('plan_name'), (field) =>
              at(/^(median|estimated)_amount$/.test(field) ? field : `standard_charge|${field}`),
            ),
            written: JSON.stringify(row),
          },
        ];
      }
      // A wide row's charge is its values but the payers'.
      const charge = row.filter((_, i) => !payerColumns.has(header[i] ?? ''));
      return pairs.flatMap(({ payer, plan }) => {
        const group = groupOf(payer, plan);
        if (group.every((name) => at(name).trim() === '')) return [];
        return [
          {
            rate: rate(payer, plan, (field) =>
              /^(median|estimated)_amount$/.test(field)
                ? at(`${field}|${payer}|${plan}`)
                : at(`standard_charge|${payer}|${plan}|${field}`),
            ),
            written: JSON.stringify([charge, payer, plan, group.map(at)]),
          },
        ];
      });
    });
}

/** Every rate stored for the hospital of this name; a modifier's entries have no codes. */
export async function storedRates(pool: Queryable, hospital: string): Promise<FileRate[]> {
  const { rows } = await pool.query<Record<string, string | null> & { codes: string[] | null }>(
    `SELECT i.description, i.setting, i.gross, p.payer_name, p.plan_name, r.methodology,
            r.dollar, r.percentage, r.effective_amount,
            (SELECT array_agg(c.code_type || ':' || c.code) FROM item_codes c
              WHERE c.hospital_id = i.hospital_id AND c.item_id = i.item_id) AS codes
       FROM hospitals h
       JOIN charge_items i ON i.hospital_id = h.id
       JOIN negotiated_rates r ON r.hospital_id = i.hospital_id AND r.item_id = i.item_id
       JOIN payer_plans p ON p.id = r.plan_id
      WHERE h.name = $1`,
    [hospital],
  );
  return rows.map((row) => ({
    description: row.description,
    codes: row.codes ?? [],
    setting: row.setting,
    gross: row.gross,
    payer: row.payer_name,
    plan: row.plan_name,
    methodology: row.methodology,
    dollar: row.dollar,
    percentage: row.percentage,
    effective: number(row.effective_amount),
  }));
}

const text = (value: Value) =>
  typeof value === 'string' && value.trim() !== ''
    ? value.trim().replace(/\s+/g, ' ').toLowerCase()
    : null;

const key = (rate: FileRate) =>
  JSON.stringify([
    text(rate.description),
    [...rate.codes].sort(),
    text(rate.setting),
    number(rate.gross),
    text(rate.payer),
    text(rate.plan),
    text(rate.methodology),
    number(rate.dollar),
    number(rate.percentage),
  ]);

/** Rates by everything but the effective amount, each key's amounts in ascending order. */
function byKey(rates: FileRate[]): Map<string, (number | null)[]> {
  const map = new Map<string, (number | null)[]>();
  for (const rate of rates) {
    const k = key(rate);
    map.set(k, [...(map.get(k) ?? []), rate.effective]);
  }
  for (const amounts of map.values()) amounts.sort((a, b) => (a ?? -1) - (b ?? -1));
  return map;
}

/**
 * Expects the stored rates to be the file's, as many times each, with the same effective amount
 * within half a cent; names the first five that differ either way.
 */
export function expectSameRates(file: FileRate[], stored: FileRate[]): void {
  const expected = byKey(file);
  const actual = byKey(stored);
  expect(stored.length).toBe(file.length);
  const differ: string[] = [];
  for (const [k, amounts] of expected) {
    const got = actual.get(k) ?? [];
    const same =
      got.length === amounts.length &&
      amounts.every((a, i) => {
        const b = got[i] ?? null;
        return a === null ? b === null : b !== null && Math.abs(a - b) <= 0.005;
      });
    if (!same)
      differ.push(`${k}: ${JSON.stringify(amounts)} in the file, ${JSON.stringify(got)} stored`);
  }
  expect(differ.slice(0, 5)).toEqual([]);
  expect([...actual.keys()].filter((k) => !expected.has(k)).slice(0, 5)).toEqual([]);
}

/**
 * Expects a JSON file's rates to be the stored rates of items with codes, and its modifiers' payer
 * entries as many stored rates of items without codes. Returns what the file was read as.
 */
export function expectSameJsonRates(
  text: string,
  stored: FileRate[],
): { rates: FileRate[]; modifierEntries: number } {
  const read = jsonFileRates(text);
  expect(stored.filter((rate) => rate.codes.length === 0)).toHaveLength(read.modifierEntries);
  expectSameRates(
    read.rates,
    stored.filter((rate) => rate.codes.length > 0),
  );
  return read;
}
