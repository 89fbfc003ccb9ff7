import { isUtf8 } from 'node:buffer';

/**
 * Decodes a byte stream that should be UTF-8 but is often Windows-1252 (real files from the wild
 * are). Each chunk is decoded as UTF-8 when it is valid UTF-8 and as Windows-1252 otherwise, so a
 * file whose first invalid byte is deep inside still decodes right, and a UTF-8 file is never
 * harmed by a stray byte elsewhere. A multi-byte character split across two chunks is held back
 * until the next chunk.
 */
export class Utf8OrCp1252Decoder {
  /** Chunks that had to be decoded as Windows-1252. */
  cp1252Chunks = 0;
  private pending: Buffer | null = null;
  private started = false;

  decode(chunk: Buffer, final = false): string {
    let bytes = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    if (!this.started) {
      if (bytes.length < 3 && !final) {
        this.pending = Buffer.from(bytes);
        return '';
      }
      this.started = true;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    const cut = final ? bytes.length : incompleteTail(bytes);
    if (cut < bytes.length) this.pending = Buffer.from(bytes.subarray(cut));
    return this.decodeComplete(cut === bytes.length ? bytes : bytes.subarray(0, cut));
  }

  /** Decodes bytes known to end on a character boundary (a whole JSON item, say). */
  decodeComplete(bytes: Buffer): string {
    if (isUtf8(bytes)) return bytes.toString('utf8');
    this.cp1252Chunks++;
    return cp1252(bytes);
  }
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
const C1 = /[\x80-\x9f]/g;

export function cp1252(bytes: Buffer): string {
  const latin1 = bytes.toString('latin1');
  return latin1.replace(C1, (c) => CP1252_HIGH.charAt(c.charCodeAt(0) - 0x80));
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
