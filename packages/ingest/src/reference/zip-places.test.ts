import { describe, expect, it } from 'vitest';
import zipcodes from 'zipcodes';
import { zipPlace } from './zip-places.ts';

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
