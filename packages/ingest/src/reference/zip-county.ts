import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { stateByCode, stateByFips, stateByName } from '@ratelens/core';
import { geoCentroid, geoContains, geoDistance } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { connecticutRegion } from './connecticut.ts';
import { ZIP_COUNTY_OVERRIDES } from './zip-county-overrides.ts';
import { zipPlace } from './zip-places.ts';

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

/** The county of a hospital address line, from the ZIP at its end. */
export function countyForAddress(address: string): (ZipCounty & { zip: string }) | undefined {
  const parsed = parseAddressZip(address);
  if (!parsed) return undefined;
  const county = countyForZip(parsed.zip);
  return county ? { ...county, zip: parsed.zip } : undefined;
}
