import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MEDICARE_CONVERSION_FACTOR_2025 } from '@ratelens/core';
import { poolLike } from '@ratelens/db';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MrfHeader } from '../model.ts';
import { parseCbsaDelineation } from '../reference/cbsa.ts';
import { ReferenceFileError } from '../reference/errors.ts';
import { openNadac, parseNadac } from '../reference/nadac.ts';
import { parseGpciFile, parseRvuFile } from '../reference/physician-fee-schedule.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { sharedDataPath } from '../testing/shared-data.ts';
import { writeTestFile } from '../testing/test-file.ts';
import { parseZipLocality, type ZipLocality } from '../reference/zip-locality.ts';
import {
  hospitalLocator,
  loadCbsaDelineation,
  loadNadacFile,
  loadPhysicianFeeSchedule,
  loadStates,
  loadZipLocalities,
  ReferenceShrinkError,
  type Placement,
} from './reference-loader.ts';

const CBSA_LIST = 'census-cbsa/list1_2023_county_to_cbsa.csv';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await loadStates(database.connection.pool);
});
afterAll(() => database.drop());

function header(name: string, address: string): MrfHeader {
  return {
    format: 'json',
    version: '3.0.0',
    declaredVersion: null,
    hospitalName: name,
    lastUpdatedOn: null,
    locationNames: [name],
    addresses: [address],
    licenseNumber: null,
    licenseState: 'AK',
    type2Npis: [],
    attesterName: null,
    attestationConfirmed: null,
    generalContractProvisions: null,
  };
}

/** A hospital row where the locator placed it. */
async function addHospital(name: string, place: Placement): Promise<string> {
  const { rows } = await database.connection.pool.query<{ id: string }>(
    `INSERT INTO hospitals (source_key, name, state_code, zip, county_fips, cbsa_code,
                            medicare_carrier, medicare_locality)
     VALUES ($1, $1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      name,
      place.stateCode,
      place.zip,
      place.countyFips,
      place.cbsaCode,
      place.medicareCarrier,
      place.medicareLocality,
    ],
  );
  return (rows[0] as { id: string }).id;
}

const cbsaOf = async (id: string) =>
  (
    await database.connection.pool.query<{ cbsa_code: string | null }>(
      'SELECT cbsa_code FROM hospitals WHERE id = $1',
      [id],
    )
  ).rows[0]?.cbsa_code;

describe('loading the CBSA delineation after hospitals were placed', () => {
  itWithDataFile(
    'puts each in its CBSA, or its state’s non-metro area when its county is in none',
    CBSA_LIST,
    async (list) => {
      const locate = hospitalLocator(database.connection.pool);
      // Before any delineation: a county, but no CBSA (metro or not) for either.
      const anchorage = await locate(header('Anchorage', '2801 DeBarr Rd, Anchorage, AK 99508'));
      const bethel = await locate(header('Bethel', '450 Ridgecrest Dr, Bethel, AK 99559'));
      expect(anchorage).toMatchObject({ countyFips: '02020', cbsaCode: null });
      expect(bethel).toMatchObject({ countyFips: '02050', cbsaCode: null });
      const anchorageId = await addHospital('Anchorage', anchorage);
      const bethelId = await addHospital('Bethel', bethel);
      // Placed by an older delineation in which its county belonged to a CBSA.
      const movedId = await addHospital('Moved', { ...bethel, cbsaCode: '11260' });
      // No address with a ZIP: no county, so no area either.
      const nowhereId = await addHospital('Nowhere', { ...bethel, zip: null, countyFips: null });
      // Placed in New Haven's abolished county, before Connecticut was placed by town.
      const oldRuleId = await addHospital('Yale', {
        ...bethel,
        stateCode: 'CT',
        zip: '06510',
        countyFips: '09009',
        cbsaCode: '99009',
      });

      await loadCbsaDelineation(database.connection.pool, await parseCbsaDelineation(list));

      expect(await cbsaOf(anchorageId)).toBe('11260');
      expect(await cbsaOf(bethelId)).toBe('99002');
      expect(await cbsaOf(movedId)).toBe('99002');
      expect(await cbsaOf(nowhereId)).toBeNull();
      expect(await cbsaOf(oldRuleId)).toBe('35300'); // New Haven, CT
      const { rows } = await database.connection.pool.query(
        `SELECT code, title, kind, state_codes FROM cbsas WHERE code = '99002'`,
      );
      expect(rows).toEqual([
        {
          code: '99002',
          title: 'Alaska non-metropolitan area',
          kind: 'nonmetro',
          state_codes: ['AK'],
        },
      ]);
      // A hospital placed now lands in the same areas.
      expect(
        await locate(header('Bethel again', '450 Ridgecrest Dr, Bethel, AK 99559')),
      ).toMatchObject({ countyFips: '02050', cbsaCode: '99002' });
      // Connecticut: by the planning region of its town, not the old county us-atlas draws.
      expect(
        await locate(header('Windham', '112 Mansfield Ave, Willimantic, CT 06226')),
      ).toMatchObject({ stateCode: 'CT', countyFips: '09180', cbsaCode: '35980' });
    },
  );
});

const rowCount = async (table: string) =>
  Number(
    (await database.connection.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))
      .rows[0]?.n,
  );

describe('replacing a reference table with much less', () => {
  itWithDataFile(
    'refuses a delineation that drops more than 10% of the counties, or a state, unless allowed',
    CBSA_LIST,
    async (list) => {
      const pool = database.connection.pool;
      const full = await parseCbsaDelineation(list);
      await loadCbsaDelineation(pool, full);
      const dukes = {
        zip: '02557',
        countyFips: '25007',
        cbsaCode: '47240',
        stateCode: 'MA',
        medicareCarrier: null,
        medicareLocality: null,
      };
      const vineyardId = await addHospital('Vineyard', dukes);
      // Anchorage's two counties alone: a valid delineation, and a tenth of a percent of List 1.
      const anchorage = {
        cbsas: full.cbsas.filter((cbsa) => cbsa.code === '11260'),
        counties: full.counties.filter((county) => county.cbsaCode === '11260'),
      };
      const refusal = loadCbsaDelineation(pool, anchorage);
      await expect(refusal).rejects.toBeInstanceOf(ReferenceShrinkError);
      await expect(refusal).rejects.toThrow(
        'refused to replace the 1,915 counties loaded with 2: 1,913 fewer (99.9%, more than 10%), ' +
          'and none in 51 states that have some (AL, AR, AZ, CA, CO, CT, DC, DE, FL, GA, …). ' +
          'Nothing was changed; to load it anyway, allow the shrink (allowShrink: true; --force on the command line).',
      );
      expect(await rowCount('counties')).toBe(1915);
      expect(await cbsaOf(vineyardId)).toBe('47240');
      // Rhode Island's five counties left out: under 10%, but a whole state.
      const withoutRhodeIsland = {
        cbsas: full.cbsas,
        counties: full.counties.filter((county) => county.stateCode !== 'RI'),
      };
      await expect(loadCbsaDelineation(pool, withoutRhodeIsland)).rejects.toThrow(
        /^refused to replace the 1,915 counties loaded with 1,910: none in a state that has some \(RI\)\./,
      );
      // Asked for, it loads; the hospital goes where the smaller delineation puts it.
      expect(await loadCbsaDelineation(pool, anchorage, { allowShrink: true })).toEqual({
        cbsas: 1,
        counties: 2,
      });
      expect(await cbsaOf(vineyardId)).toBe('99025');
      // A delineation as large as the one loaded, or larger, needs no leave.
      expect(await loadCbsaDelineation(pool, full)).toEqual({ cbsas: 935, counties: 1915 });
      expect(await cbsaOf(vineyardId)).toBe('47240');
    },
    60_000,
  );

  const zip = (code: string, state: string): ZipLocality => ({
    zip: code,
    state,
    stateAsWritten: state,
    carrier: state === 'AK' ? '02102' : '14212',
    locality: '01',
    rural: 'urban',
    labCompetitiveBidLocality: 'Z9',
    plusFour: false,
    yearQuarter: '20254',
  });
  /** `n` ZIPs of Massachusetts, 01000 up, and Alaska's 99501 when `alaska`. */
  const zips = (n: number, alaska = true) => [
    ...Array.from({ length: n }, (_, i) => zip(String(1000 + i).padStart(5, '0'), 'MA')),
    ...(alaska ? [zip('99501', 'AK')] : []),
  ];

  it('refuses ZIP localities that drop more than 10% of the ZIPs, or a state, unless allowed', async () => {
    const pool = database.connection.pool;
    expect(await loadZipLocalities(pool, zips(99))).toBe(100);
    await expect(loadZipLocalities(pool, zips(1))).rejects.toThrow(
      'refused to replace the 100 ZIP localities loaded with 2: 98 fewer (98%, more than 10%). ' +
        'Nothing was changed; to load it anyway, allow the shrink (allowShrink: true; --force on the command line).',
    );
    await expect(loadZipLocalities(pool, zips(99, false))).rejects.toThrow(
      /^refused to replace the 100 ZIP localities loaded with 99: none in a state that has some \(AK\)\./,
    );
    expect(await rowCount('zip_localities')).toBe(100);
    // 10% fewer is let by; the shrink allowed, any.
    expect(await loadZipLocalities(pool, zips(89))).toBe(90);
    expect(await loadZipLocalities(pool, zips(1, false), { allowShrink: true })).toBe(1);
    expect(await rowCount('zip_localities')).toBe(1);
  });
});

describe('placing a hospital whose addresses give no ZIP', () => {
  itWithDataFile(
    'places it by its city: its county, metro area and the Medicare locality of the city’s ZIPs',
    CBSA_LIST,
    async (list) => {
      const pool = database.connection.pool;
      await loadCbsaDelineation(pool, await parseCbsaDelineation(list));
      await loadZipLocalities(
        pool,
        await parseZipLocality(sharedDataPath('cms-zip-locality/ZIP5_OCT2025.txt')),
      );
      const locate = hospitalLocator(pool);
      // 57 of Orlando's 59 ZIPs are in Orange County (Orlando-Kissimmee-Sanford), all of them in
      // carrier 09102's locality 99 (Rest of Florida).
      expect(await locate(header('AdventHealth', '601 E Rollins St, Orlando, Florida'))).toEqual({
        zip: null,
        countyFips: '12095',
        cbsaCode: '36740',
        stateCode: 'FL',
        medicareCarrier: '09102',
        medicareLocality: '99',
      });
      // Dukes County, in the Vineyard Haven micropolitan area; Rest of Massachusetts.
      expect(await locate(header('Vineyard', '1 Hospital Rd Oak Bluffs MA'))).toEqual({
        zip: null,
        countyFips: '25007',
        cbsaCode: '47240',
        stateCode: 'MA',
        medicareCarrier: '14212',
        medicareLocality: '99',
      });
      // Atlanta's ZIPs are in five counties: no guess.
      expect(await locate(header('Emory', '1364 Clifton Rd NE, Atlanta, GA'))).toMatchObject({
        countyFips: null,
        cbsaCode: null,
        medicareLocality: null,
      });
      // An address with a ZIP places it, wherever it is listed.
      const both = ['601 E Rollins St, Orlando, FL', '2801 DeBarr Rd, Anchorage, AK 99508'];
      expect(await locate({ ...header('Two places', ''), addresses: both })).toMatchObject({
        zip: '99508',
        countyFips: '02020',
        cbsaCode: '11260',
      });
    },
    60_000,
  );
});

describe('the Medicare amounts of a hospital', () => {
  const RVU = 'cms-pfs-rvu-2025/PPRRVU2025_Oct.csv';

  itWithDataFile(
    'says which setting the RVU file marks NA, beside the amount its RVUs give there',
    RVU,
    async (rvu) => {
      const pool = database.connection.pool;
      await loadPhysicianFeeSchedule(
        pool,
        2025,
        await parseRvuFile(rvu),
        await parseGpciFile(sharedDataPath('cms-pfs-rvu-2025/GPCI2025.csv')),
        MEDICARE_CONVERSION_FACTOR_2025,
      );
      const hospitalId = await addHospital('Rest of Massachusetts', {
        zip: null,
        countyFips: null,
        cbsaCode: null,
        stateCode: 'MA',
        medicareCarrier: '14212',
        medicareLocality: '99',
      });
      const { rows } = await pool.query<Record<string, string | boolean | null>>(
        `SELECT hcpcs, facility_amount, non_facility_amount, facility_na, non_facility_na
           FROM hospital_medicare_rates
          WHERE hospital_id = $1 AND hcpcs IN ('11004', '36430', '99213') AND modifier = ''
          ORDER BY hcpcs`,
        [hospitalId],
      );
      // By hand, in 14212/99 (GPCIs 1.017, 1.061, 0.796) at 32.3465:
      // 11004, rarely or never done in an office (non-facility NA): 10.80 × 1.017 + 4.05 × 1.061 +
      // 2.06 × 0.796 = 547.32 in both settings, the file printing the facility PE RVU, 4.05, for
      // the office too (what a contractor pays when it allows the office);
      // 36430, facility NA: 0 × 1.017 + 1.26 × 1.061 + 0.03 × 0.796 = 44.02 in both;
      // 99213, NA in neither: 64.90 and 91.67.
      expect(rows).toEqual([
        {
          hcpcs: '11004',
          facility_amount: '547.32',
          non_facility_amount: '547.32',
          facility_na: false,
          non_facility_na: true,
        },
        {
          hcpcs: '36430',
          facility_amount: '44.02',
          non_facility_amount: '44.02',
          facility_na: true,
          non_facility_na: false,
        },
        {
          hcpcs: '99213',
          facility_amount: '64.90',
          non_facility_amount: '91.67',
          facility_na: false,
          non_facility_na: false,
        },
      ]);
    },
    60_000,
  );
});

describe('loading a NADAC file as a stream', () => {
  // The column names and order of the data.medicaid.gov download (as in nadac.test.ts).
  const PUBLISHED_HEADER =
    'NDC Description,NDC,NADAC_Per_Unit,Effective_Date,Pricing_Unit,Pharmacy_Type_Indicator,OTC,Explanation_Code,Classification_for_Rate_Setting,Corresponding_Generic_Drug_NADAC_Per_Unit,Corresponding_Generic_Drug_Effective_Date,As of Date';

  interface Row {
    ndc: string;
    price: string;
    /** MM/DD/YYYY, as published. */
    effective?: string;
    asOf?: string;
    description?: string;
    unit?: string;
    otc?: string;
    codes?: string;
    classification?: string;
    genericPrice?: string;
    genericDate?: string;
  }

  const cell = (value: string) =>
    /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;

  /** One row of the published layout, quoted where CSV needs it. */
  const line = (row: Row) =>
    [
      row.description ?? 'X',
      row.ndc,
      row.price,
      row.effective ?? '09/17/2025',
      row.unit ?? 'EA',
      'C/I',
      row.otc ?? 'N',
      row.codes ?? '',
      row.classification ?? 'G',
      row.genericPrice ?? '',
      row.genericDate ?? '',
      row.asOf ?? '09/24/2025',
    ]
      .map(cell)
      .join(',');

  /** A file of the published header and these lines ('' a blank line). */
  const nadacText = (lines: readonly string[]) => `${PUBLISHED_HEADER}\n${lines.join('\n')}\n`;

  const load = async (source: string, pool = database.connection.pool) =>
    loadNadacFile(pool, await openNadac(source));

  /** What a promise was rejected with; a test failure when it resolves. */
  const rejection = async (promise: Promise<unknown>): Promise<Error> => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof Error) return error;
      throw new Error(`rejected with ${String(error)}`, { cause: error });
    }
    throw new Error('resolved where it was to be refused');
  };

  /** The whole table as a digest and a count: equal only when no row changed. */
  const nadacState = async () =>
    (
      await database.connection.pool.query<{ n: number; digest: string }>(
        `SELECT count(*)::int AS n,
                md5(coalesce(string_agg(p::text, E'\\n' ORDER BY ndc, effective_date), '')) AS digest
           FROM nadac_prices p`,
      )
    ).rows[0];

  const storedRows = async (ndcs: readonly string[]) =>
    (
      await database.connection.pool.query<Record<string, unknown>>(
        `SELECT ndc, to_char(effective_date, 'YYYY-MM-DD') AS effective_date, description, per_unit,
                pricing_unit, pharmacy_type, otc, classification, to_char(as_of_date, 'YYYY-MM-DD') AS as_of_date
           FROM nadac_prices WHERE ndc = ANY($1) ORDER BY ndc, effective_date`,
        [ndcs],
      )
    ).rows;

  beforeAll(async () => {
    // The describe's own starting point, whichever tests ran before it.
    await database.connection.pool.query('DELETE FROM nadac_prices');
  });

  // 10,000 NDCs with two effective dates each: 20,000 keys.
  const NDCS = 10_000;
  const EFFECTIVE = ['01/15/2025', '06/15/2025'] as const;
  const EFFECTIVE_ISO = ['2025-01-15', '2025-06-15'] as const;
  const ndcOf = (i: number) => String(378_000_000 + i).padStart(11, '0');
  /** "35.01234": distinct for each NDC and date; JavaScript and PostgreSQL write it alike. */
  const basePrice = (i: number, e: number) => `${(i % 50) + e + 1}.${String(i).padStart(5, '0')}`;
  const baseRow = (i: number, e: number): Row => ({
    description: i === 0 ? 'ACETAMINOPHEN 500 MG, C:\\TABS "EXTRA"' : `DRUG ${i}`,
    ndc: ndcOf(i),
    price: basePrice(i, e),
    effective: EFFECTIVE[e],
    unit: ['EA', 'ml', 'GM'][i % 3],
    otc: i % 2 === 0 ? 'Y' : 'N',
    codes: i % 5 === 0 ? '1, 5' : '',
    classification: i % 2 === 0 ? 'G' : 'b',
    genericPrice: i % 7 === 0 ? '0.03123' : '',
    genericDate: i % 7 === 0 ? '09/17/2025' : '',
  });
  // Rows repeated whole: the first date of every 20th NDC (0, 20, …, 9,980), again at the end.
  const REPEATED = Array.from({ length: 500 }, (_, k) => k * 20);
  // A later as-of date, after the row it replaces: the first date of NDCs 1, 11, …, 2,991.
  const LATER = Array.from({ length: 300 }, (_, k) => k * 10 + 1);
  // An earlier as-of date, after the later row: the second date of NDCs 2, 12, …, 2,992.
  const EARLIER = Array.from({ length: 300 }, (_, k) => k * 10 + 2);
  const laterPrice = (i: number) => `${(i % 50) + 100}.5`;

  it('loads 21,100 rows read: 20,000 stored, a row repeated whole once, the later as-of date’s price', async () => {
    const pool = database.connection.pool;
    const lines: string[] = [];
    for (let i = 0; i < NDCS; i += 1) {
      for (const e of [0, 1]) lines.push(line(baseRow(i, e)));
      // A blank line in the middle is no price row.
      if (i === NDCS / 2) lines.push('');
    }
    for (const i of REPEATED) lines.push(line(baseRow(i, 0)));
    for (const i of LATER)
      lines.push(line({ ...baseRow(i, 0), price: laterPrice(i), asOf: '10/01/2025' }));
    for (const i of EARLIER)
      lines.push(line({ ...baseRow(i, 1), price: '0.25', description: 'OLD', asOf: '09/17/2025' }));
    const path = await writeTestFile('nadac-large.csv', nadacText(lines));

    expect(await load(path)).toEqual({ prices: 20_000, rows: 21_100, keptNewer: 0 });

    const { rows: counts } = await pool.query(
      `SELECT count(*)::int AS n, count(DISTINCT ndc)::int AS ndcs,
              count(*) FILTER (WHERE as_of_date = '2025-10-01')::int AS later,
              count(*) FILTER (WHERE as_of_date = '2025-09-24')::int AS base,
              count(*) FILTER (WHERE as_of_date = '2025-09-17')::int AS earlier
         FROM nadac_prices`,
    );
    expect(counts).toEqual([{ n: 20_000, ndcs: 10_000, later: 300, base: 19_700, earlier: 0 }]);
    // Every key's price, as the file's latest as-of date has it.
    const later = new Set(LATER);
    const expected: string[] = [];
    for (let i = 0; i < NDCS; i += 1) {
      for (const e of [0, 1]) {
        const replaced = e === 0 && later.has(i);
        expected.push(
          `${ndcOf(i)} ${EFFECTIVE_ISO[e]} ${String(Number(replaced ? laterPrice(i) : basePrice(i, e)))} ${replaced ? '2025-10-01' : '2025-09-24'}`,
        );
      }
    }
    const { rows: all } = await pool.query<{ row: string }>(
      `SELECT ndc || ' ' || effective_date || ' ' || per_unit || ' ' || as_of_date AS row
         FROM nadac_prices ORDER BY ndc, effective_date`,
    );
    expect(all.map((r) => r.row)).toEqual(expected);

    const common = { pharmacy_type: 'C/I', as_of_date: '2025-09-24' };
    expect(await storedRows(['00378000000', '00378000041', '00378000042', '00378009999'])).toEqual([
      // Repeated whole; quotes, a comma and a backslash kept as written.
      {
        ...common,
        ndc: '00378000000',
        effective_date: '2025-01-15',
        description: 'ACETAMINOPHEN 500 MG, C:\\TABS "EXTRA"',
        per_unit: '1',
        pricing_unit: 'EA',
        otc: true,
        classification: 'G',
      },
      {
        ...common,
        ndc: '00378000000',
        effective_date: '2025-06-15',
        description: 'ACETAMINOPHEN 500 MG, C:\\TABS "EXTRA"',
        per_unit: '2',
        pricing_unit: 'EA',
        otc: true,
        classification: 'G',
      },
      // The later as-of date's price, read after the row it replaces.
      {
        ...common,
        ndc: '00378000041',
        effective_date: '2025-01-15',
        description: 'DRUG 41',
        per_unit: '141.5',
        pricing_unit: 'GM',
        otc: false,
        classification: 'B',
        as_of_date: '2025-10-01',
      },
      {
        ...common,
        ndc: '00378000041',
        effective_date: '2025-06-15',
        description: 'DRUG 41',
        per_unit: '43.00041',
        pricing_unit: 'GM',
        otc: false,
        classification: 'B',
      },
      {
        ...common,
        ndc: '00378000042',
        effective_date: '2025-01-15',
        description: 'DRUG 42',
        per_unit: '43.00042',
        pricing_unit: 'EA',
        otc: true,
        classification: 'G',
      },
      // An earlier as-of date read after the later one does not replace it.
      {
        ...common,
        ndc: '00378000042',
        effective_date: '2025-06-15',
        description: 'DRUG 42',
        per_unit: '44.00042',
        pricing_unit: 'EA',
        otc: true,
        classification: 'G',
      },
      {
        ...common,
        ndc: '00378009999',
        effective_date: '2025-01-15',
        description: 'DRUG 9999',
        per_unit: '50.09999',
        pricing_unit: 'EA',
        otc: false,
        classification: 'B',
      },
      {
        ...common,
        ndc: '00378009999',
        effective_date: '2025-06-15',
        description: 'DRUG 9999',
        per_unit: '51.09999',
        pricing_unit: 'EA',
        otc: false,
        classification: 'B',
      },
    ]);
    // The staging table went with its transaction.
    expect((await pool.query(`SELECT to_regclass('pg_temp.staged_nadac') AS staged`)).rows).toEqual(
      [{ staged: null }],
    );
  });

  /** Price, description and as-of date stored for each of `ndcs`. */
  const storedPrices = async (ndcs: readonly string[]) =>
    (await storedRows(ndcs)).map((row) => [row.ndc, row.per_unit, row.description, row.as_of_date]);

  it('keeps a price of a later as-of date when an older file is loaded after it, and counts it', async () => {
    const [a, b, c] = ['77777000001', '77777000002', '77777000003'];
    const thisWeek = await writeTestFile(
      'nadac-this-week.csv',
      nadacText([
        line({ ndc: a, price: '2', description: 'NEWER', asOf: '10/01/2025' }),
        line({ ndc: b, price: '3', description: 'NEWER', asOf: '10/01/2025' }),
      ]),
    );
    expect(await load(thisWeek)).toEqual({ prices: 2, rows: 2, keptNewer: 0 });
    // Last month's file: two prices older than those stored, and one of an NDC not stored.
    const lastMonth = await writeTestFile(
      'nadac-last-month.csv',
      nadacText([
        line({ ndc: a, price: '1', description: 'OLDER', asOf: '09/03/2025' }),
        line({ ndc: b, price: '1.5', description: 'OLDER', asOf: '09/03/2025' }),
        line({ ndc: c, price: '4', description: 'OLDER', asOf: '09/03/2025' }),
      ]),
    );
    expect(await load(lastMonth)).toEqual({ prices: 1, rows: 3, keptNewer: 2 });
    expect(await storedPrices([a, b, c])).toEqual([
      [a, '2', 'NEWER', '2025-10-01'],
      [b, '3', 'NEWER', '2025-10-01'],
      [c, '4', 'OLDER', '2025-09-03'],
    ]);
  });

  it('replaces a price with one of the same as-of date, or a later one', async () => {
    const [a, b] = ['77777000011', '77777000012'];
    const first = await writeTestFile(
      'nadac-first.csv',
      nadacText([
        line({ ndc: a, price: '2', description: 'FIRST', asOf: '10/01/2025' }),
        line({ ndc: b, price: '3', description: 'FIRST', asOf: '10/01/2025' }),
      ]),
    );
    expect(await load(first)).toEqual({ prices: 2, rows: 2, keptNewer: 0 });
    // The same week's file again, corrected; then next week's.
    const corrected = await writeTestFile(
      'nadac-corrected.csv',
      nadacText([line({ ndc: a, price: '2.5', description: 'CORRECTED', asOf: '10/01/2025' })]),
    );
    expect(await load(corrected)).toEqual({ prices: 1, rows: 1, keptNewer: 0 });
    const nextWeek = await writeTestFile(
      'nadac-next-week.csv',
      nadacText([line({ ndc: b, price: '3.5', description: 'NEXT', asOf: '10/08/2025' })]),
    );
    expect(await load(nextWeek)).toEqual({ prices: 1, rows: 1, keptNewer: 0 });
    expect(await storedPrices([a, b])).toEqual([
      [a, '2.5', 'CORRECTED', '2025-10-01'],
      [b, '3.5', 'NEXT', '2025-10-08'],
    ]);
  });

  /** Rows that would change the table if any of a refused file were stored. */
  const changes = [
    line({ ndc: '99999000001', price: '1.5' }),
    line({ ndc: '00378000041', price: '9.99', effective: '01/15/2025', asOf: '12/01/2025' }),
  ];
  /** A row of key 99999000002 effective 2025-09-17 as of 2025-09-24, with `changed` in it. */
  const keyed = (changed: Partial<Row> = {}) =>
    line({ ndc: '99999000002', price: '2.5', codes: '1, 5', ...changed });

  it.each([
    {
      name: 'a bad NDC',
      lines: [...changes, line({ ndc: '7.10151E+10', price: '1' }), keyed()],
      message:
        'an NDC of 11 digits, or of 10 with hyphens (4-4-2, 5-3-2, 5-4-1), at line 4; found 7.10151E+10 ' +
        '(a spreadsheet wrote it as a number and lost digits: keep the column as text)',
    },
    {
      name: 'an impossible date',
      lines: [
        ...changes,
        keyed({ effective: '02/30/2025' }),
        line({ ndc: '99999000003', price: '3' }),
      ],
      message: 'a date (MM/DD/YYYY or YYYY-MM-DD) in effective_date at line 4; found 02/30/2025',
    },
    {
      name: 'two rows differing for one key',
      // Line 5 repeats line 4 whole ("1,5" and "2.50" read as "1, 5" and "2.5"); line 6 differs.
      lines: [
        ...changes,
        keyed(),
        keyed({ codes: '1,5', price: '2.50' }),
        keyed({ price: '2.6' }),
        keyed({ asOf: '10/01/2025', price: '2.7' }),
      ],
      message:
        'one record for each NDC, effective date and as-of date; found two that differ for ' +
        '99999000002 effective 2025-09-17 as of 2025-09-24, at line 4 and line 6',
    },
    {
      name: 'more than six rows that differ',
      lines: [
        ...changes,
        keyed(),
        keyed({ price: '2.51' }),
        keyed({ description: 'Y' }),
        keyed({ unit: 'ML' }),
        keyed({ otc: 'Y' }),
        keyed({ codes: '1' }),
        keyed({ classification: 'B' }),
        keyed({ genericPrice: '0.1' }),
        keyed({ genericDate: '09/17/2025' }),
        // The same key with another as-of date is another price, and a row repeated whole none.
        keyed({ asOf: '10/01/2025', price: '9' }),
        keyed(),
      ],
      message:
        'one record for each NDC, effective date and as-of date; found two that differ for ' +
        '99999000002 effective 2025-09-17 as of 2025-09-24, at line 4 and line 5; ' +
        'and 7 more refused (line 6, line 7, line 8, line 9, line 10, …)',
    },
    {
      name: 'a bad row, then a row that differs',
      lines: [
        ...changes,
        keyed(),
        line({ ndc: '99999000003', price: 'abc' }),
        keyed({ price: '2.6' }),
      ],
      message: 'a number at line 5; found abc; and 1 more refused (line 6)',
    },
    {
      name: 'a row that differs, then a bad row',
      lines: [
        ...changes,
        keyed(),
        keyed({ price: '2.6' }),
        line({ ndc: '99999000003', price: '3', asOf: '13/01/2025' }),
      ],
      message:
        'one record for each NDC, effective date and as-of date; found two that differ for ' +
        '99999000002 effective 2025-09-17 as of 2025-09-24, at line 4 and line 5; and 1 more refused (line 6)',
    },
    {
      name: 'bad rows among rows that differ',
      lines: [
        ...changes,
        keyed(),
        line({ ndc: '99999000004', price: '4' }),
        keyed({ price: '2.6' }),
        line({ ndc: '99999000004', price: '4.1' }),
        keyed({ price: '2.7' }),
        line({ ndc: '99999000004', price: '4.2' }),
        line({ ndc: '99999000005', price: '' }),
        line({ ndc: '12', price: '5' }),
        keyed({ price: '2.8' }),
        line({ ndc: '99999000004', price: '4.3' }),
        keyed({ price: '2.9' }),
      ],
      // Lines 6, 7, 8, 9, 12, 13, 14 differ; 10 and 11 are bad: 9 in all.
      message:
        'one record for each NDC, effective date and as-of date; found two that differ for ' +
        '99999000002 effective 2025-09-17 as of 2025-09-24, at line 4 and line 6; ' +
        'and 8 more refused (line 7, line 8, line 9, line 10, line 11, …)',
    },
    {
      name: 'no good row',
      lines: [
        line({ ndc: 'N/A', price: '1' }),
        line({ ndc: '', price: '1' }),
        '',
        keyed({ price: '-' }),
      ],
      message:
        'an NDC of 11 digits, or of 10 with hyphens (4-4-2, 5-3-2, 5-4-1), at line 2; found N/A; ' +
        'nor could any of the 2 rows after it be read',
    },
    { name: 'a header alone', lines: [], message: 'price rows below the header; found none' },
  ])('refuses $name with parseNadac’s words, storing nothing', async ({ lines, message }) => {
    const path = await writeTestFile('nadac-refused.csv', nadacText(lines));
    const before = await nadacState();
    const parsed = await rejection(parseNadac(path));
    const loaded = await rejection(load(path));
    expect(parsed.message).toBe(`nadac-refused.csv: expected ${message}`);
    expect(loaded).toBeInstanceOf(ReferenceFileError);
    expect(loaded.message).toBe(parsed.message);
    expect(await nadacState()).toEqual(before);
  });

  describe('over HTTP', () => {
    let server: Server;
    let base: string;
    // 20,000 rows of new NDCs (about 1.4 MB); the cut answer stops after its first 1,000,000 bytes.
    const CUT_AT = 1_000_000;
    const body = Buffer.from(
      nadacText(
        Array.from({ length: 20_000 }, (_, i) =>
          line({
            ndc: String(88_888_000_000 + i),
            price: `${i % 90}.125`,
            description: `HTTP ${i}`,
          }),
        ),
      ),
    );

    beforeAll(async () => {
      server = createServer((request, response) => {
        if (request.url === '/nadac.csv') {
          response.end(body);
        } else if (request.url === '/cut.csv') {
          // The whole length announced; part of it sent, then the connection is lost.
          response.writeHead(200, { 'content-length': String(body.length) });
          response.write(body.subarray(0, CUT_AT), () => response.destroy());
        } else {
          response.writeHead(404).end();
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('loads nothing of a download cut off mid-body, says so, and leaves the pool usable', async () => {
      expect(body.length).toBeGreaterThan(CUT_AT + 100_000);
      // One connection: a client left in the COPY, in a failed transaction or never released
      // would make every later query on it fail or wait.
      const pool = poolLike(database.connection.pool, 1);
      try {
        const before = await nadacState();
        const error = await rejection(load(`${base}/cut.csv`, pool));
        expect(error).toBeInstanceOf(ReferenceFileError);
        expect(error.message).toMatch(
          new RegExp(
            `^${base}/cut\\.csv: expected a whole download; found it broke off after ${CUT_AT} bytes \\(.+\\)$`,
          ),
        );
        expect(await nadacState()).toEqual(before);
        expect(
          (
            await pool.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM nadac_prices WHERE ndc LIKE '88888%'`,
            )
          ).rows,
        ).toEqual([{ n: 0 }]);
        expect([pool.totalCount, pool.idleCount, pool.waitingCount]).toEqual([1, 1, 0]);
        // The same connection loads the whole file.
        expect(await load(`${base}/nadac.csv`, pool)).toEqual({
          prices: 20_000,
          rows: 20_000,
          keptNewer: 0,
        });
        expect(
          (
            await database.connection.pool.query<{ n: number; per_unit: string }>(
              `SELECT count(*)::int AS n, max(per_unit)::text AS per_unit FROM nadac_prices WHERE ndc LIKE '88888%'`,
            )
          ).rows,
        ).toEqual([{ n: 20_000, per_unit: '89.125' }]);
      } finally {
        await pool.end();
      }
    });
  });
});
