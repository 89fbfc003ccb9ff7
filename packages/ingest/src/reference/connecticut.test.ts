import { describe, expect, it } from 'vitest';
import zipcodes from 'zipcodes';
import { parseCbsaDelineation } from './cbsa.ts';
import { CT_PLANNING_REGIONS, CT_VILLAGE_TOWNS, connecticutRegion } from './connecticut.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { countyForAddress, countyForZip } from './zip-county.ts';

const CBSA_LIST = 'census-cbsa/list1_2023_county_to_cbsa.csv';

describe('CT_PLANNING_REGIONS', () => {
  it('divides the 169 towns among the 9 regions, each town once', () => {
    const towns = CT_PLANNING_REGIONS.flatMap((region) => region.towns);
    expect(towns).toHaveLength(169);
    expect(new Set(towns).size).toBe(169);
    // Members of each council of governments, counted from OPM's list.
    expect(CT_PLANNING_REGIONS.map((region) => [region.fips, region.towns.length])).toEqual([
      ['09110', 38],
      ['09120', 6],
      ['09130', 17],
      ['09140', 19],
      ['09150', 16],
      ['09160', 21],
      ['09170', 15],
      ['09180', 19],
      ['09190', 18],
    ]);
  });

  it('names a town of the table for every village', () => {
    for (const [village, town] of Object.entries(CT_VILLAGE_TOWNS)) {
      expect(connecticutRegion(town), `${village} → ${town}`).toBeDefined();
    }
  });

  itWithDataFile('lists the regions as List 1 does, each in a CBSA', CBSA_LIST, async (list) => {
    const { counties } = await parseCbsaDelineation(list);
    const listed = counties.filter((county) => county.countyFips.startsWith('09'));
    expect(listed.map((county) => county.countyFips).sort()).toEqual(
      CT_PLANNING_REGIONS.map((region) => region.fips),
    );
    for (const region of CT_PLANNING_REGIONS) {
      const county = listed.find((c) => c.countyFips === region.fips);
      expect(county?.name).toBe(region.name);
      expect(county?.cbsaCode).toMatch(/^\d{5}$/);
    }
  });
});

describe('connecticutRegion', () => {
  it.each([
    ['Hartford', '09110'],
    ['Storrs Mansfield', '09110'], // a village of Mansfield
    ['Marion', '09110'], // Southington, though Wolcott's ZIP is nearer
    ['Willimantic', '09180'], // Windham joined the southeastern council
    ['Stevenson', '09120'], // Monroe
    ['Shelton', '09140'],
    ['  new   haven ', '09170'],
  ])('places %s in %s', (place, fips) => {
    expect(connecticutRegion(place)).toBe(fips);
  });

  it('knows no other place', () => {
    expect(connecticutRegion('Springfield')).toBeUndefined();
    expect(connecticutRegion('')).toBeUndefined();
  });
});

describe('Connecticut ZIPs', () => {
  itWithDataFile('every one joins a CBSA of List 1', CBSA_LIST, async (list) => {
    const { counties } = await parseCbsaDelineation(list);
    const cbsaOf = new Map(counties.map((county) => [county.countyFips, county.cbsaCode]));
    const zips = Object.values(zipcodes.codes).filter((place) => place.state === 'CT');
    expect(zips.length).toBeGreaterThan(400);
    for (const { zip } of zips) {
      const county = countyForZip(zip);
      expect(county?.source, zip).toMatch(/^(town|override)$/);
      expect(cbsaOf.get(county?.countyFips ?? ''), zip).toMatch(/^\d{5}$/);
    }
  });

  // Hospitals' addresses as they publish them; regions by their towns.
  it.each([
    ['80 Seymour St, Hartford, CT 06102', '09110'],
    ['20 York St, New Haven, CT 06510', '09170'],
    ['267 Grant St, Bridgeport, CT 06610', '09120'],
    ['24 Hospital Ave, Danbury, CT 06810', '09190'],
    ['28 Crescent St, Middletown, CT 06457', '09130'],
    ['130 Division St, Derby, CT 06418', '09140'],
    ['320 Pomfret St, Putnam, CT 06260', '09150'],
    ['50 Hospital Hill Rd, Sharon, CT 06069', '09160'],
    ['365 Montauk Ave, New London, CT 06320', '09180'],
    ['112 Mansfield Ave, Willimantic, CT 06226', '09180'],
    ['201 Chestnut Hill Rd, Stafford Springs, CT 06076', '09110'],
    ['31 Union St, Vernon Rockville, CT 06066', '09110'],
  ])('places %s in %s', (address, countyFips) => {
    expect(countyForAddress(address)).toMatchObject({ countyFips, state: 'CT', source: 'town' });
  });
});
