import { describe, expect, it } from 'vitest';
import zipcodes from 'zipcodes';
import { stateByCode } from '@ratelens/core';
import { parseCbsaDelineation } from './cbsa.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { countyForAddress, countyForZip, parseAddressZip } from './zip-county.ts';
import { ZIP_COUNTY_OVERRIDES } from './zip-county-overrides.ts';

describe('countyForZip', () => {
  // County FIPS checked against the Census county lists (and List 1 for the CBSAs).
  it.each([
    ['02557', '25007', 'MA'], // Oak Bluffs → Dukes County
    ['32803', '12095', 'FL'], // Orlando → Orange County
    ['99501', '02020', 'AK'], // Anchorage Municipality
    ['99701', '02090', 'AK'], // Fairbanks → Fairbanks North Star Borough
    ['99801', '02110', 'AK'], // Juneau City and Borough
    ['99901', '02130', 'AK'], // Ketchikan → Ketchikan Gateway Borough
  ])('places ZIP %s in county %s', (zip, countyFips, state) => {
    expect(countyForZip(zip)).toEqual({ countyFips, state, source: 'polygon' });
  });

  it('consults the override table first', () => {
    expect(countyForZip('06832')).toEqual({ countyFips: '09190', state: 'CT', source: 'override' });
  });

  it('places a Connecticut ZIP in the planning region of its town, not an old county', () => {
    expect(countyForZip('06510')).toEqual({ countyFips: '09170', state: 'CT', source: 'town' });
  });

  it('falls back to the nearest county when the centroid is in water', () => {
    // 33630 (Tampa, MacDill AFB) has its centroid just offshore of Hillsborough County.
    expect(countyForZip('33630')).toEqual({ countyFips: '12057', state: 'FL', source: 'nearest' });
  });

  it('knows nothing of a ZIP without coordinates or outside the states', () => {
    expect(countyForZip('00000')).toBeUndefined();
    expect(countyForZip('96799')).toBeUndefined(); // American Samoa
  });
});

describe('ZIP_COUNTY_OVERRIDES', () => {
  it('corrects only ZIPs that zipcodes lists, in the state of the county given', () => {
    for (const [zip, { countyFips }] of Object.entries(ZIP_COUNTY_OVERRIDES)) {
      expect(stateByCode(zipcodes.lookup(zip)?.state ?? '')?.fips, zip).toBe(
        countyFips.slice(0, 2),
      );
    }
  });

  itWithDataFile(
    'points only to counties of the 2023 delineation',
    'census-cbsa/list1_2023_county_to_cbsa.csv',
    async (path) => {
      const { counties } = await parseCbsaDelineation(path);
      const known = new Set(counties.map((county) => county.countyFips));
      for (const { countyFips } of Object.values(ZIP_COUNTY_OVERRIDES))
        expect(known).toContain(countyFips);
    },
  );
});

describe('parseAddressZip', () => {
  it('answers at once for an address with a long run of spaces after its ZIP', () => {
    // The country's optional blanks beside the others' made every split of the run a try:
    // minutes for 300,000 spaces.
    expect(parseAddressZip(`1 Main St, Oak Bluffs, MA 02557${' '.repeat(300_000)}x`)).toBe(
      undefined,
    );
    expect(parseAddressZip(`1 Main St, Oak Bluffs, MA 02557 ${' '.repeat(300_000)}`)).toEqual({
      state: 'MA',
      zip: '02557',
    });
  });

  it.each([
    ['1 Hospital Rd Oak Bluffs MA 02557-1477', 'MA', '02557'],
    ['601 E Rollins St, Orlando, FL 32803', 'FL', '32803'],
    ['2801 Debarr Road, Anchorage, AK 99508, USA', 'AK', '99508'],
    ['2801 Debarr Road, Anchorage, AK 99508-1234 United States. ', 'AK', '99508'],
    ['2801 Debarr Road, Anchorage, AK 99508., usa', 'AK', '99508'],
    ['1650 Cowles St Fairbanks, ak 997013', undefined, undefined],
  ])('reads %s', (address, state, zip) => {
    const parsed = parseAddressZip(address);
    expect(parsed?.state).toBe(state);
    expect(parsed?.zip).toBe(zip);
  });

  it.each([
    ['601 E Rollins St, Orlando, Florida 32803', 'FL', '32803'],
    ['550 First Avenue, New York, New York 10016-6402, USA', 'NY', '10016'],
    ['900 23rd St NW, Washington, District of Columbia 20037', 'DC', '20037'],
    ['1 Hospital Rd Oak Bluffs massachusetts 02557', 'MA', '02557'],
    ['1 Medical Center Dr, Morgantown, West Virginia 26506', 'WV', '26506'],
  ])('reads the state written in full in %j', (address, state, zip) => {
    expect(parseAddressZip(address)).toEqual({ state, zip });
  });

  it('needs a state before the ZIP', () => {
    expect(parseAddressZip('PO Box 02557')).toBeUndefined();
    expect(parseAddressZip('1 Main St, Springfield 02557')).toBeUndefined();
    expect(parseAddressZip('02557')).toBeUndefined();
  });

  it('answers at once for a long line of words before a ZIP', () => {
    expect(parseAddressZip(`${'word '.repeat(100_000)}02557`)).toBeUndefined();
    expect(parseAddressZip(`${' '.repeat(300_000)}Florida 32803`)).toEqual({
      state: 'FL',
      zip: '32803',
    });
  });
});

describe('countyForAddress', () => {
  it("places Martha's Vineyard Hospital in Dukes County", () => {
    expect(countyForAddress('1 Hospital Rd Oak Bluffs MA 02557-1477')).toEqual({
      countyFips: '25007',
      state: 'MA',
      source: 'polygon',
      zip: '02557',
    });
  });

  it('places AdventHealth Orlando in Orange County', () => {
    expect(countyForAddress('601 East Rollins Street, Orlando, FL 32803')?.countyFips).toBe(
      '12095',
    );
  });

  itWithDataFile(
    'joins the Alaska ZIPs to their CBSAs',
    'census-cbsa/list1_2023_county_to_cbsa.csv',
    async (path) => {
      const { counties } = await parseCbsaDelineation(path);
      const cbsaOf = (zip: string): string | undefined =>
        counties.find((county) => county.countyFips === countyForZip(zip)?.countyFips)?.cbsaCode;
      expect(['99501', '99701', '99801', '99901'].map(cbsaOf)).toEqual([
        '11260',
        '21820',
        '27940',
        '28540',
      ]);
    },
  );
});
