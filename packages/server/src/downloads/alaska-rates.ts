import { describeOrigin, PERCENT_OF_BILLED_CHARGES, type AmountOrigin } from '@ratelens/core';
import type { Queryable } from '@ratelens/db';
import { csvCell, csvLine, csvText } from './csv.ts';

export const ALASKA_RATES_FILE_NAME = 'ratelens-alaska-rates.csv';

export const ALASKA_RATES_COLUMNS = [
  'State',
  'Metro Area',
  'Hospital',
  'Demo Data',
  'Code Type',
  'Code',
  'Description',
  'Setting',
  'Payer',
  'Plan',
  'Line of Business',
  'Methodology',
  'Negotiated Rate ($)',
  'Derived From',
  'Gross Charge ($)',
  'Cash Price ($)',
] as const;

/** Items per query: their rates come with them, so memory stays bounded by one batch. */
const ITEMS_PER_BATCH = 200;

interface HospitalRow {
  id: string;
  name: string;
  is_demo: boolean;
  state: string;
  metro: string;
}

interface RateRow {
  item_id: number;
  code_types: string | null;
  codes: string | null;
  description: string;
  setting: string | null;
  gross: string | null;
  discounted_cash: string | null;
  payer_name: string | null;
  plan_name: string | null;
  line_of_business: string | null;
  methodology: string | null;
  effective_amount: string | null;
  effective_origin: string | null;
  percentage: string | null;
}

const ORIGINS: readonly string[] = ['dollar', 'percentage-of-gross', 'median', 'estimated'];

function derivedFrom(row: RateRow): string {
  if (row.payer_name === null) return '';
  const origin = ORIGINS.includes(row.effective_origin ?? '')
    ? (row.effective_origin as AmountOrigin)
    : null;
  // A percentage of anything but billed charges (a fee schedule) has no dollar figure to explain.
  const percentage =
    row.percentage === null || row.methodology !== PERCENT_OF_BILLED_CHARGES
      ? undefined
      : Number(row.percentage);
  return describeOrigin({
    amount: row.effective_amount === null ? null : Number(row.effective_amount),
    origin,
    ...(percentage === undefined ? {} : { percentage }),
  });
}

/**
 * The free Alaska rates file (issue 6, home card): every charge item of every Alaska hospital with
 * each payer's negotiated rate, one line per rate (an item without payer rates gets one line for
 * its gross and cash prices). Read hospital by hospital in batches of items, never all at once.
 */
export async function* alaskaRatesCsv(pool: Queryable): AsyncGenerator<string> {
  // A BOM so that spreadsheet programs read the file as UTF-8.
  yield `\ufeff${csvLine([...ALASKA_RATES_COLUMNS])}`;
  const hospitals = await pool.query<HospitalRow>(
    `SELECT h.id, h.name, h.is_demo, coalesce(s.name, h.state_code) AS state, coalesce(c.title, '') AS metro
       FROM hospitals h
       LEFT JOIN states s ON s.code = h.state_code
       LEFT JOIN cbsas c ON c.code = h.cbsa_code
      WHERE h.state_code = 'AK'
      ORDER BY metro, h.name, h.id`,
  );
  for (const hospital of hospitals.rows) {
    const prefix = [
      csvText(hospital.state),
      csvText(hospital.metro),
      csvText(hospital.name),
      hospital.is_demo ? 'Yes' : 'No',
    ];
    let after = -2_147_483_648; // below any item_id (int4)
    for (;;) {
      const { rows } = await pool.query<RateRow>(
        `WITH items AS (
           SELECT item_id, description, setting, gross, discounted_cash
             FROM charge_items
            WHERE hospital_id = $1 AND item_id > $2
            ORDER BY item_id
            LIMIT $3)
         SELECT i.item_id, codes.code_types, codes.codes, i.description, i.setting,
                i.gross::text, i.discounted_cash::text,
                pp.payer_name, pp.plan_name, pp.line_of_business, r.methodology,
                r.effective_amount::text, r.effective_origin, r.percentage::text
           FROM items i
           LEFT JOIN LATERAL (
             SELECT string_agg(code_type, '; ' ORDER BY code_type, code) AS code_types,
                    string_agg(code, '; ' ORDER BY code_type, code) AS codes
               FROM item_codes ic
              WHERE ic.hospital_id = $1 AND ic.item_id = i.item_id) codes ON true
           LEFT JOIN negotiated_rates r ON r.hospital_id = $1 AND r.item_id = i.item_id
           LEFT JOIN payer_plans pp ON pp.id = r.plan_id
          ORDER BY i.item_id, r.rate_id`,
        [hospital.id, after, ITEMS_PER_BATCH],
      );
      if (rows.length === 0) break;
      let chunk = '';
      for (const row of rows) {
        chunk += csvLine([
          ...prefix,
          csvText(row.code_types),
          csvText(row.codes),
          csvText(row.description),
          csvText(row.setting),
          csvText(row.payer_name),
          csvText(row.plan_name),
          csvText(row.line_of_business),
          csvText(row.methodology),
          csvCell(row.effective_amount),
          csvText(derivedFrom(row)),
          csvCell(row.gross),
          csvCell(row.discounted_cash),
        ]);
        after = row.item_id;
      }
      yield chunk;
    }
  }
}
