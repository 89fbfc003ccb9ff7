/**
 * What JSON.parse refuses but a reasonable reader can read, in a value the JSON reader has cut
 * out of a file: the bare `NaN`, `Infinity` and `-Infinity` that Python's `json.dump` writes for
 * missing or infinite floats unless told not to (read as null: no value); a comma before a
 * closing bracket or brace, as hand-edited files have (dropped); a comma doubled or right after
 * an opening bracket (dropped); and a comma missing between two fields or entries, as
 * `"a": 1 "b": 2` or `}{` (added); and comments, line comments (two slashes to the line's end)
 * and block comments (slash-star to star-slash), as JavaScript and JSONC allow (dropped). Only tried after JSON.parse failed, so clean files never pay
 * for it, and what it gives is kept only if JSON.parse then reads it.
 * With `quotesAsText`, also a quote inside a text that its writer did not escape (`"12" tube"`):
 * one followed by text rather than by what may follow a string (see closesText) is escaped. The
 * reader asks that only when the other repairs alone did not do, since `["a" true]` may be two
 * values with a comma missing.
 */
export interface LenientText {
  text: string;
  /** How many NaN and Infinity values were read as null. */
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
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const SLASH = 0x2f;
const NON_FINITE = /^-?(?:NaN|Infinity)/;

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

/**
 * Whether the byte c, the first after a string's closing quote and white space, may follow a
 * string: what JSON puts there (`:`, `,`, `}`, `]`), and what the repairs here read there (a
 * comment; a quote, a brace, a bracket or a number after a missing comma). A quote followed by
 * anything else (a letter, most punctuation) is taken as the text's own, one its writer did not
 * escape. The JSON reader's scanner finds a string's end by the same bytes.
 */
export function mayFollowString(c: number): boolean {
  return (
    c === COLON ||
    c === COMMA ||
    c === 0x7d ||
    c === 0x5d ||
    c === QUOTE ||
    c === SLASH ||
    c === 0x7b ||
    c === 0x5b ||
    c === 0x2d ||
    (c >= 0x30 && c <= 0x39)
  );
}

/** Whether the quote at k closes its string: the text ends, or mayFollowString comes next. */
function closesText(text: string, k: number): boolean {
  let j = k + 1;
  while (j < text.length && isWhitespace(text.charCodeAt(j))) j++;
  return j === text.length || mayFollowString(text.charCodeAt(j));
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
  };
  /** What came last: an opening bracket, a comma, a colon, or a whole value (or key). */
  let last: 'open' | 'comma' | 'colon' | 'value' = 'open';
  const drop = (i: number) => {
    parts.push(text.slice(from, i));
    from = i + 1;
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
      from = end;
      i = end;
      found.comments++;
      continue;
    }
    if (c === COMMA) {
      let j = i + 1;
      while (j < text.length && isWhitespace(text.charCodeAt(j))) j++;
      const next = text[j];
      if (next === ']' || next === '}') {
        drop(i);
        found.trailingCommas++;
      } else if (last === 'comma' || last === 'open') {
        drop(i);
        found.extraCommas++;
      } else last = 'comma';
      i++;
      continue;
    }
    if (c === COLON) {
      last = 'colon';
      i++;
      continue;
    }
    if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      last = 'value';
      i++;
      continue;
    }
    // A value, or a key, starts here.
    if (last === 'value') {
      parts.push(text.slice(from, i), ',');
      from = i;
      found.missingCommas++;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      last = 'open';
      i++;
      continue;
    }
    last = 'value';
    if (c === QUOTE) {
      // Skip the string, escapes included.
      i++;
      for (;;) {
        while (i < text.length && text.charCodeAt(i) !== QUOTE)
          i += text.charCodeAt(i) === BACKSLASH ? 2 : 1;
        if (!quotesAsText || i >= text.length || closesText(text, i)) break;
        parts.push(text.slice(from, i), '\\');
        from = i;
        found.unescapedQuotes++;
        i++;
      }
      i++;
      continue;
    }
    const match = NON_FINITE.exec(text.slice(i, i + 9));
    if (match) {
      parts.push(text.slice(from, i), 'null');
      i += match[0].length;
      from = i;
      found.nonFinite++;
      continue;
    }
    let end = i + 1;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
    i = end;
  }
  if (Object.values(found).every((n) => n === 0)) return null;
  parts.push(text.slice(from));
  return { text: parts.join(''), ...found };
}
