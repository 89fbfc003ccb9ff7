import { EXAMPLES_PER_RULE } from '../validate/report.ts';

/**
 * What JSON.parse refuses but a reasonable reader can read, in a value the JSON reader has cut
 * out of a file: the bare `NaN`, `Infinity` and `-Infinity` that Python's `json.dump` writes for
 * missing or infinite floats unless told not to (read as null: no value); a comma before a
 * closing bracket or brace, as hand-edited files have (dropped); a comma doubled or right after
 * an opening bracket (dropped); and a comma missing between two fields or entries, as
 * `"a": 1 "b": 2` or `}{` (added); and comments, line comments (two slashes to the line's end)
 * and block comments (slash-star to star-slash), as JavaScript and JSONC allow (dropped). What a
 * JSON built by joining text writes inside a text: a raw control character, a line break or a tab
 * (escaped, so read as written), and a backslash before a character JSON does not escape (kept as
 * a backslash, but for one before an apostrophe, as JavaScript and PHP write it); and a number in a
 * form JSON has not (`.5`, `5.`, `+5`, `05`: written as JSON writes it). Only tried after
 * JSON.parse failed, so clean files never pay for it, and what it gives is kept only if JSON.parse
 * then reads it.
 * After a colon, a value written without quotes (`$400`, `(400)`, `True`, `outpatient`) is read
 * as a text, as written, for the field's own checks to read or refuse (counted with the texts
 * that lost a closing quote, as one that lost both; see fieldValue for what is not); and `None`,
 * `NULL`, `nan`, `undefined`, `N/A`, `NA`, `-` and nothing at all (`"a": ,`), which Python, SQL,
 * JavaScript and spreadsheets write for no value, are read as null (counted with NaN and
 * Infinity). Before, a word after the colon cost the item, and with `quotesAsText` the key
 * before it took the word and the next object's start, two payer entries read as one (see
 * closesKey).
 * With `quotesAsText`, also a quote inside a text that its writer did not escape (`"12" tube"`):
 * one followed by text rather than by what may follow a string (see closesText) is escaped. The
 * reader asks that only when the other repairs alone did not do, since `["a" true]` may be two
 * values with a comma missing. Then too, a text that lost its closing quote, so that it ran on
 * into the next field's name (`"description": "Office visit,⏎ "code_information": […]`): one
 * whose quote seemed to close it where a colon follows is closed where that name starts (see
 * lostQuoteEnd).
 */
export interface LenientText {
  text: string;
  /** How many NaN and Infinity values, and `None`, `N/A`, `-`… or none at all, read as null. */
  nonFinite: number;
  /** How many trailing commas were dropped. */
  trailingCommas: number;
  /** How many missing commas were added, and doubled or leading ones dropped. */
  missingCommas: number;
  extraCommas: number;
  /** How many comments were dropped. */
  comments: number;
  /** How many quotes inside a text were escaped (with `quotesAsText`). */
  unescapedQuotes: number;
  /** How many raw control characters (a line break, a tab) inside a text were escaped. */
  controlCharacters: number;
  /** How many backslashes before a character JSON does not escape were kept as backslashes. */
  invalidEscapes: number;
  /** How many numbers written in a form JSON has not (`.5`, `+5`, `05`) were written as JSON's. */
  numberForms: number;
  /**
   * How many texts that ran on into the next field's name were closed before it, and how many
   * values written without quotes (`$400`) were read as texts.
   */
  unclosedStrings: number;
  /** The first repairs of each kind (EXAMPLES_PER_RULE, as many as a report keeps), in order. */
  examples: Record<Repair, RepairExample[]>;
}

/** A kind of repair, as LenientText counts it. */
export type Repair = Exclude<keyof LenientText, 'text' | 'examples'>;

/** Where a repair was, for a reader of the report to find it in a large item, and what it read. */
export interface RepairExample {
  /**
   * The key it was in: the last one read in its object, or, before one (or in a list), the one
   * whose value that object or list is; null when none came before it.
   */
  key: string | null;
  /**
   * Whether it was inside that key's value (a list, or an object before its first key), rather
   * than after it in the key's object.
   */
  within: boolean;
  /**
   * What was written there, at most EXCERPT characters (… where cut): the value or word read
   * (`None`, `$400`, `.5`), the comment, the text around a character repaired in a text, the
   * comma dropped; nothing for a value or comma that was missing.
   */
  written: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const SLASH = 0x2f;
const NON_FINITE = /^-?(?:NaN|Infinity)/;

/** How much of what was written an example keeps. */
const EXCERPT = 40;

/**
 * What was written from `from` to `to`, at most EXCERPT characters, around `at` when it is far
 * from `from`; … where cut.
 */
function excerpt(text: string, from: number, to: number, at: number): string {
  const start = Math.max(from, Math.min(at - EXCERPT / 2, to - EXCERPT));
  const end = Math.min(to, start + EXCERPT);
  return `${start > from ? '…' : ''}${text.slice(start, end)}${end < to ? '…' : ''}`;
}

/**
 * Where the text of a string that goes on at `at` ends: at its next quote that no backslash
 * escapes and that `closes` (when given) takes as closing it, looked for up to what an excerpt
 * around `at` shows (so past that, when none is there).
 */
function textEnd(text: string, at: number, closes?: (text: string, k: number) => boolean): number {
  const limit = Math.min(text.length, at + EXCERPT + 1);
  for (let j = at + 1; j < limit; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE && (closes === undefined || closes(text, j))) return j;
    if (c === BACKSLASH) j++;
  }
  return limit;
}

/** How JSON writes the control characters it has a short escape for. */
const CONTROL_ESCAPES: Readonly<Record<number, string>> = {
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0c: '\\f',
  0x0d: '\\r',
};

/** Whether the backslash at i starts an escape JSON has: `\"`, `\n`… or `\u` and 4 hex digits. */
function escapes(text: string, i: number): boolean {
  const next = text[i + 1];
  if (next === undefined) return false;
  if (next === 'u') return /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6));
  return '"\\/bfnrt'.includes(next);
}

const LOOSE_NUMBER = /^([+-]?)(\d*)(?:\.(\d*))?([eE][+-]?\d+)?$/;

/**
 * A number written in a form JSON has not, as JSON writes it, or null (JSON's own, or no number):
 * `.5` (Oracle's TO_CHAR writes a number under one so), `-.5`, `5.`, `+5`, `05`. Hexadecimal is not
 * read: a reader cannot tell what its writer meant.
 */
function jsonNumber(token: string): string | null {
  const match = LOOSE_NUMBER.exec(token);
  if (!match) return null;
  const [, sign, whole = '', fraction, exponent = ''] = match;
  if (whole === '' && !fraction) return null;
  const integer = whole.replace(/^0+(?=\d)/, '') || '0';
  const written = (sign === '-' ? '-' : '') + integer + (fraction ? `.${fraction}` : '') + exponent;
  return written === token ? null : written;
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** A character of a number or of `true`, `false`, `null`. */
function isWordChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x2e ||
    c === 0x2b ||
    c === 0x2d
  );
}

/** A table of 256 bytes: 1 for each of `bytes`. */
function byteTable(bytes: string): Uint8Array {
  const table = new Uint8Array(256);
  for (let i = 0; i < bytes.length; i++) table[bytes.charCodeAt(i)] = 1;
  return table;
}

/**
 * The bytes that may follow a string's closing quote and white space: what JSON puts there (`:`,
 * `,`, `}`, `]`), and what the repairs here read there (a comment; a quote, a brace, a bracket or
 * a number after a missing comma). A quote followed by anything else (a letter, most punctuation)
 * is taken as the text's own, one its writer did not escape. The JSON reader's scanner finds a
 * string's end by the same bytes.
 */
const FOLLOW_STRING = byteTable(':,}]"/{[-0123456789');

/**
 * The bytes that may come after a comma or colon (and white space) that follows a quote: what
 * may follow a string (a quote, brace, bracket or number starts a value or key; a closing brace
 * or bracket after a trailing comma, another comma and a comment are repaired here) and the
 * first letters of `true`, `false`, `null`, `NaN` and `Infinity` (the last two read as null).
 * Anything else, a word as in `8", prefabricated`, makes the quote and the comma the text's own.
 */
const FOLLOW_SEPARATOR = byteTable(':,}]"/{[-0123456789tfnNI');

/** Whether the byte (or character) c may follow a string's closing quote (FOLLOW_STRING). */
export function mayFollowString(c: number): boolean {
  return FOLLOW_STRING[c] === 1;
}

/** Whether c may come after a comma or colon that follows a quote (FOLLOW_SEPARATOR). */
export function mayFollowSeparator(c: number): boolean {
  return FOLLOW_SEPARATOR[c] === 1;
}

/**
 * Whether the quote at k closes its string: the text ends, or mayFollowString comes next, and
 * after a comma or colon, mayFollowSeparator.
 */
function closesText(text: string, k: number): boolean {
  let j = k + 1;
  while (j < text.length && isWhitespace(text.charCodeAt(j))) j++;
  if (j === text.length) return true;
  const c = text.charCodeAt(j);
  if (c !== COMMA && c !== COLON) return mayFollowString(c);
  j++;
  while (j < text.length && isWhitespace(text.charCodeAt(j))) j++;
  return j === text.length || mayFollowSeparator(text.charCodeAt(j));
}

/**
 * Whether the quote at k closes a key: a colon follows it, whatever follows the colon (a value
 * without quotes, as in `"dollar": $400`, is read as one), or closesText. A key is never taken to
 * reach across a brace or a line break: the quote closes it when one comes before the next quote.
 * Before, `"dollar": $400 }, { "payer_name"` was read as one key, two payer entries as one.
 */
function closesKey(text: string, k: number): boolean {
  if (colonAfter(text, k) || closesText(text, k)) return true;
  for (let j = k + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) return false;
    if (c === 0x7b || c === 0x7d || c === 0x0a || c === 0x0d) return true;
    if (c === BACKSLASH) j++;
  }
  return true;
}

/** What Python (`None`, `nan`), SQL (`NULL`), JavaScript and spreadsheets write for no value. */
const NO_VALUE = /^(?:none|null|nan|-?infinity|undefined|n\/?a|#n\/a|-+)$/i;

/** A number as JSON writes it, or `true`, `false`, `null`. */
const JSON_SCALAR = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;

/**
 * Where a value that does not start with a quote, brace or bracket stops, from i: at what ends
 * a value (`,`, `}`, `]`), a quote, brace, bracket or colon, a line break or a comment.
 */
function bareValueStop(text: string, i: number): number {
  let j = i;
  for (; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (BARE_VALUE_ENDS[c] === 1) break;
    if (c === SLASH && (text[j + 1] === '/' || text[j + 1] === '*')) break;
  }
  return j;
}

const BARE_VALUE_ENDS = byteTable(',}]{["\n\r:');

/**
 * A field's value that does not start with a quote, brace or bracket, written as JSON writes it,
 * and the repair it is counted as; null when JSON writes it so already. A text is not read so in
 * single quotes (it would keep them, and a comma in it would cut it), nor when a quote comes
 * right after it (`"plan_name": PPO",`: it lost its opening quote, and its closing one would
 * open a text that takes the next key).
 */
function fieldValue(
  value: string,
  beforeQuote: boolean,
): [string, 'nonFinite' | 'numberForms' | 'unclosedStrings'] | null {
  if (JSON_SCALAR.test(value)) return null;
  if (NO_VALUE.test(value)) return ['null', 'nonFinite'];
  const number = jsonNumber(value);
  if (number !== null) return [number, 'numberForms'];
  return beforeQuote || value.startsWith("'") ? null : [JSON.stringify(value), 'unclosedStrings'];
}

/**
 * A field's number written with commas between its thousands, `1,234.50` or `$1,234.50`, up to
 * what ends the field (a comma, a closing brace, a line end). A dollar sign makes it a text, as
 * `$400` is (`unclosedStrings`), for the amount's own reading; without one it is the number.
 */
const GROUPED_THOUSANDS = /^-?\$?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?(?=[ \t]*[,}\r\n])/;

/** A field's name, as one that a text ran on into may be: a word of letters, digits and `_`. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_ ]{0,63}$/;

/**
 * Where the text of a string that lost its closing quote ends, in `text`, its opening quote at
 * `open` and the quote that seemed to close it at `close`, followed by a colon (which a value
 * cannot be): the string ran on into the next field's name, whose opening quote is the last quote
 * before `close`. It is taken so when that name is a plain field name and comes after a comma or
 * a line break and white space; with `structure`, after closing brackets and braces too (what
 * the text was in, which it took), and opening ones after the comma (what the name is in, as
 * the next object of a list). The string's text ends before them all. -1 when that is not so.
 */
export function lostQuoteEnd(
  text: string,
  open: number,
  close: number,
  structure: boolean,
): number {
  const name = text.lastIndexOf('"', close - 1);
  if (name <= open || !FIELD_NAME.test(text.slice(name + 1, close))) return -1;
  let apart = false;
  /** The commas, brackets and braces between, in order. */
  let between = '';
  let p = name - 1;
  for (; p > open; p--) {
    const c = text.charCodeAt(p);
    if (c === 0x0a || c === 0x0d) apart = true;
    else if (c === COMMA || (structure && isBracket(c))) between = text.charAt(p) + between;
    else if (!isWhitespace(c)) break;
  }
  const fits = structure ? SEPARATES_FIELDS.test(between) : between === '' || between === ',';
  return fits && (apart || between.includes(',')) ? p + 1 : -1;
}

/** What may come between a text and the next field's name: closings, a comma, openings. */
const SEPARATES_FIELDS = /^[}\]]*(?:,[{[]*)?$/;

function isBracket(c: number): boolean {
  return c === 0x7b || c === 0x7d || c === 0x5b || c === 0x5d;
}

/** What a bracket or brace open in a text is: a list, or an object before or after its first key. */
const LIST = 0;
const OBJECT = 1;
const FIELD = 2;
type Nesting = typeof LIST | typeof OBJECT | typeof FIELD;

/** Whether a colon comes next in `text` after i, past white space. */
function colonAfter(text: string, i: number): boolean {
  let j = i + 1;
  while (j < text.length && isWhitespace(text.charCodeAt(j))) j++;
  return text.charCodeAt(j) === COLON;
}

/** The text with those repaired, or null when it has none of them (so it is broken otherwise). */
export function lenientJson(text: string, quotesAsText = false): LenientText | null {
  const parts: string[] = [];
  let from = 0;
  const found = {
    nonFinite: 0,
    trailingCommas: 0,
    missingCommas: 0,
    extraCommas: 0,
    comments: 0,
    unescapedQuotes: 0,
    controlCharacters: 0,
    invalidEscapes: 0,
    numberForms: 0,
    unclosedStrings: 0,
  };
  const examples: Record<Repair, RepairExample[]> = {
    nonFinite: [],
    trailingCommas: [],
    missingCommas: [],
    extraCommas: [],
    comments: [],
    unescapedQuotes: [],
    controlCharacters: [],
    invalidEscapes: [],
    numberForms: [],
    unclosedStrings: [],
  };
  /** What came last: an opening bracket, a comma, a colon, or a whole value (or key). */
  let last: 'open' | 'comma' | 'colon' | 'value' = 'open';
  /** For each bracket or brace open here, a list's, or an object's before or after its first key. */
  const open: Nesting[] = [];
  /**
   * The key each of those is in, after the text's own (for a key at the top): the last read in
   * it, or the one it was in when it opened. Kept as the scan goes, so an example costs no
   * search back.
   */
  const keys: (string | null)[] = [null];
  /** Where the scan is, as an example says it. */
  const here = (): Omit<RepairExample, 'written'> => ({
    key: keys[keys.length - 1] ?? null,
    within: open[open.length - 1] !== FIELD,
  });
  /**
   * Counts a repair, and keeps it as an example while fewer are kept: what was written is from
   * `from` to `to`, shown around `at`. Examples are so the first of each kind, as many as counted
   * up to EXAMPLES_PER_RULE.
   */
  const count = (repair: Repair, from: number, to: number, at = from) => {
    found[repair]++;
    const kept = examples[repair];
    if (kept.length < EXAMPLES_PER_RULE)
      kept.push({ ...here(), written: excerpt(text, from, to, at) });
  };
  /**
   * Counts a repair at `at` in the text of the string that opened at `quote`, which a quote that
   * `closes` (see textEnd) closes.
   */
  const countInText = (
    repair: Repair,
    quote: number,
    at: number,
    closes?: (text: string, k: number) => boolean,
  ) => {
    const kept = examples[repair].length < EXAMPLES_PER_RULE;
    count(repair, quote + 1, kept ? textEnd(text, at, closes) : at, at);
  };
  const drop = (i: number, repair: Repair) => {
    parts.push(text.slice(from, i));
    from = i + 1;
    count(repair, i, i + 1);
  };
  /** A colon followed by no value (`"a": ,`): null is put in before i. */
  const noValue = (i: number) => {
    parts.push(text.slice(from, i), 'null');
    from = i;
    count('nonFinite', i, i);
    last = 'value';
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) {
      i++;
      continue;
    }
    if (c === SLASH && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const block = text[i + 1] === '*';
      const close = block ? text.indexOf('*/', i + 2) : text.indexOf('\n', i + 2);
      const end = close === -1 ? text.length : close + (block ? 2 : 0);
      parts.push(text.slice(from, i));
      count('comments', i, end);
      from = end;
      i = end;
      continue;
    }
    if (c === COMMA) {
      if (last === 'colon') noValue(i);
      let j = i + 1;
      while (j < text.length && isWhitespace(text.charCodeAt(j))) j++;
      const next = text[j];
      if (next === ']' || next === '}') drop(i, 'trailingCommas');
      else if (last === 'comma' || last === 'open') drop(i, 'extraCommas');
      else last = 'comma';
      i++;
      continue;
    }
    if (c === COLON) {
      last = 'colon';
      i++;
      continue;
    }
    if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (last === 'colon') noValue(i);
      if (open.pop() !== undefined) keys.pop();
      last = 'value';
      i++;
      continue;
    }
    // A value, or a key, starts here.
    if (last === 'value') {
      parts.push(text.slice(from, i), ',');
      from = i;
      count('missingCommas', i, i);
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      open.push(c === 0x5b ? LIST : OBJECT);
      keys.push(keys[keys.length - 1] ?? null);
      last = 'open';
      i++;
      continue;
    }
    // A value rather than a key: a field's (after a colon, or the text's own, as a top-level
    // field's value cut out), or in a list.
    const ofField = last === 'colon' || (last === 'open' && open.length === 0);
    const isValue = ofField || open[open.length - 1] === LIST;
    last = 'value';
    if (c === QUOTE) {
      // Skip the string, escapes included; a raw control character or a backslash JSON does
      // not know is written as JSON wants it.
      const quote = i;
      /** With `quotesAsText`, which quotes close the string: the others are its text's own. */
      const closes = quotesAsText ? (isValue ? closesText : closesKey) : undefined;
      const before =
        isValue && quotesAsText ? { parts: parts.length, from, found: { ...found } } : null;
      i++;
      for (;;) {
        for (let d = text.charCodeAt(i); i < text.length && d !== QUOTE; d = text.charCodeAt(i)) {
          if (d < 0x20) {
            parts.push(
              text.slice(from, i),
              CONTROL_ESCAPES[d] ?? `\\u00${d.toString(16).padStart(2, '0')}`,
            );
            countInText('controlCharacters', quote, i, closes);
            from = ++i;
          } else if (d !== BACKSLASH) i++;
          else if (escapes(text, i)) i += 2;
          else {
            // `\'` is an apostrophe, as JavaScript and PHP escape it; any other is a backslash.
            const apostrophe = text[i + 1] === "'";
            parts.push(text.slice(from, i), apostrophe ? '' : '\\');
            countInText('invalidEscapes', quote, i, closes);
            from = apostrophe ? i + 1 : i;
            i += apostrophe ? 2 : 1;
          }
        }
        if (closes === undefined || i >= text.length || closes(text, i)) break;
        parts.push(text.slice(from, i), '\\');
        from = i;
        countInText('unescapedQuotes', quote, i, closes);
        i++;
      }
      const cut =
        before && i < text.length && colonAfter(text, i) ? lostQuoteEnd(text, quote, i, true) : -1;
      if (before && cut !== -1) {
        // What was done to the string so far is undone; its text up to `cut` is read alone.
        parts.length = before.parts;
        from = before.from;
        Object.assign(found, before.found);
        // Each kind's examples are its first, as many as counted: those of the string go too.
        for (const repair of Object.keys(found) as Repair[])
          examples[repair].length = Math.min(examples[repair].length, found[repair]);
        const value = `${text.slice(quote, cut)}"`;
        const repaired = lenientJson(value, true);
        count('unclosedStrings', quote + 1, cut);
        if (repaired) {
          // The string, read alone, was in no key: it is in this one.
          const place = here();
          for (const repair of Object.keys(found) as Repair[]) {
            found[repair] += repaired[repair];
            const kept = examples[repair];
            const more = repaired.examples[repair].slice(0, EXAMPLES_PER_RULE - kept.length);
            for (const example of more) kept.push({ ...example, ...place });
          }
        }
        parts.push(text.slice(from, quote), repaired?.text ?? value);
        from = cut;
        i = cut;
        continue;
      }
      if (!isValue) {
        keys[keys.length - 1] = text.slice(quote + 1, i);
        if (open.length > 0) open[open.length - 1] = FIELD;
      }
      i++;
      continue;
    }
    if (ofField) {
      // A number whose thousands a comma separates (`1,234.50`): no key can start with a digit,
      // so the comma is the number's, not the field's end.
      const grouped = GROUPED_THOUSANDS.exec(text.slice(i, i + 40))?.[0];
      if (grouped !== undefined) {
        const dollar = grouped.includes('$');
        parts.push(
          text.slice(from, i),
          dollar ? JSON.stringify(grouped) : grouped.replace(/,/g, ''),
        );
        count(dollar ? 'unclosedStrings' : 'numberForms', i, i + grouped.length);
        i += grouped.length;
        from = i;
        continue;
      }
      // A field's value, up to what may end it: as JSON writes it, or repaired as a whole.
      const stop = bareValueStop(text, i);
      let end = stop;
      while (end > i && isWhitespace(text.charCodeAt(end - 1))) end--;
      const repaired = fieldValue(text.slice(i, end), text.charCodeAt(stop) === QUOTE);
      if (repaired) {
        parts.push(text.slice(from, i), repaired[0]);
        from = end;
        count(repaired[1], i, end);
      }
      i = end;
      continue;
    }
    const match = NON_FINITE.exec(text.slice(i, i + 9));
    if (match) {
      parts.push(text.slice(from, i), 'null');
      count('nonFinite', i, i + match[0].length);
      i += match[0].length;
      from = i;
      continue;
    }
    let end = i + 1;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
    const number = jsonNumber(text.slice(i, end));
    if (number !== null) {
      parts.push(text.slice(from, i), number);
      from = end;
      count('numberForms', i, end);
    }
    i = end;
  }
  if (Object.values(found).every((n) => n === 0)) return null;
  parts.push(text.slice(from));
  return { text: parts.join(''), ...found, examples };
}
