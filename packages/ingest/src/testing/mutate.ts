/**
 * Seeded random damage to a file, for tests of the readers: one to three edits, each a byte
 * changed, a span cut, doubled or inserted, a word replaced (WORDS), or the file cut short. The
 * same seed gives the same bytes, so a failing variant can be written out and read again.
 */

/** mulberry32: a small seeded generator, so a failure names a variant that can be read again. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bytes that matter to the readers, and a few that should never be there. */
const NASTY = Buffer.from('",{}[]|:\n\r\t\\ 0.-e$%\u00a0', 'utf8');

/** Names every JavaScript object has, which a lookup in a plain object finds (`constructor`). */
export const OBJECT_NAMES = [
  'constructor',
  '__proto__',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
];

/**
 * Words a file may hold where a reader looks names up: the names every object has (a column or
 * key named `constructor` once failed a read), and CMS keywords in places they do not belong.
 */
const WORDS = [
  ...OBJECT_NAMES,
  'standard_charge',
  'payer_name',
  'methodology',
  'description',
  'code',
];

/** The word of letters and underscores around byte `i`: its start and end. */
function wordAround(b: Buffer, i: number): [number, number] {
  const isWordByte = (c: number | undefined) =>
    c !== undefined && (c === 0x5f || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a));
  let start = i;
  let end = i;
  while (isWordByte(b[start - 1])) start--;
  while (isWordByte(b[end])) end++;
  return [start, end];
}

export function mutate(bytes: Buffer, seed: number): Buffer {
  const random = generator(seed);
  const at = (n: number) => Math.floor(random() * n);
  let b = bytes;
  const edits = 1 + at(3);
  for (let e = 0; e < edits && b.length > 0; e++) {
    const i = at(b.length);
    const span = 1 + at(48);
    switch (at(6)) {
      case 0: {
        const copy = Buffer.from(b);
        copy[i] = random() < 0.5 ? (NASTY[at(NASTY.length)] as number) : at(256);
        b = copy;
        break;
      }
      case 1:
        b = Buffer.concat([b.subarray(0, i), b.subarray(i + span)]);
        break;
      case 2:
        b = Buffer.concat([b.subarray(0, i + span), b.subarray(i, i + span), b.subarray(i + span)]);
        break;
      case 3: {
        const inserted = Buffer.from(Array.from({ length: 1 + at(8) }, () => at(256)));
        b = Buffer.concat([b.subarray(0, i), inserted, b.subarray(i)]);
        break;
      }
      case 4: {
        // A word (or, between words, nothing) replaced by one of WORDS.
        const [start, end] = wordAround(b, i);
        const word = Buffer.from(WORDS[at(WORDS.length)] as string);
        b = Buffer.concat([b.subarray(0, start), word, b.subarray(end)]);
        break;
      }
      default:
        b = b.subarray(0, i);
    }
  }
  return b;
}
