import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLargeFile } from '../demo/generate-demo.ts';
import { parseCbsaDelineation } from '../reference/cbsa.ts';
import {
  csvFileRates,
  decodeText,
  expectSameJsonRates,
  expectSameRates,
  storedRates,
} from '../testing/file-rates.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { runCli } from '../testing/run-cli.ts';
import { sharedDataPath } from '../testing/shared-data.ts';
import { serveFiles } from '../testing/file-server.ts';
import { zipArchive } from '../testing/zip-archive.ts';
import { MrfReadError, openMrf } from '../read/index.ts';
import { emptyHeader } from '../read/header.ts';
import {
  hospitalSourceKey,
  ingestFile,
  liveRuns,
  markInterruptedRuns,
  SWAP_LOCK_KEY,
  type ReadPhase,
} from './ingest-file.ts';
import { currentPartitions } from './rate-tables.ts';
import { MEDICARE_CONVERSION_FACTOR_2025, type RateMix, type ValidationLine } from '@ratelens/core';
import {
  parseGpciFile,
  parseOppsCapFile,
  parseRvuFile,
} from '../reference/physician-fee-schedule.ts';
import { parseZipLocality } from '../reference/zip-locality.ts';
import {
  hospitalLocator,
  loadCbsaDelineation,
  loadOppsCaps,
  loadPhysicianFeeSchedule,
  loadStates,
  loadZipLocalities,
} from './reference-loader.ts';

const VINEYARD =
  'mrf-real-csv-tall-marthas-vineyard/042104691_Marthas-Vineyard-Hospital_StandardCharges.csv';
const ADVENT_EXCERPT =
  'mrf-real-json-adventhealth-orlando/adventhealth-orlando_standardcharges_v3.0.0_excerpt.json';
const ADVENT_FULL =
  'mrf-real-json-adventhealth-orlando/adventhealth-orlando_standardcharges_v3.0.0_reassembled.json';
const CMS_V3_JSON = 'cms-hpt-examples/v3_json_format_example.json';

let database: TestDatabase;
let dir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'ratelens-ingest-'));
  await loadStates(database.connection.pool);
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

/** Copies of downloads this process keeps on disk (none once its runs have ended). */
const spoolsOfThisProcess = async () =>
  (await readdir(tmpdir())).filter((name) => name.startsWith(`ratelens-download-${process.pid}-`));
const query = async <T>(sql: string, params: unknown[] = []) =>
  (await database.connection.pool.query(sql, params)).rows as T[];
/** Makes a parsed JSON file another hospital's: its name and licence. */
/** How many locks of this kind sessions of the test database are waiting for. */
const locksWaited = async (locktype: 'advisory' | 'relation') =>
  (
    await query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_locks
        WHERE locktype = $1 AND NOT granted AND database = (
          SELECT oid FROM pg_database WHERE datname = current_database())`,
      [locktype],
    )
  )[0]?.waiting;

const asHospital = (
  json: Record<string, unknown>,
  name: string,
  licenceNumber: string,
  state = 'CA',
) => {
  json.hospital_name = name;
  json.license_information = { license_number: licenceNumber, state };
};
/** The official CBSA delineation, for placing hospitals. */
const loadCbsa = async () =>
  loadCbsaDelineation(
    database.connection.pool,
    await parseCbsaDelineation(sharedDataPath('census-cbsa/list1_2023_county_to_cbsa.csv')),
  );
const count = async (table: string, hospitalId: string) =>
  Number(
    (
      await query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE hospital_id = $1`, [
        hospitalId,
      ])
    )[0]?.n,
  );

/** Tables left behind by a run (the tables an ingest fills are named after its run). */
const runTables = async (runId: string) =>
  (
    await query<{ relname: string }>(`SELECT relname FROM pg_class WHERE relname LIKE $1`, [
      `%${runId.replace(/-/g, '')}%`,
    ])
  ).map((r) => r.relname);

/** The figures of the file, as its loaded run records them. */
const VINEYARD_FIGURES = {
  hospital: "Martha's Vineyard Hospital",
  format: 'csv-tall',
  version: '3.0.0',
  items: 3534,
  rates: 10452,
  rejected: 0,
};

describe("Martha's Vineyard Hospital, tall CSV v3.0.0 in Windows-1252", () => {
  itWithDataFile(
    'loads every rate and places the hospital in its county and CBSA',
    VINEYARD,
    async (file) => {
      await loadCbsa();
      const result = await ingestFile(database.connection, file, {
        locate: hospitalLocator(database.connection.pool),
      });
      expect(result).toMatchObject({ status: 'loaded', ...VINEYARD_FIGURES });
      const id = result.hospitalId ?? '';
      expect(await count('negotiated_rates', id)).toBe(10452);
      expect(await count('charge_items', id)).toBe(3534);
      // A tall row's notes are its rate's: 538 rows say "OPPS APC" (counted with Python).
      const notes = await query<{ n: number }>(
        `SELECT count(*)::int AS n FROM negotiated_rates WHERE hospital_id = $1 AND notes = 'OPPS APC'`,
        [id],
      );
      expect(notes).toEqual([{ n: 538 }]);
      // What the hospital's page shows of the validation report, word for word.
      const [run] = await query<{ validation: { lines: ValidationLine[] } }>(
        'SELECT validation FROM mrf_files WHERE id = $1',
        [result.runId],
      );
      expect(run?.validation.lines).toEqual([
        {
          sentence:
            '3,534 charges with 10,452 payer rates read; 0 charges and 0 rates rejected; 0 errors, 37 warnings.',
          examples: [],
        },
        {
          sentence:
            'Warning: 37 bytes were not UTF-8, and were read as Windows-1252, first at row 1,635',
          examples: [
            'row 1,635: ’ in “…"Chem IV Infus Tq Ea Add’L Seq Diff Drug Up to 1…”',
            ...[1636, 1637, 1638, 1639].map(
              (row) => expect.stringMatching(`^row 1,${row - 1000}: ’ in “`) as unknown,
            ),
          ],
        },
      ]);
      const [hospital] = await query<{
        state_code: string;
        zip: string;
        county_fips: string;
        cbsa_code: string;
        license_number: string;
      }>(
        'SELECT state_code, zip, county_fips, cbsa_code, license_number FROM hospitals WHERE id = $1',
        [id],
      );
      // 1 Hospital Rd Oak Bluffs MA 02557-1477: Dukes County, in the Vineyard Haven micropolitan area.
      expect(hospital).toEqual({
        state_code: 'MA',
        zip: '02557',
        county_fips: '25007',
        cbsa_code: '47240',
        license_number: '2042',
      });
    },
  );

  itWithDataFile(
    'loads a copy sorted by payer as the same charges with the same rates',
    VINEYARD,
    async (file) => {
      const [names, values, columns, ...rows] = (await readFile(file, 'latin1')).split('\n');
      const payer = (row: string) => /"([^"]*\[\d+\])"/.exec(row)?.[1] ?? '';
      const sorted = rows
        .filter((row) => row !== '')
        .sort((a, b) => (payer(a) < payer(b) ? -1 : payer(a) > payer(b) ? 1 : 0));
      expect(sorted.slice(0, 2).map(payer)).toEqual(['AETNA [1001]', 'AETNA [1001]']);
      const byPayer = path.join(dir, 'vineyard-by-payer.csv');
      const other = values?.replace("Martha's Vineyard Hospital,2026", 'Sorted Test Hospital,2026');
      await writeFile(
        byPayer,
        [names, other?.replace(',2042,', ',QA-2043,'), columns, ...sorted, ''].join('\n'),
        'latin1',
      );
      const result = await ingestFile(database.connection, byPayer);
      expect(result).toMatchObject({ status: 'loaded', items: 3534, rates: 10452 });
      const [original] = await query<{ id: string }>(`SELECT id FROM hospitals WHERE name = $1`, [
        "Martha's Vineyard Hospital",
      ]);
      // Each charge with as many rates, adding up to as much, as in the file in its own order.
      const charges = (hospitalId: string) =>
        query<{ description: string; gross: string; rates: number; total: string }>(
          `SELECT i.description, i.gross, count(*)::int AS rates, sum(r.effective_amount)::text AS total
             FROM charge_items i JOIN negotiated_rates r USING (hospital_id, item_id)
            WHERE i.hospital_id = $1
            GROUP BY i.item_id, i.description, i.gross
            ORDER BY 1, 2, 3, 4`,
          [hospitalId],
        );
      const sortedCharges = await charges(result.hospitalId ?? '');
      expect(sortedCharges).toHaveLength(3534);
      expect(sortedCharges).toEqual(await charges(original?.id ?? ''));
    },
  );

  itWithDataFile(
    'places a hospital first seen in a file that fails, so the inventory lists it in its metro area',
    VINEYARD,
    async (file) => {
      await loadCbsa();
      // The file's header rows alone, as another hospital at the same address: no charge.
      const [names, values, columns] = (await readFile(file, 'latin1')).split('\n');
      const headerOnly = path.join(dir, 'vineyard-header-only.csv');
      await writeFile(
        headerOnly,
        [
          names,
          values
            ?.replace("Martha's Vineyard Hospital,2026", 'Island Test Hospital,2026')
            .replace(',2042,', ',QA-2042,'),
          columns,
          '',
        ].join('\n'),
        'latin1',
      );
      const result = await ingestFile(database.connection, headerOnly, {
        locate: hospitalLocator(database.connection.pool),
      });
      expect(result).toMatchObject({ status: 'failed', hospital: 'Island Test Hospital' });
      expect(
        await query('SELECT name, state_code, cbsa_code FROM hospitals WHERE id = $1', [
          result.hospitalId,
        ]),
      ).toEqual([{ name: 'Island Test Hospital', state_code: 'MA', cbsa_code: '47240' }]);
    },
  );

  itWithDataFile(
    'places a hospital whose address gives no ZIP by its city, in its county and metro area',
    VINEYARD,
    async (file) => {
      await loadCbsa();
      // The file's header rows alone, as another hospital whose address ends "Oak Bluffs MA".
      const [names, values, columns] = (await readFile(file, 'latin1')).split('\n');
      const withoutZip = path.join(dir, 'vineyard-without-zip.csv');
      await writeFile(
        withoutZip,
        [
          names,
          values
            ?.replace("Martha's Vineyard Hospital,2026", 'Island City Test Hospital,2026')
            .replace(',2042,', ',QA-2045,')
            .replace(' 02557-1477,', ','),
          columns,
          '',
        ].join('\n'),
        'latin1',
      );
      const result = await ingestFile(database.connection, withoutZip, {
        locate: hospitalLocator(database.connection.pool),
      });
      expect(
        await query(
          'SELECT addresses, state_code, zip, county_fips, cbsa_code FROM hospitals WHERE id = $1',
          [result.hospitalId],
        ),
      ).toEqual([
        {
          addresses: ['1 Hospital Rd Oak Bluffs MA'],
          state_code: 'MA',
          zip: null,
          county_fips: '25007',
          cbsa_code: '47240',
        },
      ]);
    },
  );

  itWithDataFile(
    'places a hospital again when a newer file gives a city without a ZIP',
    VINEYARD,
    async (file) => {
      await loadCbsa();
      // The file's header rows and first rates, as another hospital, its address written four
      // ways: each file loads, as a file that fails places only a hospital first seen in it.
      const [names, values, columns, ...rows] = (await readFile(file, 'latin1')).split('\n');
      const place = async (address: string) => {
        const moved = path.join(dir, 'vineyard-moved.csv');
        const header = values
          ?.replace("Martha's Vineyard Hospital,2026", 'Island Moving Test Hospital,2026')
          .replace(',2042,', ',QA-2046,')
          .replace('1 Hospital Rd Oak Bluffs MA 02557-1477', address);
        const lines = [names, header, columns, ...rows.slice(0, 20), ''];
        await writeFile(moved, lines.join('\n'), 'latin1');
        const result = await ingestFile(database.connection, moved, {
          locate: hospitalLocator(database.connection.pool),
        });
        expect(result.status).toBe('loaded');
        return query('SELECT zip, county_fips, cbsa_code FROM hospitals WHERE id = $1', [
          result.hospitalId,
        ]);
      };
      const byZip = { zip: '02557', county_fips: '25007', cbsa_code: '47240' };
      expect(await place('1 Hospital Rd Oak Bluffs MA 02557-1477')).toEqual([byZip]);
      // A city in the same county: the ZIP read before is the surer place, and is kept.
      expect(await place('1 Hospital Rd Oak Bluffs MA')).toEqual([byZip]);
      // A city in another county (Boston, Suffolk County): the old ZIP is not the hospital's.
      expect(await place('1 Hospital Rd Boston MA')).toEqual([
        { zip: null, county_fips: '25025', cbsa_code: '14460' },
      ]);
      // An address that places it nowhere leaves it where it was.
      expect(await place('1 Hospital Rd')).toEqual([
        { zip: null, county_fips: '25025', cbsa_code: '14460' },
      ]);
    },
  );

  itWithDataFile(
    'keeps the first rate of the file as written, with its effective amount',
    VINEYARD,
    async () => {
      const rows = await query<Record<string, string>>(
        `SELECT pp.payer_name, pp.plan_name, pp.line_of_business, p.canonical_name AS payer, r.dollar, r.percentage, r.median, r.count,
                r.effective_amount, r.effective_origin, r.methodology
         FROM negotiated_rates r JOIN hospitals h ON h.id = r.hospital_id
         JOIN payer_plans pp ON pp.id = r.plan_id JOIN payers p ON p.id = pp.payer_id
        WHERE h.name = $1 AND r.rate_id = 1`,
        ["Martha's Vineyard Hospital"],
      );
      expect(rows[0]).toMatchObject({
        payer_name: 'MEDICARE [2001]',
        plan_name: 'HB MVH MEDICARE',
        line_of_business: 'other',
        payer: 'Medicare',
        dollar: '100',
        percentage: '50',
        median: '67.9',
        count: '12',
        effective_amount: '100',
        effective_origin: 'dollar',
      });
    },
  );

  itWithDataFile(
    "records the file's rates by payer, plan, line of business and origin, as its rows hold them",
    VINEYARD,
    async () => {
      const [run] = await query<{ rate_mix: RateMix; hospital_id: string }>(
        `SELECT f.rate_mix, f.hospital_id FROM mrf_files f JOIN hospitals h ON h.id = f.hospital_id
          WHERE h.name = $1 AND f.status = 'loaded'`,
        ["Martha's Vineyard Hospital"],
      );
      const mix = run?.rate_mix as RateMix;
      // Counted in the CSV by hand (Python's csv module): 29 payer/plan pairs of 19 payer names;
      // 10,444 rates with a dollar amount and 8 with only a median.
      expect(mix.plans).toBe(29);
      expect(mix.byOrigin).toEqual({
        dollar: 10444,
        'percentage-of-gross': 0,
        median: 8,
        estimated: 0,
        none: 0,
      });
      // The rest as the loaded rows have it.
      const byLine = await query<{ line_of_business: string; n: string }>(
        `SELECT pp.line_of_business, count(*) AS n FROM negotiated_rates r JOIN payer_plans pp ON pp.id = r.plan_id
          WHERE r.hospital_id = $1 GROUP BY 1`,
        [run?.hospital_id],
      );
      expect(mix.byLineOfBusiness).toEqual({
        commercial: 0,
        'medicare-advantage': 0,
        'medicaid-managed-care': 0,
        exchange: 0,
        other: 0,
        ...Object.fromEntries(byLine.map((r) => [r.line_of_business, Number(r.n)])),
      });
      const [payers] = await query<{ n: string }>(
        `SELECT count(DISTINCT p.canonical_name) AS n FROM negotiated_rates r
           JOIN payer_plans pp ON pp.id = r.plan_id JOIN payers p ON p.id = pp.payer_id
          WHERE r.hospital_id = $1`,
        [run?.hospital_id],
      );
      expect(mix.payers).toBe(Number(payers?.n));
      // "MEDICARE [2001]" and "MEDICARE ALTERNATE [2002]" are original Medicare, 1,052 rates, and
      // "MASSHEALTH [3001]" / "HB MVH MEDICAID" fee-for-service Medicaid, 39 (counted in the file).
      expect(mix.byLineOfBusiness.other).toBe(1091);
    },
  );

  itWithDataFile('changes nothing when the same file is ingested again', VINEYARD, async (file) => {
    const before = await query<{ id: string }>(`SELECT id FROM mrf_files WHERE status = 'loaded'`);
    let recordsRead = 0;
    let bytesHashed = 0;
    const result = await ingestFile(database.connection, file, {
      progress: (bytes, _total, records) => {
        recordsRead = Math.max(recordsRead, records);
        bytesHashed = Math.max(bytesHashed, bytes);
      },
    });
    // Same path, size and hash as the loaded run: recognised by hashing alone, nothing parsed.
    expect(result).toMatchObject({ status: 'unchanged', ...VINEYARD_FIGURES });
    expect(recordsRead).toBe(0);
    expect(bytesHashed).toBe(result.bytes);
    const [run] = await query<Record<string, unknown>>(
      `SELECT u.status, u.hospital_id = l.hospital_id AS same_hospital, u.sha256 = l.sha256 AS same_hash,
              u.validation = l.validation - 'rules' - 'lines' AS summary_only,
              u.validation ? 'errorCount' AS counted, u.finished_at IS NOT NULL AS finished
         FROM mrf_files u, mrf_files l WHERE u.id = $1 AND l.id = $2`,
      [result.runId, before[0]?.id],
    );
    expect(run).toEqual({
      status: 'unchanged',
      same_hospital: true,
      same_hash: true,
      // The loaded run has the report's rules; a daily refresh would copy them every day.
      summary_only: true,
      counted: true,
      finished: true,
    });
    expect(await query<{ id: string }>(`SELECT id FROM mrf_files WHERE status = 'loaded'`)).toEqual(
      before,
    );
    expect(await count('negotiated_rates', result.hospitalId ?? '')).toBe(10452);
    expect(await runTables(result.runId)).toEqual([]);
  });

  itWithDataFile(
    'reads the same file again in full when asked to reload it, rewriting its rows',
    VINEYARD,
    async (file) => {
      const [loaded] = await query<{ id: string; hospital_id: string }>(
        `SELECT id, hospital_id FROM mrf_files WHERE status = 'loaded' AND source = $1`,
        [file],
      );
      const hospitalId = loaded?.hospital_id ?? '';
      // Its revenue codes as a reader without code.leading-zeros would have stored them.
      const codes = (code: string) =>
        query<{ n: string }>(
          `SELECT count(*) AS n FROM item_codes WHERE hospital_id = $1 AND code_type = 'RC' AND code = $2`,
          [hospitalId, code],
        ).then((rows) => Number(rows[0]?.n));
      const items = await codes('0301');
      expect(items).toBeGreaterThan(0);
      await query(
        `UPDATE item_codes SET code = '301' WHERE hospital_id = $1 AND code_type = 'RC' AND code = '0301'`,
        [hospitalId],
      );
      let recordsRead = 0;
      const result = await ingestFile(database.connection, file, {
        reload: true,
        progress: (_bytes, _total, records) => (recordsRead = Math.max(recordsRead, records)),
      });
      expect(result).toMatchObject({ status: 'loaded', hospitalId, ...VINEYARD_FIGURES });
      expect(recordsRead).toBeGreaterThan(0);
      expect([await codes('301'), await codes('0301')]).toEqual([0, items]);
      expect(
        await query(`SELECT id, status FROM mrf_files WHERE id IN ($1, $2) ORDER BY status`, [
          loaded?.id,
          result.runId,
        ]),
      ).toEqual([
        { id: result.runId, status: 'loaded' },
        { id: loaded?.id, status: 'replaced' },
      ]);
      expect(await count('negotiated_rates', hospitalId)).toBe(10452);
    },
  );
});

describe('the Medicare benchmark', () => {
  itWithDataFile("prices a code in the hospital's Medicare locality", VINEYARD, async () => {
    const pfs = 'cms-pfs-rvu-2025';
    await loadPhysicianFeeSchedule(
      database.connection.pool,
      2025,
      await parseRvuFile(sharedDataPath(`${pfs}/PPRRVU2025_Oct.csv`)),
      await parseGpciFile(sharedDataPath(`${pfs}/GPCI2025.csv`)),
      MEDICARE_CONVERSION_FACTOR_2025,
    );
    await loadZipLocalities(
      database.connection.pool,
      await parseZipLocality(sharedDataPath('cms-zip-locality/ZIP5_OCT2025.txt')),
    );
    // ZIP 02557 → carrier 14212, locality 99 (Rest of Massachusetts); 99213 by hand:
    // facility (1.30 × 1.017 + 0.57 × 1.061 + 0.10 × 0.796) × 32.3465 = 64.90,
    // non-facility (1.30 × 1.017 + 1.35 × 1.061 + 0.10 × 0.796) × 32.3465 = 91.67.
    const rows = await query<Record<string, string>>(
      `SELECT h.medicare_carrier, h.medicare_locality, m.facility_amount, m.non_facility_amount
         FROM hospital_medicare_rates m JOIN hospitals h ON h.id = m.hospital_id
        WHERE h.name = $1 AND m.hcpcs = '99213' AND m.modifier = ''`,
      ["Martha's Vineyard Hospital"],
    );
    expect(rows).toEqual([
      {
        medicare_carrier: '14212',
        medicare_locality: '99',
        facility_amount: '64.90',
        non_facility_amount: '91.67',
      },
    ]);

    // The OPPS cap: Medicare pays the lesser of the fee schedule amount and the locality's cap.
    // 93990 (global): (0.50 × 1.017 + 3.74 × 1.061 + 0.10 × 0.796) × 32.3465 = 147.38, capped at
    // 134.68 in 14212/99; its TC 125.35, capped at 112.65; its 26 (22.03) has no cap.
    const amounts = (code: string) =>
      query<Record<string, string | null>>(
        `SELECT m.modifier, m.status, m.facility_amount, m.non_facility_amount
           FROM hospital_medicare_rates m JOIN hospitals h ON h.id = m.hospital_id
          WHERE h.name = $1 AND m.hcpcs = $2 ORDER BY m.modifier`,
        ["Martha's Vineyard Hospital", code],
      );
    const uncapped93990 = [
      { modifier: '', status: 'A', facility_amount: '147.38', non_facility_amount: '147.38' },
      { modifier: '26', status: 'A', facility_amount: '22.03', non_facility_amount: '22.03' },
      { modifier: 'TC', status: 'A', facility_amount: '125.35', non_facility_amount: '125.35' },
    ];
    expect(await amounts('93990')).toEqual(uncapped93990);
    const caps = await parseOppsCapFile(sharedDataPath(`${pfs}/OPPSCAP_Oct.csv`));
    expect(await loadOppsCaps(database.connection.pool, 2025, caps)).toBe(16100);
    expect(await amounts('93990')).toEqual([
      { modifier: '', status: 'A', facility_amount: '134.68', non_facility_amount: '134.68' },
      uncapped93990[1],
      { modifier: 'TC', status: 'A', facility_amount: '112.65', non_facility_amount: '112.65' },
    ]);
    // Not paid under the fee schedule: no amount, rather than $0 (0001F, no RVUs) or a price
    // from RVUs the file marks as not used for Medicare payment (36000, bundled: 8.84 and 31.49).
    expect(await amounts('0001F')).toEqual([
      { modifier: '', status: 'I', facility_amount: null, non_facility_amount: null },
    ]);
    expect(await amounts('36000')).toEqual([
      { modifier: '', status: 'B', facility_amount: null, non_facility_amount: null },
    ]);
  });
});

/**
 * Every rate of a real file, read from the file here with nothing of ours (JSON.parse, a plain CSV
 * split), against what the database holds: the same rates, no more, no fewer, each with its item's
 * description, codes, setting and gross charge, its payer, plan, methodology, dollar amount and
 * percentage, and the effective amount the issue defines (the dollar amount, else the percentage
 * of the gross charge, else the median). Text is compared without letter case or runs of spaces,
 * which the reader normalises. In neither file does a rate with a percentage and no dollar amount
 * have a gross charge beside it (AdventHealth has 4,078 such rates, all without one), so the
 * percentage branch is checked on the CMS example under 'derived amounts'.
 */
describe('every rate of the real files, against the file read on its own', () => {
  itWithDataFile(
    'AdventHealth Orlando: all 136,292 rates',
    ADVENT_FULL,
    async (file) => {
      const result = await ingestFile(database.connection, file);
      expect(result).toMatchObject({ status: 'loaded', rates: 136_292 });
      const { rates, modifierEntries } = expectSameJsonRates(
        await readFile(file, 'utf8'),
        await storedRates(database.connection.pool, 'AdventHealth Orlando'),
      );
      expect(rates).toHaveLength(136_292);
      // Its one modifier's 74 payer entries, stored as rates of an item without codes.
      expect(modifierEntries).toBe(74);
    },
    120_000,
  );

  itWithDataFile(
    "Martha's Vineyard: all 10,452 rates",
    VINEYARD,
    async (file) => {
      // Loaded again whatever earlier tests left: some load changed copies of the same hospital.
      const result = await ingestFile(database.connection, file, { reload: true });
      expect(result).toMatchObject({ status: 'loaded', rates: 10_452 });
      // The file's only bytes above 0x7F are 28 × 0x92 and 9 × 0x96, ’ and – in Windows-1252.
      const bytes = await readFile(file);
      expect(decodeText(bytes).match(/[’–]/g)).toHaveLength(37);
      const rates = csvFileRates(bytes);
      expect(rates).toHaveLength(10_452);
      expectSameRates(
        rates,
        await storedRates(database.connection.pool, "Martha's Vineyard Hospital"),
      );
    },
    60_000,
  );
});

describe('derived amounts', () => {
  itWithDataFile(
    'derives a percentage rate from the gross charge, and stores the modifiers (CMS v3 example)',
    CMS_V3_JSON,
    async (file) => {
      const result = await ingestFile(database.connection, file);
      // 22 items, each one standard charge, with 39 payer rates (counted with Python); its three
      // modifiers and their six payer entries are stored but counted as no charge or rate.
      expect(result).toMatchObject({ status: 'loaded', items: 22, rates: 39, rejected: 0 });
      const [stored] = await query<{ items: number; rates: number }>(
        `SELECT count(DISTINCT i.item_id)::int AS items, count(r.rate_id)::int AS rates
           FROM charge_items i LEFT JOIN negotiated_rates r USING (hospital_id, item_id)
          WHERE i.hospital_id = $1`,
        [result.hospitalId],
      );
      expect(stored).toEqual({ items: 25, rates: 45 });
      const rows = await query<Record<string, string>>(
        `SELECT r.percentage, r.effective_amount, r.effective_origin, i.gross
         FROM negotiated_rates r JOIN charge_items i USING (hospital_id, item_id) JOIN payer_plans pp ON pp.id = r.plan_id
        WHERE r.hospital_id = $1 AND i.description = 'ER level 3' AND pp.payer_name = 'Platform Health Insurance'`,
        [result.hospitalId],
      );
      expect(rows).toEqual([
        {
          percentage: '80',
          gross: '4000',
          effective_amount: '3200',
          effective_origin: 'percentage-of-gross',
        },
      ]);
      // modifier_information: a charge with the modifiers and no code, the payers' words as notes.
      const modifiers = await query<Record<string, unknown>>(
        `SELECT i.description, i.modifiers, i.setting, pp.payer_name, r.notes, r.effective_amount
         FROM charge_items i JOIN negotiated_rates r USING (hospital_id, item_id)
         JOIN payer_plans pp ON pp.id = r.plan_id
         WHERE i.hospital_id = $1 AND i.modifiers = '{50,62}' ORDER BY r.rate_id`,
        [result.hospitalId],
      );
      expect(modifiers).toEqual([
        {
          description: 'Bilateral procedure with co-surgeon',
          modifiers: ['50', '62'],
          setting: 'both',
          payer_name: 'Platform Health Insurance',
          notes: '93.75% of the amount for the item or service is appended for each co-surgeon',
          effective_amount: null,
        },
        expect.objectContaining({ payer_name: 'Region Health Insurance' }),
      ]);
    },
  );

  itWithDataFile(
    'derives nothing from a percentage of a fee schedule, which is no percentage of billed charges',
    CMS_V3_JSON,
    async (file) => {
      // The example's ER level 3 rate of 80%, as if of the Medicare fee schedule.
      const json = JSON.parse(await readFile(file, 'utf8')) as {
        hospital_name: string;
        standard_charge_information: {
          description: string;
          standard_charges: { payers_information: { methodology: string }[] }[];
        }[];
      };
      json.hospital_name = 'Fee Schedule Percent Hospital';
      const er = json.standard_charge_information.find((i) => i.description === 'ER level 3');
      const rate = er?.standard_charges[0]?.payers_information[0];
      if (!rate) throw new Error('the example has no ER level 3 rate');
      rate.methodology = 'fee schedule';
      const changed = path.join(dir, 'fee-schedule-percent.json');
      await writeFile(changed, JSON.stringify(json));
      const result = await ingestFile(database.connection, changed);
      expect(result.status).toBe('loaded');
      const rows = await query<Record<string, string>>(
        `SELECT r.methodology, r.percentage, r.effective_amount, r.effective_origin
         FROM negotiated_rates r JOIN charge_items i USING (hospital_id, item_id) JOIN payer_plans pp ON pp.id = r.plan_id
        WHERE r.hospital_id = $1 AND i.description = 'ER level 3' ORDER BY r.rate_id`,
        [result.hospitalId],
      );
      expect(rows).toEqual([
        // Not 80% of the $4,000 gross charge ($3,200): the median of amounts paid.
        {
          methodology: 'fee schedule',
          percentage: '80',
          effective_amount: '12000.12',
          effective_origin: 'median',
        },
        {
          methodology: 'percent of total billed charges',
          percentage: '75',
          effective_amount: '3000',
          effective_origin: 'percentage-of-gross',
        },
      ]);
    },
  );

  itWithDataFile(
    'falls back on the median of an algorithm rate (AdventHealth excerpt)',
    ADVENT_EXCERPT,
    async (file) => {
      const result = await ingestFile(database.connection, file);
      expect(result).toMatchObject({
        status: 'loaded',
        hospital: 'AdventHealth Orlando',
        format: 'json',
      });
      const rows = await query<Record<string, string>>(
        `SELECT r.effective_amount, r.effective_origin, r.methodology, r.count
         FROM negotiated_rates r JOIN charge_items i USING (hospital_id, item_id) JOIN payer_plans pp ON pp.id = r.plan_id
        WHERE r.hospital_id = $1 AND i.description = 'Inj, bupivacaine liposome' AND pp.payer_name = 'Aetna' AND pp.plan_name = 'Hmo/Ppo'
          AND r.median IS NOT NULL`,
        [result.hospitalId],
      );
      expect(rows[0]).toEqual({
        effective_amount: '7584.22',
        effective_origin: 'median',
        methodology: 'other',
        count: '1 through 10',
      });
    },
  );
});

describe('the code table', () => {
  itWithDataFile(
    'gains the DRG names of a file, and no row for a code without a description',
    ADVENT_EXCERPT,
    async () => {
      const drg = await query<{ description: string | null; category: string }>(
        `SELECT description, category FROM codes WHERE type = 'MS-DRG' LIMIT 1`,
      );
      expect(drg[0]?.description).toBeTruthy();
      const nameless = await query<{ type: string }>(
        `SELECT DISTINCT type FROM codes WHERE description IS NULL`,
      );
      expect(nameless).toEqual([]);
      // The excerpt writes revenue codes 636 (14 items) and 0636 alike: one code, as 0636.
      const revenue = await query<{ code: string; items: string }>(
        `SELECT ic.code, count(*) AS items FROM item_codes ic JOIN hospitals h ON h.id = ic.hospital_id
          WHERE h.name = 'AdventHealth Orlando' AND ic.code_type = 'RC' AND ic.code IN ('636', '0636', '259', '0259')
          GROUP BY ic.code ORDER BY ic.code`,
      );
      expect(revenue).toEqual([
        { code: '0259', items: '14' },
        { code: '0636', items: '14' },
      ]);
    },
  );
});

describe('replacing a hospital’s file', () => {
  async function variant(
    name: string,
    change: (json: Record<string, unknown>) => void,
  ): Promise<string> {
    const json = JSON.parse(await readFile(sharedDataPath(CMS_V3_JSON), 'utf8')) as Record<
      string,
      unknown
    >;
    change(json);
    const file = path.join(dir, name);
    await writeFile(file, JSON.stringify(json));
    return file;
  }
  const setGross = (json: Record<string, unknown>, gross: number) => {
    const items = json.standard_charge_information as {
      description: string;
      standard_charges: { gross_charge?: number }[];
    }[];
    const er = items.find((i) => i.description === 'ER level 3');
    if (er?.standard_charges[0]) er.standard_charges[0].gross_charge = gross;
  };
  const statusOf = async (runId: string) =>
    (await query<{ status: string }>(`SELECT status FROM mrf_files WHERE id = $1`, [runId]))[0]
      ?.status;
  /** The hospital's rate partitions: the tables of the run in use, and none other. */
  const expectInUse = async (hospitalId: string, runId: string) => {
    expect(await currentPartitions(database.connection.pool, hospitalId)).toEqual(
      ['charge_items', 'item_codes', 'negotiated_rates'].map(
        (table) => `${table}_${runId.replace(/-/g, '')}`,
      ),
    );
    const loaded = await query<{ id: string }>(
      `SELECT id FROM mrf_files WHERE hospital_id = $1 AND status = 'loaded'`,
      [hospitalId],
    );
    expect(loaded).toEqual([{ id: runId }]);
  };
  const erGross = async (hospitalId: string) =>
    (
      await query<{ gross: string }>(
        `SELECT gross FROM charge_items WHERE hospital_id = $1 AND description = 'ER level 3'`,
        [hospitalId],
      )
    )[0]?.gross;

  itWithDataFile(
    'loads the first file of a zip, names the others, and knows the same zip again by its hash',
    CMS_V3_JSON,
    async () => {
      const mrf = await variant('zipped.json', (json) => {
        asHospital(json, 'Zipped Hospital', '990002');
      });
      const archive = path.join(dir, 'system.zip');
      await writeFile(
        archive,
        zipArchive([
          { name: 'zipped.json', content: await readFile(mrf), descriptor: true },
          { name: 'another-hospital.json', content: Buffer.from('{}') },
        ]),
      );
      const first = await ingestFile(database.connection, archive);
      expect(first).toMatchObject({ status: 'loaded', hospital: 'Zipped Hospital' });
      const [run] = await query<{ sha256: string; validation: { lines: ValidationLine[] } }>(
        `SELECT sha256, validation FROM mrf_files WHERE id = $1`,
        [first.runId],
      );
      expect(run?.sha256).toBe(
        createHash('sha256')
          .update(await readFile(archive))
          .digest('hex'),
      );
      expect(run?.validation.lines).toContainEqual({
        sentence:
          'Warning: 1 other file in the zip archive was not read, only its first, first at another-hospital.json',
        examples: ['another-hospital.json'],
      });
      let recordsRead = 0;
      const again = await ingestFile(database.connection, archive, {
        progress: (_bytes, _total, records) => (recordsRead = Math.max(recordsRead, records)),
      });
      // The hash of the whole archive, taken before reading, matches the loaded run's.
      expect(again.status).toBe('unchanged');
      expect(recordsRead).toBe(0);

      // Named in the archive, the file is another source (its own bytes hashed, not the
      // archive's): read once, then known by the archive's entry for it, unread.
      const named = `${archive}#zipped.json`;
      expect((await ingestFile(database.connection, named)).status).toBe('loaded');
      let bytesRead = 0;
      const listed = await ingestFile(database.connection, named, {
        progress: (bytes) => (bytesRead = Math.max(bytesRead, bytes)),
      });
      expect(listed).toMatchObject({ status: 'unchanged', unchangedBy: 'entry' });
      expect(bytesRead).toBe(0);
    },
  );

  itWithDataFile(
    'reads a file again in full when its bytes changed, even at the same path and size',
    CMS_V3_JSON,
    async () => {
      // Another hospital (its own licence) than the other tests' files.
      const sameSize = (gross: number) =>
        variant('same-size.json', (json) => {
          asHospital(json, 'Same Size Hospital', '990001');
          setGross(json, gross);
        });
      const first = await sameSize(1000);
      expect((await ingestFile(database.connection, first)).status).toBe('loaded');
      const size = (await stat(first)).size;
      await sameSize(2000);
      expect((await stat(first)).size).toBe(size);
      const second = await ingestFile(database.connection, first);
      expect(second.status).toBe('loaded');
      expect(await erGross(second.hospitalId ?? '')).toBe('2000');
    },
  );

  describe('a URL read again', () => {
    const served = async (name: string, licence: string, gross: number) =>
      readFile(
        await variant(`${name}.json`, (json) => {
          asHospital(json, `${name} Hospital`, licence);
          setGross(json, gross);
        }),
      );
    const validatorsOf = async (runId: string) =>
      (
        await query<{ http_etag: string | null; http_last_modified: string | null }>(
          `SELECT http_etag, http_last_modified FROM mrf_files WHERE id = $1`,
          [runId],
        )
      )[0];

    itWithDataFile(
      'is not downloaded when its server says it has not changed (304), and is when it has',
      CMS_V3_JSON,
      async () => {
        const files = { '/conditional.json': await served('Conditional', '990011', 1000) };
        const server = await serveFiles(files, { validators: true });
        try {
          const url = server.url('/conditional.json');
          const first = await ingestFile(database.connection, url);
          expect(first.status).toBe('loaded');
          const kept = await validatorsOf(first.runId);
          expect(kept?.http_etag).toMatch(/^"[0-9a-f]{16}"$/);
          expect(kept?.http_last_modified).toBe('Wed, 01 Apr 2026 10:00:00 GMT');
          const bytes = server.served();
          expect(bytes).toBe(files['/conditional.json'].length);

          const again = await ingestFile(database.connection, url);
          expect(again).toMatchObject({
            status: 'unchanged',
            unchangedBy: 'server',
            hospitalId: first.hospitalId,
            items: first.items,
            rates: first.rates,
          });
          expect(server.statuses.at(-1)).toBe(304);
          expect(server.served()).toBe(bytes);
          await expectInUse(first.hospitalId ?? '', first.runId);

          // --reload asks for the file whatever its version.
          const reloaded = await ingestFile(database.connection, url, { reload: true });
          expect(reloaded.status).toBe('loaded');
          expect(server.statuses.at(-1)).toBe(200);

          // The hospital publishes a new version: its ETag differs, so it is downloaded.
          files['/conditional.json'] = await served('Conditional', '990011', 2000);
          const changed = await ingestFile(database.connection, url);
          expect(changed.status).toBe('loaded');
          expect(server.statuses.at(-1)).toBe(200);
          expect(await erGross(changed.hospitalId ?? '')).toBe('2000');
        } finally {
          await server.close();
        }
      },
    );

    itWithDataFile(
      'is not read from its zip archive again while the archive has not changed (304 to its first range)',
      CMS_V3_JSON,
      async () => {
        const archive = async (northGross: number) =>
          zipArchive([
            { name: 'north.json', content: await served('Zip North', '990014', northGross) },
            { name: 'south.json', content: await served('Zip South', '990015', 1000) },
          ]);
        const files = { '/system.zip': await archive(1000) };
        const server = await serveFiles(files, { validators: true });
        try {
          const north = `${server.url('/system.zip')}#north.json`;
          const south = `${server.url('/system.zip')}#south.json`;
          const first = await ingestFile(database.connection, north);
          expect(first.status).toBe('loaded');
          expect((await validatorsOf(first.runId))?.http_etag).toMatch(/^"[0-9a-f]{16}"$/);
          expect((await ingestFile(database.connection, south)).status).toBe('loaded');

          // The archive's first range, asked only if it changed: 304, and nothing more asked.
          const asked = server.statuses.length;
          const again = await ingestFile(database.connection, north);
          expect(again).toMatchObject({ status: 'unchanged', unchangedBy: 'server' });
          expect(server.statuses.slice(asked)).toEqual([304]);

          // Another file of the archive changed: the archive's ETag with it. North is read and
          // loaded; south is known by the archive's directory, which lists it with the CRC-32
          // and size it had: its own bytes are not asked for (the first range, then the tail).
          files['/system.zip'] = await archive(2000);
          const changed = await ingestFile(database.connection, north);
          expect(changed.status).toBe('loaded');
          expect(await erGross(changed.hospitalId ?? '')).toBe('2000');
          const before = server.ranges.length;
          const same = await ingestFile(database.connection, south);
          expect(same).toMatchObject({ status: 'unchanged', unchangedBy: 'entry' });
          expect(server.ranges.slice(before)).toEqual([
            'bytes=0-3',
            expect.stringMatching(/^bytes=-\d+$/),
          ]);
        } finally {
          await server.close();
        }
      },
    );

    itWithDataFile(
      'is not read from its zip archive again while the archive lists it as it was, from a server without validators',
      CMS_V3_JSON,
      async () => {
        const other = { name: 'other.json', content: await served('Zip Other', '990017', 1000) };
        const archive = async (gross: number) =>
          zipArchive([
            { name: 'plain.json', content: await served('Zip Plain', '990016', gross) },
            other,
          ]);
        const files = { '/plain.zip': await archive(1000) };
        const server = await serveFiles(files);
        try {
          const source = `${server.url('/plain.zip')}#plain.json`;
          const first = await ingestFile(database.connection, source);
          expect(first.status).toBe('loaded');
          const [kept] = await query<{ zip_crc32: string }>(
            `SELECT zip_crc32 FROM mrf_files WHERE id = $1`,
            [first.runId],
          );
          expect(Number(kept?.zip_crc32)).toBe(crc32(await served('Zip Plain', '990016', 1000)));

          // Listed with that CRC-32 and size: only the first range and the directory are asked.
          let before = server.ranges.length;
          const again = await ingestFile(database.connection, source);
          expect(again).toMatchObject({
            status: 'unchanged',
            unchangedBy: 'entry',
            hospitalId: first.hospitalId,
          });
          expect(server.ranges.slice(before)).toEqual([
            'bytes=0-3',
            expect.stringMatching(/^bytes=-\d+$/),
          ]);

          // A run loaded before the entries were kept: read once more, known at the swap, and
          // given the entry's CRC-32 there.
          await query(`UPDATE mrf_files SET zip_crc32 = NULL WHERE id = $1`, [first.runId]);
          const read = await ingestFile(database.connection, source);
          expect(read.status).toBe('unchanged');
          expect(read.unchangedBy).toBeUndefined();
          expect(await ingestFile(database.connection, source)).toMatchObject({
            status: 'unchanged',
            unchangedBy: 'entry',
          });

          // Changed, it is read and loaded; --reload reads it though it is listed as it was.
          files['/plain.zip'] = await archive(3000);
          const changed = await ingestFile(database.connection, source);
          expect(changed.status).toBe('loaded');
          expect(await erGross(changed.hospitalId ?? '')).toBe('3000');
          before = server.ranges.length;
          expect((await ingestFile(database.connection, source, { reload: true })).status).toBe(
            'loaded',
          );
          expect(server.ranges.length - before).toBeGreaterThan(2);
        } finally {
          await server.close();
        }
      },
    );

    itWithDataFile(
      'knows the same bytes sent again under a new ETag by their hash, unread, and asks with that ETag next',
      CMS_V3_JSON,
      async () => {
        const server = await serveFiles(
          { '/new-etag.json': await served('New Etag', '990012', 1000) },
          { validators: true },
        );
        try {
          const url = server.url('/new-etag.json');
          const first = await ingestFile(database.connection, url);
          const etag = (await validatorsOf(first.runId))?.http_etag;
          // As if the server had sent the file under another ETag then.
          await query(`UPDATE mrf_files SET http_etag = '"stale"' WHERE id = $1`, [first.runId]);
          const records: number[] = [];
          const again = await ingestFile(database.connection, url, {
            progress: (_bytes, _total, read) => records.push(read),
          });
          // Downloaded (the stale ETag matches nothing), hashed, and known as the loaded bytes, as
          // from a server that ignores validators or gives a file other ETags on other machines.
          expect(again).toMatchObject({ status: 'unchanged', unchangedBy: 'hash' });
          expect(new Set(records)).toEqual(new Set([0]));
          expect(server.statuses.at(-1)).toBe(200);
          expect((await validatorsOf(first.runId))?.http_etag).toBe(etag);
          const third = await ingestFile(database.connection, url);
          expect(third).toMatchObject({ status: 'unchanged', unchangedBy: 'server' });
          expect(server.statuses.at(-1)).toBe(304);
        } finally {
          await server.close();
        }
      },
    );

    itWithDataFile(
      'is downloaded and hashed, not read, when its server sends no validators, and read when it changed',
      CMS_V3_JSON,
      async () => {
        const files = { '/plain.json': await served('No Validators', '990013', 1000) };
        const server = await serveFiles(files);
        try {
          const url = server.url('/plain.json');
          const first = await ingestFile(database.connection, url);
          expect(first.status).toBe('loaded');
          expect(await validatorsOf(first.runId)).toEqual({
            http_etag: null,
            http_last_modified: null,
          });

          // Downloaded again (nothing to ask its server with), known by its hash, no record read.
          const records: number[] = [];
          const passes: ReadPhase[] = [];
          /** Which passes over the bytes the progress said, in order. */
          const pass = (phase: ReadPhase) => {
            if (passes.at(-1) !== phase) passes.push(phase);
          };
          const again = await ingestFile(database.connection, url, {
            progress: (_bytes, _total, read, phase) => {
              records.push(read);
              pass(phase);
            },
          });
          expect(again).toMatchObject({
            status: 'unchanged',
            unchangedBy: 'hash',
            hospitalId: first.hospitalId,
            items: first.items,
            rates: first.rates,
            bytes: files['/plain.json'].length,
          });
          expect(records.length).toBeGreaterThan(0);
          expect(new Set(records)).toEqual(new Set([0]));
          expect(passes).toEqual(['checking']);
          expect(server.statuses).toEqual([200, 200]);
          await expectInUse(first.hospitalId ?? '', first.runId);

          // A new version of the same size: hashed, found new, and read from the copy kept on
          // disk while it was hashed, not downloaded again; the copy is gone after.
          files['/plain.json'] = await served('No Validators', '990013', 2000);
          expect(files['/plain.json'].length).toBe(again.bytes);
          passes.length = 0;
          const sameSize = await ingestFile(database.connection, url, {
            progress: (_bytes, _total, _read, phase) => pass(phase),
          });
          expect(sameSize).toMatchObject({ status: 'loaded', bytes: again.bytes });
          expect(passes).toEqual(['checking', 'reading']);
          expect(server.statuses).toEqual([200, 200, 200]);
          expect(await erGross(sameSize.hospitalId ?? '')).toBe('2000');
          expect(await spoolsOfThisProcess()).toEqual([]);
          const [loadedRun] = await query<{ source: string; sha256: string }>(
            `SELECT source, sha256 FROM mrf_files WHERE id = $1`,
            [sameSize.runId],
          );
          expect(loadedRun).toEqual({
            source: url,
            sha256: createHash('sha256').update(files['/plain.json']).digest('hex'),
          });

          // One of another size: its announced length says it is new, and it is read at once from
          // a second answer (the first one's body let go unread).
          files['/plain.json'] = await served('No Validators', '990013', 30000);
          const resized = await ingestFile(database.connection, url);
          expect(resized.status).toBe('loaded');
          expect(resized.bytes).not.toBe(sameSize.bytes);
          expect(server.statuses).toHaveLength(5);
          expect(await erGross(resized.hospitalId ?? '')).toBe('30000');

          // --reload reads it whatever its bytes.
          const reloaded = await ingestFile(database.connection, url, { reload: true });
          expect(reloaded.status).toBe('loaded');
          expect(server.statuses).toHaveLength(6);
        } finally {
          await server.close();
        }
      },
    );

    itWithDataFile(
      'is hashed first when its server says neither its validators nor its length, and keeps validators it begins to send',
      CMS_V3_JSON,
      async () => {
        const files = { '/chunked.json': await served('Chunked', '990016', 1000) };
        const server = await serveFiles(files, { length: false });
        try {
          const url = server.url('/chunked.json');
          const totals: (number | null)[] = [];
          const first = await ingestFile(database.connection, url, {
            progress: (_bytes, total) => totals.push(total),
          });
          expect(first.status).toBe('loaded');
          expect(new Set(totals)).toEqual(new Set([null]));
          expect(await ingestFile(database.connection, url)).toMatchObject({
            status: 'unchanged',
            unchangedBy: 'hash',
          });
          files['/chunked.json'] = await served('Chunked', '990016', 30000);
          const changed = await ingestFile(database.connection, url);
          expect(changed.status).toBe('loaded');
          // Hashed, found new, and read from the copy on disk: one download.
          expect(server.statuses).toEqual([200, 200, 200]);
          expect(await erGross(changed.hospitalId ?? '')).toBe('30000');

          // The server begins to send validators: the run whose bytes it sent keeps them, and the
          // next download asks with them.
          server.sendValidators(true);
          expect(await ingestFile(database.connection, url)).toMatchObject({
            status: 'unchanged',
            unchangedBy: 'hash',
          });
          expect((await validatorsOf(changed.runId))?.http_etag).toMatch(/^"[0-9a-f]{16}"$/);
          expect(await ingestFile(database.connection, url)).toMatchObject({
            status: 'unchanged',
            unchangedBy: 'server',
          });
          expect(server.statuses.slice(3)).toEqual([200, 304]);
        } finally {
          await server.close();
        }
      },
    );

    itWithDataFile(
      'downloads a changed file again when the disk cannot keep the copy, and clears copies left by ended processes',
      CMS_V3_JSON,
      async () => {
        const files = { '/no-room.json': await served('No Room', '990017', 1000) };
        const server = await serveFiles(files, { length: false });
        // A copy left by a process that was killed: its id names no running process.
        const ended = spawnSync('true').pid;
        const left = path.join(tmpdir(), `ratelens-download-${ended}-left`);
        const savedTmp = process.env.TMPDIR;
        const restoreTmp = () => {
          if (savedTmp === undefined) delete process.env.TMPDIR;
          else process.env.TMPDIR = savedTmp;
        };
        try {
          const url = server.url('/no-room.json');
          expect((await ingestFile(database.connection, url)).status).toBe('loaded');
          await mkdir(left);
          await writeFile(path.join(left, 'no-room.json'), 'left behind');
          files['/no-room.json'] = await served('No Room', '990017', 2000);
          // A temporary folder that cannot be written: hashed, found new, downloaded again.
          process.env.TMPDIR = path.join(tmpdir(), 'no-such-folder');
          const changed = await ingestFile(database.connection, url);
          restoreTmp();
          expect(changed.status).toBe('loaded');
          expect(server.statuses).toEqual([200, 200, 200]);
          expect(await erGross(changed.hospitalId ?? '')).toBe('2000');
          // The next refresh sweeps the ended process's copy away.
          await ingestFile(database.connection, url);
          await expect(stat(left)).rejects.toThrow(/ENOENT/);
          expect(await spoolsOfThisProcess()).toEqual([]);
        } finally {
          restoreTmp();
          await rm(left, { recursive: true, force: true });
          await server.close();
        }
      },
    );
  });

  itWithDataFile(
    'records what a JSON file declares after its items: its version, its NPIs',
    CMS_V3_JSON,
    async () => {
      // Keys in alphabetical order put type_2_npi and version after standard_charge_information,
      // here after about 1 MB of items (the reader hands over the header at the first item).
      const file = await variant('late-keys.json', (json) => {
        asHospital(json, 'Late Keys Hospital', 'LATE-1');
        const items = json.standard_charge_information as unknown[];
        json.standard_charge_information = Array.from({ length: 40 }, () => items).flat();
        const { type_2_npi: npis, version, ...rest } = json;
        for (const key of Object.keys(json)) delete json[key];
        Object.assign(json, rest, { type_2_npi: npis, version });
      });
      const result = await ingestFile(database.connection, file);
      expect(result).toMatchObject({ status: 'loaded', version: '3.0.0' });
      const [hospital] = await query<{ type_2_npis: string[] }>(
        `SELECT type_2_npis FROM hospitals WHERE id = $1`,
        [result.hospitalId],
      );
      expect(hospital?.type_2_npis).toEqual(['0000000001', '0000000002', '0000000003']);
      const [run] = await query<{ version: string; validation: { lines: ValidationLine[] } }>(
        `SELECT version, validation FROM mrf_files WHERE id = $1`,
        [result.runId],
      );
      expect(run?.version).toBe('3.0.0');
      expect(JSON.stringify(run?.validation.lines)).not.toContain('version');
    },
  );

  itWithDataFile(
    'a newer file replaces the old one; an older one is recorded and not loaded',
    CMS_V3_JSON,
    async () => {
      const newer = await variant('newer.json', (json) => {
        json.last_updated_on = '2026-06-01';
        setGross(json, 5000);
      });
      const loaded = await ingestFile(database.connection, newer);
      expect(loaded.status).toBe('loaded');
      expect(await erGross(loaded.hospitalId ?? '')).toBe('5000');
      const statuses = await query<{ status: string }>(
        `SELECT status FROM mrf_files WHERE hospital_id = $1 ORDER BY started_at`,
        [loaded.hospitalId],
      );
      expect(statuses.map((s) => s.status)).toEqual(['replaced', 'loaded']);

      const details = async () =>
        query(
          `SELECT name, location_names, addresses, type_2_npis, is_demo FROM hospitals WHERE id = $1`,
          [loaded.hospitalId],
        );
      const shown = await details();
      // Neither an older file nor one that breaks halfway changes what the hospital's page says:
      // its details are those of the file its rates come from.
      const older = await variant('older.json', (json) => {
        json.last_updated_on = '2025-01-01';
        json.hospital_address = ['1 Old Road, Nowhere, CA 90000'];
        json.location_name = ['Old Campus'];
        setGross(json, 1);
      });
      const olderRun = await ingestFile(database.connection, older);
      expect(olderRun).toMatchObject({
        status: 'older',
        lastUpdatedOn: '2025-01-01',
        previous: { source: newer, lastUpdatedOn: '2026-06-01' },
      });
      expect(await erGross(loaded.hospitalId ?? '')).toBe('5000');
      expect(await details()).toEqual(shown);
      const text = await readFile(older, 'utf8');
      const broken = path.join(dir, 'older-broken.json');
      await writeFile(broken, text.slice(0, text.indexOf('"standard_charge_information"') + 200));
      expect((await ingestFile(database.connection, broken)).status).toBe('failed');
      expect(await details()).toEqual(shown);
    },
  );

  itWithDataFile(
    'locations under one licence that publish files of their own are hospitals of their own',
    CMS_V3_JSON,
    async () => {
      const campus = (name: string, updated: string, gross: number) =>
        variant(`licence-${name}-${updated}.json`, (json) => {
          asHospital(json, `Licence Test ${name} Campus`, '990301');
          json.last_updated_on = updated;
          setGross(json, gross);
        });
      const north = await ingestFile(
        database.connection,
        await campus('North', '2026-04-01', 1111),
      );
      const south = await ingestFile(
        database.connection,
        await campus('South', '2026-04-01', 2222),
      );
      expect([north.status, south.status]).toEqual(['loaded', 'loaded']);
      expect(south.hospitalId).not.toBe(north.hospitalId);
      expect(await erGross(north.hospitalId ?? '')).toBe('1111');
      expect(await erGross(south.hospitalId ?? '')).toBe('2222');
      // A campus's newer file replaces its own rates only, its name spelt another way or not.
      const newer = await campus('NORTH', '2026-06-01', 3333);
      const again = await ingestFile(database.connection, newer);
      expect(again).toMatchObject({ status: 'loaded', hospitalId: north.hospitalId });
      expect(await erGross(north.hospitalId ?? '')).toBe('3333');
      expect(await erGross(south.hospitalId ?? '')).toBe('2222');
    },
  );

  itWithDataFile(
    'hospitals of one name in two states, without a licence state, are two hospitals',
    CMS_V3_JSON,
    async () => {
      const hospital = (state: string, address: string, gross: number) =>
        variant(`unlicensed-${state}.json`, (json) => {
          json.hospital_name = 'Unlicensed Memorial Hospital';
          json.license_information = { license_number: null };
          json.hospital_address = [address];
          setGross(json, gross);
        });
      const florida = await ingestFile(
        database.connection,
        await hospital('FL', '601 E Rollins St, Orlando, FL 32803', 1111),
      );
      const texas = await ingestFile(
        database.connection,
        await hospital('TX', '1 Hospital Dr, Austin, TX 78701', 2222),
      );
      expect([florida.status, texas.status]).toEqual(['loaded', 'loaded']);
      expect(texas.hospitalId).not.toBe(florida.hospitalId);
      expect(await erGross(florida.hospitalId ?? '')).toBe('1111');
      expect(await erGross(texas.hospitalId ?? '')).toBe('2222');
      const { rows } = await database.connection.pool.query<{ source_key: string }>(
        `SELECT source_key FROM hospitals WHERE id = ANY($1::uuid[]) ORDER BY source_key`,
        [[florida.hospitalId, texas.hospitalId]],
      );
      expect(rows.map((r) => r.source_key)).toEqual([
        'name:FL:unlicensed memorial hospital',
        'name:TX:unlicensed memorial hospital',
      ]);
    },
  );

  it('migration 0014 gives the hospitals known before it without a licence state their address’s state', async () => {
    const migration = await readFile(
      path.join(import.meta.dirname, '../../../db/migrations/0014_hospital_state_key.sql'),
      'utf8',
    );
    const client = await database.connection.pool.connect();
    try {
      // A temporary "hospitals", first on the search path (see the test of migration 0013).
      await client.query(
        `CREATE TEMP TABLE hospitals (source_key text UNIQUE, state_code text, addresses text[])`,
      );
      await client.query(
        `INSERT INTO hospitals VALUES
           ('name::mercy', 'FL', '{"601 E Rollins St, Orlando, FL 32803"}'),
           ('name::unplaced', NULL, '{}'),
           ('name::taken', 'TX', '{"1 Hospital Dr, Austin, TX 78701"}'),
           ('name:TX:taken', 'TX', '{}'),
           ('name:CA:licensed state', 'CA', '{}'),
           ('license:CA:1:mercy', 'CA', '{}')`,
      );
      await client.query(migration);
      const { rows } = await client.query<{
        source_key: string;
        state_code: string | null;
        addresses: string[];
      }>(`SELECT source_key, state_code, addresses FROM hospitals ORDER BY source_key`);
      expect(rows.map((r) => r.source_key)).toEqual([
        'license:CA:1:mercy',
        'name::taken',
        'name::unplaced',
        'name:CA:licensed state',
        'name:FL:mercy',
        'name:TX:taken',
      ]);
      // As an ingest keys the same hospital now.
      const mercy = rows.find((r) => r.source_key === 'name:FL:mercy');
      expect(
        hospitalSourceKey({
          ...emptyHeader('json', '3.0.0', '3.0.0'),
          hospitalName: 'Mercy',
          addresses: mercy?.addresses ?? [],
        }),
      ).toBe('name:FL:mercy');
    } finally {
      await client.query('DROP TABLE pg_temp.hospitals');
      client.release();
    }
  });

  it('keys a hospital with neither licence nor ZIP without a state, as before', () => {
    // Placed by its city now, it has a state; but migration 0014 keyed such hospitals without
    // one ("name::unplaced"), and keyed with it each would be loaded again as another hospital.
    expect(
      hospitalSourceKey({
        ...emptyHeader('json', '3.0.0', '3.0.0'),
        hospitalName: 'Mercy',
        addresses: ['601 E Rollins St, Orlando, Florida'],
      }),
    ).toBe('name::mercy');
  });

  it('migration 0013 keys the hospitals known before it as an ingest keys them', async () => {
    const migration = await readFile(
      path.join(import.meta.dirname, '../../../db/migrations/0013_hospital_identity.sql'),
      'utf8',
    );
    const names = ["St. Mary's  Hospital", 'Hôpital Saint-Jean (North)', 'MERCY-2 ', ''];
    const client = await database.connection.pool.connect();
    try {
      // A temporary "hospitals", which comes first on the search path: the migration's UPDATE
      // runs on these rows alone, not on the test database's hospitals.
      await client.query(`CREATE TEMP TABLE hospitals (name text, source_key text)`);
      for (const [i, name] of names.entries()) {
        await client.query(`INSERT INTO hospitals VALUES ($1, $2)`, [name, `license:CA:${i}`]);
      }
      await client.query(`INSERT INTO hospitals VALUES ('Unlicensed', 'name:CA:unlicensed')`);
      await client.query(migration);
      const { rows } = await client.query<{ source_key: string }>(
        `SELECT source_key FROM hospitals ORDER BY source_key`,
      );
      const header = (hospitalName: string, licenseNumber: string) => ({
        ...emptyHeader('json', '3.0.0', '3.0.0'),
        hospitalName,
        licenseState: 'CA',
        licenseNumber,
      });
      expect(rows.map((r) => r.source_key)).toEqual([
        ...names.map((name, i) => hospitalSourceKey(header(name, String(i)))),
        'name:CA:unlicensed',
      ]);
      expect(rows[0]?.source_key).toBe('license:CA:0:stmaryshospital');
    } finally {
      await client.query('DROP TABLE pg_temp.hospitals');
      client.release();
    }
  });

  itWithDataFile(
    'keeps one partition per rate table for the hospital, carrying the parent tables’ indexes',
    CMS_V3_JSON,
    async () => {
      const file = await variant('partitions.json', (json) => {
        json.last_updated_on = '2026-07-01';
        setGross(json, 6000);
      });
      const { hospitalId, runId } = await ingestFile(database.connection, file);
      const partitions = await query<{
        parent: string;
        partition: string;
        parent_indexes: number;
        partition_indexes: number;
        adopted: number;
      }>(
        `SELECT p.relname AS parent, c.relname AS partition,
                (SELECT count(*)::int FROM pg_index x WHERE x.indrelid = p.oid) AS parent_indexes,
                (SELECT count(*)::int FROM pg_index x WHERE x.indrelid = c.oid) AS partition_indexes,
                (SELECT count(*)::int FROM pg_index x JOIN pg_inherits ix ON ix.inhrelid = x.indexrelid
                  WHERE x.indrelid = c.oid) AS adopted
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
          WHERE pg_get_expr(c.relpartbound, c.oid) = format('FOR VALUES IN (%L)', $1::text)
          ORDER BY 1`,
        [hospitalId],
      );
      const suffix = runId.replace(/-/g, '');
      // The run's own tables, each index built before ATTACH and adopted by the parent's index:
      // none was built again under the swap's locks, and the replaced file's tables are gone.
      expect(partitions).toEqual(
        ['charge_items', 'item_codes', 'negotiated_rates'].map((parent) => ({
          parent,
          partition: `${parent}_${suffix}`,
          parent_indexes: parent === 'item_codes' ? 2 : 1,
          partition_indexes: parent === 'item_codes' ? 2 : 1,
          adopted: parent === 'item_codes' ? 2 : 1,
        })),
      );
    },
  );

  itWithDataFile(
    'two ingests of one hospital at once: the newer file is in use, alone, whichever ends first',
    CMS_V3_JSON,
    async () => {
      /**
       * A file of a hospital of its own (so that these dates do not decide the other tests'
       * files), its ER gross charge set; a slow one has its items 400 times over, so that it
       * ends well after a file of one copy begun with it.
       */
      const file = (name: string, date: string, gross: number, slow = false) =>
        variant(name, (json) => {
          asHospital(json, 'Concurrent Mercy Hospital', '77001');
          json.last_updated_on = date;
          setGross(json, gross);
          const items = json.standard_charge_information as unknown[];
          if (slow)
            json.standard_charge_information = Array.from({ length: 400 }, () => items).flat();
        });
      const atOnce = async (older: string, newer: string) =>
        Promise.all([
          ingestFile(database.connection, older),
          ingestFile(database.connection, newer),
        ]);

      // The older file ends first: it is loaded, then replaced by the newer one.
      const [olderFirst, newerLast] = await atOnce(
        await file('at-once-1.json', '2026-05-01', 100),
        await file('at-once-2.json', '2026-05-02', 200, true),
      );
      const hospitalId = newerLast.hospitalId ?? '';
      expect(olderFirst.hospitalId).toBe(hospitalId);
      expect([olderFirst.status, newerLast.status]).toEqual(['loaded', 'loaded']);
      expect(await statusOf(olderFirst.runId)).toBe('replaced');
      expect(await erGross(hospitalId)).toBe('200');
      await expectInUse(hospitalId, newerLast.runId);
      expect(await runTables(olderFirst.runId)).toEqual([]);

      // The newer file ends first: the older one, ending after it, is found older and left out.
      const [olderLast, newerFirst] = await atOnce(
        await file('at-once-3.json', '2026-05-03', 300, true),
        await file('at-once-4.json', '2026-05-04', 400),
      );
      expect([olderLast.status, newerFirst.status]).toEqual(['older', 'loaded']);
      expect(await erGross(hospitalId)).toBe('400');
      // The example's 39 rates and the 6 payer entries of its modifiers: one file's rows, once.
      expect(newerFirst.rates).toBe(39);
      expect(await count('negotiated_rates', hospitalId)).toBe(45);
      await expectInUse(hospitalId, newerFirst.runId);
      expect(await runTables(olderLast.runId)).toEqual([]);

      // The same bytes twice at once: one run loads them, the other finds them in use already.
      const same = await file('at-once-5.json', '2026-05-05', 500);
      const both = await atOnce(same, same);
      expect(both.map((run) => run.status).sort()).toEqual(['loaded', 'unchanged']);
      const [inUse, found] = both[0]?.status === 'loaded' ? both : [...both].reverse();
      expect(await erGross(hospitalId)).toBe('500');
      await expectInUse(hospitalId, inUse?.runId ?? '');
      expect(await runTables(found?.runId ?? '')).toEqual([]);
      expect(
        await query(`SELECT id FROM hospitals WHERE name = 'Concurrent Mercy Hospital'`),
      ).toHaveLength(1);
    },
  );

  itWithDataFile(
    "a hospital's swap does not wait for another hospital's file still loading",
    CMS_V3_JSON,
    async () => {
      const ofHospital = (name: string, licence: string, date: string) =>
        variant(`${licence}-${date}.json`, (json) => {
          asHospital(json, name, licence);
          json.last_updated_on = date;
        });
      // Loaded once, so that its next file's swap drops its partitions (DROP locks the parents).
      const first = await ofHospital('Beside Mercy Hospital', '77003', '2026-05-01');
      expect((await ingestFile(database.connection, first)).status).toBe('loaded');
      const next = await ofHospital('Beside Mercy Hospital', '77003', '2026-05-02');
      // Another hospital's file, whose server stops halfway until told to go on: its COPYs stay
      // open meanwhile, as a large file's do for minutes.
      const stalled = await readFile(
        await ofHospital('Stalled Mercy Hospital', '77004', '2026-05-01'),
      );
      let goOn = () => {};
      const until = new Promise<void>((resolve) => (goOn = resolve));
      const server = await serveFiles(
        { '/stalled.json': stalled },
        { holdBack: { after: Math.floor(stalled.length / 2), until } },
      );
      const stalledRun = ingestFile(database.connection, server.url('/stalled.json'));
      try {
        await expect
          .poll(
            async () =>
              (
                await query<{ copies: number }>(
                  `SELECT count(*)::int AS copies FROM pg_stat_activity
                    WHERE datname = current_database() AND state = 'active' AND query LIKE 'COPY %'`,
                )
              )[0]?.copies,
            { timeout: 10_000 },
          )
          .toBe(3);
        const run = await Promise.race([
          ingestFile(database.connection, next),
          new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 10_000)),
        ]);
        expect(run === 'waited' ? run : run.status).toBe('loaded');
      } finally {
        goOn();
        expect((await stalledRun).status).toBe('loaded');
        await server.close();
      }
    },
    30_000,
  );

  itWithDataFile(
    'a file being loaded is listed under its hospital, with how far its read is',
    CMS_V3_JSON,
    async () => {
      const file = await readFile(
        await variant('progress.json', (json) =>
          asHospital(json, 'Progress Mercy Hospital', '77006'),
        ),
      );
      let goOn = () => {};
      const until = new Promise<void>((resolve) => (goOn = resolve));
      const half = Math.floor(file.length / 2);
      const server = await serveFiles(
        { '/progress.json': file },
        { holdBack: { after: half, until } },
      );
      const source = server.url('/progress.json');
      const runRow = async () =>
        (
          await query<{ status: string; hospital: string | null; progress: unknown }>(
            `SELECT f.status, h.name AS hospital, f.progress FROM mrf_files f
               LEFT JOIN hospitals h ON h.id = f.hospital_id WHERE f.source = $1`,
            [source],
          )
        )[0];
      const run = ingestFile(database.connection, source);
      try {
        // Its server has sent half the file: the hospital is known, the read under way.
        await expect
          .poll(async () => (await runRow())?.progress, { timeout: 10_000 })
          .toEqual({
            phase: 'reading',
            bytesRead: half,
            totalBytes: file.length,
            records: 0,
          });
        expect(await runRow()).toMatchObject({
          status: 'loading',
          hospital: 'Progress Mercy Hospital',
        });
      } finally {
        goOn();
        expect((await run).status).toBe('loaded');
        await server.close();
      }
      expect(await runRow()).toEqual({
        status: 'loaded',
        hospital: 'Progress Mercy Hospital',
        progress: null,
      });
    },
    30_000,
  );

  itWithDataFile(
    "a run is the hospital's whose file its source gave, while it hashes a download and when it fails",
    CMS_V3_JSON,
    async () => {
      const file = await readFile(
        await variant('checked.json', (json) =>
          asHospital(json, 'Checked Mercy Hospital', '77007'),
        ),
      );
      const served: Record<string, Buffer> = { '/checked.json': file };
      // A server that sends no validators: a file read from it before is hashed before it is read.
      const hold = { after: Number.POSITIVE_INFINITY, until: Promise.resolve() };
      const server = await serveFiles(served, { holdBack: hold });
      const source = server.url('/checked.json');
      const newestRun = async () =>
        (
          await query<{
            status: string;
            hospital_id: string | null;
            progress: unknown;
            error: string | null;
          }>(
            `SELECT status, hospital_id, progress, error FROM mrf_files
              WHERE source = $1 ORDER BY started_at DESC LIMIT 1`,
            [source],
          )
        )[0];
      try {
        const first = await ingestFile(database.connection, source);
        expect(first.status).toBe('loaded');
        let goOn = () => {};
        hold.after = Math.floor(file.length / 2);
        hold.until = new Promise<void>((resolve) => (goOn = resolve));
        const run = ingestFile(database.connection, source);
        try {
          await expect
            .poll(async () => (await newestRun())?.progress, { timeout: 10_000 })
            .toEqual({
              phase: 'checking',
              bytesRead: hold.after,
              totalBytes: file.length,
              records: 0,
            });
          expect(await newestRun()).toMatchObject({
            status: 'loading',
            hospital_id: first.hospitalId,
          });
        } finally {
          goOn();
        }
        expect(await run).toMatchObject({ status: 'unchanged', unchangedBy: 'hash' });

        // The hospital takes the file down: its page lists the failure.
        delete served['/checked.json'];
        const gone = await ingestFile(database.connection, source);
        expect(gone).toMatchObject({ status: 'failed', hospitalId: null });
        expect(await newestRun()).toEqual({
          status: 'failed',
          hospital_id: first.hospitalId,
          progress: null,
          error: `The server answered 404 Not Found for ${source}.`,
        });
      } finally {
        await server.close();
      }
    },
    30_000,
  );

  itWithDataFile(
    'a download that fails while its run is being recorded is that run’s failure, not an unhandled rejection',
    CMS_V3_JSON,
    async () => {
      const file = await readFile(
        await variant('early-404.json', (json) =>
          asHospital(json, 'Early Failure Hospital', '77008'),
        ),
      );
      const served: Record<string, Buffer> = { '/early-404.json': file };
      // No validators: a URL read before is downloaded and hashed, from the run's first moment.
      const server = await serveFiles(served);
      const source = server.url('/early-404.json');
      const unhandled: unknown[] = [];
      const listen = (reason: unknown) => unhandled.push(reason);
      const holder = await database.connection.pool.connect();
      try {
        expect((await ingestFile(database.connection, source)).status).toBe('loaded');
        delete served['/early-404.json'];
        process.on('unhandledRejection', listen);
        // The run's row waits behind this lock, so the 404 comes before anything awaits it.
        await holder.query('BEGIN');
        await holder.query('LOCK TABLE mrf_files IN SHARE MODE');
        const run = ingestFile(database.connection, source);
        await expect.poll(() => server.statuses.at(-1), { timeout: 10_000 }).toBe(404);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await holder.query('COMMIT');
        expect(await run).toMatchObject({
          status: 'failed',
          error: `The server answered 404 Not Found for ${source}.`,
        });
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', listen);
        await holder.query('ROLLBACK').catch(() => undefined);
        holder.release();
        await server.close();
      }
    },
    30_000,
  );

  itWithDataFile(
    'a swap waits for any other swap, whatever its hospital: swaps that lock the parents in turn cannot deadlock',
    CMS_V3_JSON,
    async () => {
      const file = await variant('swap-lock.json', (json) => {
        asHospital(json, 'Swap Lock Hospital', '77005');
      });
      // Another swap in progress, of no hospital in particular.
      const other = await database.connection.pool.connect();
      try {
        await other.query('SELECT pg_advisory_lock($1)', [SWAP_LOCK_KEY]);
        let done = false;
        const run = ingestFile(database.connection, file).finally(() => (done = true));
        await expect.poll(() => locksWaited('advisory'), { timeout: 10_000 }).toBe(1);
        expect(done).toBe(false);
        await other.query('SELECT pg_advisory_unlock($1)', [SWAP_LOCK_KEY]);
        expect((await run).status).toBe('loaded');
      } finally {
        await other.query('SELECT pg_advisory_unlock_all()');
        other.release();
      }
    },
  );

  describe('a swap while a long query reads the rates (an export, a slow search)', () => {
    /** A hospital loaded once, its next file, and a transaction reading the rate tables. */
    async function besideLongRead(licence: string) {
      const ofHospital = (date: string) =>
        variant(`long-read-${licence}-${date}.json`, (json) => {
          asHospital(json, `Long Read Hospital ${licence}`, licence);
          json.last_updated_on = date;
        });
      const first = await ingestFile(database.connection, await ofHospital('2026-05-01'));
      expect(first.status).toBe('loaded');
      const next = await ofHospital('2026-05-02');
      const reader = await database.connection.pool.connect();
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM negotiated_rates');
      /** Resolves once the swap waits for a table lock. */
      const swapWaiting = () =>
        expect
          .poll(() => locksWaited('relation'), { timeout: 10_000, interval: 20 })
          .toBeGreaterThan(0);
      let reading = true;
      const endRead = async () => {
        if (!reading) return;
        reading = false;
        await reader.query('COMMIT');
        reader.release();
      };
      return { first, next, hospitalId: first.hospitalId!, swapWaiting, endRead };
    }

    itWithDataFile(
      'the queries asked meanwhile are not held up behind the swap, and the swap follows the read',
      CMS_V3_JSON,
      async () => {
        const { next, hospitalId, swapWaiting, endRead } = await besideLongRead('77010');
        try {
          // A search of the hospital's rates (its rate rows; modifier entries are some of them).
          const search = () =>
            query<{ rows: number }>(
              'SELECT count(*)::int AS rows FROM negotiated_rates WHERE hospital_id = $1',
              [hospitalId],
            );
          const [before] = await search();
          let done = false;
          const waits: number[] = [];
          const run = ingestFile(database.connection, next, {
            swapWaiting: (waited) => waits.push(waited),
          }).finally(() => (done = true));
          await swapWaiting();
          // The same search, asked while the swap waits for the long read.
          const meanwhile = await Promise.race([
            search(),
            new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5_000)),
          ]);
          expect(meanwhile === 'waited' ? meanwhile : meanwhile[0]).toEqual(before);
          expect(done).toBe(false);
          await endRead();
          const loaded = await run;
          expect(loaded.status).toBe('loaded');
          await expectInUse(hospitalId, loaded.runId);
          // Each time it gave way, the caller was told how long it had waited so far.
          expect(waits.length).toBeGreaterThan(0);
          expect(waits).toEqual([...waits].sort((a, b) => a - b));
          expect(waits[0]).toBeGreaterThanOrEqual(150);
        } finally {
          await endRead();
        }
      },
      30_000,
    );

    itWithDataFile(
      'a swap kept waiting past its patience fails the run, and the previous file stays in use',
      CMS_V3_JSON,
      async () => {
        const { first, next, hospitalId, endRead } = await besideLongRead('77011');
        try {
          const run = await ingestFile(database.connection, next, { swapPatience: 1_000 });
          expect(run.status).toBe('failed');
          expect(run.error).toBe(
            "The new rates were not swapped in: queries kept the rate tables busy for 1 s. The hospital's previous file stays in use; ingest this file again later.",
          );
          await endRead();
          await expectInUse(hospitalId, first.runId);
          expect(await statusOf(first.runId)).toBe('loaded');
          expect(await statusOf(run.runId)).toBe('failed');
        } finally {
          await endRead();
        }
      },
      30_000,
    );
  });

  itWithDataFile(
    'three hospitals loaded at once on a pool of ten: each run has connections of its own',
    CMS_V3_JSON,
    async () => {
      const files = await Promise.all(
        [0, 1, 2].map((n) =>
          variant(`own-pool-${n}.json`, (json) => {
            asHospital(json, `Own Pool Hospital ${n}`, `7711${n}`);
          }),
        ),
      );
      const shared = database.connection.pool;
      expect(shared.options.max).toBe(10);
      const runs = Promise.all(files.map((file) => ingestFile(database.connection, file)));
      const statuses = await Promise.race([
        runs.then((results) => results.map((run) => run.status)),
        new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 15_000)),
      ]);
      expect(statuses).toEqual(['loaded', 'loaded', 'loaded']);
      // The shared pool lent nothing that it did not get back.
      expect(shared.totalCount - shared.idleCount).toBe(0);
    },
    30_000,
  );

  itWithDataFile(
    'two hospitals at once naming the same new codes and payers in other orders both load',
    CMS_V3_JSON,
    async () => {
      for (const round of [1, 2, 3, 4]) {
        // 20,000 DRGs with their names (codes get a row when they have one), new to the code
        // table, a payer per 50 items and 7 plans: one file names them in one order, the other in
        // reverse, and each writes them in one statement near its end.
        const items = Array.from({ length: 20_000 }, (_, n) => ({
          description: `Order probe DRG ${round}-${n}`,
          code_information: [{ code: `X${round}${String(n).padStart(5, '0')}`, type: 'MS-DRG' }],
          standard_charges: [
            {
              setting: 'inpatient',
              gross_charge: 100 + n,
              payers_information: [
                {
                  payer_name: `Order Probe Payer ${round}-${n % 50}`,
                  plan_name: `Plan ${n % 7}`,
                  methodology: 'case rate',
                  standard_charge_dollar: 50,
                },
              ],
            },
          ],
        }));
        const files = await Promise.all(
          [0, 1].map((n) =>
            variant(`code-order-${round}-${n}.json`, (json) => {
              asHospital(json, `Code Order Hospital ${n}`, `7712${n}`);
              json.last_updated_on = `2026-05-0${round}`;
              json.standard_charge_information = n === 0 ? items : [...items].reverse();
              delete json.modifier_information;
            }),
          ),
        );
        const runs = await Promise.all(files.map((file) => ingestFile(database.connection, file)));
        expect(runs.map((run) => run.error ?? run.status)).toEqual(['loaded', 'loaded']);
        expect(
          (
            await query<{ n: number }>(
              `SELECT count(*)::int AS n FROM codes WHERE type = 'MS-DRG' AND code LIKE $1`,
              [`X${round}%`],
            )
          )[0]?.n,
        ).toBe(20_000);
      }
    },
    60_000,
  );

  itWithDataFile(
    'replaces rows written into the rate tables without an ingest',
    CMS_V3_JSON,
    async () => {
      const file = await variant('seeded.json', (json) => {
        asHospital(json, 'Seeded Mercy Hospital', '99999');
      });
      const reader = await openMrf(file);
      const {
        rows: [seeded],
      } = await database.connection.pool.query<{ id: string }>(
        `INSERT INTO hospitals (source_key, name) VALUES ($1, 'Seeded Mercy Hospital') RETURNING id`,
        [hospitalSourceKey(reader.header)],
      );
      // No partition of its own yet: the row lands in the default partition.
      await database.connection.pool.query(
        `INSERT INTO charge_items (hospital_id, item_id, mrf_file_id, description, modifiers)
         VALUES ($1, 999999, gen_random_uuid(), 'seeded', '{}')`,
        [seeded?.id],
      );
      const result = await ingestFile(database.connection, file);
      expect(result).toMatchObject({ status: 'loaded', hospitalId: seeded?.id });
      // The file's 22 charges and its three modifiers, and not the seeded row.
      expect(await count('charge_items', seeded?.id ?? '')).toBe(result.items + 3);
      expect(
        await query(
          `SELECT item_id FROM charge_items WHERE hospital_id = $1 AND item_id = 999999`,
          [seeded?.id],
        ),
      ).toEqual([]);
    },
  );

  itWithDataFile(
    'a broken file fails, is recorded as failed, and leaves the previous data whole',
    CMS_V3_JSON,
    async () => {
      const text = await readFile(sharedDataPath(CMS_V3_JSON), 'utf8');
      const truncated = path.join(dir, 'truncated.json');
      await writeFile(truncated, text.slice(0, Math.floor(text.length * 0.6)));
      const [hospital] = await query<{ id: string }>(
        `SELECT id FROM hospitals WHERE name = 'West Mercy Hospital'`,
      );
      const before = await count('negotiated_rates', hospital?.id ?? '');
      const result = await ingestFile(database.connection, truncated);
      expect(result.status).toBe('failed');
      expect(result.error).toBeTruthy();
      expect(await count('negotiated_rates', hospital?.id ?? '')).toBe(before);
      const [run] = await query<{ status: string; error: string; hospital_id: string }>(
        `SELECT status, error, hospital_id FROM mrf_files WHERE id = $1`,
        [result.runId],
      );
      expect(run?.status).toBe('failed');
      // Under its hospital, whose page says why its rates are not this file's.
      expect(run?.hospital_id).toBe(hospital?.id);
      expect(run?.error).toBe(result.error);
      expect(await runTables(result.runId)).toEqual([]);
    },
  );

  itWithDataFile(
    'matches a JSON file whose name and licence follow its items to its hospital once read',
    CMS_V3_JSON,
    async () => {
      // The items first, and more of them than the first 64 KB read holds: the header is not
      // known when the reader starts handing out items.
      const itemsFirst = (json: Record<string, unknown>) => {
        const { standard_charge_information: items, ...header } = json;
        const list = items as { description: string }[];
        const copies = Array.from({ length: 30 }, (_, n) =>
          list.map((item) => ({ ...item, description: `${item.description} (copy ${n})` })),
        );
        for (const key of Object.keys(json)) delete json[key];
        Object.assign(json, { standard_charge_information: [...list, ...copies.flat()] }, header);
      };
      const named = (json: Record<string, unknown>) => {
        asHospital(json, 'Late Header Hospital', '990101', 'OR');
      };
      // A new hospital: its rows keep the id they were written with, now the hospital's.
      const first = await ingestFile(
        database.connection,
        await variant('late-1.json', (json) => {
          named(json);
          itemsFirst(json);
        }),
      );
      const written = await readFile(path.join(dir, 'late-1.json'), 'utf8');
      expect(written.indexOf('"hospital_name"')).toBeGreaterThan(64 * 1024);
      expect(first).toMatchObject({ status: 'loaded', hospital: 'Late Header Hospital' });
      const hospitals = await query<{ id: string; source_key: string }>(
        `SELECT id, source_key FROM hospitals WHERE name = 'Late Header Hospital' OR name = ''`,
      );
      expect(hospitals).toEqual([
        { id: first.hospitalId, source_key: 'license:OR:990101:lateheaderhospital' },
      ]);
      const rates = await count('negotiated_rates', first.hospitalId ?? '');
      expect(rates).toBeGreaterThan(0);

      // The same hospital again, header first, then items first once more: one hospital, whose
      // rows are moved to its id before they are attached.
      const headerFirst = await ingestFile(
        database.connection,
        await variant('late-2.json', (json) => {
          named(json);
          setGross(json, 2222);
          itemsFirst(json);
          const { standard_charge_information: items, ...header } = json;
          for (const key of Object.keys(json)) delete json[key];
          Object.assign(json, header, { standard_charge_information: items });
        }),
      );
      expect(headerFirst).toMatchObject({ status: 'loaded', hospitalId: first.hospitalId });
      const again = await ingestFile(
        database.connection,
        await variant('late-3.json', (json) => {
          named(json);
          setGross(json, 3333);
          itemsFirst(json);
        }),
      );
      expect(again).toMatchObject({ status: 'loaded', hospitalId: first.hospitalId });
      expect(await erGross(first.hospitalId ?? '')).toBe('3333');
      expect(await count('negotiated_rates', first.hospitalId ?? '')).toBe(rates);
      expect(
        await query(`SELECT id FROM hospitals WHERE name = 'Late Header Hospital'`),
      ).toHaveLength(1);
      expect(await runTables(again.runId)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^negotiated_rates_/)]) as unknown,
      );
      const [checked] = await query<{ check: string }>(
        `SELECT pg_get_constraintdef(oid) AS check FROM pg_constraint
          WHERE conname = $1`,
        [`negotiated_rates_${again.runId.replace(/-/g, '')}_hospital`],
      );
      expect(checked?.check).toContain(first.hospitalId);
    },
  );

  itWithDataFile(
    'refuses a file that does not name its hospital, and a file with no charge, keeping the rates',
    CMS_V3_JSON,
    async () => {
      const named = (json: Record<string, unknown>) => {
        asHospital(json, 'Kept Rates Hospital', '990102', 'OR');
      };
      const loaded = await ingestFile(database.connection, await variant('kept.json', named));
      expect(loaded.status).toBe('loaded');
      const rates = await count('negotiated_rates', loaded.hospitalId ?? '');
      /** The same hospital's file changed by `change`: refused, recorded as failed. */
      const refused = async (name: string, change: (json: Record<string, unknown>) => void) => {
        const run = await ingestFile(
          database.connection,
          await variant(name, (json) => {
            named(json);
            change(json);
          }),
        );
        expect(run.status, name).toBe('failed');
        return run;
      };

      const unnamed = await refused('unnamed.json', (json) => {
        json.hospital_name = '  ';
      });
      expect(unnamed).toMatchObject({ status: 'failed', hospitalId: null });
      expect(unnamed.error).toBe(
        'The file does not name its hospital (hospital_name is empty or missing), so its rates ' +
          'could not be told from another hospital’s. Nothing was loaded.',
      );
      expect(await query(`SELECT id FROM hospitals WHERE btrim(name) = ''`)).toEqual([]);

      const empty = await refused('empty-list.json', (json) => {
        json.standard_charge_information = [];
        json.last_updated_on = '2026-12-01';
      });
      expect(empty.error).toBe(
        'The file lists no charges. Nothing was loaded; the hospital’s rates from an earlier ' +
          'file, if any, are kept.',
      );
      // No list at all (under a name CMS does not use; one it spells another way is read), and
      // the modifiers alone are no charges.
      const misspelt = await refused('misspelt.json', (json) => {
        json.charge_list = json.standard_charge_information;
        delete json.standard_charge_information;
      });
      expect(misspelt.error).toBe(
        'The file has no standard_charge_information list, so no charges (the report names any ' +
          'field it has that CMS does not define). Nothing was loaded; the hospital’s rates from ' +
          'an earlier file, if any, are kept.',
      );
      // A list that is not a list.
      const notAList = await refused('not-a-list.json', (json) => {
        json.standard_charge_information = 'none';
        json.last_updated_on = '2026-12-02';
      });
      expect(notAList.error).toBe(
        'The file’s standard_charge_information is not a list, so no charges were read. Nothing ' +
          'was loaded; the hospital’s rates from an earlier file, if any, are kept.',
      );
      // Every item rejected (none has a description).
      const rejected = await refused('all-rejected.json', (json) => {
        for (const item of json.standard_charge_information as { description?: string }[])
          delete item.description;
      });
      expect(rejected.error).toMatch(
        /^Every charge in the file was rejected \(\d+; the report says why\)\. Nothing was loaded;/,
      );
      // Every payer rate rejected (none names its payer), the charges read: loaded, the
      // hospital would keep its charges and lose every rate.
      const noRates = await refused('no-rates.json', (json) => {
        type Charge = { payers_information?: { payer_name?: string }[] };
        for (const item of json.standard_charge_information as { standard_charges: Charge[] }[])
          for (const charge of item.standard_charges)
            for (const payer of charge.payers_information ?? []) delete payer.payer_name;
      });
      expect(noRates.error).toMatch(
        /^Every payer rate in the file was rejected \([\d,]+; the report says why\)\. Nothing was loaded;/,
      );
      expect(await count('negotiated_rates', loaded.hospitalId ?? '')).toBe(rates);
      // Its report is kept with the run, for the hospital's page to say why.
      const [stored] = await query<{ validation: { lines: ValidationLine[] } }>(
        `SELECT validation FROM mrf_files WHERE id = $1`,
        [rejected.runId],
      );
      expect(stored?.validation.lines[1]?.sentence).toMatch(
        /^Error: \d+ charges had no description, first at item 1$/,
      );
      const runs = await query<{ status: string }>(
        `SELECT status FROM mrf_files WHERE id = ANY($1::uuid[]) ORDER BY started_at`,
        [[unnamed.runId, empty.runId, misspelt.runId, rejected.runId, noRates.runId]],
      );
      expect(runs.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    },
  );

  it('rejects a file that is not a hospital file and loads nothing', async () => {
    const garbage = path.join(dir, 'garbage.bin');
    await writeFile(garbage, Buffer.from([0, 1, 2, 3, 255, 254, 10, 13, 0, 7]));
    const result = await ingestFile(database.connection, garbage);
    expect(result).toMatchObject({ status: 'failed', items: 0, rates: 0, hospitalId: null });
  });

  it('records a file found unreadable before the run as failed, without asking for it again', async () => {
    // Port 9 is one fetch refuses: were the file asked for, the run would say so instead.
    const url = 'http://127.0.0.1:9/mrf.json';
    const silence = new MrfReadError(
      'server-silent',
      `The server of ${url} did not answer within 60 s.`,
    );
    // The request that found the silence began 60 s ago: its time is the run's.
    const startedAt = performance.now() - 60_000;
    const result = await ingestFile(database.connection, url, { unreadable: silence, startedAt });
    expect(result).toMatchObject({ status: 'failed', error: silence.message, hospitalId: null });
    expect(result.seconds).toBeGreaterThanOrEqual(60);
    expect(
      await query(
        `SELECT source, status, error, duration_ms >= 60000 AS timed FROM mrf_files WHERE id = $1`,
        [result.runId],
      ),
    ).toEqual([{ source: url, status: 'failed', error: silence.message, timed: true }]);
  });
});

describe('a wide CSV whose column names run past the first read', () => {
  /** 600 payers, so the column names alone are longer than a read (64 KB); one charge. */
  const wideFile = async (name: string, methodology: string) => {
    const payers = Array.from({ length: 600 }, (_, i) => `Regional Health Plan Number ${i + 1}`);
    const columns = payers.flatMap((p) => [
      `standard_charge|${p}|PPO|negotiated_dollar`,
      `standard_charge|${p}|PPO|methodology`,
    ]);
    const file = path.join(dir, name);
    await writeFile(
      file,
      'hospital_name,last_updated_on,version,location_name,hospital_address,license_number|OR,type_2_npi,' +
        '"To the best of its knowledge and belief, this hospital has included all applicable standard charge information",attester_name\n' +
        'Wide Columns Hospital,2026-01-15,3.0.0,Wide Columns Hospital,1 Main St,990601,1234567890,true,A Person\n' +
        `description,code|1,code|1|type,setting,standard_charge|gross,${columns.join(',')},standard_charge|min,standard_charge|max\n` +
        `X-ray chest,71046,CPT,outpatient,250,${payers.map(() => `120,${methodology}`).join(',')},120,120\n`,
    );
    expect(columns.join(',').length).toBeGreaterThan(64 * 1024);
    return file;
  };

  it('records the run as of a wide file, loaded or failed, with its version and date', async () => {
    const loaded = await ingestFile(
      database.connection,
      await wideFile('wide.csv', 'fee schedule'),
    );
    expect(loaded).toMatchObject({ status: 'loaded', format: 'csv-wide', items: 1, rates: 600 });
    // No methodology: every rate rejected, so the file is refused, as far as it was read.
    const failed = await ingestFile(database.connection, await wideFile('wide-failed.csv', ''));
    expect(failed).toMatchObject({ status: 'failed', format: 'csv-wide', version: '3.0.0' });
    const run = `SELECT status, format, version, last_updated_on::text FROM mrf_files WHERE id = $1`;
    const recorded = { format: 'csv-wide', version: '3.0.0', last_updated_on: '2026-01-15' };
    expect(await query(run, [loaded.runId])).toEqual([{ status: 'loaded', ...recorded }]);
    // The hospital's page shows what the failed file said of itself beside its error.
    expect(await query(run, [failed.runId])).toEqual([{ status: 'failed', ...recorded }]);
  });
});

/**
 * A hospital loaded from a small generated file (named `name`), with its rates counted, and a
 * large file of another hospital for a command to be stopped in the middle of.
 */
async function loadedThenLarge(name: string, seed: number) {
  const small = path.join(dir, `${name}-small.json`);
  await generateLargeFile({ path: small, format: 'json', targetBytes: 1_000_000, seed });
  const first = await ingestFile(database.connection, small);
  expect(first.status).toBe('loaded');
  const before = await count('negotiated_rates', first.hospitalId ?? '');
  const large = path.join(dir, `${name}-large.json`);
  await generateLargeFile({
    path: large,
    format: 'json',
    targetBytes: 150_000_000,
    seed: seed + 1,
  });
  return { first, before, large };
}

/** Until a run's rates are streaming into its table (its COPY is active). */
async function untilCopying(): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await query(
            `SELECT pid FROM pg_stat_activity WHERE query LIKE 'COPY "negotiated_rates_%' AND state = 'active'`,
          )
        ).length,
      { timeout: 30_000, interval: 50 },
    )
    .toBeGreaterThan(0);
}

describe('an ingest killed with SIGKILL', () => {
  it('leaves the previous data whole and is recorded as failed', async () => {
    const { first, before, large } = await loadedThenLarge('demo', 7);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'packages/ingest/src/cli/ingest.ts', large],
      {
        env: { ...process.env, DATABASE_URL: database.url },
        stdio: 'ignore',
      },
    );
    // Wait until its rates are streaming into the run's table, then kill it outright.
    await untilCopying();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [loading] = await query<{ id: string }>(
      `SELECT id FROM mrf_files WHERE source = $1 AND status = 'loading'`,
      [large],
    );
    const runId = loading?.id ?? '';
    const alive = () => liveRuns(database.connection.pool, [runId, first.runId]);
    expect(await alive()).toEqual(new Set([runId]));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));

    // The killed process's database sessions end a moment later, releasing the run's lock: a
    // page can say so before anything marks the run failed.
    await expect.poll(alive, { timeout: 15_000 }).toEqual(new Set());
    expect(await markInterruptedRuns(database.connection)).toBe(1);
    const runs = await query<{ status: string; error: string }>(
      `SELECT status, error FROM mrf_files WHERE source = $1`,
      [large],
    );
    expect(runs).toEqual([
      { status: 'failed', error: expect.stringContaining('stopped before it finished') as string },
    ]);
    expect(await count('negotiated_rates', first.hospitalId ?? '')).toBe(before);
    const [killed] = await query<{ id: string }>(`SELECT id FROM mrf_files WHERE source = $1`, [
      large,
    ]);
    expect(await runTables(killed?.id ?? '')).toEqual([]);
  }, 120_000);
});

describe('an ingest whose database sessions are ended mid-read', () => {
  it('fails, says so and exits 1, leaving the previous data whole', async () => {
    const { first, before, large } = await loadedThenLarge('ended', 9);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'packages/ingest/src/cli/ingest.ts', large],
      { env: { ...process.env, DATABASE_URL: database.url }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await untilCopying();
      // As a database restart or an administrator does: every session of the command, its
      // run's lock and its COPYs among them.
      await query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'ratelens-ingest'`,
      );
      // It waited for ever on the connection whose lock it could not give back, then exited 0
      // having said nothing, once nothing else was left to wait for.
      expect(await exited).toBe(1);
    } finally {
      child.kill('SIGKILL');
    }
    const ended = 'terminating connection due to administrator command';
    const last = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(last).toMatchObject({ source: large, status: 'failed', error: ended });
    expect(stderr).toContain(`${large}: ${ended}`);
    // Recorded on a connection of its own, asked for again when the first it got had been ended
    // too (the pool had not heard of it yet).
    const [run] = await query<{ status: string; error: string }>(
      `SELECT status, error FROM mrf_files WHERE source = $1`,
      [large],
    );
    expect(run).toEqual({ status: 'failed', error: ended });
    expect(await count('negotiated_rates', first.hospitalId ?? '')).toBe(before);
  }, 120_000);
});

describe('npm run ingest', () => {
  it('says when no metro areas are loaded, and that loading them later places the hospital', async () => {
    const empty = await createTestDatabase();
    try {
      const file = path.join(dir, 'no-metro-areas.json');
      await writeFile(file, await readFile(sharedDataPath(CMS_V3_JSON)));
      const hint = 'No metro areas are loaded yet: each hospital is placed in its county';
      const before = await runCli('packages/ingest/src/cli/ingest.ts', [file], {
        DATABASE_URL: empty.url,
      });
      expect(before.code, before.stderr).toBe(0);
      expect(before.stderr).toContain(hint);
      await loadCbsaDelineation(
        empty.connection.pool,
        await parseCbsaDelineation(sharedDataPath('census-cbsa/list1_2023_county_to_cbsa.csv')),
      );
      const [placed] = (
        await empty.connection.pool.query<{ cbsa_code: string | null }>(
          `SELECT cbsa_code FROM hospitals`,
        )
      ).rows;
      expect(placed?.cbsa_code).toMatch(/^\d{5}$/);
      const after = await runCli('packages/ingest/src/cli/ingest.ts', [file], {
        DATABASE_URL: empty.url,
      });
      expect(after.stderr).not.toContain(hint);
    } finally {
      await empty.drop();
    }
  });

  /** `npm run ingest -- …args` against the test database (stderr a pipe: the bar prints lines). */
  const cli = (args: string[]) =>
    runCli('packages/ingest/src/cli/ingest.ts', args, { DATABASE_URL: database.url });
  /** The progress bar's last line for `file`. */
  const lastProgress = (stderr: string, file: string) =>
    stderr
      .split('\n')
      .filter((line) => line.startsWith(`${file} [`))
      .at(-1);
  const lastLine = (stdout: string) =>
    JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Record<string, unknown>;

  itWithDataFile(
    "says when a URL's server answers that the file has not changed, and reads nothing",
    CMS_V3_JSON,
    async (file) => {
      const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      asHospital(json, 'Not Modified Hospital', '77013');
      const server = await serveFiles(
        { '/not-modified.json': Buffer.from(JSON.stringify(json)) },
        { validators: true },
      );
      try {
        const url = server.url('/not-modified.json');
        expect(lastLine((await cli([url])).stdout).status).toBe('loaded');
        const { code, stdout, stderr } = await cli([url]);
        expect(code, stderr).toBe(0);
        expect(stderr).toContain(
          `${url}: its server says the file has not changed since it was loaded (HTTP 304 Not ` +
            'Modified), so it was not downloaded; --reload downloads and reads it again.',
        );
        expect(lastLine(stdout)).toMatchObject({
          hospital: 'Not Modified Hospital',
          status: 'unchanged',
          mbPerSecond: 0,
        });
        expect(server.statuses.at(-1)).toBe(304);
      } finally {
        await server.close();
      }
    },
  );

  itWithDataFile(
    'says so while a swap waits for queries reading the rates, and loads the file once they end',
    CMS_V3_JSON,
    async (file) => {
      const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      asHospital(json, 'Waiting Swap Hospital', '77012');
      const write = async (date: string) => {
        const copy = path.join(dir, `waiting-swap-${date}.json`);
        await writeFile(copy, JSON.stringify({ ...json, last_updated_on: date }));
        return copy;
      };
      expect(lastLine((await cli([await write('2026-05-01')])).stdout).status).toBe('loaded');
      const next = await write('2026-05-02');
      const reader = await database.connection.pool.connect();
      try {
        await reader.query('BEGIN');
        await reader.query('SELECT count(*) FROM negotiated_rates');
        const run = cli([next]);
        await expect
          .poll(() => locksWaited('relation'), { timeout: 20_000, interval: 20 })
          .toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await reader.query('COMMIT');
        const { code, stdout, stderr } = await run;
        expect(code, stderr).toBe(0);
        // 1 s so far, as the first lock wait ends after 200 ms; more on a busy machine.
        expect(stderr).toContain(`${next}: read; waiting for queries`);
        expect(stderr).toMatch(
          /: read; waiting for queries reading the rate tables to end before putting it in use \(\d+ s so far; the earlier file stays in use meanwhile\)\./,
        );
        // Told once: the next notice would come 30 s on.
        expect(stderr.split('waiting for queries').length).toBe(2);
        expect(lastLine(stdout).status).toBe('loaded');
      } finally {
        reader.release(true);
      }
    },
    60_000,
  );

  itWithDataFile(
    'ends with one JSON line of figures; --validate-only prints the report and loads nothing',
    CMS_V3_JSON,
    async (file) => {
      const copy = path.join(dir, 'cli-example.json');
      await writeFile(copy, await readFile(file));
      const checked = await cli(['--validate-only', copy]);
      expect(checked.code).toBe(0);
      expect(lastLine(checked.stdout)).toMatchObject({
        format: 'json',
        version: '3.0.0',
        rejected: 0,
        seconds: expect.any(Number) as number,
        mbPerSecond: expect.any(Number) as number,
        peakRssMb: expect.any(Number) as number,
      });
      expect(await query(`SELECT 1 FROM mrf_files WHERE source = $1`, [copy])).toEqual([]);
      const size = (await stat(copy)).size / 1e6;
      expect(lastProgress(checked.stderr, copy)).toMatch(
        new RegExp(
          `\\[#{28}\\] 100% ${size.toFixed(1)}/${size.toFixed(1)} MB [\\d.]+ MB/s, [1-9][\\d,]* records/s$`,
        ),
      );

      const loaded = await cli([copy]);
      expect(loaded.code).toBe(0);
      const figures = lastLine(loaded.stdout);
      // Earlier tests of this file loaded the same hospital: the run may be unchanged or older.
      const [run] = await query<{ status: string; items: number; rates: number }>(
        `SELECT status, items, rates FROM mrf_files WHERE source = $1`,
        [copy],
      );
      expect(figures).toMatchObject({
        status: run?.status,
        format: 'json',
        version: '3.0.0',
        items: run?.items,
        rates: run?.rates,
        rejected: 0,
        seconds: expect.any(Number) as number,
        mbPerSecond: expect.any(Number) as number,
        peakRssMb: expect.any(Number) as number,
      });
      expect(Number(figures.rates)).toBeGreaterThan(0);
      // Its records counted, though the file's bytes were all read before the first of them.
      expect(lastProgress(loaded.stderr, copy)).toMatch(/ 100% .* [1-9][\d,]* records\/s$/);
    },
    60_000,
  );

  itWithDataFile(
    'shows a file changed in place to the same size hashed, then read, each pass on its own line',
    CMS_V3_JSON,
    async (file) => {
      const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      asHospital(json, 'Changed In Place Hospital', '77019');
      const copy = path.join(dir, 'changed-in-place.json');
      await writeFile(copy, JSON.stringify(json));
      expect(lastLine((await cli([copy])).stdout).status).toBe('loaded');
      // One letter's case changed: the same size, so it may be the file loaded until hashed.
      json.hospital_name = 'Changed In Place hospital';
      await writeFile(copy, JSON.stringify(json));
      const { code, stdout, stderr } = await cli([copy]);
      expect(code, stderr).toBe(0);
      expect(lastLine(stdout).status).toBe('loaded');
      const passes = stderr
        .split('\n')
        .filter((line) => line.startsWith(copy) && line.includes('% '));
      expect(passes.at(0)).toMatch(/^\S+ \(checking for changes\) \[#{28}\] 100% .* MB\/s$/);
      expect(passes.at(-1)).toMatch(/^\S+ \[#{28}\] 100% .* records\/s$/);
    },
    60_000,
  );

  itWithDataFile(
    'says when a file of the same date from elsewhere replaced the rates: a file in parts keeps its last',
    CMS_V3_JSON,
    async (file) => {
      const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      const items = json.standard_charge_information as unknown[];
      const part = async (n: number, list: unknown[]) => {
        const partFile = path.join(dir, `parts-${n}.json`);
        const hospital = { hospital_name: 'Parts Test Hospital', last_updated_on: '2026-05-01' };
        await writeFile(
          partFile,
          JSON.stringify({ ...json, ...hospital, standard_charge_information: list }),
        );
        return partFile;
      };
      const one = await part(1, items.slice(0, 2));
      const two = await part(2, items.slice(2));
      const first = await cli([one]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).not.toContain('replaced');
      const second = await cli([two]);
      expect(second.code, second.stderr).toBe(0);
      expect(lastLine(second.stdout)).toMatchObject({ status: 'loaded' });
      expect(second.stderr).toContain(
        `${two}: replaced the rates loaded from ${one}, which has the same last_updated_on. ` +
          "A hospital's rates come from one file: of a file published in parts, only the last part loaded is kept.",
      );
    },
    60_000,
  );

  itWithDataFile(
    'reads a relative path from the directory npm was run in, not the repository root',
    CMS_V3_JSON,
    async (file) => {
      const run = await runCli(
        'packages/ingest/src/cli/ingest.ts',
        ['--validate-only', path.basename(file)],
        { DATABASE_URL: database.url, INIT_CWD: path.dirname(file) },
      );
      expect(run.stderr).not.toContain('no file');
      expect(run.code).toBe(0);
      expect(lastLine(run.stdout)).toMatchObject({ format: 'json', version: '3.0.0' });
    },
    60_000,
  );

  it('--validate-only fails a file that a load would refuse, in the words a load would use, and goes on to the next', async () => {
    const header = {
      hospital_name: 'Validate Only Hospital',
      last_updated_on: '2026-01-01',
      version: '3.0.0',
      location_name: ['Main'],
      hospital_address: ['1 Main St, Juneau, AK 99801'],
      license_information: { license_number: '990010', state: 'AK' },
      type_2_npi: ['1234567893'],
      attestation: { attestation: 'x', confirm_attestation: true, attester_name: 'A' },
    };
    const item = {
      description: 'X-ray chest',
      code_information: [{ code: '71046', type: 'CPT' }],
      standard_charges: [{ setting: 'outpatient', gross_charge: 250, discounted_cash: 200 }],
    };
    const check = async (name: string, json: unknown) => {
      const file = path.join(dir, name);
      await writeFile(file, JSON.stringify(json));
      return { file, run: await cli(['--validate-only', file]) };
    };
    const none = await check('no-list.json', header);
    expect(none.run.code).toBe(1);
    expect(none.run.stderr).toContain(
      `${none.file}: The file has no standard_charge_information list, so no charges`,
    );
    const unnamed = await check('unnamed.json', {
      ...header,
      hospital_name: ' ',
      standard_charge_information: [item],
    });
    expect(unnamed.run.code).toBe(1);
    expect(unnamed.run.stderr).toContain(`${unnamed.file}: The file does not name its hospital`);
    // Charges rejected: the command fails, and says why.
    const codeless = await check('codeless.json', {
      ...header,
      standard_charge_information: [item, { ...item, code_information: [] }],
    });
    expect(codeless.run.code).toBe(1);
    expect(codeless.run.stderr).toContain(
      `${codeless.file}: 1 charge rejected (the errors above say why): a load would leave it out.`,
    );
    const good = await check('named.json', { ...header, standard_charge_information: [item] });
    expect(good.run.code).toBe(0);
    expect(good.run.stderr).not.toContain('Nothing was loaded');
    expect(lastLine(good.run.stdout)).toMatchObject({ status: 'checked', items: 1, rejected: 0 });

    // A file that cannot be read at all is said, and the next one is checked all the same.
    const binary = path.join(dir, 'prices.bin');
    await writeFile(binary, Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x10]));
    const both = await cli(['--validate-only', binary, good.file]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain(`${binary}: The file is binary, not text`);
    const figures = both.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(figures).toEqual([
      expect.objectContaining({ hospital: null, status: 'failed', items: 0 }),
      expect.objectContaining({ hospital: 'Validate Only Hospital', status: 'checked', items: 1 }),
    ]);
  }, 60_000);

  itWithDataFile(
    'reads a zip of several hospitals file by file, from disk, by URL or from a cms-hpt.txt, and knows each again',
    CMS_V3_JSON,
    async (example) => {
      const hospital = async (name: string, licence: string) => {
        const json = JSON.parse(await readFile(example, 'utf8')) as Record<string, unknown>;
        asHospital(json, name, licence);
        return Buffer.from(JSON.stringify(json));
      };
      const archive = path.join(dir, 'health-system.zip');
      await writeFile(
        archive,
        zipArchive([
          { name: 'north.json', content: await hospital('North Zip Hospital', '990003') },
          { name: 'south.json', content: await hospital('South Zip Hospital', '990004') },
        ]),
      );
      const lines = (stdout: string) =>
        stdout
          .trim()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);

      const first = await cli([archive]);
      expect(first.code).toBe(0);
      expect(first.stderr).toContain(`${archive}: a zip archive of 2 files, read one by one`);
      expect(first.stderr).toContain(`File 2 of 2: ${archive}#south.json`);
      expect(lines(first.stdout)).toEqual([
        expect.objectContaining({ hospital: 'North Zip Hospital', status: 'loaded' }),
        expect.objectContaining({ hospital: 'South Zip Hospital', status: 'loaded' }),
      ]);
      const runs = await query<{ source: string; status: string }>(
        `SELECT source, status FROM mrf_files WHERE source LIKE $1 ORDER BY source`,
        [`${archive}#%`],
      );
      expect(runs).toEqual([
        { source: `${archive}#north.json`, status: 'loaded' },
        { source: `${archive}#south.json`, status: 'loaded' },
      ]);

      const again = await cli([archive]);
      expect(lines(again.stdout).map((line) => line.status)).toEqual(['unchanged', 'unchanged']);
      expect(again.stderr).toContain(
        `${archive}#north.json: its zip archive lists the file with the CRC-32 and size of the ` +
          'copy loaded already, so it was not read; --reload reads it again.',
      );
      const one = await cli(['--validate-only', `${archive}#south.json`]);
      expect(lines(one.stdout)).toEqual([
        expect.objectContaining({ hospital: 'South Zip Hospital', rejected: 0 }),
      ]);

      // The same archive at a URL: each file by HTTP Range requests, the same bytes and hashes.
      const server = await serveFiles({ '/health-system.zip': await readFile(archive) });
      try {
        const url = server.url('/health-system.zip');
        const remote = await cli([url]);
        expect(remote.code).toBe(0);
        expect(remote.stderr).toContain(`${url}: a zip archive of 2 files, read one by one`);
        expect(lines(remote.stdout)).toEqual([
          expect.objectContaining({ hospital: 'North Zip Hospital', status: 'unchanged' }),
          expect.objectContaining({ hospital: 'South Zip Hospital', status: 'unchanged' }),
        ]);
        // One of them by its name in the URL: that file alone.
        const south = await cli(['--validate-only', `${url}#south.json`]);
        expect(south.code).toBe(0);
        expect(lines(south.stdout)).toEqual([
          expect.objectContaining({ hospital: 'South Zip Hospital', status: 'checked' }),
        ]);
        const sources = await query<{ source: string }>(
          `SELECT DISTINCT source FROM mrf_files WHERE source LIKE $1 ORDER BY source`,
          [`${url}#%`],
        );
        expect(sources.map((row) => row.source)).toEqual([
          `${url}#north.json`,
          `${url}#south.json`,
        ]);

        // A hospital's cms-hpt.txt stands for the files it lists: here two locations, one archive.
        const list = await serveFiles({
          '/cms-hpt.txt': Buffer.from(
            'location-name: North\nsource-page-url: https://example.org/prices\n' +
              `mrf-url: ${url}\ncontact-name: A Person\ncontact-email: a@example.org\n\n` +
              'location-name: South\nmrf-url: health-system.zip\n\nlocation-name: Annex\n',
          ),
          '/health-system.zip': await readFile(archive),
        });
        try {
          const listed = await cli(['--validate-only', list.url('/cms-hpt.txt')]);
          expect(listed.code).toBe(0);
          expect(listed.stderr).toContain(
            `${list.url('/cms-hpt.txt')}: line 10: a location without an mrf-url`,
          );
          expect(listed.stderr).toContain(`${list.url('/cms-hpt.txt')}: 2 locations, 2 files`);
          // --validate-only says where it is too.
          expect(listed.stderr).toContain('File 4 of 4: ');
          expect(lines(listed.stdout).map((line) => line.hospital)).toEqual([
            'North Zip Hospital',
            'South Zip Hospital',
            'North Zip Hospital',
            'South Zip Hospital',
          ]);
          // Loaded through the list, each run keeps what its location says of the file.
          expect((await cli([list.url('/cms-hpt.txt')])).code).toBe(0);
          const listedRuns = await query<Record<string, string | null>>(
            `SELECT DISTINCT ON (source) source, source_page_url, contact_name, contact_email
               FROM mrf_files WHERE source LIKE $1 OR source LIKE $2 ORDER BY source, started_at DESC`,
            [`${url}#%`, `${list.url('/health-system.zip')}#%`],
          );
          const north = {
            source_page_url: 'https://example.org/prices',
            contact_name: 'A Person',
            contact_email: 'a@example.org',
          };
          const none = { source_page_url: null, contact_name: null, contact_email: null };
          // The two servers' ports decide the rows' order.
          expect(listedRuns).toHaveLength(4);
          expect(listedRuns).toEqual(
            expect.arrayContaining([
              { source: `${list.url('/health-system.zip')}#north.json`, ...none },
              { source: `${list.url('/health-system.zip')}#south.json`, ...none },
              { source: `${url}#north.json`, ...north },
              { source: `${url}#south.json`, ...north },
            ]),
          );
          const missing = await cli(['--validate-only', list.url('/none/cms-hpt.txt')]);
          expect(missing.code).toBe(1);
          // The source said once, not twice.
          expect(missing.stderr.trim()).toBe(
            `${list.url('/none/cms-hpt.txt')}: expected an HTTP 200 response; found HTTP 404`,
          );
        } finally {
          await list.close();
        }
      } finally {
        await server.close();
      }
    },
    60_000,
  );

  it('does not follow a cms-hpt.txt naming itself or a website, and says so', async () => {
    const server = await serveFiles({
      '/cms-hpt.txt': Buffer.from(
        'location-name: Loop\nmrf-url: /cms-hpt.txt\n\nlocation-name: Site\nmrf-url: /\n',
      ),
    });
    try {
      const list = server.url('/cms-hpt.txt');
      const site = server.url('/');
      const run = await cli(['--validate-only', site]);
      // Nothing to read is a failure, as a list without files is.
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`${site}: a website; reading its cms-hpt.txt, ${list}`);
      expect(run.stderr).toContain(
        `${list}: ${list} is no file but a list or a website; not followed`,
      );
      expect(run.stderr).toContain(
        `${list}: ${site} is no file but a list or a website; not followed`,
      );
      // The list was asked for once.
      expect(server.statuses).toEqual([200]);
    } finally {
      await server.close();
    }
  }, 30_000);

  it('answers an unknown option or no file with its usage and exit code 2', async () => {
    const unknown = await cli(['--fast', 'x.json']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--fast'");
    expect(unknown.stderr).toContain(
      'Usage: npm run ingest -- [--validate-only] [--reload] [--demo] <file|url>',
    );
    const bare = await cli([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage: npm run ingest');
  }, 30_000);
});
