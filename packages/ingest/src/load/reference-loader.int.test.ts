import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MrfHeader } from '../model.ts';
import { parseCbsaDelineation } from '../reference/cbsa.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import type { ZipLocality } from '../reference/zip-locality.ts';
import {
  hospitalLocator,
  loadCbsaDelineation,
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
    `INSERT INTO hospitals (source_key, name, state_code, zip, county_fips, cbsa_code)
     VALUES ($1, $1, $2, $3, $4, $5) RETURNING id`,
    [name, place.stateCode, place.zip, place.countyFips, place.cbsaCode],
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
