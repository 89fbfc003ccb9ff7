import { createHash } from 'node:crypto';
import { codeCategory, canonicalPayer, effectiveAmount, lineOfBusiness } from '@ratelens/core';
import {
  copyWriter,
  inTransaction,
  quoteIdent,
  type Connection,
  type CopyWriter,
  type Pool,
  type PoolClient,
} from '@ratelens/db';
import type { ChargeRecord, MrfHeader } from '../model.ts';
import { openMrf } from '../read/index.ts';
import { copyLine } from './copy-text.ts';
import type { Placement } from './reference-loader.ts';

export type IngestStatus = 'loaded' | 'unchanged' | 'older' | 'failed';

export interface IngestResult {
  runId: string;
  status: IngestStatus;
  hospitalId: string | null;
  hospital: string | null;
  format: string | null;
  version: string | null;
  items: number;
  rates: number;
  rejected: number;
  bytes: number;
  seconds: number;
  error?: string;
}

export interface IngestOptions {
  /** Called as the file is read: bytes so far, total bytes when known, records so far. */
  progress?: (bytes: number, total: number | null, records: number) => void;
  signal?: AbortSignal;
  /** Marks the hospital as fictional demo data. */
  demo?: boolean;
  /** Places a hospital (address → ZIP → county → CBSA); without it hospitals have no geography. */
  locate?: (header: MrfHeader) => Promise<Placement>;
}

const ITEM_COLUMNS = [
  'hospital_id',
  'item_id',
  'mrf_file_id',
  'description',
  'setting',
  'billing_class',
  'modifiers',
  'drug_unit',
  'drug_type',
  'gross',
  'discounted_cash',
  'min',
  'max',
  'notes',
] as const;
const CODE_COLUMNS = ['hospital_id', 'item_id', 'code_type', 'code', 'category'] as const;
const RATE_COLUMNS = [
  'hospital_id',
  'rate_id',
  'item_id',
  'payer_id',
  'payer_name',
  'plan_name',
  'line_of_business',
  'methodology',
  'dollar',
  'percentage',
  'algorithm',
  'estimated_amount',
  'median',
  'p10',
  'p90',
  'count',
  'notes',
  'effective_amount',
  'effective_origin',
] as const;

/** A run's advisory-lock key: held while the run is alive, so a crashed run can be told from a slow one. */
function lockKey(runId: string): bigint {
  return BigInt.asIntN(
    64,
    BigInt(`0x${createHash('sha256').update(runId).digest('hex').slice(0, 16)}`),
  );
}

function stagingNames(runId: string) {
  const suffix = runId.replace(/-/g, '');
  return {
    items: `staging_items_${suffix}`,
    codes: `staging_codes_${suffix}`,
    rates: `staging_rates_${suffix}`,
  };
}

/** What identifies "the same hospital" across its files (docs/decisions/0011-rate-data.md). */
export function hospitalSourceKey(header: MrfHeader): string {
  if (header.licenseState && header.licenseNumber)
    return `license:${header.licenseState.toUpperCase()}:${header.licenseNumber.trim().toUpperCase()}`;
  const state = header.licenseState?.toUpperCase() ?? '';
  return `name:${state}:${header.hospitalName.trim().toLowerCase().replace(/\s+/g, ' ')}`;
}

/** Billing class derived from the codes: the CMS templates carry none (docs/decisions/0011). */
export function billingClassOf(record: ChargeRecord): string {
  const types = new Set(record.codes.map((c) => c.type));
  if ([...types].some((t) => t.endsWith('DRG'))) return 'inpatient facility';
  if (types.has('CPT') || types.has('HCPCS'))
    return record.setting === 'inpatient' ? 'inpatient' : 'outpatient';
  if (types.has('NDC')) return 'drugs';
  return record.setting === 'inpatient' ? 'inpatient' : 'outpatient';
}

/**
 * Ingests one hospital file: read, validate, normalise, COPY into per-run staging tables, then
 * swap into the rate tables in one transaction. The previous data of the hospital stays whole
 * until that transaction commits, whatever happens to this process (kill -9 included).
 */
export async function ingestFile(
  connection: Connection,
  source: string,
  options: IngestOptions = {},
): Promise<IngestResult> {
  const started = performance.now();
  await markInterruptedRuns(connection);
  const pool = connection.pool;
  const {
    rows: [run],
  } = await pool.query<{ id: string }>(
    `INSERT INTO mrf_files (source, status) VALUES ($1, 'loading') RETURNING id`,
    [source],
  );
  if (!run) throw new Error('could not record the run');
  const runId = run.id;
  const lockClient = await pool.connect();
  await lockClient.query('SELECT pg_advisory_lock($1)', [lockKey(runId)]);
  const staging = stagingNames(runId);
  const clients: PoolClient[] = [];
  const writers: CopyWriter[] = [];
  let failed = false;
  const result: IngestResult = {
    runId,
    status: 'failed',
    hospitalId: null,
    hospital: null,
    format: null,
    version: null,
    items: 0,
    rates: 0,
    rejected: 0,
    bytes: 0,
    seconds: 0,
  };
  try {
    let itemId = 0;
    const reader = await openMrf(source, {
      signal: options.signal,
      onProgress: (bytes, total) => options.progress?.(bytes, total, itemId),
    });
    const { header } = reader;
    result.hospital = header.hospitalName;
    result.format = header.format;
    result.version = header.version;
    const hospitalId = await upsertHospital(pool, header, options);
    result.hospitalId = hospitalId;

    await pool.query(
      `CREATE UNLOGGED TABLE ${quoteIdent(staging.items)} (LIKE charge_items);
       CREATE UNLOGGED TABLE ${quoteIdent(staging.codes)} (LIKE item_codes);
       CREATE UNLOGGED TABLE ${quoteIdent(staging.rates)} (LIKE negotiated_rates)`,
    );
    for (let i = 0; i < 3; i++) clients.push(await pool.connect());
    const [itemsClient, codesClient, ratesClient] = clients as [PoolClient, PoolClient, PoolClient];
    const items = copyWriter(itemsClient, staging.items, ITEM_COLUMNS);
    const codeRows = copyWriter(codesClient, staging.codes, CODE_COLUMNS);
    const rates = copyWriter(ratesClient, staging.rates, RATE_COLUMNS);
    writers.push(items, codeRows, rates);
    // A file has a few dozen payer/plan pairs and a few thousand codes but millions of rates:
    // the name rules run once per distinct value, not once per rate.
    const payerIds = new Map<string, number>();
    const payers = new Map<string, { payerId: number; lineOfBusiness: string }>();
    const payerFor = async (payerName: string, planName: string) => {
      const key = `${payerName}\u0000${planName}`;
      let found = payers.get(key);
      if (!found) {
        const canonical = canonicalPayer(payerName);
        let payerId = payerIds.get(canonical);
        if (payerId === undefined) {
          payerId = await payerIdFor(pool, canonical);
          payerIds.set(canonical, payerId);
        }
        found = { payerId, lineOfBusiness: lineOfBusiness(payerName, planName) };
        payers.set(key, found);
      }
      return found;
    };
    const categories = new Map<string, string>();
    const categoryOf = (type: string, code: string) => {
      const key = `${type}\u0000${code}`;
      let category = categories.get(key);
      if (category === undefined) {
        category = codeCategory(type, code);
        categories.set(key, category);
      }
      return category;
    };

    let rateId = 0;
    for await (const record of reader.records) {
      itemId++;
      const pending: (Promise<void> | undefined)[] = [];
      pending.push(
        items.write(
          copyLine([
            hospitalId,
            itemId,
            runId,
            record.description,
            record.setting,
            billingClassOf(record),
            record.modifiers,
            record.drugUnit,
            record.drugType,
            record.gross,
            record.discountedCash,
            record.min,
            record.max,
            record.genericNotes,
          ]),
        ),
      );
      const seen = new Set<string>();
      for (const code of record.codes) {
        const key = `${code.type}\u0000${code.code}`;
        if (seen.has(key)) continue;
        seen.add(key);
        pending.push(
          codeRows.write(
            copyLine([hospitalId, itemId, code.type, code.code, categoryOf(code.type, code.code)]),
          ),
        );
      }
      for (const payer of record.payers) {
        rateId++;
        const { payerId, lineOfBusiness: lob } =
          payers.get(`${payer.payerName}\u0000${payer.planName}`) ??
          (await payerFor(payer.payerName, payer.planName));
        const effective = effectiveAmount(payer, record.gross);
        pending.push(
          rates.write(
            copyLine([
              hospitalId,
              rateId,
              itemId,
              payerId,
              payer.payerName,
              payer.planName,
              lob,
              payer.methodology,
              payer.dollar,
              payer.percentage,
              payer.algorithm,
              payer.estimatedAmount,
              payer.median,
              payer.p10,
              payer.p90,
              payer.count,
              payer.notes,
              effective.amount,
              effective.origin,
            ]),
          ),
        );
      }
      for (const wait of pending) if (wait) await wait;
    }
    await Promise.all([items.end(), codeRows.end(), rates.end()]);
    const stats = reader.stats();
    result.items = itemId;
    result.rates = rateId;
    result.bytes = stats.bytes;
    result.rejected = reader.report.rejectedRecords + reader.report.rejectedPayers;
    result.status = await swapIn(pool, {
      runId,
      hospitalId,
      header,
      sha256: stats.sha256,
      staging,
      result,
      // The plain-words lines are what the inventory shows; the rest is there for whoever digs.
      validation: { ...reader.report.toJSON(), sentences: reader.report.toText().split('\n') },
    });
  } catch (error) {
    failed = true;
    // A COPY left open would keep its staging table locked: abandon them before cleaning up.
    const reason = error instanceof Error ? error : new Error(String(error));
    await Promise.all(writers.map((writer) => writer.abort(reason)));
    result.status = 'failed';
    result.error = error instanceof Error ? error.message : String(error);
    await pool.query(
      `UPDATE mrf_files SET status = 'failed', error = $2, finished_at = now() WHERE id = $1`,
      [runId, result.error],
    );
  } finally {
    // After a failure the connections may be mid-protocol: close them rather than reuse them.
    for (const client of clients) client.release(failed);
    await dropStaging(pool, staging);
    await lockClient.query('SELECT pg_advisory_unlock($1)', [lockKey(runId)]);
    lockClient.release();
  }
  result.seconds = (performance.now() - started) / 1000;
  await pool.query(`UPDATE mrf_files SET duration_ms = $2 WHERE id = $1`, [
    runId,
    Math.round(result.seconds * 1000),
  ]);
  return result;
}

async function payerIdFor(pool: Pool, canonicalName: string): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO payers (canonical_name) VALUES ($1)
     ON CONFLICT (canonical_name) DO UPDATE SET canonical_name = EXCLUDED.canonical_name RETURNING id`,
    [canonicalName],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`could not record payer ${canonicalName}`);
  return id;
}

async function upsertHospital(
  pool: Pool,
  header: MrfHeader,
  options: IngestOptions,
): Promise<string> {
  const place = options.locate ? await options.locate(header) : null;
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO hospitals (source_key, name, state_code, license_number, license_state, type_2_npis, location_names, addresses,
                            zip, county_fips, cbsa_code, is_demo, medicare_carrier, medicare_locality)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (source_key) DO UPDATE SET
       name = EXCLUDED.name, license_number = EXCLUDED.license_number, license_state = EXCLUDED.license_state,
       type_2_npis = EXCLUDED.type_2_npis, location_names = EXCLUDED.location_names, addresses = EXCLUDED.addresses,
       state_code = COALESCE(EXCLUDED.state_code, hospitals.state_code), zip = COALESCE(EXCLUDED.zip, hospitals.zip),
       county_fips = COALESCE(EXCLUDED.county_fips, hospitals.county_fips), cbsa_code = COALESCE(EXCLUDED.cbsa_code, hospitals.cbsa_code),
       medicare_carrier = COALESCE(EXCLUDED.medicare_carrier, hospitals.medicare_carrier),
       medicare_locality = COALESCE(EXCLUDED.medicare_locality, hospitals.medicare_locality),
       is_demo = EXCLUDED.is_demo, updated_at = now()
     RETURNING id`,
    [
      hospitalSourceKey(header),
      header.hospitalName,
      place?.stateCode ?? header.licenseState,
      header.licenseNumber,
      header.licenseState,
      header.type2Npis,
      header.locationNames,
      header.addresses,
      place?.zip ?? null,
      place?.countyFips ?? null,
      place?.cbsaCode ?? null,
      options.demo ?? false,
      place?.medicareCarrier ?? null,
      place?.medicareLocality ?? null,
    ],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('could not record the hospital');
  return id;
}

interface SwapInput {
  runId: string;
  hospitalId: string;
  header: MrfHeader;
  sha256: string;
  staging: ReturnType<typeof stagingNames>;
  result: IngestResult;
  validation: unknown;
}

/** The inventory's flags for one hospital, from its rate tables (in the swap transaction). */
const SUMMARY_SQL = `
  INSERT INTO hospital_summaries AS s (hospital_id, items, rates, has_cash, has_commercial, has_medicare, has_inpatient,
                                       has_outpatient, has_drugs, updated_at)
  SELECT $1,
         (SELECT count(*) FROM charge_items WHERE hospital_id = $1),
         (SELECT count(*) FROM negotiated_rates WHERE hospital_id = $1),
         EXISTS (SELECT 1 FROM charge_items WHERE hospital_id = $1 AND discounted_cash IS NOT NULL),
         EXISTS (SELECT 1 FROM negotiated_rates WHERE hospital_id = $1 AND line_of_business = 'commercial'),
         EXISTS (SELECT 1 FROM negotiated_rates WHERE hospital_id = $1 AND line_of_business = 'medicare-advantage'),
         EXISTS (SELECT 1 FROM charge_items WHERE hospital_id = $1 AND setting IN ('inpatient', 'both')),
         EXISTS (SELECT 1 FROM charge_items WHERE hospital_id = $1 AND setting IN ('outpatient', 'both')),
         EXISTS (SELECT 1 FROM item_codes WHERE hospital_id = $1 AND code_type = 'NDC')
           OR EXISTS (SELECT 1 FROM charge_items WHERE hospital_id = $1 AND drug_unit IS NOT NULL),
         now()
  ON CONFLICT (hospital_id) DO UPDATE SET
    items = EXCLUDED.items, rates = EXCLUDED.rates, has_cash = EXCLUDED.has_cash, has_commercial = EXCLUDED.has_commercial,
    has_medicare = EXCLUDED.has_medicare, has_inpatient = EXCLUDED.has_inpatient, has_outpatient = EXCLUDED.has_outpatient,
    has_drugs = EXCLUDED.has_drugs, updated_at = now()`;

/**
 * Every code the file uses joins the code table (the search's list of codes). Descriptions are
 * kept only where we may show them: MS-DRG and other DRG names come from the files themselves;
 * CPT text is AMA-copyrighted, so CPT codes get none (the hospital's own item description is
 * shown instead); HCPCS descriptions come from the CMS file (`npm run reference -- hcpcs`).
 */
function codesSql(staging: ReturnType<typeof stagingNames>): string {
  return `
    INSERT INTO codes (type, code, description, category)
    SELECT DISTINCT ON (c.code_type, c.code) c.code_type, c.code,
           CASE WHEN c.code_type LIKE '%DRG' THEN i.description END, c.category
      FROM ${quoteIdent(staging.codes)} c JOIN ${quoteIdent(staging.items)} i USING (hospital_id, item_id)
     ORDER BY c.code_type, c.code, i.item_id
    ON CONFLICT (type, code) DO UPDATE SET description = coalesce(codes.description, EXCLUDED.description)`;
}

/** The one transaction that replaces a hospital's rates, or decides not to. */
async function swapIn(pool: Pool, input: SwapInput): Promise<IngestStatus> {
  const { runId, hospitalId, header, sha256, staging, result } = input;
  return inTransaction(pool, async (client) => {
    // One swap per hospital at a time.
    await client.query('SELECT pg_advisory_xact_lock($1)', [lockKey(hospitalId)]);
    const {
      rows: [current],
    } = await client.query<{ id: string; sha256: string | null; last_updated_on: string | null }>(
      `SELECT id, sha256, last_updated_on::text FROM mrf_files WHERE hospital_id = $1 AND status = 'loaded' ORDER BY finished_at DESC LIMIT 1`,
      [hospitalId],
    );
    let status: IngestStatus = 'loaded';
    if (current?.sha256 === sha256) status = 'unchanged';
    else if (
      current?.last_updated_on &&
      header.lastUpdatedOn &&
      header.lastUpdatedOn < current.last_updated_on
    )
      status = 'older';
    if (status === 'loaded') {
      for (const table of ['negotiated_rates', 'item_codes', 'charge_items']) {
        await client.query(`DELETE FROM ${table} WHERE hospital_id = $1`, [hospitalId]);
      }
      await client.query(`INSERT INTO charge_items SELECT * FROM ${quoteIdent(staging.items)}`);
      await client.query(`INSERT INTO item_codes SELECT * FROM ${quoteIdent(staging.codes)}`);
      await client.query(`INSERT INTO negotiated_rates SELECT * FROM ${quoteIdent(staging.rates)}`);
      if (current)
        await client.query(`UPDATE mrf_files SET status = 'replaced' WHERE id = $1`, [current.id]);
      await client.query(SUMMARY_SQL, [hospitalId]);
      await client.query(codesSql(staging), []);
    }
    await client.query(
      `UPDATE mrf_files SET hospital_id = $2, status = $3, sha256 = $4, bytes = $5, format = $6, version = $7, last_updated_on = $8,
              items = $9, rates = $10, rejected = $11, validation = $12, finished_at = now()
       WHERE id = $1`,
      [
        runId,
        hospitalId,
        status,
        sha256,
        result.bytes,
        header.format,
        header.version,
        header.lastUpdatedOn,
        result.items,
        result.rates,
        result.rejected,
        JSON.stringify(input.validation),
      ],
    );
    return status;
  });
}

async function dropStaging(pool: Pool, staging: ReturnType<typeof stagingNames>): Promise<void> {
  await pool.query(
    `DROP TABLE IF EXISTS ${quoteIdent(staging.items)}, ${quoteIdent(staging.codes)}, ${quoteIdent(staging.rates)}`,
  );
}

/**
 * Runs left in 'loading' by a process that died (kill -9, power loss) are marked failed and their
 * staging tables dropped. A live run holds its advisory lock, so it is left alone.
 */
export async function markInterruptedRuns(connection: Connection): Promise<number> {
  const pool = connection.pool;
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM mrf_files WHERE status = 'loading'`,
  );
  let marked = 0;
  for (const { id } of rows) {
    const client = await pool.connect();
    try {
      const {
        rows: [lock],
      } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        lockKey(id),
      ]);
      if (!lock?.ok) continue;
      await client.query(
        `UPDATE mrf_files SET status = 'failed', error = 'The ingest stopped before it finished (the process ended); the previous data is unchanged.', finished_at = now()
         WHERE id = $1 AND status = 'loading'`,
        [id],
      );
      await dropStaging(pool, stagingNames(id));
      await client.query('SELECT pg_advisory_unlock($1)', [lockKey(id)]);
      marked++;
    } finally {
      client.release();
    }
  }
  return marked;
}
