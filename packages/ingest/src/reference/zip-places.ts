import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Where a US ZIP code is: the `zipcodes` package's centroid, post-office name and state. */
export interface ZipPlace {
  latitude: number;
  longitude: number;
  /** The post office's place name ("Oak Bluffs"): a town, city or village. */
  city: string;
  /** Two-letter state (or DC, PR, territory) code. */
  state: string;
}

const require = createRequire(import.meta.url);

interface Table {
  bytes: Buffer;
  /** By ZIP as a number: the offset of its entry's `{` in `bytes`, or -1. */
  entryAt: Int32Array;
}
let table: Table | undefined;

/** The package's data file, and where each ZIP's entry starts: about 15 ms, once. */
function loadTable(): Table {
  const bytes = readFileSync(require.resolve('zipcodes/lib/codes.js'));
  const entryAt = new Int32Array(100_000).fill(-1);
  const text = bytes.toString('latin1'); // one character per byte, so offsets match
  const key = /"(\d{5})":\{/g;
  for (let match = key.exec(text); match; match = key.exec(text)) {
    entryAt[Number(match[1])] = match.index + match[0].length - 1;
  }
  return { bytes, entryAt };
}

/**
 * The coordinates, place name and state of a five-digit ZIP code, from the data file of the `zipcodes`
 * package (`lib/codes.js`: one object literal keyed by ZIP). Loading that package builds its
 * 42,555 US entries as objects: 89 MB of memory and 190 ms at every start of the server or a CLI.
 * Here its file is read as bytes on the first lookup and indexed by ZIP (5 MB and 15 ms), and a
 * lookup parses its ZIP's entry alone (a JSON object). The test compares it with `zipcodes.lookup`.
 */
export function zipPlace(zip5: string): ZipPlace | undefined {
  if (!/^\d{5}$/.test(zip5)) return undefined;
  table ??= loadTable();
  const start = table.entryAt[Number(zip5)] ?? -1;
  if (start === -1) return undefined;
  const end = table.bytes.indexOf(0x7d /* } */, start);
  const entry = JSON.parse(table.bytes.toString('utf8', start, end + 1)) as Partial<ZipPlace>;
  const { latitude, longitude, city, state } = entry;
  if (
    typeof latitude !== 'number' ||
    typeof longitude !== 'number' ||
    typeof city !== 'string' ||
    typeof state !== 'string'
  ) {
    return undefined;
  }
  return { latitude, longitude, city, state };
}

/**
 * Words a place name is written with either way ("St. Louis" and "Saint Louis", "Ft Myers" and
 * "Fort Myers"): `zipcodes` spells most of them out and a few not ("St James", "Mt Zion").
 */
const SPELLED_OUT = new Map([
  ['st', 'saint'],
  ['ste', 'sainte'],
  ['ft', 'fort'],
  ['mt', 'mount'],
]);

/**
 * A place name as it is compared: lower case, without accents, spaces or punctuation, its
 * abbreviations spelled out ("St. Mary's" and "Saint Marys", "Winston-Salem" and "Winston Salem",
 * "Mayagüez" and "Mayaguez" are one).
 */
function placeKey(name: string): string {
  return name
    .normalize('NFD')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .map((word) => SPELLED_OUT.get(word) ?? word)
    .join('');
}

/** By state: its ZIPs, as numbers, in order (42,555 in all: a few hundred KB). */
let zipsByState: Map<string, number[]> | undefined;

/** The ZIPs of each state, in one pass over the bytes `zipPlace` reads. */
function loadZipsByState(): Map<string, number[]> {
  table ??= loadTable();
  const text = table.bytes.toString('latin1');
  const byState = new Map<string, number[]>();
  const entry = /"(\d{5})":\{[^}]*?"state":"([^"\\]*)"/g;
  for (let match = entry.exec(text); match; match = entry.exec(text)) {
    const state = match[2] ?? '';
    const zips = byState.get(state);
    if (zips) zips.push(Number(match[1]));
    else byState.set(state, [Number(match[1])]);
  }
  // The file lists them as they were added, not in order.
  for (const zips of byState.values()) zips.sort((a, b) => a - b);
  return byState;
}

/**
 * The ZIP codes whose post-office place name is `city` in `state` (a two-letter code), in order:
 * how an address without a ZIP ("Oak Bluffs, MA") is placed. Names compare without regard to
 * case, spaces, punctuation or accents, and "St."/"Saint", "Ste."/"Sainte", "Ft."/"Fort" and
 * "Mt."/"Mount" read alike. The first call lists each state's ZIPs; a call reads the place of
 * each ZIP of its state (Texas, the most: 2,657 in 10–20 ms), rather than holding an index of
 * all 30,000 place names (4 MB, and 100 ms to build). An unknown place has none.
 */
export function zipsOfPlace(city: string, state: string): string[] {
  zipsByState ??= loadZipsByState();
  const key = placeKey(city);
  const found: string[] = [];
  for (const number of zipsByState.get(state.trim().toUpperCase()) ?? []) {
    const zip5 = String(number).padStart(5, '0');
    const place = zipPlace(zip5);
    if (place && placeKey(place.city) === key) found.push(zip5);
  }
  return found;
}
