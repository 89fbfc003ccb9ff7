import { isUtf8 } from 'node:buffer';
import type { ValidationReport } from '../validate/report.ts';

/** How many of the bytes read as Windows-1252 are kept with where they were (a report's examples). */
const CP1252_EXAMPLES = 5;
/** Characters of text shown either side of such a byte. */
const CONTEXT = 24;

const counting = new Intl.NumberFormat('en-US');

/** A byte that was not UTF-8 and was read as Windows-1252: where, and the words around it. */
export interface Cp1252Byte {
  /** Its offset in the file. */
  byte: number;
  /** The offset of its character in the text `decode` has returned so far. */
  char: number;
  /** `0x92 at byte 571,477, read as "’": "…Ea Add’L Seq Diff…"` */
  detail: string;
}

/**
 * Decodes a byte stream that should be UTF-8 but is often Windows-1252 (real files from the wild
 * are), or a mix of both (a UTF-8 export with text pasted in from a Windows program). Each
 * sequence of valid UTF-8 is read as UTF-8 and each other byte as Windows-1252, so a file whose
 * first such byte is deep inside still decodes right, and its UTF-8 text is never harmed by a
 * stray byte beside it. A multi-byte character split across two chunks is held back until the
 * next chunk. The bytes read as Windows-1252 are counted, and the first few kept with their place
 * and the words around them (from the chunk they were in: fewer for a byte at a chunk's edge).
 */
export class Utf8OrCp1252Decoder {
  /** Bytes that were not UTF-8 and were read as Windows-1252. */
  cp1252Bytes = 0;
  /** The first of them, with their place and the text around them. */
  readonly cp1252Examples: Cp1252Byte[] = [];
  private pending: Buffer | null = null;
  private started = false;
  /** The file offset of the next byte `decode` decodes, and the characters it has returned. */
  private offset = 0;
  private chars = 0;
  /** How many of the examples have been reported. */
  private reported = 0;

  /** Where in `decode`'s text the next example not yet reported is (Infinity: none waits). */
  get nextExampleChar(): number {
    return this.cp1252Examples[this.reported]?.char ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Reports, at `location`, the examples not reported yet whose character comes before `end` in
   * `decode`'s text (all of them without an `end`): a CSV row's, or a JSON value's just decoded.
   */
  reportExamples(report: ValidationReport, location: string, end = Number.POSITIVE_INFINITY): void {
    const examples = this.cp1252Examples;
    for (let e = examples[this.reported]; e && e.char < end; e = examples[++this.reported]) {
      report.add('encoding.cp1252', location, e.detail);
    }
  }

  /** At the end of the file: examples still without a place, then the bytes past them, counted. */
  reportRest(report: ValidationReport): void {
    this.reportExamples(report, 'file');
    report.addCount('encoding.cp1252', this.cp1252Bytes - this.cp1252Examples.length, 'file');
  }

  decode(chunk: Buffer, final = false): string {
    let bytes = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    if (!this.started) {
      if (bytes.length < 3 && !final) {
        this.pending = Buffer.from(bytes);
        return '';
      }
      this.started = true;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        bytes = bytes.subarray(3);
        this.offset = 3;
      }
    }
    const cut = final ? bytes.length : incompleteTail(bytes);
    if (cut < bytes.length) this.pending = Buffer.from(bytes.subarray(cut));
    const text = this.decodeComplete(
      cut === bytes.length ? bytes : bytes.subarray(0, cut),
      this.offset,
      this.chars,
    );
    this.offset += cut;
    this.chars += text.length;
    return text;
  }

  /**
   * Decodes bytes known to end on a character boundary (a whole JSON item, say) that start at
   * `offset` in the file (and, for `decode`, at character `chars` of its text).
   */
  decodeComplete(bytes: Buffer, offset: number, chars = 0): string {
    return isUtf8(bytes) ? bytes.toString('utf8') : this.decodeMixed(bytes, offset, chars);
  }

  private decodeMixed(bytes: Buffer, offset: number, chars: number): string {
    const parts: string[] = [];
    /** The new examples: character index in the result, file offset, the byte. */
    const marks: { at: number; byte: number; value: number }[] = [];
    let length = 0;
    let run = 0;
    let i = 0;
    while (i < bytes.length) {
      const b = bytes[i] as number;
      if (b < 0x80) {
        i++;
        continue;
      }
      const sequence = utf8Length(bytes, i);
      if (sequence > 0) {
        i += sequence;
        continue;
      }
      if (run < i) {
        const utf8 = bytes.toString('utf8', run, i);
        parts.push(utf8);
        length += utf8.length;
      }
      if (this.cp1252Examples.length + marks.length < CP1252_EXAMPLES) {
        marks.push({ at: length, byte: offset + i, value: b });
      }
      parts.push(cp1252Char(b));
      length++;
      this.cp1252Bytes++;
      run = ++i;
    }
    if (run < bytes.length) parts.push(bytes.toString('utf8', run));
    const text = parts.join('');
    for (const { at, byte, value } of marks) {
      this.cp1252Examples.push({ byte, char: chars + at, detail: describe(text, at, byte, value) });
    }
    return text;
  }
}

/** `0x92 at byte 571,477, read as "’": "…Ea Add’L Seq Diff…"` */
function describe(text: string, at: number, byte: number, value: number): string {
  const hex = value.toString(16).toUpperCase();
  const from = Math.max(0, at - CONTEXT);
  const to = Math.min(text.length, at + 1 + CONTEXT);
  const around =
    (from > 0 ? '…' : '') +
    text.slice(from, to).replace(/\s+/g, ' ').trim() +
    (to < text.length ? '…' : '');
  return (
    `0x${hex} at byte ${counting.format(byte)}, read as ${JSON.stringify(text.charAt(at))}: ` +
    JSON.stringify(around)
  );
}

/**
 * The length of the valid UTF-8 sequence that starts with the non-ASCII byte at `i`, or 0 when it
 * is not one (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short).
 */
function utf8Length(bytes: Buffer, i: number): number {
  const b = bytes[i] as number;
  let need: number;
  let low = 0x80;
  let high = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) need = 1;
  else if (b >= 0xe0 && b <= 0xef) {
    need = 2;
    if (b === 0xe0) low = 0xa0;
    else if (b === 0xed) high = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 3;
    if (b === 0xf0) low = 0x90;
    else if (b === 0xf4) high = 0x8f;
  } else return 0;
  if (i + need >= bytes.length) return 0;
  const second = bytes[i + 1] as number;
  if (second < low || second > high) return 0;
  for (let k = 2; k <= need; k++) {
    const c = bytes[i + k] as number;
    if (c < 0x80 || c > 0xbf) return 0;
  }
  return need + 1;
}

/** Where an unfinished UTF-8 sequence starts at the end of `bytes` (bytes.length if none). */
function incompleteTail(bytes: Buffer): number {
  const n = bytes.length;
  for (let i = n - 1; i >= 0 && i >= n - 4; i--) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) return n; // ASCII: complete
    if (b >= 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return n - i < need ? i : n;
    }
    // continuation byte: keep looking for the lead byte
  }
  return n;
}

// Windows-1252 differs from Latin-1 only in 0x80–0x9F. (Node's TextDecoder('windows-1252')
// decodes those as Latin-1 C1 controls, so the table is ours.)
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function cp1252Char(byte: number): string {
  return byte < 0xa0 ? CP1252_HIGH.charAt(byte - 0x80) : String.fromCharCode(byte);
}

/**
 * A whole file's bytes as text (a reference file, a cms-hpt.txt): UTF-8 without its byte-order
 * mark, and Windows-1252, as Excel writes it, for the bytes that are not UTF-8.
 */
export function decodeText(bytes: Buffer): string {
  return new Utf8OrCp1252Decoder().decode(bytes, true);
}

/**
 * Bytes that are not text: a zero byte, or control characters other than tab and line ends in
 * more than 1% of the sample (a zip, an xlsx workbook, a PDF, an image). Give it the first few
 * KB; UTF-16 text is told apart first (`utf16Encoding`), as its zero bytes would count here.
 */
export function looksBinary(sample: Uint8Array): boolean {
  let control = 0;
  for (const b of sample) {
    if (b === 0) return true;
    if (b < 0x09 || (b > 0x0d && b < 0x20)) control++;
  }
  return control > sample.length / 100;
}

/** Text that opens as a web page (after a byte-order mark and blanks): what a link to a file often serves instead. */
export function looksLikeHtml(start: string): boolean {
  return /^\ufeff?\s*<(!doctype html|html|head|body|!--)/i.test(start);
}

export type Utf16Encoding = 'utf-16le' | 'utf-16be';

/**
 * UTF-16 from a file's first bytes: a byte-order mark, or, without one, ASCII text with a zero
 * byte beside every character (how Excel's "Unicode Text" and some exporters write). Null for
 * anything else.
 */
export function utf16Encoding(head: Buffer): Utf16Encoding | null {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const pairs = Math.min(head.length, 512) >> 1;
  if (pairs < 4) return null;
  let little = true;
  let big = true;
  for (let i = 0; i < pairs; i++) {
    const a = head[2 * i] as number;
    const b = head[2 * i + 1] as number;
    little &&= a !== 0 && a < 0x80 && b === 0;
    big &&= a === 0 && b !== 0 && b < 0x80;
  }
  return little ? 'utf-16le' : big ? 'utf-16be' : null;
}

/**
 * A UTF-16 byte stream (`first`, then the rest) as UTF-8 bytes, its byte-order mark dropped and a
 * character split across chunks held back until the next one.
 */
export async function* utf16ToUtf8(
  first: Buffer,
  rest: AsyncIterator<Buffer>,
  encoding: Utf16Encoding,
): AsyncGenerator<Buffer> {
  const decoder = new TextDecoder(encoding);
  let ended = false;
  try {
    let chunk: Buffer | null = first;
    while (chunk !== null) {
      const text = decoder.decode(chunk, { stream: true });
      if (text.length > 0) yield Buffer.from(text, 'utf8');
      const next = await rest.next();
      chunk = next.done ? null : next.value;
    }
    ended = true;
    const tail = decoder.decode();
    if (tail.length > 0) yield Buffer.from(tail, 'utf8');
  } finally {
    if (!ended) await rest.return?.();
  }
}
