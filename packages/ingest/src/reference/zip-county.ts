import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { stateByCode, stateByFips } from '@ratelens/core';
import { geoCentroid, geoContains, geoDistance } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import zipcodes from 'zipcodes';
import { ZIP_COUNTY_OVERRIDES } from './zip-county-overrides.ts';

export interface ZipCounty {
  /** Five-digit county FIPS (us-atlas vintage: see the override table for Connecticut). */
  countyFips: string;
  /** Two-letter state. */
  state: string;
  /** How it was found: the override table, the county containing the ZIP's centroid, or the nearest county of the ZIP's state (centroid in water). */
  source: 'override' | 'polygon' | 'nearest';
}

interface County {
  fips: string;
  feature: GeoJSON.Feature<GeoJSON.Geometry, { name: string }>;
  centroid: [number, number];
}

const require = createRequire(import.meta.url);
let countiesByState: Map<string, County[]> | undefined;

/** us-atlas county shapes (Census cartographic boundaries, 1:10m), grouped by state FIPS, loaded once. */
function counties(): Map<string, County[]> {
  if (countiesByState) return countiesByState;
  const topology = JSON.parse(
    readFileSync(require.resolve('us-atlas/counties-10m.json'), 'utf8'),
  ) as Topology<{ counties: GeometryCollection<{ name: string }> }>;
  const collection = feature(topology, topology.objects.counties);
  countiesByState = new Map();
  for (const county of collection.features) {
    const fips = String(county.id);
    const list = countiesByState.get(fips.slice(0, 2)) ?? [];
    list.push({ fips, feature: county, centroid: geoCentroid(county) });
    countiesByState.set(fips.slice(0, 2), list);
  }
  return countiesByState;
}

/**
 * The county of a five-digit ZIP code, offline: the override table first, then the ZIP's
 * coordinates (the `zipcodes` package) inside the us-atlas county shapes of its state, then the
 * county of that state with the nearest centroid. Undefined for a ZIP without coordinates or
 * outside the states, DC and Puerto Rico (military APO/FPO, most territories).
 */
export function countyForZip(zip: string): ZipCounty | undefined {
  const zip5 = zip.trim().slice(0, 5);
  const override = ZIP_COUNTY_OVERRIDES[zip5];
  if (override) {
    const state = stateByFips(override.countyFips.slice(0, 2));
    if (state) return { countyFips: override.countyFips, state: state.code, source: 'override' };
  }
  const place = zipcodes.lookup(zip5);
  const state = place ? stateByCode(place.state) : undefined;
  if (!place || !state) return undefined;
  const candidates = counties().get(state.fips) ?? [];
  const point: [number, number] = [place.longitude, place.latitude];
  const containing = candidates.find((county) => geoContains(county.feature, point));
  if (containing) return { countyFips: containing.fips, state: state.code, source: 'polygon' };
  let nearest: County | undefined;
  for (const county of candidates) {
    if (!nearest || geoDistance(point, county.centroid) < geoDistance(point, nearest.centroid)) {
      nearest = county;
    }
  }
  return nearest ? { countyFips: nearest.fips, state: state.code, source: 'nearest' } : undefined;
}

/**
 * The state and ZIP at the end of a US address line ("1 Hospital Rd Oak Bluffs MA 02557-1477",
 * "…, Orlando, FL 32803"); undefined when the line does not end so.
 */
export function parseAddressZip(address: string): { state: string; zip: string } | undefined {
  const match =
    /(?:^|[\s,])([A-Za-z]{2})[\s,.]+(\d{5})(?:[-\s]?\d{4})?[\s.,]*(?:USA?|United States)?[\s.]*$/i.exec(
      address.trim(),
    );
  const state = match?.[1] ? stateByCode(match[1]) : undefined;
  if (!match?.[2] || !state) return undefined;
  return { state: state.code, zip: match[2] };
}

/** The county of a hospital address line, from the ZIP at its end. */
export function countyForAddress(address: string): (ZipCounty & { zip: string }) | undefined {
  const parsed = parseAddressZip(address);
  if (!parsed) return undefined;
  const county = countyForZip(parsed.zip);
  return county ? { ...county, zip: parsed.zip } : undefined;
}
