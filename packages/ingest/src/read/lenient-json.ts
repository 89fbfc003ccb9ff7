/**
 * What JSON.parse refuses but a reasonable reader can read, in a value the JSON reader has cut
 * out of a file: the bare `NaN`, `Infinity` and `-Infinity` that Python's `json.dump` writes for
 * missing or infinite floats unless told not to (read as null: no value), and a comma before a
 * closing bracket or brace, as hand-edited files have (dropped). Only tried after JSON.parse
 * failed, so clean files never pay for it.
 */
export interface LenientText {
  text: string;
  /** How many NaN and Infinity values were read as null. */
  nonFinite: number;
  /** How many trailing commas were dropped. */
  trailingCommas: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const NON_FINITE = /^-?(?:NaN|Infinity)/;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** The text with those repaired, or null when it has none of them (so it is broken otherwise). */
export function lenientJson(text: string): LenientText | null {
  const parts: string[] = [];
  let from = 0;
  let nonFinite = 0;
  let trailingCommas = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string, escapes included.
      i++;
      while (i < text.length && text.charCodeAt(i) !== QUOTE)
        i += text.charCodeAt(i) === BACKSLASH ? 2 : 1;
      i++;
      continue;
    }
    if (c === COMMA) {
      let j = i + 1;
      while (j < text.length && isWhitespace(text.charCodeAt(j))) j++;
      const next = text[j];
      if (next === ']' || next === '}') {
        parts.push(text.slice(from, i));
        from = i + 1;
        trailingCommas++;
      }
      i++;
      continue;
    }
    if (c === 0x4e /* N */ || c === 0x49 /* I */ || c === 0x2d /* - */) {
      const match = NON_FINITE.exec(text.slice(i, i + 9));
      if (match) {
        parts.push(text.slice(from, i), 'null');
        i += match[0].length;
        from = i;
        nonFinite++;
        continue;
      }
    }
    i++;
  }
  if (nonFinite === 0 && trailingCommas === 0) return null;
  parts.push(text.slice(from));
  return { text: parts.join(''), nonFinite, trailingCommas };
}
