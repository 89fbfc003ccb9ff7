import { describe, expect, it } from 'vitest';
import zipcodes from 'zipcodes';
import { stateByCode } from '@ratelens/core';
import { parseCbsaDelineation } from './cbsa.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import {
  countyForAddress,
  countyForAddresses,
  countyForZip,
  parseAddressCity,
  parseAddressZip,
} from './zip-county.ts';
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

describe('parseAddressCity', () => {
  it.each([
    ['1 Hospital Rd, Oak Bluffs, MA', 'Oak Bluffs', 'MA'],
    ['1 Hospital Rd Oak Bluffs MA', 'Oak Bluffs', 'MA'],
    ['1 Hospital Rd, Oak Bluffs ma.', 'Oak Bluffs', 'MA'],
    ['1 Hospital Rd, Oak Bluffs, MA, USA', 'Oak Bluffs', 'MA'],
    ['601 E Rollins St, Orlando, Florida', 'Orlando', 'FL'],
    ['601 E Rollins St Orlando Florida United States', 'Orlando', 'FL'],
    ['550 First Avenue, New York, New York', 'New York', 'NY'],
    ['1 Medical Center Dr Morgantown West Virginia', 'Morgantown', 'WV'],
    ['900 23rd St NW, Washington, D.C.', 'Washington', 'DC'],
    ['615 S New Ballas Rd, St. Louis, MO', 'St Louis', 'MO'],
  ])('reads the city and state ending %j', (address, city, state) => {
    expect(parseAddressCity(address)).toMatchObject({ city, state });
  });

  it('takes the longest of the last three words before the state that names a place', () => {
    // "Springfield" is a place of Massachusetts too.
    expect(parseAddressCity('100 Hospital Dr West Springfield MA')?.city).toBe('West Springfield');
    expect(parseAddressCity('100 Hospital Dr Springfield MA')?.city).toBe('Springfield');
  });

  it('takes all the words after the last comma, or none', () => {
    expect(parseAddressCity('1 Main St, West Oak Bluffs, MA')).toBeUndefined();
    expect(parseAddressCity('1 Main St Oak Bluffs, MA')?.city).toBe('Oak Bluffs');
  });

  it('lists the ZIPs of the place', () => {
    expect(parseAddressCity('1 Hospital Rd, Oak Bluffs, MA')?.zips).toEqual(['02557']);
  });

  it('reads nothing from a line without a state at its end, or a city of that state', () => {
    expect(parseAddressCity('1 Hospital Rd, Oak Bluffs')).toBeUndefined();
    expect(parseAddressCity('1 Hospital Rd, Oak Bluffs, NY')).toBeUndefined();
    expect(parseAddressCity('1 Hospital Rd, Oak Bluffs, MA 02557')).toBeUndefined();
    expect(parseAddressCity('MA')).toBeUndefined();
    expect(parseAddressCity('')).toBeUndefined();
  });

  it('answers at once for a long line', () => {
    expect(parseAddressCity(`${'word '.repeat(100_000)}MA`)).toBeUndefined();
    expect(parseAddressCity(`${' '.repeat(300_000)}Oak Bluffs, MA${' '.repeat(300_000)}`)).toEqual({
      city: 'Oak Bluffs',
      state: 'MA',
      zips: ['02557'],
    });
  });
});

describe('countyForAddress', () => {
  it.each([
    '1 Hospital Rd, Oak Bluffs, MA',
    '1 Hospital Rd Oak Bluffs MA',
    '1 Hospital Rd, Oak Bluffs, Massachusetts, USA',
    '1 Hospital Rd Oak Bluffs massachusetts',
  ])('places %j by its city, in Dukes County, all of whose ZIPs (one) are there', (address) => {
    expect(countyForAddress(address)).toEqual({
      countyFips: '25007',
      state: 'MA',
      source: 'city',
      zip: null,
      zips: ['02557'],
    });
  });

  it('places a city in the county of 95% of its ZIPs: Orlando in Orange County', () => {
    // 57 of Orlando's 59 ZIPs; the two others are Kennedy Space Center's, in Brevard County.
    const orlando = countyForAddress('601 E Rollins St, Orlando, Florida');
    expect(orlando).toMatchObject({ countyFips: '12095', state: 'FL', source: 'city', zip: null });
    expect(orlando?.zips).toHaveLength(57);
    expect(orlando?.zips).not.toContain('32899');
  });

  it('does not guess the county of a city whose ZIPs are spread over several', () => {
    // Atlanta: Fulton 46 of 99, Cobb 31, DeKalb 11, Gwinnett 10, Clayton 1.
    expect(countyForAddress('1364 Clifton Rd NE, Atlanta, GA')).toBeUndefined();
    // St. Louis: the city 39 of 69, St. Louis County 30.
    expect(countyForAddress('615 S New Ballas Rd, St. Louis, Missouri')).toBeUndefined();
    // Brookline: one ZIP in Norfolk County, one in Suffolk.
    expect(countyForAddress('1 Main St, Brookline, MA')).toBeUndefined();
  });

  it('does not place a city unknown in the state written', () => {
    expect(countyForAddress('1 Hospital Rd, Oak Bluffs, NY')).toBeUndefined();
  });

  it('places a line with a ZIP by its ZIP, as before', () => {
    expect(countyForAddress('1 Hospital Rd, Oak Bluffs, MA 02557')).toEqual({
      countyFips: '25007',
      state: 'MA',
      source: 'polygon',
      zip: '02557',
      zips: ['02557'],
    });
    // A ZIP that zipcodes does not know leaves it unplaced, as before.
    expect(countyForAddress('1 Hospital Rd, Oak Bluffs, MA 00000')).toBeUndefined();
  });

  it("places Martha's Vineyard Hospital in Dukes County", () => {
    expect(countyForAddress('1 Hospital Rd Oak Bluffs MA 02557-1477')).toEqual({
      countyFips: '25007',
      state: 'MA',
      source: 'polygon',
      zip: '02557',
      zips: ['02557'],
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

describe('countyForAddresses', () => {
  it('places by the first address a ZIP places, before any placed by its city', () => {
    expect(
      countyForAddresses([
        '601 E Rollins St, Orlando, FL',
        '1 Main St, Oak Bluffs, MA 00000',
        '1 Hospital Rd Oak Bluffs MA 02557-1477',
        '2801 Debarr Road, Anchorage, AK 99508',
      ]),
    ).toMatchObject({ countyFips: '25007', source: 'polygon', zip: '02557' });
  });

  it('places by the first address its city places when no ZIP places one', () => {
    expect(
      countyForAddresses([
        '1 Main St, Atlantis, MA',
        '1 Main St, Oak Bluffs, MA 00000',
        '1 Hospital Rd, Oak Bluffs, MA',
        '601 E Rollins St, Orlando, FL',
      ]),
    ).toMatchObject({ countyFips: '25007', source: 'city', zip: null });
    expect(countyForAddresses(['1 Main St, Atlantis, MA'])).toBeUndefined();
    expect(countyForAddresses([])).toBeUndefined();
  });
});
