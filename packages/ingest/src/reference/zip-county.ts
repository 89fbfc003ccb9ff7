import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { stateByCode, stateByFips, stateByName } from '@ratelens/core';
import { geoCentroid, geoContains, geoDistance } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { connecticutRegion } from './connecticut.ts';
import { ZIP_COUNTY_OVERRIDES } from './zip-county-overrides.ts';
import { zipPlace, zipsOfPlace } from './zip-places.ts';

export interface ZipCounty {
  /** Five-digit county FIPS as in the 2023 CBSA list (Connecticut: its planning regions). */
  countyFips: string;
  /** Two-letter state. */
  state: string;
  /**
   * How it was found: the override table, the Connecticut town of the ZIP's post office, the
   * county containing the ZIP's centroid, or the nearest county of its state (centroid in water).
   */
  source: 'override' | 'town' | 'polygon' | 'nearest';
}

interface County {
  fips: string;
  feature: GeoJSON.Feature<GeoJSON.Geometry, { name: string }>;
  centroid: [number, number];
}

const require = createRequire(import.meta.url);
type CountiesTopology = Topology<{ counties: GeometryCollection<{ name: string }> }>;
let topology: CountiesTopology | undefined;
const countiesByState = new Map<string, County[]>();

/**
 * us-atlas county shapes (Census cartographic boundaries, 1:10m) of one state, by state FIPS. The
 * file is read once; shapes are built only for the states asked for (all 3,000 counties take
 * ~150 ms, which an ingest of one hospital would spend for one state).
 */
function countiesOf(stateFips: string): County[] {
  const cached = countiesByState.get(stateFips);
  if (cached) return cached;
  topology ??= JSON.parse(
    readFileSync(require.resolve('us-atlas/counties-10m.json'), 'utf8'),
  ) as CountiesTopology;
  const list: County[] = [];
  for (const geometry of topology.objects.counties.geometries) {
    const fips = String(geometry.id);
    if (fips.slice(0, 2) !== stateFips) continue;
    // A county is one (multi)polygon, so this is always a single feature.
    const county = feature(topology, geometry) as County['feature'];
    list.push({ fips, feature: county, centroid: geoCentroid(county) });
  }
  countiesByState.set(stateFips, list);
  return list;
}

/**
 * The county of a five-digit ZIP code, offline: the override table first; in Connecticut, the
 * planning region of the ZIP's post-office town (us-atlas draws the old counties, which no CBSA
 * lists); elsewhere the ZIP's coordinates (the `zipcodes` package's, read by `zipPlace`) inside the
 * us-atlas county shapes of its state, then the county of that state with the nearest centroid.
 * Undefined for a ZIP without coordinates or outside the states, DC and Puerto Rico (military
 * APO/FPO, most territories).
 */
export function countyForZip(zip: string): ZipCounty | undefined {
  const zip5 = zip.trim().slice(0, 5);
  const override = ZIP_COUNTY_OVERRIDES[zip5];
  if (override) {
    const state = stateByFips(override.countyFips.slice(0, 2));
    if (state) return { countyFips: override.countyFips, state: state.code, source: 'override' };
  }
  const place = zipPlace(zip5);
  const state = place ? stateByCode(place.state) : undefined;
  if (!place || !state) return undefined;
  if (state.code === 'CT') {
    const region = connecticutRegion(place.city);
    if (region) return { countyFips: region, state: state.code, source: 'town' };
  }
  const candidates = countiesOf(state.fips);
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
 * "…, Orlando, FL 32803"), the state also written in full ("…, Orlando, Florida 32803", "New
 * York, New York 10016"); undefined when the line does not end so (a ZIP needs its state before
 * it: "PO Box 02557" is no address).
 */
export function parseAddressZip(address: string): { state: string; zip: string } | undefined {
  const line = address.trim();
  const match =
    /(?:^|[\s,])([A-Za-z]{2})[\s,.]+(\d{5})(?:[-\s]?\d{4})?[\s.,]*(?:(?:USA?|United States)[\s.]*)?$/i.exec(
      line,
    );
  const state = match?.[1] ? stateByCode(match[1]) : undefined;
  if (match?.[2] && state) return { state: state.code, zip: match[2] };
  const zip = ZIP_AT_END.exec(line);
  if (!zip?.[1]) return undefined;
  // The last one to four words before the ZIP, the longest first: "New York", "District of
  // Columbia", "Florida".
  const words = line
    .slice(0, zip.index)
    .split(/[\s,.]+/)
    .filter(Boolean)
    .slice(-4);
  for (let from = 0; from < words.length; from++) {
    const named = stateByName(words.slice(from).join(' '));
    if (named) return { state: named.code, zip: zip[1] };
  }
  return undefined;
}
/** A ZIP (or ZIP+4) ending a line after a space or comma, with the country perhaps after it. */
const ZIP_AT_END = /[\s,](\d{5})(?:[-\s]?\d{4})?[\s.,]*(?:(?:USA?|United States)[\s.]*)?$/i;

/** Where a hospital address line places it: its county, and the ZIP or ZIPs that tell so. */
export interface AddressCounty extends Omit<ZipCounty, 'source'> {
  /** How: from its ZIP (`countyForZip`'s sources), or, for a line without one, from its city. */
  source: ZipCounty['source'] | 'city';
  /** The ZIP of the line; null for a line placed by its city. */
  zip: string | null;
  /**
   * The ZIPs it was placed by: the line's own, or those of its city in the county found. Its
   * Medicare locality is theirs when they have one between them.
   */
  zips: string[];
}

/**
 * The city and state ending a US address line that gives no ZIP ("1 Hospital Rd, Oak Bluffs, MA",
 * "601 E Rollins St, Orlando, Florida", perhaps with "USA" after them), with the ZIPs of that
 * post-office place (`zipsOfPlace`); undefined when the line does not end so, or its city is no
 * place of its state that `zipcodes` knows. The city is the words after the last comma before the
 * state; without such a comma ("1 Hospital Rd Oak Bluffs MA"), the last three, two or one words
 * before it, the longest that names a place of the state ("Rd Oak Bluffs" does not; "Oak Bluffs"
 * does, before "Bluffs" could).
 */
export function parseAddressCity(
  address: string,
): { city: string; state: string; zips: string[] } | undefined {
  // Each word with the part of the line, between commas, it is in; periods dropped ("St.", "D.C.").
  const words = address.split(',').flatMap((part, segment) =>
    part
      .split(/\s+/)
      .map((word) => word.replace(/\./g, ''))
      .filter(Boolean)
      .map((word) => ({ word, segment })),
  );
  const last = (count: number): string =>
    words
      .slice(-count)
      .map(({ word }) => word)
      .join(' ');
  if (/^USA?$/i.test(last(1))) words.pop();
  else if (/^United States$/i.test(last(2))) words.splice(-2);
  // The state: two letters, or its name in one to four words (the longest first, as in
  // parseAddressZip: "West Virginia" before "Virginia").
  let state = last(1).length === 2 ? stateByCode(last(1)) : undefined;
  let stateWords = 1;
  for (let count = Math.min(4, words.length); !state && count > 0; count--) {
    state = stateByName(last(count));
    stateWords = count;
  }
  const before = words.slice(0, words.length - stateWords);
  const segment = before.at(-1)?.segment;
  if (!state || segment === undefined) return undefined;
  const afterComma = before.filter((word) => word.segment === segment);
  const candidates =
    afterComma.length < before.length ? [afterComma] : [3, 2, 1].map((n) => before.slice(-n));
  for (const candidate of candidates) {
    const city = candidate.map(({ word }) => word).join(' ');
    const zips = zipsOfPlace(city, state.code);
    if (zips.length > 0) return { city, state: state.code, zips };
  }
  return undefined;
}

/**
 * The share of a city's ZIPs that one county must hold to be the county of an address in that
 * city without a ZIP. Not all: the large cities nearly always list a ZIP or two across a county
 * line (Orlando 57 of 59, New York 158 of 159), yet their metro area is not in doubt (ADR 0011,
 * "Geography"). A town of fewer than 20 ZIPs must have all of them in the county.
 */
const CITY_COUNTY_SHARE = 0.95;

/** The county of a city's ZIPs, when one holds CITY_COUNTY_SHARE of them; else undefined. */
function countyForCity(state: string, zips: readonly string[]): AddressCounty | undefined {
  const byCounty = new Map<string, string[]>();
  let placed = 0;
  for (const zip of zips) {
    const county = countyForZip(zip);
    if (!county) continue;
    placed++;
    const inCounty = byCounty.get(county.countyFips);
    if (inCounty) inCounty.push(zip);
    else byCounty.set(county.countyFips, [zip]);
  }
  for (const [countyFips, inCounty] of byCounty) {
    if (inCounty.length >= CITY_COUNTY_SHARE * placed) {
      return { countyFips, state, source: 'city', zip: null, zips: inCounty };
    }
  }
  return undefined;
}

/**
 * The county of a hospital address line: from the ZIP at its end; for a line without one, from
 * the city and state at its end (`parseAddressCity`), when CITY_COUNTY_SHARE of that city's ZIPs
 * are in one county. A line with a ZIP is placed by it alone: one that `zipcodes` does not know
 * is not placed by its city instead.
 */
export function countyForAddress(address: string): AddressCounty | undefined {
  const parsed = parseAddressZip(address);
  if (parsed) {
    const county = countyForZip(parsed.zip);
    return county ? { ...county, zip: parsed.zip, zips: [parsed.zip] } : undefined;
  }
  const city = parseAddressCity(address);
  return city ? countyForCity(city.state, city.zips) : undefined;
}

/**
 * The county of a hospital with several addresses (one per location): the first placed by its
 * ZIP, else the first placed by its city. A ZIP is the surer of the two, so another address's ZIP
 * wins over an earlier one's city, and a hospital placed by a ZIP before cities were read stays
 * where it was.
 */
export function countyForAddresses(addresses: readonly string[]): AddressCounty | undefined {
  const withoutZip: string[] = [];
  for (const address of addresses) {
    if (parseAddressZip(address)) {
      const found = countyForAddress(address);
      if (found) return found;
    } else withoutZip.push(address);
  }
  for (const address of withoutZip) {
    const found = countyForAddress(address);
    if (found) return found;
  }
  return undefined;
}
