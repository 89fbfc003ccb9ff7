import { describe, expect, it } from 'vitest';
import zipcodes from 'zipcodes';
import { zipPlace, zipsOfPlace } from './zip-places.ts';

describe('zipPlace', () => {
  // zipcodes' own list, Canadian postal prefixes left out.
  const zips = Object.keys(zipcodes.codes).filter((zip) => /^\d{5}$/.test(zip));

  it('reads the same coordinates, place and state as zipcodes.lookup', () => {
    expect(zips.length).toBeGreaterThan(40_000);
    for (const zip of zips) {
      const { latitude, longitude, city, state } = zipcodes.lookup(zip)!;
      expect(zipPlace(zip), zip).toEqual({ latitude, longitude, city, state });
    }
  });

  it('knows Oak Bluffs, MA', () => {
    expect(zipPlace('02557')).toEqual({
      latitude: 41.4543,
      longitude: -70.562,
      city: 'Oak Bluffs',
      state: 'MA',
    });
  });

  it('answers undefined for a ZIP it does not list, or not five digits', () => {
    expect(zipPlace('00000')).toBeUndefined();
    expect(zipPlace('0255')).toBeUndefined();
    expect(zipPlace('K1A')).toBeUndefined(); // a Canadian prefix, which zipcodes.lookup knows
    expect(zipPlace('"02557')).toBeUndefined();
  });
});

describe('zipsOfPlace', () => {
  it.each(['MA', 'PR'])(
    'lists the ZIPs of every place of %s as zipcodes.lookup names them',
    (state) => {
      const byCity = new Map<string, string[]>();
      for (const zip of Object.keys(zipcodes.codes)
        .filter((zip) => /^\d{5}$/.test(zip))
        .sort()) {
        const place = zipcodes.lookup(zip);
        if (place?.state !== state) continue;
        byCity.set(place.city, [...(byCity.get(place.city) ?? []), zip]);
      }
      expect(byCity.size).toBeGreaterThan(state === 'MA' ? 400 : 80);
      for (const [city, zips] of byCity) expect(zipsOfPlace(city, state), city).toEqual(zips);
    },
  );

  it('knows Oak Bluffs, MA, whatever the case and spacing', () => {
    expect(zipsOfPlace('Oak Bluffs', 'MA')).toEqual(['02557']);
    expect(zipsOfPlace(' OAK  BLUFFS ', 'ma')).toEqual(['02557']);
    expect(zipsOfPlace('Oak-Bluffs', 'MA')).toEqual(['02557']);
    expect(zipsOfPlace('Mayagüez', 'PR')).toEqual(['00680', '00681', '00682']);
  });

  it('reads St. and Saint, Ft. and Fort, Mt. and Mount alike, written either way', () => {
    expect(zipsOfPlace('St. Louis', 'MO')).toHaveLength(69);
    expect(zipsOfPlace('St Louis', 'MO')).toEqual(zipsOfPlace('Saint Louis', 'MO'));
    expect(zipsOfPlace('Ft. Worth', 'TX')).toEqual(zipsOfPlace('Fort Worth', 'TX'));
    expect(zipsOfPlace('Ft. Worth', 'TX')).toHaveLength(56);
    // zipcodes itself abbreviates a few.
    expect(zipsOfPlace('Saint James', 'IL')).toEqual(['62857']);
    expect(zipsOfPlace('Fort Mitchell', 'KY')).toEqual(['41017']);
    expect(zipsOfPlace('Mount Zion', 'IL')).toEqual(['62549']);
  });

  it('lists none for a place unknown in that state', () => {
    expect(zipsOfPlace('Oak Bluffs', 'NY')).toEqual([]);
    expect(zipsOfPlace('Atlantis', 'MA')).toEqual([]);
    expect(zipsOfPlace('', 'MA')).toEqual([]);
    expect(zipsOfPlace('Oak Bluffs', 'XX')).toEqual([]);
  });
});
