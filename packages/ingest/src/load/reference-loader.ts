import {
  codeCategory,
  nonMetroAreaCode,
  nonMetroAreaName,
  stateByCode,
  stateByFips,
  US_STATES,
} from '@ratelens/core';
import {
  copyWriter,
  inTransaction,
  type Pool,
  type PoolClient,
  type Queryable,
} from '@ratelens/db';
import type { MrfHeader } from '../model.ts';
import type { CbsaDelineation } from '../reference/cbsa.ts';
import type { HcpcsLevel2Code } from '../reference/hcpcs.ts';
import { ReferenceFileError } from '../reference/errors.ts';
import { NADAC_KEY_LABEL, refuseNoPrices, type NadacFile } from '../reference/nadac.ts';
import type {
  GpciLocality,
  OppsCap,
  PhysicianFeeScheduleRvu,
} from '../reference/physician-fee-schedule.ts';
import type { RowProblems } from '../reference/source.ts';
import { countyForAddresses, countyForZip } from '../reference/zip-county.ts';
import type { ZipLocality } from '../reference/zip-locality.ts';
import { copyLine } from './copy-text.ts';

async function copyAll(
  client: PoolClient,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly unknown[]>,
): Promise<number> {
  const writer = copyWriter(client, table, columns);
  for (const row of rows) {
    const wait = writer.write(copyLine(row as Parameters<typeof copyLine>[0]));
    if (wait) await wait;
  }
  return writer.end();
}

/** The 50 states, DC and PR (a constant of core). */
export async function loadStates(pool: Pool): Promise<number> {
  await pool.query(
    `INSERT INTO states (code, name, fips) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
     ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, fips = EXCLUDED.fips`,
    [US_STATES.map((s) => s.code), US_STATES.map((s) => s.name), US_STATES.map((s) => s.fips)],
  );
  return US_STATES.length;
}

/** Options of the loaders that replace a table whole. */
export interface ReplaceOptions {
  /**
   * Load even when the new rows are more than {@link MAX_SHRINK} fewer than those loaded, or leave
   * out every row of a state that has some: `npm run reference -- … --force`.
   */
  allowShrink?: boolean;
}

/** The share of a table's rows a replacement may drop without `allowShrink`. */
export const MAX_SHRINK = 0.1;

/**
 * A replacement refused because it would drop much of what is loaded: a valid but partial file
 * (a state's extract of List 1, a ZIP5 file cut short) would otherwise move hospitals into
 * non-metro areas or out of their Medicare locality, with exit 0.
 */
export class ReferenceShrinkError extends Error {
  override readonly name = 'ReferenceShrinkError';
}

const formatCount = (n: number) => n.toLocaleString('en-US');

/** Rows by state. */
function byState<T>(rows: readonly T[], state: (row: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(state(row), (counts.get(state(row)) ?? 0) + 1);
  return counts;
}

async function loadedByState(client: PoolClient, table: string): Promise<Map<string, number>> {
  const { rows } = await client.query<{ state_code: string; n: number }>(
    `SELECT state_code, count(*)::int AS n FROM ${table} GROUP BY state_code`,
  );
  return new Map(rows.map((row) => [row.state_code, row.n]));
}

/**
 * Throws a ReferenceShrinkError when `after` would replace `before` (rows by state) with more than
 * MAX_SHRINK fewer rows, or with none in a state that has some, unless `allowShrink`.
 */
function checkShrink(
  what: string,
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  options: ReplaceOptions,
): void {
  if (options.allowShrink) return;
  const total = (counts: ReadonlyMap<string, number>) =>
    [...counts.values()].reduce((sum, n) => sum + n, 0);
  const [was, will] = [total(before), total(after)];
  const reasons: string[] = [];
  if (will < was * (1 - MAX_SHRINK)) {
    const share = Math.round(((was - will) / was) * 1000) / 10;
    reasons.push(`${formatCount(was - will)} fewer (${share}%, more than ${MAX_SHRINK * 100}%)`);
  }
  const gone = [...before.keys()].filter((state) => !after.has(state)).sort();
  if (gone.length > 0) {
    const named = gone.slice(0, 10).join(', ') + (gone.length > 10 ? ', …' : '');
    reasons.push(
      `none in ${gone.length === 1 ? 'a state' : `${gone.length} states`} that ${gone.length === 1 ? 'has' : 'have'} some (${named})`,
    );
  }
  if (reasons.length === 0) return;
  throw new ReferenceShrinkError(
    `refused to replace the ${formatCount(was)} ${what} loaded with ${formatCount(will)}: ` +
      `${reasons.join(', and ')}. Nothing was changed; to load it anyway, allow the shrink ` +
      `(allowShrink: true; --force on the command line).`,
  );
}

/**
 * CBSAs and their counties from List 1, replacing those loaded; the per-state non-metro groups
 * are kept. A delineation with more than 10% fewer counties than the one loaded, or none in a
 * state that has some, is refused unless `options.allowShrink` (ReferenceShrinkError).
 */
export async function loadCbsaDelineation(
  pool: Pool,
  delineation: CbsaDelineation,
  options: ReplaceOptions = {},
): Promise<{ cbsas: number; counties: number }> {
  return inTransaction(pool, async (client) => {
    checkShrink(
      'counties',
      await loadedByState(client, 'counties'),
      byState(delineation.counties, (county) => county.stateCode),
      options,
    );
    await client.query(`DELETE FROM cbsas WHERE kind <> 'nonmetro'`);
    await client.query('DELETE FROM counties');
    const cbsas = await copyAll(
      client,
      'cbsas',
      ['code', 'title', 'kind', 'state_codes'],
      delineation.cbsas.map((c) => [c.code, c.title, c.kind, c.stateCodes]),
    );
    const counties = await copyAll(
      client,
      'counties',
      ['fips', 'name', 'state_code', 'cbsa_code', 'central'],
      delineation.counties.map((c) => [
        c.countyFips,
        c.name,
        c.stateCode,
        c.cbsaCode,
        c.centralOutlying === 'central',
      ]),
    );
    await replaceStaleCounties(client);
    // Hospitals placed before the delineation was loaded, or placed differently by an older one.
    await client.query(
      `UPDATE hospitals h SET cbsa_code = c.cbsa_code FROM counties c WHERE c.fips = h.county_fips AND h.cbsa_code IS DISTINCT FROM c.cbsa_code`,
    );
    await placeOutsideCbsas(client);
    return { cbsas, counties };
  });
}

/**
 * Hospitals whose county is not one of the delineation's get their county again from their ZIP:
 * those placed by an older rule (Connecticut's abolished counties, before its planning regions were
 * read by town). Counties outside every CBSA are not listed either; theirs come out the same.
 */
async function replaceStaleCounties(client: PoolClient): Promise<void> {
  const { rows } = await client.query<{ id: string; zip: string; county_fips: string | null }>(
    `SELECT h.id, h.zip, h.county_fips FROM hospitals h
      WHERE h.zip IS NOT NULL AND NOT EXISTS (SELECT 1 FROM counties c WHERE c.fips = h.county_fips)`,
  );
  for (const hospital of rows) {
    const county = countyForZip(hospital.zip);
    if (county && county.countyFips !== hospital.county_fips) {
      await client.query('UPDATE hospitals SET county_fips = $2 WHERE id = $1', [
        hospital.id,
        county.countyFips,
      ]);
    }
  }
}

/** The state's non-metro area (one per state, kept across delineations): its CBSA code. */
async function nonMetroArea(pool: Queryable, stateCode: string): Promise<string> {
  const code = nonMetroAreaCode(stateCode);
  await pool.query(
    `INSERT INTO cbsas (code, title, kind, state_codes) VALUES ($1, $2, 'nonmetro', $3) ON CONFLICT (code) DO NOTHING`,
    [code, nonMetroAreaName(stateCode), [stateCode]],
  );
  return code;
}

/**
 * Hospitals whose county is in no CBSA of the delineation just loaded join their state's
 * non-metro area: those placed before any delineation was loaded (they have a county but no
 * CBSA), and those whose county has left its CBSA.
 */
async function placeOutsideCbsas(client: PoolClient): Promise<void> {
  const { rows } = await client.query<{ county_fips: string; cbsa_code: string | null }>(
    `SELECT DISTINCT h.county_fips, h.cbsa_code FROM hospitals h
      WHERE h.county_fips IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM counties c WHERE c.fips = h.county_fips AND c.cbsa_code IS NOT NULL)`,
  );
  // County → its state, for the counties not in their state's non-metro area already.
  const moves = new Map<string, string>();
  for (const { county_fips: countyFips, cbsa_code: current } of rows) {
    const state = stateByFips(countyFips.slice(0, 2));
    if (state && current !== nonMetroAreaCode(state.code)) moves.set(countyFips, state.code);
  }
  if (moves.size === 0) return;
  for (const stateCode of new Set(moves.values())) await nonMetroArea(client, stateCode);
  await client.query(
    `UPDATE hospitals h SET cbsa_code = m.area
       FROM unnest($1::text[], $2::text[]) AS m(fips, area) WHERE h.county_fips = m.fips`,
    [[...moves.keys()], [...moves.values()].map((stateCode) => nonMetroAreaCode(stateCode))],
  );
}

/** HCPCS Level II descriptions (public domain) and the category of every code. */
export async function loadHcpcs(pool: Pool, codes: readonly HcpcsLevel2Code[]): Promise<number> {
  const procedures = codes.filter((c) => c.kind === 'procedure');
  return inTransaction(pool, async (client) => {
    await client.query(`CREATE TEMP TABLE incoming_codes (LIKE codes) ON COMMIT DROP`);
    const count = await copyAll(
      client,
      'incoming_codes',
      ['type', 'code', 'description', 'category'],
      procedures.map((c) => ['HCPCS', c.code, c.longDescription, codeCategory('HCPCS', c.code)]),
    );
    await client.query(
      `INSERT INTO codes SELECT * FROM incoming_codes
       ON CONFLICT (type, code) DO UPDATE SET description = EXCLUDED.description, category = EXCLUDED.category`,
    );
    return count;
  });
}

/** `work` in a transaction of its own on a pool; on a client, in the caller's transaction. */
function inTransactionOf<T>(db: Queryable, work: (client: PoolClient) => Promise<T>): Promise<T> {
  return 'release' in db ? work(db) : inTransaction(db, work);
}

/**
 * The physician fee schedule of one year: RVUs and GPCIs, replaced whole; on a client, in its
 * transaction (`npm run reference -- pfs` loads the ZIP localities in the same one).
 */
export async function loadPhysicianFeeSchedule(
  db: Queryable,
  year: number,
  rvus: readonly PhysicianFeeScheduleRvu[],
  gpcis: readonly GpciLocality[],
  conversionFactor: number,
): Promise<{ rvus: number; gpcis: number }> {
  return inTransactionOf(db, async (client) => {
    await client.query('DELETE FROM medicare_rvus WHERE year = $1', [year]);
    await client.query('DELETE FROM medicare_gpcis WHERE year = $1', [year]);
    // The file repeats a few code/modifier pairs; the first row wins.
    const seen = new Set<string>();
    const unique = rvus.filter((r) => {
      const key = `${r.hcpcs}|${r.modifier ?? ''}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const rvuCount = await copyAll(
      client,
      'medicare_rvus',
      [
        'year',
        'hcpcs',
        'modifier',
        'status',
        'work_rvu',
        'non_facility_pe_rvu',
        'facility_pe_rvu',
        'mp_rvu',
        'global_days',
        'conversion_factor',
        'non_facility_na',
        'facility_na',
      ],
      unique.map((r) => [
        year,
        r.hcpcs,
        r.modifier ?? '',
        r.status,
        r.workRvu,
        r.nonFacilityPeRvu,
        r.facilityPeRvu,
        r.mpRvu,
        r.globalDays,
        r.conversionFactor ?? conversionFactor,
        r.nonFacilityNa,
        r.facilityNa,
      ]),
    );
    const gpciCount = await copyAll(
      client,
      'medicare_gpcis',
      ['year', 'carrier', 'locality', 'name', 'work_gpci', 'pe_gpci', 'mp_gpci'],
      gpcis.map((g) => [year, g.carrier, g.locality, g.name, g.workGpci, g.peGpci, g.mpGpci]),
    );
    return { rvus: rvuCount, gpcis: gpciCount };
  });
}

/**
 * The OPPS payment caps of one year, replaced whole; on a client, in its transaction (`npm run
 * reference -- pfs` loads them with the fee schedule when an OPPSCAP file is given).
 */
export async function loadOppsCaps(
  db: Queryable,
  year: number,
  caps: readonly OppsCap[],
): Promise<number> {
  return inTransactionOf(db, async (client) => {
    await client.query('DELETE FROM medicare_opps_caps WHERE year = $1', [year]);
    return copyAll(
      client,
      'medicare_opps_caps',
      ['year', 'hcpcs', 'modifier', 'carrier', 'locality', 'facility_cap', 'non_facility_cap'],
      caps.map((c) => [
        year,
        c.hcpcs,
        c.modifier ?? '',
        c.carrier,
        c.locality,
        c.facilityPrice,
        c.nonFacilityPrice,
      ]),
    );
  });
}

/**
 * ZIP → Medicare carrier and locality, replaced whole; on a client, in its transaction. A file
 * with more than 10% fewer ZIPs than those loaded, or none in a state that has some, is refused
 * unless `options.allowShrink` (ReferenceShrinkError).
 */
export async function loadZipLocalities(
  db: Queryable,
  rows: readonly ZipLocality[],
  options: ReplaceOptions = {},
): Promise<number> {
  return inTransactionOf(db, async (client) => {
    checkShrink(
      'ZIP localities',
      await loadedByState(client, 'zip_localities'),
      byState(rows, (zip) => zip.state),
      options,
    );
    await client.query('DELETE FROM zip_localities');
    const count = await copyAll(
      client,
      'zip_localities',
      ['zip', 'state_code', 'carrier', 'locality'],
      rows.map((z) => [z.zip, z.state, z.carrier, z.locality]),
    );
    // Hospitals placed before the localities were loaded.
    await client.query(
      `UPDATE hospitals h SET medicare_carrier = z.carrier, medicare_locality = z.locality FROM zip_localities z WHERE z.zip = h.zip`,
    );
    return count;
  });
}

/**
 * What a NADAC row stored replaces of the row of its NDC and effective date already there: all of
 * it, unless the row there is of a later as-of date (last month's file loaded after this week's
 * had put last month's prices back). A row there of no as-of date is replaced.
 */
const NADAC_UPSERT = `ON CONFLICT (ndc, effective_date) DO UPDATE SET description = EXCLUDED.description, per_unit = EXCLUDED.per_unit,
         pricing_unit = EXCLUDED.pricing_unit, pharmacy_type = EXCLUDED.pharmacy_type, otc = EXCLUDED.otc,
         classification = EXCLUDED.classification, as_of_date = EXCLUDED.as_of_date
       WHERE nadac_prices.as_of_date IS NULL OR nadac_prices.as_of_date <= EXCLUDED.as_of_date`;

/**
 * Every field of a NADAC row as read, with its line: the table the rows of a file are staged in,
 * so that two rows of one key are compared whole (as `parseNadac` compares them) by the
 * database, not in memory. Numbers are kept as the text JavaScript writes them: two rows differ
 * in a price when their numbers do. Dates are ISO text, which sorts as the dates do.
 */
const STAGED_NADAC = `CREATE TEMP TABLE staged_nadac (
  line integer NOT NULL, ndc text NOT NULL, effective_date text NOT NULL, as_of_date text NOT NULL,
  description text NOT NULL, per_unit text NOT NULL, pricing_unit text NOT NULL,
  pharmacy_type text NOT NULL, otc boolean NOT NULL, explanation_codes text NOT NULL,
  classification text NOT NULL, generic_per_unit text, generic_effective_date text
) ON COMMIT DROP`;

const STAGED_NADAC_COLUMNS = [
  'line',
  'ndc',
  'effective_date',
  'as_of_date',
  'description',
  'per_unit',
  'pricing_unit',
  'pharmacy_type',
  'otc',
  'explanation_codes',
  'classification',
  'generic_per_unit',
  'generic_effective_date',
] as const;

/** How many rows that differ from the first of their key are named, as RowProblems names rows. */
const CONFLICTS_NAMED = 6;

/**
 * The rows of the staged file that differ from the first row of their NDC, effective date and
 * as-of date, added to `problems` in their place, worded as `KeyedRecords` words them: "two that
 * differ for 00378212177 effective 2025-09-17 as of 2025-09-24, at line 2 and line 3". A row
 * repeated whole is not one of them.
 */
async function addNadacConflicts(
  client: PoolClient,
  file: string,
  problems: RowProblems,
): Promise<void> {
  const { rows } = await client.query<{
    line: number;
    first_line: number;
    key: string;
    conflicts: number;
  }>(
    `SELECT line, first_line, ndc || ' effective ' || effective_date || ' as of ' || as_of_date AS key,
            count(*) OVER ()::int AS conflicts
       FROM (SELECT line, ndc, effective_date, as_of_date, record,
                    first_value(line) OVER w AS first_line, first_value(record) OVER w AS first_record
               FROM (SELECT line, ndc, effective_date, as_of_date,
                            ROW(description, per_unit, pricing_unit, pharmacy_type, otc, explanation_codes,
                                classification, generic_per_unit, generic_effective_date)::text AS record
                       FROM staged_nadac) AS staged
             WINDOW w AS (PARTITION BY ndc, effective_date, as_of_date ORDER BY line)) AS keyed
      WHERE record <> first_record
      ORDER BY line LIMIT ${CONFLICTS_NAMED}`,
  );
  for (const row of rows) {
    const error = new ReferenceFileError(
      file,
      `one record for each ${NADAC_KEY_LABEL}`,
      `two that differ for ${row.key}, at line ${row.first_line} and line ${row.line}`,
    );
    problems.add(error, `line ${row.line}`, row.line);
  }
  // Those not named come after the named ones: none of them can be among the first few.
  problems.addCount((rows[0]?.conflicts ?? 0) - rows.length);
}

/**
 * A NADAC file (`openNadac`) read and stored, in one transaction,
 * streamed: its rows are read one at a time and copied into a staging table in batches, so that
 * memory stays flat however large the file (the yearly files run to hundreds of MB). Its rows are
 * refused as `parseNadac` refuses them, with the same words: a bad row, or two that differ for one
 * NDC, effective date and as-of date (found by the database, named by their lines), loads nothing;
 * a row repeated whole is stored once. Returns the rows stored, inserted or replaced (`prices`),
 * the price rows read (`rows`), and the file's prices not stored because the row of their NDC and
 * effective date already there is of a later as-of date (`keptNewer`).
 */
export async function loadNadacFile(
  pool: Pool,
  nadac: NadacFile,
  /** Told the price rows once all are read, before they are checked and stored (minutes, for a year's file). */
  onRead?: (prices: number) => void,
): Promise<{ prices: number; rows: number; keptNewer: number }> {
  // The file (or download) is let go however the load ends, even before its first row.
  try {
    return await inTransaction(pool, async (client) => {
      await client.query(STAGED_NADAC);
      const writer = copyWriter(client, 'staged_nadac', STAGED_NADAC_COLUMNS);
      let read: Awaited<ReturnType<NadacFile['read']>>;
      try {
        read = await nadac.read((p, line) =>
          writer.write(
            copyLine([
              line,
              p.ndc,
              p.effectiveDate,
              p.asOfDate,
              p.ndcDescription,
              String(p.nadacPerUnit),
              p.pricingUnit,
              p.pharmacyTypeIndicator,
              p.otc,
              p.explanationCodes.join(','),
              p.classificationForRateSetting,
              p.correspondingGenericDrugNadacPerUnit === null
                ? null
                : String(p.correspondingGenericDrugNadacPerUnit),
              p.correspondingGenericDrugEffectiveDate,
            ]),
          ),
        );
        await writer.end();
        onRead?.(read.prices);
      } catch (error) {
        // The COPY is given up before the transaction is rolled back.
        await writer.abort(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
      if (read.prices > 0) await addNadacConflicts(client, nadac.file, read.problems);
      read.problems.check(read.prices);
      refuseNoPrices(nadac.file, read.prices);
      // Of two rows for one NDC and effective date, the later as-of date's; a row repeated whole
      // is one. Rows inserted or updated: what the table now holds of the file; the file's other
      // keys are those whose stored row is newer, which the upsert leaves as they are.
      const { rows } = await client.query<{ keys: number; stored: number }>(
        `WITH incoming AS (
           SELECT DISTINCT ON (ndc, effective_date) ndc, effective_date::date, description, per_unit::numeric,
                  pricing_unit, pharmacy_type, otc, classification, as_of_date::date
             FROM staged_nadac ORDER BY ndc, effective_date, as_of_date DESC),
         stored AS (
           INSERT INTO nadac_prices (ndc, effective_date, description, per_unit, pricing_unit, pharmacy_type, otc, classification, as_of_date)
           SELECT * FROM incoming
           ${NADAC_UPSERT}
           RETURNING 1)
         SELECT (SELECT count(*) FROM incoming)::int AS keys, (SELECT count(*) FROM stored)::int AS stored`,
      );
      const { keys = 0, stored = 0 } = rows[0] ?? {};
      return { prices: stored, rows: read.prices, keptNewer: keys - stored };
    });
  } finally {
    await nadac.close();
  }
}

export interface Placement {
  zip: string | null;
  countyFips: string | null;
  cbsaCode: string | null;
  stateCode: string | null;
  medicareCarrier: string | null;
  medicareLocality: string | null;
}

/** Whether a CBSA delineation (its counties) is loaded: without one, no hospital has a metro area. */
export async function delineationLoaded(pool: Queryable): Promise<boolean> {
  return (await pool.query('SELECT 1 FROM counties LIMIT 1')).rows.length > 0;
}

/**
 * Places a hospital from the addresses of its file (`countyForAddresses`: the first with a ZIP
 * that places it, else the first placed by its city): address → county (offline), county → CBSA
 * (List 1, when loaded); outside any CBSA, the state's non-metro group. The Medicare locality is
 * its ZIP's; for an address placed by its city, the one its city's ZIPs in that county share, if
 * they share one.
 */
export function hospitalLocator(pool: Pool): (header: MrfHeader) => Promise<Placement> {
  return async (header) => {
    const found = countyForAddresses(header.addresses);
    if (!found) {
      return {
        zip: null,
        countyFips: null,
        cbsaCode: null,
        stateCode: header.licenseState,
        medicareCarrier: null,
        medicareLocality: null,
      };
    }
    const { rows } = await pool.query<{ cbsa_code: string | null; known: boolean }>(
      `SELECT c.cbsa_code, true AS known FROM counties c WHERE c.fips = $1`,
      [found.countyFips],
    );
    let cbsaCode = rows[0]?.cbsa_code ?? null;
    const loaded = rows.length > 0 || (await delineationLoaded(pool));
    if (!cbsaCode && loaded && stateByCode(found.state))
      cbsaCode = await nonMetroArea(pool, found.state);
    const { rows: localities } = await pool.query<{ carrier: string; locality: string }>(
      'SELECT DISTINCT carrier, locality FROM zip_localities WHERE zip = ANY($1::text[])',
      [found.zips],
    );
    const locality = localities.length === 1 ? localities[0] : undefined;
    return {
      zip: found.zip,
      countyFips: found.countyFips,
      cbsaCode,
      stateCode: found.state,
      medicareCarrier: locality?.carrier ?? null,
      medicareLocality: locality?.locality ?? null,
    };
  };
}
