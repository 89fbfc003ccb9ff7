/**
 * Where a broken item of a JSON MRF's list ends and the next begins: what the JSON reader's
 * scanner looks at, byte by byte, once an item's braces and brackets do not pair up
 * (docs/decisions/0011-rate-data.md, "A JSON item whose braces and brackets do not pair up").
 * Each look-ahead answers MORE when the buffer ends before it can tell.
 */
import { INSIDE_ITEM_FIELDS, ITEM_FIELDS } from './json-fields.ts';

const QUOTE = 0x22;

/** A look-ahead's answer when the buffer ends before it can tell. */
export const MORE = -1;

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The first byte from i on that is not white space, its index; -1 when the buffer ends first. */
export function nextSignificant(b: Buffer, i: number): number {
  while (i < b.length && isSpace(b[i] as number)) i++;
  return i < b.length ? i : -1;
}

/** The last byte before i that is not white space, from `from` on; -1 when there is none. */
export function previousSignificant(b: Buffer, i: number, from: number): number {
  let k = i - 1;
  while (k >= from && isSpace(b[k] as number)) k--;
  return k >= from ? (b[k] as number) : -1;
}

/**
 * What follows a place where a key may be: more bytes are needed (MORE), no key, an item's
 * field, a field of the objects inside an item, another (a file's field, or one no schema
 * defines).
 */
const NO_KEY = 0;
const ITEM_KEY = 1;
const INSIDE_ITEM_KEY = 2;
const OTHER_KEY = 3;

/** The key starting at i, after white space (see MORE, NO_KEY, ITEM_KEY, INSIDE_ITEM_KEY, OTHER_KEY). */
function keyAt(b: Buffer, i: number): number {
  const q = nextSignificant(b, i);
  if (q === -1) return MORE;
  if (b[q] !== QUOTE) return NO_KEY;
  const end = b.indexOf(QUOTE, q + 1);
  if (end === -1 || end - q > 32) return b.length - q > 32 ? OTHER_KEY : MORE;
  const key = b.toString('latin1', q + 1, end).toLowerCase();
  return ITEM_FIELDS.has(key)
    ? ITEM_KEY
    : INSIDE_ITEM_FIELDS.has(key)
      ? INSIDE_ITEM_KEY
      : OTHER_KEY;
}

/** Whether the `{` at i starts an item, one of an item's fields following it: 1, 0 or MORE. */
export function itemStartsAt(b: Buffer, i: number): number {
  const key = keyAt(b, i + 1);
  return key === MORE ? MORE : key === ITEM_KEY ? 1 : 0;
}

/**
 * Whether the `]` at i, in a broken item or list, is the end of the list of items: a comma and a
 * field that is neither an item's nor one inside an item follow it, or the file's closing brace
 * and then nothing (a closing brace and a comma or bracket are an item's end and what follows
 * it; a bracket, in a file written inside a list, its end). 1, 0, or MORE; at the file's end
 * (`eof`), what it has decides.
 */
export function listEndsAt(b: Buffer, i: number, eof: boolean, inList: boolean): number {
  const k = nextSignificant(b, i + 1);
  if (k === -1) return eof ? 1 : MORE;
  if (b[k] === 0x2c) {
    const key = keyAt(b, k + 1);
    return key === OTHER_KEY ? 1 : key === MORE && !eof ? MORE : 0;
  }
  if (b[k] !== 0x7d) return 0;
  const after = nextSignificant(b, k + 1);
  if (after === -1) return eof ? 1 : MORE;
  const c = b[after] as number;
  return c === 0x2c || (c === 0x5d && !inList) || c === 0x7b ? 0 : 1;
}

/** The longest key `keyStartsAt` looks for: a field's name, with room to spare. */
const KEY_BYTES = 64;

/**
 * Whether the `"` at i, where an item should start, starts a key (a short string, then a colon):
 * the rest of an item that a stray brace ended, not an item. 1, 0, or MORE; at the file's end
 * (`eof`), what it has decides.
 */
export function keyStartsAt(b: Buffer, i: number, eof: boolean): number {
  const end = b.indexOf(QUOTE, i + 1);
  if (end === -1 || end - i > KEY_BYTES) return b.length - i > KEY_BYTES || eof ? 0 : MORE;
  const k = nextSignificant(b, end + 1);
  if (k === -1) return eof ? 0 : MORE;
  return b[k] === 0x3a ? 1 : 0;
}

/**
 * Whether a list entry looks like an item: an object with one of an item's fields and none of the
 * fields of the objects inside an item (a code's `code` beside `description` is a brace gone
 * missing), in any letter case.
 */
export function isItemLike(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  let itemFields = 0;
  for (const key in v) {
    const field = ITEM_FIELDS.has(key) ? key : key.toLowerCase();
    if (ITEM_FIELDS.has(field)) itemFields++;
    else if (INSIDE_ITEM_FIELDS.has(field)) return false;
  }
  return itemFields > 0;
}
