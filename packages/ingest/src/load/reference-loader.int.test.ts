import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { MrfHeader } from '../model.ts';
import { parseCbsaDelineation } from '../reference/cbsa.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import {
  hospitalLocator,
  loadCbsaDelineation,
  loadStates,
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
