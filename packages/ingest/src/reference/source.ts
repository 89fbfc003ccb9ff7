import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse as parseStream, type Options as CsvOptions } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { errorMessage } from '@ratelens/core';
import { readSheet } from 'read-excel-file/node';
import type { Response } from 'undici';
import { fetchPublic } from '../read/address-guard.ts';
import { errorText } from '../read/compression.ts';
import { decodeText, looksBinary, utf16Encoding, Utf8OrCp1252Decoder } from '../read/decode.ts';
import { DownloadStall } from '../read/stall.ts';
import { ReferenceFileError } from './errors.ts';

/** A local path or an http(s) URL. */
export type ReferenceSource = string;

function isUrl(source: ReferenceSource): boolean {
  return /^https?:\/\//i.test(source);
}

/** The name to put in errors: the file name of a path, the whole URL. */
export function sourceName(source: ReferenceSource): string {
  return isUrl(source) ? source : basename(source);
}

/**
 * The largest reference file read whole (CBSA, HCPCS, the fee schedule, ZIP5): their parsers hold
 * the text and every row at once, about 13 times the file's size (a 34 MB file peaked at 452 MB
 * RSS), and the official files are under 30 MB. A wrong file past this is refused by its size
 * before it can exhaust the heap.
 */
export const REFERENCE_MAX_BYTES = 100_000_000;

/**
 * The largest reference file read as a stream (NADAC, whose yearly files run to hundreds of MB):
 * memory does not grow with the file; the limit stops a download that never ends.
 */
export const STREAMED_REFERENCE_MAX_BYTES = 2_000_000_000;

/** What went wrong with a local file, in words. */
function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no file at that path';
  if (code === 'EACCES' || code === 'EPERM') return 'a file this process may not read';
  return errorMessage(error);
}

/** Rounded up, so that a file just past the limit does not read as the limit. */
const megabytes = (bytes: number) => `${Math.ceil(bytes / 1e6)} MB`;
const limit = (maxBytes: number) => `a reference file of at most ${megabytes(maxBytes)}`;

async function readLocal(source: string, maxBytes: number): Promise<Buffer> {
  try {
    const info = await stat(source);
    if (info.isDirectory()) throw new ReferenceFileError(source, 'a file', 'a folder');
    if (info.size > maxBytes)
      throw new ReferenceFileError(source, limit(maxBytes), megabytes(info.size));
    return await readFile(source);
  } catch (error) {
    if (error instanceof ReferenceFileError) throw error;
    throw new ReferenceFileError(source, 'a readable file', fileProblem(error));
  }
}

/**
 * The body of a download, chunk by chunk as the reader asks for it, stopped past `maxBytes`. The
 * stall time runs only while waiting on the server, not while the reader works on a chunk.
 */
async function* downloadChunks(
  source: string,
  maxBytes: number,
  stallMs?: number,
): AsyncGenerator<Buffer> {
  // A server that accepts the connection and then sends nothing is given up after the stall time.
  const stall = new DownloadStall(stallMs);
  let response: Response;
  try {
    stall.arm();
    // As the hospital ingest reads: public addresses only, redirects checked (a cms-hpt.txt list
    // is read here, at whatever address a hospital's site sends the request to).
    response = await fetchPublic(source, { signal: stall.signal() });
  } catch (error) {
    // Worded as the hospital ingest words it: "fetch failed (getaddrinfo ENOTFOUND …)", or what
    // a port fetch refuses (6000, 25…) is.
    const reason = stall.stalled ? `no answer within ${stall.words}` : errorText(error);
    throw new ReferenceFileError(source, 'a download', reason);
  } finally {
    stall.answered();
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ReferenceFileError(source, 'an HTTP 200 response', `HTTP ${response.status}`);
  }
  let bytes = 0;
  try {
    stall.arm();
    for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
      stall.pause(chunk.length);
      bytes += chunk.length;
      // Counted as it arrives: a server need not say the length, nor tell the truth about it.
      // Leaving the loop cancels the download.
      if (bytes > maxBytes) throw new ReferenceFileError(source, limit(maxBytes), 'more than that');
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      stall.arm();
    }
  } catch (error) {
    if (error instanceof ReferenceFileError) throw error;
    const reason = stall.stalled ? stall.why : errorMessage(error);
    throw new ReferenceFileError(
      source,
      'a whole download',
      `it broke off after ${bytes} bytes (${reason})`,
    );
  } finally {
    stall.pause();
  }
}

async function download(source: string, maxBytes: number, stallMs?: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of downloadChunks(source, maxBytes, stallMs)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A local file, chunk by chunk, refused as `readLocal` refuses it (a folder, past `maxBytes`). */
async function* localChunks(source: string, maxBytes: number): AsyncGenerator<Buffer> {
  try {
    const info = await stat(source);
    if (info.isDirectory()) throw new ReferenceFileError(source, 'a file', 'a folder');
    if (info.size > maxBytes)
      throw new ReferenceFileError(source, limit(maxBytes), megabytes(info.size));
  } catch (error) {
    if (error instanceof ReferenceFileError) throw error;
    throw new ReferenceFileError(source, 'a readable file', fileProblem(error));
  }
  let bytes = 0;
  const chunks = createReadStream(source, { highWaterMark: STREAM_CHUNK_BYTES });
  try {
    for await (const chunk of chunks as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      // A file still being written may grow past the limit after it was measured.
      if (bytes > maxBytes) throw new ReferenceFileError(source, limit(maxBytes), 'more than that');
      yield chunk;
    }
  } catch (error) {
    if (error instanceof ReferenceFileError) throw error;
    throw new ReferenceFileError(source, 'a readable file', fileProblem(error));
  } finally {
    chunks.destroy();
  }
}

/** The size of the chunks a local file is read in. */
const STREAM_CHUNK_BYTES = 64 * 1024;

/** The scheme of `ftp://…`, `s3://…`, `file://…`: URLs of schemes this does not read. */
const otherScheme = (source: ReferenceSource) => /^([a-z][a-z0-9+.-]*):\/\//i.exec(source)?.[1];

function refuseOtherScheme(source: ReferenceSource): void {
  const scheme = !isUrl(source) && otherScheme(source);
  if (scheme) {
    throw new ReferenceFileError(source, 'a path or an http(s) URL', `the scheme ${scheme}://`);
  }
}

/**
 * The bytes of a reference file, read from disk or downloaded, whole. An empty file is a
 * ReferenceFileError saying so, not a file each parser finds no header in.
 */
export async function readSource(
  source: ReferenceSource,
  maxBytes = REFERENCE_MAX_BYTES,
  stallMs?: number,
): Promise<Buffer> {
  refuseOtherScheme(source);
  const bytes = isUrl(source)
    ? await download(source, maxBytes, stallMs)
    : await readLocal(source, maxBytes);
  if (bytes.length === 0) throw new ReferenceFileError(source, 'a reference file', 'an empty file');
  return bytes;
}

/** What bytes that are not text are, from their first bytes, for an error. */
function binaryKind(bytes: Buffer): string {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'a zip archive (an xlsx workbook is one)';
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip data';
  if (bytes.subarray(0, 4).toString('latin1') === '%PDF') return 'a PDF';
  return 'binary data';
}

/**
 * A reference file's bytes as text: UTF-16 (Excel's "Unicode Text") by its byte-order mark or
 * zero bytes, else UTF-8 or Windows-1252 (`decodeText`). Bytes that are not text (the zip CMS
 * ships a file in, a workbook) are a ReferenceFileError, not a header of garbage.
 */
export function referenceText(bytes: Buffer, file: string): string {
  const utf16 = utf16Encoding(bytes);
  if (utf16) return new TextDecoder(utf16).decode(bytes);
  if (looksBinary(bytes.subarray(0, 4096))) {
    throw new ReferenceFileError(file, 'a text file', binaryKind(bytes));
  }
  return decodeText(bytes);
}

export async function readSourceText(source: ReferenceSource): Promise<string> {
  return referenceText(await readSource(source), sourceName(source));
}

/**
 * A table read whole: an xlsx workbook's first sheet (told by content, a zip's "PK", not by name)
 * or delimited text. `sheet` says which, for naming places ("row 3" or "line 3").
 */
export async function readTableRows(
  source: ReferenceSource,
): Promise<{ file: string; sheet: boolean; rows: readonly (readonly unknown[])[] }> {
  const file = sourceName(source);
  const bytes = await readSource(source);
  const sheet = bytes.subarray(0, 2).toString('latin1') === 'PK';
  const rows: readonly (readonly unknown[])[] = sheet
    ? await readSheet(bytes).catch((cause: unknown) => {
        const found = errorMessage(cause);
        throw new ReferenceFileError(file, 'an xlsx workbook that can be read', found, { cause });
      })
    : parseCsvRows(referenceText(bytes, file), file);
  return { file, sheet, rows };
}

/** YYYY-MM-DD when year, month and day are a day of the calendar ("2025", "2", "29": no), else null. */
export function calendarDate(year: string, month: string, day: string): string | null {
  const [y, m, d] = [Number(year), Number(month), Number(day)];
  const date = new Date(Date.UTC(y, m - 1, d));
  const real =
    y >= 1000 &&
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === m - 1 &&
    date.getUTCDate() === d;
  return real ? `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}` : null;
}

/**
 * The bytes of a reference file as they are read, from disk or downloaded, for a reader that
 * streams (`readSource` reads them whole): refused as `readSource` refuses them (a scheme it does
 * not read, a folder, past `maxBytes`, an empty file), a download past `maxBytes` as it comes.
 */
export async function* sourceChunks(
  source: ReferenceSource,
  maxBytes = STREAMED_REFERENCE_MAX_BYTES,
  stallMs?: number,
  /** Told the bytes read so far after each chunk: a local file's size is known, a URL's not. */
  onBytes?: (bytes: number, total: number | null) => void,
): AsyncGenerator<Buffer> {
  refuseOtherScheme(source);
  let bytes = 0;
  const chunks = isUrl(source)
    ? downloadChunks(source, maxBytes, stallMs)
    : localChunks(source, maxBytes);
  let total: number | null = null;
  for await (const chunk of chunks) {
    if (onBytes && bytes === 0 && !isUrl(source))
      total = (await stat(source).catch(() => null))?.size ?? null;
    bytes += chunk.length;
    onBytes?.(bytes, total);
    if (chunk.length > 0) yield chunk;
  }
  if (bytes === 0) throw new ReferenceFileError(source, 'a reference file', 'an empty file');
}

/** How many of a file's first bytes `referenceText` judges it by (`looksBinary`, UTF-16). */
const SNIFF_BYTES = 4096;

/**
 * `referenceText` for bytes that come chunk by chunk: the same encodings (UTF-16 by its mark or
 * zero bytes, else UTF-8 or Windows-1252, a UTF-8 byte-order mark dropped) and the same refusal of
 * bytes that are not text, judged by the same first bytes; a character split between two chunks is
 * held back until the next.
 */
export async function* referenceTextChunks(
  chunks: AsyncIterable<Buffer>,
  file: string,
): AsyncGenerator<string> {
  const iterator = chunks[Symbol.asyncIterator]();
  let ended = false;
  try {
    const head: Buffer[] = [];
    let headBytes = 0;
    while (headBytes < SNIFF_BYTES) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      headBytes += next.value.length;
    }
    const first = Buffer.concat(head);
    const utf16 = utf16Encoding(first);
    if (!utf16 && looksBinary(first.subarray(0, SNIFF_BYTES))) {
      throw new ReferenceFileError(file, 'a text file', binaryKind(first));
    }
    let decode: (chunk: Buffer, final?: boolean) => string;
    if (utf16) {
      const decoder = new TextDecoder(utf16);
      decode = (chunk, final = false) => decoder.decode(chunk, { stream: !final });
    } else {
      const decoder = new Utf8OrCp1252Decoder();
      decode = (chunk, final = false) => decoder.decode(chunk, final);
    }
    let chunk: Buffer | undefined = first;
    while (chunk) {
      const text = decode(chunk);
      if (text !== '') yield text;
      const next = ended ? undefined : await iterator.next();
      if (!next || next.done) {
        ended = true;
        chunk = undefined;
      } else chunk = next.value;
    }
    const tail = decode(Buffer.alloc(0), true);
    if (tail !== '') yield tail;
  } finally {
    if (!ended) await iterator.return?.();
  }
}

/**
 * All records of a CSV text as arrays of cells, ragged rows allowed (banners and footnotes), as
 * csv-parse reads them with `options`. A quote inside an unquoted cell is kept as text (Excel
 * reads `12" tubing` so); what cannot be read as CSV at all (a quote never closed) is a
 * ReferenceFileError naming the file and the line. The delimiter is `csvDelimiter`'s unless given.
 */
export function parseCsvRows(
  text: string,
  file: string,
  options: { onRecord?: (record: string[]) => string[]; delimiter?: CsvDelimiter } = {},
): string[][] {
  try {
    return parse(text, {
      ...csvOptions(options.delimiter ?? csvDelimiter(text)),
      ...(options.onRecord ? { on_record: options.onRecord } : {}),
    });
  } catch (cause) {
    throw new ReferenceFileError(file, 'a CSV file', errorMessage(cause), { cause });
  }
}

/** How csv-parse reads a reference CSV, whole (`parseCsvRows`) or streamed (`csvRecordStream`). */
function csvOptions(delimiter: CsvDelimiter): CsvOptions {
  return {
    delimiter,
    // Any line end, mixed too: told from the first line alone, a CRLF file with one line
    // ended LF (an edit) joined that row to the next, whose code was lost without a word.
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    bom: true,
  };
}

/** The most text `csvRecordStream` holds to judge the delimiter by (its first 40 lines). */
const DELIMITER_SAMPLE_CHARS = 1 << 20;

/** Whether `text` holds the first lines `csvDelimiter` reads, whole. */
function holdsDelimiterSample(text: string): boolean {
  const ends = /\r\n|\n|\r/g;
  let lines = 0;
  let start = 0;
  for (let end = ends.exec(text); end; end = ends.exec(text)) {
    if (/\S/.test(text.slice(start, end.index))) lines += 1;
    if (lines >= DELIMITER_SAMPLE_LINES) return true;
    start = ends.lastIndex;
  }
  return false;
}

/**
 * `parseCsvRows` for a text that comes in chunks (`referenceTextChunks`): the same records, read
 * with the same options, one at a time, so that a file of any size is read in little memory. The
 * delimiter is `csvDelimiter`'s of the first 40 lines that are not blank (of their first MiB, when
 * longer). What cannot be read as CSV is a ReferenceFileError naming the file and the line, as
 * `parseCsvRows` words it; an error of the text's own (a download broken off) comes out as it is.
 */
export async function* csvRecordStream(
  text: AsyncIterable<string>,
  file: string,
): AsyncGenerator<string[]> {
  const iterator = text[Symbol.asyncIterator]();
  let sample = '';
  let ended = false;
  while (sample.length < DELIMITER_SAMPLE_CHARS && !holdsDelimiterSample(sample)) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    sample += next.value;
  }
  // Cut at a line end: a line the sample cuts in two would be judged by its first part.
  const lastEnd = Math.max(sample.lastIndexOf('\n'), sample.lastIndexOf('\r'));
  const judged =
    ended || holdsDelimiterSample(sample) || lastEnd < 0 ? sample : sample.slice(0, lastEnd + 1);
  const parser = parseStream(csvOptions(csvDelimiter(judged)));
  async function* all(): AsyncGenerator<string> {
    try {
      if (sample !== '') yield sample;
      sample = '';
      while (!ended) {
        const next = await iterator.next();
        if (next.done) ended = true;
        else yield next.value;
      }
    } finally {
      if (!ended) await iterator.return?.();
    }
  }
  // An error of either side ends both: the parser's reader sees it, the text is let go.
  const piping = pipeline(Readable.from(all()), parser);
  piping.catch(() => undefined);
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield record;
    await piping;
  } catch (cause) {
    if (cause instanceof CsvError) {
      throw new ReferenceFileError(file, 'a CSV file', errorMessage(cause), { cause });
    }
    throw cause;
  }
}

/** The delimiters a reference CSV is read with, in the order a tie is settled. */
const DELIMITERS = [',', '\t', ';'] as const;
export type CsvDelimiter = (typeof DELIMITERS)[number];

/** How many lines that are not blank `csvDelimiter` looks at. */
const DELIMITER_SAMPLE_LINES = 40;

/**
 * How many cells `line` splits into at `delimiter`, reading quotes as the parser does: a cell
 * that starts with a quote runs to its closing quote ("" inside it is a quote); a quote inside an
 * unquoted cell is text.
 */
function cellCount(line: string, delimiter: string): number {
  let cells = 1;
  let quoted = false;
  let cellStart = true;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (quoted) {
      if (char === '"') {
        if (line[i + 1] === '"') i += 1;
        else quoted = false;
      }
    } else if (char === delimiter) {
      cells += 1;
      cellStart = true;
      continue;
    } else if (char === '"' && cellStart) {
      quoted = true;
    }
    cellStart = false;
  }
  return cells;
}

/**
 * The delimiter of a CSV text: the one that splits the most of its first lines into the same
 * number of cells (more than one). Judged over lines, not the first alone: published files open
 * with a banner ("ADDENDUM E. …" over a ';' table, a title with commas over a tab-delimited
 * List 1), and a cell's text has the other marks ("Abilene, TX" in a tab file). A tie goes to the
 * one that gives more cells, then to comma, tab, semicolon in that order; none splitting any line
 * is a comma.
 */
export function csvDelimiter(text: string): CsvDelimiter {
  const lines: string[] = [];
  // Line by line from the start: a file is up to 500 MB, and only its first lines are needed.
  const ends = /\r\n|\n|\r/g;
  let start = 0;
  while (lines.length < DELIMITER_SAMPLE_LINES && start < text.length) {
    const end = ends.exec(text);
    const line = text.slice(start, end ? end.index : text.length);
    if (/\S/.test(line)) lines.push(line);
    if (!end) break;
    start = ends.lastIndex;
  }
  let best: { delimiter: CsvDelimiter; lines: number; cells: number } = {
    delimiter: ',',
    lines: 0,
    cells: 0,
  };
  for (const delimiter of DELIMITERS) {
    const byCells = new Map<number, number>();
    for (const line of lines) {
      const cells = cellCount(line, delimiter);
      if (cells > 1) byCells.set(cells, (byCells.get(cells) ?? 0) + 1);
    }
    for (const [cells, count] of byCells) {
      if (count > best.lines || (count === best.lines && cells > best.cells)) {
        best = { delimiter, lines: count, cells };
      }
    }
  }
  return best.delimiter;
}

/** The decimal mark of a CSV text: a comma where cells are split by semicolons (Excel's CSV
 * where the comma is the decimal mark), else a point. */
export function csvDecimalMark(text: string): DecimalMark {
  return csvDelimiter(text) === ';' ? ',' : '.';
}

/** "Locality Number", "NADAC_Per_Unit", " ndc description " → "locality_number", … */
export function normaliseHeader(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export type DecimalMark = '.' | ',';

/** Plain decimal text, the mark written as `.`: an optional sign, digits, at most one mark. */
const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/** "1,234.5": thousands grouped with commas, a point as the mark. */
const COMMA_GROUPED = /^[+-]?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$/;
/** "1.234,5" or "1.234": thousands grouped with points, a comma as the mark. */
const POINT_GROUPED = /^[+-]?[1-9]\d{0,2}(?:\.\d{3})+(?:,\d+)?$/;

/**
 * A decimal cell, or a ReferenceFileError naming the row. Empty is null. Only plain decimal
 * text is a number: an optional sign, digits, one decimal mark, and a leading "$"; not "0x10",
 * "1e3" or "Infinity", which `Number()` reads. A value that cannot be negative is the caller's
 * to refuse.
 *
 * `decimalMark` is the file's: "," where its cells are split by semicolons (`csvDecimalMark`).
 * The other mark is read only as the thousands separator it unambiguously is: "1,234.5" with a
 * point, "1.234,5" with a comma, groups of three after a first group not starting with 0. So
 * "0,869" is never 869. With a comma as the mark, "1.234" may be either and is refused; "0.869" or
 * "1.5", which no thousands separator writes, are read with a point.
 */
export function parseDecimal(
  value: string | undefined,
  file: string,
  where: string,
  decimalMark: DecimalMark = '.',
): number | null {
  const text = (value ?? '').trim().replace(/^\$/, '');
  if (text === '') return null;
  let plain: string | null = null;
  if (decimalMark === '.') {
    if (PLAIN_DECIMAL.test(text)) plain = text;
    else if (COMMA_GROUPED.test(text)) plain = text.replace(/,/g, '');
  } else if (!text.includes('.')) {
    const point = text.replace(',', '.');
    if (PLAIN_DECIMAL.test(point)) plain = point;
  } else if (POINT_GROUPED.test(text)) {
    if (!text.includes(',')) {
      throw new ReferenceFileError(
        file,
        `a number at ${where}`,
        `${text}, thousands or a decimal point in a file whose decimal mark is ","`,
      );
    }
    plain = text.replace(/\./g, '').replace(',', '.');
  } else if (PLAIN_DECIMAL.test(text)) plain = text;
  const number = plain === null ? NaN : Number(plain);
  if (!Number.isFinite(number)) throw new ReferenceFileError(file, `a number at ${where}`, text);
  return number;
}

/**
 * Refuses a file cut short: its last line that is not blank has fewer cells than its header and
 * no line end after it, as a download or a copy that stopped in the middle of a line leaves it
 * ("99214,,x,A,1.9"). A row's missing cells would otherwise read as empty, or as zero.
 */
export function refuseCutLastLine(
  text: string,
  records: readonly (readonly string[])[],
  headerWidth: number,
  file: string,
): void {
  if (/[\r\n]/.test(text.slice(text.trimEnd().length))) return;
  for (let r = records.length - 1; r >= 0; r -= 1) {
    const record = records[r] ?? [];
    if (record.every((cell) => cell.trim() === '')) continue;
    if (record.length < headerWidth) {
      throw new ReferenceFileError(
        file,
        `a last line of ${headerWidth} cells, as the header has`,
        `${record.length} at line ${r + 1}, with no line end: the file is cut short`,
      );
    }
    return;
  }
}

/**
 * Whether a row below a header is a note or a blank rather than a record: published files end
 * their tables with footnotes ("MAC Assignments as of …") in one cell. A row with more cells
 * filled is a record, whose key must then be read, not the row skipped.
 */
export function isNoteRow(row: readonly unknown[]): boolean {
  const filled = row.filter((cell) =>
    typeof cell === 'string' ? cell.trim() !== '' : cell !== null && cell !== undefined,
  );
  return filled.length <= 1;
}

/**
 * Records by the key of the table they load into. A record that repeats an earlier one of its
 * key whole is dropped (rows pasted in twice); one that differs from it is a ReferenceFileError
 * naming both lines, as the database would keep only one of them.
 */
export class KeyedRecords<T> {
  readonly records: T[] = [];
  private readonly seen = new Map<string, { where: string; json: string }>();

  constructor(
    private readonly file: string,
    /** What the key is, in words: "county FIPS", "ZIP". */
    private readonly label: string,
  ) {}

  add(key: string, record: T, where: string): void {
    const json = JSON.stringify(record);
    const earlier = this.seen.get(key);
    if (!earlier) {
      this.seen.set(key, { where, json });
      this.records.push(record);
    } else if (earlier.json !== json) {
      throw new ReferenceFileError(
        this.file,
        `one record for each ${this.label}`,
        `two that differ for ${key}, at ${earlier.where} and ${where}`,
      );
    }
  }
}

/** How many other refused rows a RowProblems error names. */
const OTHER_ROWS_NAMED = 5;

/**
 * The problems of a file's rows. A reference file loads whole or not at all (ADR 0011), but one
 * bad row should not hide the others: each row is read, and the error names the first problem
 * and how many other rows were refused, with where the first few are. A problem found after the
 * rows were read (two NADAC rows that differ, found by the database) is put in its place by `at`.
 */
export class RowProblems {
  /** The first problems by their place in the file: the first, and the others named. */
  private readonly named: { at: number; where: string; error: ReferenceFileError }[] = [];
  private count = 0;
  private next = 0;

  /**
   * Reads one row; a ReferenceFileError it throws is kept, and the next row may be read. `at`: the
   * row's place in the file (its line), needed only when problems are also `add`ed out of order.
   */
  row(where: string, read: () => void, at = this.next): void {
    this.next = at + 1;
    try {
      read();
    } catch (error) {
      if (!(error instanceof ReferenceFileError)) throw error;
      this.add(error, where, at);
    }
  }

  /** A problem of the row at `at` (its place, as `row` was given it), found some other way. */
  add(error: ReferenceFileError, where: string, at: number): void {
    this.count += 1;
    let i = this.named.length;
    while (i > 0 && (this.named[i - 1]?.at ?? 0) > at) i -= 1;
    if (i > OTHER_ROWS_NAMED) return;
    this.named.splice(i, 0, { at, where, error });
    this.named.length = Math.min(this.named.length, OTHER_ROWS_NAMED + 1);
  }

  /**
   * More problems, counted and not named: of rows that come after the first few named already
   * (those the database found past the ones it named), so that none of them would be named.
   */
  addCount(count: number): void {
    this.count += count;
  }

  /** How many rows were refused. */
  get refused(): number {
    return this.count;
  }

  /**
   * Throws the first problem, counting the rows refused after it; nothing when there was none.
   * `accepted`: how many rows were read, none meaning the whole file is not of the kind.
   */
  check(accepted: number): void {
    const [first, ...others] = this.named;
    if (!first) return;
    const { error } = first;
    throw new ReferenceFileError(error.file, error.expected, error.found, {
      cause: error,
      otherRows: { count: this.count - 1, first: others.map((o) => o.where), all: accepted === 0 },
    });
  }
}
