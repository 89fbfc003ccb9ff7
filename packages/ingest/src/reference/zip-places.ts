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
