import {
  BILLING_CLASS_NAMES,
  DEFAULT_PLAN_DESIGN,
  DRUG_CODE_CATEGORIES,
  PlanDesignSchema,
  billingClassValues,
  describeDerivation,
  estimateOutOfPocket,
  estimatesOutOfPocket,
  isNonMetroAreaCode,
  nonMetroAreaName,
  stateByCode,
  stateByFips,
  type AmountOrigin,
  type CodeOption,
  type FamilyStatus,
  type OopRateRow,
  type PlanDesign,
  type SummaryRow,
} from '@ratelens/core';
import { inTransaction, poolLike, type Pool } from '@ratelens/db';
import { badRequest } from '../http/errors.ts';

/** The most rows one search answers with; a search that reaches it is cut at the highest rates. */
export const MAX_RESULT_ROWS = 10_000;
const CODE_OPTIONS = 50;
const PLAN_DESIGN_KEY = 'plan-design';
const PLAN_CACHE_MS = 10_000;
const AREA_CHECK_MS = 5_000;

/** A search as the service runs it: area, code, billing class, and whose out-of-pocket to estimate. */
export interface RateQuery {
  stateCode: string;
  msaId: string;
  code: string;
  codeType?: string | null;
  paymentMethod: string;
  familyStatus: FamilyStatus;
  ytdSpend: number;
}

interface RateRecord {
  medicalcode: string;
  CodeDescription: string;
  msaname: string;
  FacilityName: string;
  HospitalType: string | null;
  healthsystemType: string | null;
  planname: string;
  payername: string;
  rates: number;
  notes: string | null;
  Category: string;
  codetype: string;
  location: string | null;
  Statename: string;
  LOB: string;
  npi: string | null;
  origin: AmountOrigin | null;
  percentage: number | null;
  gross: number | null;
  cashRate: number | null;
  lineCashRate: number | null;
  hospitalId: string;
  billingClass: string;
  setting: string | null;
  modifiers: string[];
}

function billingValues(paymentMethod: string): readonly string[] {
  const values = billingClassValues(paymentMethod);
  if (!values)
    throw badRequest(`paymentMethod must be one of ${BILLING_CLASS_NAMES.join(', ')}.`, [
      {
        field: 'paymentMethod',
        rule: 'invalid_value',
        message: `paymentMethod must be one of ${BILLING_CLASS_NAMES.join(', ')}.`,
      },
    ]);
  return values;
}

/**
 * CMS files label a CPT code "CPT" or "HCPCS" (CPT is Level I of HCPCS): AdventHealth's 99283 is
 * "HCPCS" where another hospital's is "CPT". For the search the two are one family, so one code
 * compares every hospital that prices it, whichever label its file used. A code cannot be both:
 * CPT codes are four digits and a digit or letter, HCPCS Level II codes a letter and four digits.
 */
const CPT_FAMILY = ['CPT', 'HCPCS'];

/** The code types a search for `codeType` matches; null for any type. */
export function searchCodeTypes(codeType: string | null | undefined): string[] | null {
  const type = codeType?.trim().toUpperCase();
  if (!type) return null;
  return CPT_FAMILY.includes(type) ? CPT_FAMILY : [type];
}

/** An area code's type in the code box: a CPT code a file labelled "HCPCS" is offered as CPT. */
const SEARCH_CODE_TYPE = `CASE WHEN ic.code_type = 'HCPCS' AND ic.code ~ '^[0-9]{4}[0-9A-Z]$' THEN 'CPT'
                              ELSE ic.code_type END`;

/**
 * Part of every area's data stamp: raised when the code list is built differently, so that lists
 * built before are rebuilt (2: CPT codes labelled "HCPCS" joined their CPT option).
 */
const AREA_CODES_LAYOUT = 'layout 2:';

/** Escapes LIKE's wildcards so typed text matches literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The categories of drug codes as an SQL array: constants of our own, quoted as literals. */
const DRUG_CATEGORIES = `ARRAY[${DRUG_CODE_CATEGORIES.map((c) => `'${c.replaceAll("'", "''")}'`).join(', ')}]`;

// The items of the code and billing class, joined to the hospitals aliased `hospital`: `$3`–`$5`
// as in RateQuery's params (the area, `$1` and `$2`, is the caller's to restrict). Besides its
// stored class, an item for both settings is found as inpatient too, and a drug (an item with
// drug details, or the code searched a drug code) as a drug too (BILLING_CLASSES in core).
const matchingItems = (hospital: string) => `
    JOIN item_codes ic ON ic.hospital_id = ${hospital}.id AND ic.code = $3
                      AND ($5::text[] IS NULL OR ic.code_type = ANY($5::text[]))
    JOIN charge_items ci ON ci.hospital_id = ic.hospital_id AND ci.item_id = ic.item_id
                        AND (ci.billing_class = ANY($4::text[])
                             OR ci.setting = 'both' AND 'inpatient' = ANY($4::text[])
                             OR 'drugs' = ANY($4::text[])
                                AND (ci.drug_unit IS NOT NULL OR ci.drug_type IS NOT NULL
                                     OR ic.category = ANY(${DRUG_CATEGORIES})))`;

// A hospital's figures for the service itself: an aggregate over its lines without modifiers when
// it has such lines (with `present` holding, if given), else over all its lines. Martha's Vineyard
// prices 47562's assistant surgeon (modifiers AS and 80) at a quarter of the operation: over every
// line, the cash price was $515.25, not $2,061.00, and the average rate $1,350.33, not $1,985.84.
// `over` is the window, for the rate rows, or nothing, for the summary's groups.
const ofTheService = (
  aggregate: string,
  value: string,
  { present, over = '' }: { present?: string; over?: string } = {},
) => `
    CASE WHEN bool_or(ci.modifiers = '{}'${present ? ` AND ${present}` : ''}) ${over}
         THEN ${aggregate}(${value}) FILTER (WHERE ci.modifiers = '{}') ${over}
         ELSE ${aggregate}(${value}) ${over} END`;

/** The cash price: the lowest on the service's lines, even those without payer rates. */
const hospitalCash = (over = '') => ofTheService('min', 'ci.discounted_cash', { over });

/** The summary's rates: the service's own when it has rates, so the table's apart lines stay out. */
const serviceRates = (aggregate: string, value = 'nr.effective_amount') =>
  ofTheService(aggregate, value, { present: 'nr.rate_id IS NOT NULL' });

// The area's items of the code and billing class, each with its own cash price, its hospital and
// the hospital's cash price (hospitalCash), as in the summary: from any of its lines, since a file
// may publish it on a line without payer rates (AdventHealth's 99283), so every row, the chart and
// the report say the same. A window over the items, not a subquery per hospital: with the
// subquery PostgreSQL never found the statement's generic plan cheaper and planned it afresh on
// every execution (6–9 ms, where the search itself runs in 0.6–2 ms); with the window it settles
// on the generic plan after five (planning 0.02 ms). Measured with PREPARE/EXPLAIN ANALYZE on the
// bench data (ADR 0015).
const AREA_ITEMS = `
    (SELECT h.id AS hospital_id, h.name, h.hospital_type, h.health_system_type, h.state_code,
            h.cbsa_code, h.addresses, h.type_2_npis,
            ic.code, ic.code_type, ic.category,
            ci.item_id, ci.description, ci.notes, ci.gross, ci.billing_class, ci.setting,
            ci.modifiers, ci.discounted_cash AS line_cash,
            ${hospitalCash('OVER (PARTITION BY h.id)')} AS cash
       FROM hospitals h ${matchingItems('h')}
      WHERE h.state_code = $1 AND h.cbsa_code = $2) m`;

// One row per (hospital, item, payer plan) of the code in the area, with what the inventory knows
// of the hospital and its cash price.
const RATE_ROWS_SQL = `
  SELECT m.code AS medicalcode,
         coalesce(cd.description, m.description) AS "CodeDescription",
         coalesce(cb.title, '') AS msaname,
         m.name AS "FacilityName",
         m.hospital_type AS "HospitalType",
         m.health_system_type AS "healthsystemType",
         pp.plan_name AS planname,
         pp.payer_name AS payername,
         nr.effective_amount::float8 AS rates,
         coalesce(nr.notes, m.notes) AS notes,
         m.category AS "Category",
         m.code_type AS codetype,
         m.addresses[1] AS location,
         coalesce(s.name, m.state_code) AS "Statename",
         pp.line_of_business AS "LOB",
         m.type_2_npis[1] AS npi,
         nr.effective_origin AS origin,
         nr.percentage::float8 AS percentage,
         m.gross::float8 AS gross,
         m.cash::float8 AS "cashRate",
         m.line_cash::float8 AS "lineCashRate",
         m.hospital_id AS "hospitalId",
         m.billing_class AS "billingClass",
         m.setting,
         m.modifiers
    FROM ${AREA_ITEMS}
    JOIN negotiated_rates nr ON nr.hospital_id = m.hospital_id AND nr.item_id = m.item_id
    JOIN payer_plans pp ON pp.id = nr.plan_id
    LEFT JOIN states s ON s.code = m.state_code
    LEFT JOIN cbsas cb ON cb.code = m.cbsa_code
    LEFT JOIN codes cd ON cd.type = m.code_type AND cd.code = m.code
   WHERE nr.effective_amount IS NOT NULL
   ORDER BY nr.effective_amount DESC, m.name, pp.payer_name, pp.plan_name`;

/**
 * Exports hold a connection for as long as their client takes to download: at most this many at
 * once, on connections of their own (the rest wait their turn), so searches keep the pool's.
 */
const EXPORT_CONNECTIONS = 3;
/**
 * An export whose client stops reading leaves its transaction idle between two batches:
 * PostgreSQL ends the transaction after this long, and the export fails, giving its connection
 * back (idle_in_transaction_session_timeout).
 */
export const EXPORT_IDLE_MS = 60_000;

/** Reads behind the rate search: billing classes, areas, codes, rates and their summary. */
export class RatesSearch {
  private exportPool: Pool | null = null;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly exportIdleMs = EXPORT_IDLE_MS,
  ) {}

  /** Closes the exports' connections (the pool's own are its owner's to close). */
  async close(): Promise<void> {
    this.closed = true;
    await this.exportPool?.end();
    this.exportPool = null;
  }

  billingClasses(): string[] {
    return [...BILLING_CLASS_NAMES];
  }

  private cachedPlan: { plan: PlanDesign; until: number } | null = null;

  /** The plan design, read at most every PLAN_CACHE_MS (a change by another process shows within that). */
  async planDesign(): Promise<PlanDesign> {
    if (this.cachedPlan && this.cachedPlan.until > Date.now()) return this.cachedPlan.plan;
    const { rows } = await this.pool.query<{ value: unknown }>(
      `SELECT value FROM app_settings WHERE key = $1`,
      [PLAN_DESIGN_KEY],
    );
    const parsed = PlanDesignSchema.safeParse(rows[0]?.value);
    const plan = parsed.success ? parsed.data : DEFAULT_PLAN_DESIGN;
    this.cachedPlan = { plan, until: Date.now() + PLAN_CACHE_MS };
    return plan;
  }

  async setPlanDesign(plan: PlanDesign, adminId: string): Promise<PlanDesign> {
    await this.pool.query(
      `INSERT INTO app_settings (key, value, updated_by, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_by = excluded.updated_by, updated_at = now()`,
      [PLAN_DESIGN_KEY, JSON.stringify(plan), adminId],
    );
    this.cachedPlan = { plan, until: Date.now() + PLAN_CACHE_MS };
    return plan;
  }

  /** States that have hospitals with loaded rates: code → name. */
  async searchableStates(): Promise<Record<string, string>> {
    const { rows } = await this.pool.query<{ code: string; name: string }>(
      `SELECT s.code, s.name FROM states s
        WHERE EXISTS (SELECT 1 FROM hospitals h JOIN hospital_summaries hs ON hs.hospital_id = h.id
                       WHERE h.state_code = s.code AND hs.rates > 0)
        ORDER BY s.name`,
    );
    return Object.fromEntries(rows.map((r) => [r.code, r.name]));
  }

  /**
   * The names of a search's state and metro area as this database knows them, for the titles of
   * what it makes (a texted PDF, a workbook): the client's own words for them are not printed.
   * Null for a metro area it does not know.
   */
  async placeNames(query: Pick<RateQuery, 'stateCode' | 'msaId'>): Promise<{
    stateName: string;
    msaName: string | null;
  }> {
    const stateName = stateByCode(query.stateCode)?.name ?? query.stateCode;
    // A state's non-metro area is named by the state its code holds ("99002" is Alaska's).
    if (isNonMetroAreaCode(query.msaId)) {
      const area = stateByFips(query.msaId.slice(2).replace(/^0/, ''));
      return { stateName, msaName: area ? nonMetroAreaName(area.code) : null };
    }
    const { rows } = await this.pool.query<{ title: string }>(
      `SELECT title FROM cbsas WHERE code = $1`,
      [query.msaId],
    );
    return { stateName, msaName: rows[0]?.title ?? null };
  }

  async msaIdByName(stateCode: string, msaName: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ code: string }>(
      `SELECT c.code FROM cbsas c WHERE lower(c.title) = lower($2)
          AND EXISTS (SELECT 1 FROM hospitals h WHERE h.cbsa_code = c.code AND h.state_code = $1)`,
      [stateCode, msaName.trim()],
    );
    return rows[0]?.code ?? null;
  }

  /**
   * The area's codes matching the typed text: code prefix first, then the codes it is a prefix
   * of once leading zeros are set aside (typed 450 finds revenue code 0450, 100 anesthesia code 00100), then
   * description words. The area's code list is rebuilt when its hospitals' data changed since
   * the last build.
   */
  async codeOptions(stateCode: string, msaId: string, queryText: string): Promise<CodeOption[]> {
    await this.ensureAreaCodes(stateCode, msaId);
    const text = likeLiteral(queryText.trim());
    const { rows } = await this.pool.query<CodeOption>({
      name: 'oob_code_options',
      text: `SELECT code AS "procedureCode", description AS "codeDescription", code_type AS "codeType"
         FROM (SELECT *, code ILIKE $3 || '%' AS prefix,
                      $3 ~ '^[0-9]+$' AND code LIKE '0%' AND ltrim(code, '0') LIKE ltrim($3, '0') || '%' AS unpadded
                 FROM area_codes
                WHERE state_code = $1 AND cbsa_code = $2) c
        WHERE prefix OR unpadded OR description ILIKE '%' || $3 || '%'
        ORDER BY prefix DESC, unpadded DESC, hospitals DESC, code, code_type
        LIMIT ${CODE_OPTIONS}`,
      values: [stateCode, msaId, text],
    });
    return rows.map((r) => ({
      ...r,
      procedureCode: r.procedureCode.trim(),
      codeDescription: r.codeDescription.trim(),
    }));
  }

  private async areaStamp(stateCode: string, msaId: string): Promise<string> {
    const { rows } = await this.pool.query<{ stamp: string | null }>(
      `SELECT $3 || string_agg(h.id::text || '@' || coalesce(hs.updated_at::text, '-'), ',' ORDER BY h.id) AS stamp
         FROM hospitals h LEFT JOIN hospital_summaries hs ON hs.hospital_id = h.id
        WHERE h.state_code = $1 AND h.cbsa_code = $2`,
      [stateCode, msaId, AREA_CODES_LAYOUT],
    );
    return rows[0]?.stamp ?? '';
  }

  /** When each area with hospitals was last checked: as many entries as such areas, no more. */
  private readonly areaCheckedAt = new Map<string, number>();

  /**
   * Rebuilds the area's code list when its hospitals' data changed. Checked at most every
   * AREA_CHECK_MS per area with hospitals and process: a file loaded a moment ago shows in the
   * code box that much later. An area without hospitals (any five digits can be asked for) is
   * neither remembered here nor written to the database.
   */
  async ensureAreaCodes(stateCode: string, msaId: string): Promise<void> {
    const area = `${stateCode}:${msaId}`;
    if ((this.areaCheckedAt.get(area) ?? 0) > Date.now() - AREA_CHECK_MS) return;
    if (await this.rebuildAreaCodesIfChanged(stateCode, msaId))
      this.areaCheckedAt.set(area, Date.now());
    else this.areaCheckedAt.delete(area);
  }

  /** Whether the area has hospitals. */
  private async rebuildAreaCodesIfChanged(stateCode: string, msaId: string): Promise<boolean> {
    const stamp = await this.areaStamp(stateCode, msaId);
    const { rows } = await this.pool.query<{ dataStamp: string }>(
      `SELECT data_stamp AS "dataStamp" FROM area_code_builds WHERE state_code = $1 AND cbsa_code = $2`,
      [stateCode, msaId],
    );
    // An area that never had hospitals has nothing to build; one that lost them is emptied below.
    if (rows[0]?.dataStamp === stamp || (stamp === '' && rows.length === 0)) return stamp !== '';
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `SELECT pg_advisory_xact_lock(hashtext('area_codes:' || $1 || ':' || $2))`,
        [stateCode, msaId],
      );
      const { rows: again } = await client.query<{ dataStamp: string }>(
        `SELECT data_stamp AS "dataStamp" FROM area_code_builds WHERE state_code = $1 AND cbsa_code = $2`,
        [stateCode, msaId],
      );
      if (again[0]?.dataStamp === stamp) return;
      await client.query(`DELETE FROM area_codes WHERE state_code = $1 AND cbsa_code = $2`, [
        stateCode,
        msaId,
      ]);
      await client.query(
        `INSERT INTO area_codes (state_code, cbsa_code, code_type, code, description, hospitals)
         SELECT $1, $2, ${SEARCH_CODE_TYPE}, ic.code,
                coalesce(max(cd.description), min(ci.description), ''), count(DISTINCT ic.hospital_id)
           FROM hospitals h
           JOIN item_codes ic ON ic.hospital_id = h.id
           JOIN charge_items ci ON ci.hospital_id = ic.hospital_id AND ci.item_id = ic.item_id
           LEFT JOIN codes cd ON cd.type = ic.code_type AND cd.code = ic.code
          WHERE h.state_code = $1 AND h.cbsa_code = $2
            -- A hospital's own chargemaster codes mean nothing to a person searching.
            AND ic.code_type NOT IN ('CDM', 'LOCAL')
          GROUP BY ${SEARCH_CODE_TYPE}, ic.code`,
        [stateCode, msaId],
      );
      await client.query(
        `INSERT INTO area_code_builds (state_code, cbsa_code, data_stamp, built_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (state_code, cbsa_code) DO UPDATE SET data_stamp = excluded.data_stamp, built_at = now()`,
        [stateCode, msaId, stamp],
      );
    });
    return stamp !== '';
  }

  private params(query: RateQuery): unknown[] {
    return [
      query.stateCode,
      query.msaId,
      query.code.trim().toUpperCase(),
      billingValues(query.paymentMethod),
      searchCodeTypes(query.codeType),
    ];
  }

  private toRow(record: RateRecord, query: RateQuery, plan: PlanDesign): OopRateRow {
    const origin = record.origin ?? 'dollar';
    const { cashRate, lineCashRate } = record;
    const estimate = estimatesOutOfPocket(record.LOB)
      ? estimateOutOfPocket({
          allowedAmount: record.rates,
          familyStatus: query.familyStatus,
          ytdSpend: query.ytdSpend,
          plan,
          // The line's own: the hospital's lowest may price another line (a professional fee, the
          // cheapest of its implants under C1776), not what this rate pays for.
          cashPrice: lineCashRate ?? cashRate,
        })
      : null;
    return {
      medicalcode: record.medicalcode,
      CodeDescription: record.CodeDescription,
      msaname: record.msaname,
      FacilityName: record.FacilityName,
      HospitalType: record.HospitalType,
      planname: record.planname,
      payername: record.payername,
      rates: record.rates,
      notes: record.notes,
      Category: record.Category,
      codetype: record.codetype,
      location: record.location,
      Statename: record.Statename,
      LOB: record.LOB,
      healthsystemType: record.healthsystemType,
      npi: record.npi,
      MemberOOP: estimate?.memberPays ?? null,
      rateOrigin: origin,
      rateDerivation: describeDerivation(origin, record.percentage, record.gross),
      cashRate,
      lineCashRate,
      cashIsCheaper: estimate?.cashIsCheaper ?? false,
      hospitalId: record.hospitalId,
      billingClass: record.billingClass,
      setting: record.setting,
      modifiers: record.modifiers,
    };
  }

  /** The search's rows, highest rate first, at most MAX_RESULT_ROWS. */
  async rates(query: RateQuery): Promise<OopRateRow[]> {
    const plan = await this.planDesign();
    // Named: prepared once per connection, so the join over the rate partitions is not planned per request.
    const { rows } = await this.pool.query<RateRecord>({
      name: 'oob_rates',
      text: `${RATE_ROWS_SQL} LIMIT ${MAX_RESULT_ROWS}`,
      values: this.params(query),
    });
    return rows.map((r) => this.toRow(r, query, plan));
  }

  /**
   * Every row of the search, fetched through a cursor in batches so memory stays flat (exports).
   * Waits for one of EXPORT_CONNECTIONS; fails once not asked for the next row for exportIdleMs.
   */
  async *streamRates(query: RateQuery, batch = 2000): AsyncGenerator<OopRateRow> {
    const plan = await this.planDesign();
    if (this.closed) throw new Error('The rate search is closed.');
    // An export waits its turn a minute at most: a queue behind stuck exports must not grow.
    this.exportPool ??= poolLike(this.pool, EXPORT_CONNECTIONS, {
      connectionTimeoutMillis: 60_000,
    });
    const client = await this.exportPool.connect();
    // PostgreSQL ending the idle transaction is said as an error event too, between two queries:
    // unheard, it would take the process down. The next FETCH fails with it.
    const unheard = () => undefined;
    client.on('error', unheard);
    let committed = false;
    try {
      await client.query('BEGIN READ ONLY');
      await client.query(
        `SET LOCAL idle_in_transaction_session_timeout = ${Math.round(this.exportIdleMs)}`,
      );
      await client.query(
        `DECLARE rate_rows NO SCROLL CURSOR FOR ${RATE_ROWS_SQL}`,
        this.params(query),
      );
      for (;;) {
        const { rows } = await client.query<RateRecord>(`FETCH ${batch} FROM rate_rows`);
        for (const record of rows) yield this.toRow(record, query, plan);
        if (rows.length < batch) break;
      }
      await client.query('COMMIT');
      committed = true;
    } finally {
      // An export that failed (its transaction ended by PostgreSQL, say) or was left before its
      // last row (its client gone) has its connection closed, which rolls back what it had open;
      // it keeps its listener for what the closing connection may still say.
      if (committed) client.off('error', unheard);
      client.release(!committed);
    }
  }

  /** Per hospital: low, average and high rate of the code and its cash price (serviceRates). */
  async summary(query: RateQuery): Promise<SummaryRow[]> {
    const { rows } = await this.pool.query<SummaryRow>({
      name: 'oob_rates_summary',
      text: `SELECT h.id AS "hospitalId", h.name AS "FacilityName",
              (${hospitalCash()})::float8 AS "CASH_RATE",
              round(${serviceRates('min')}, 2)::float8 AS "LowAmt",
              round(${serviceRates('avg')}, 2)::float8 AS "AvgAmt",
              round(${serviceRates('max')}, 2)::float8 AS "HighAmt",
              (${serviceRates('count', 'nr.rate_id')})::int AS "rateCount"
         FROM hospitals h ${matchingItems('h')}
         LEFT JOIN negotiated_rates nr ON nr.hospital_id = ci.hospital_id AND nr.item_id = ci.item_id
                                      AND nr.effective_amount IS NOT NULL
        WHERE h.state_code = $1 AND h.cbsa_code = $2
        GROUP BY h.id, h.name
        ORDER BY "AvgAmt" NULLS LAST, h.name`,
      values: this.params(query),
    });
    return rows;
  }
}
