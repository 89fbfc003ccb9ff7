import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parse } from 'csv-parse/sync';
import { errorMessage } from '@ratelens/core';
import type { Response } from 'undici';
import { fetchPublic } from '../read/address-guard.ts';
import { errorText } from '../read/compression.ts';
import { decodeText, looksBinary, utf16Encoding } from '../read/decode.ts';
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

/** The largest reference file read: they are read whole, and V8's strings stop at about 512 MB. */
export const REFERENCE_MAX_BYTES = 500_000_000;

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

async function download(source: string, maxBytes: number, stallMs?: number): Promise<Buffer> {
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
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    stall.arm();
    for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
      stall.pause(chunk.length);
      stall.arm();
      bytes += chunk.length;
      // Counted as it arrives: a server need not say the length, nor tell the truth about it.
      // Leaving the loop cancels the download.
      if (bytes > maxBytes) throw new ReferenceFileError(source, limit(maxBytes), 'more than that');
      chunks.push(chunk);
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
  return Buffer.concat(chunks);
}

/** The scheme of `ftp://…`, `s3://…`, `file://…`: URLs of schemes this does not read. */
const otherScheme = (source: ReferenceSource) => /^([a-z][a-z0-9+.-]*):\/\//i.exec(source)?.[1];

/**
 * The bytes of a reference file, read from disk or downloaded, whole. An empty file is a
 * ReferenceFileError saying so, not a file each parser finds no header in.
 */
export async function readSource(
  source: ReferenceSource,
  maxBytes = REFERENCE_MAX_BYTES,
  stallMs?: number,
): Promise<Buffer> {
  const scheme = !isUrl(source) && otherScheme(source);
  if (scheme) {
    throw new ReferenceFileError(source, 'a path or an http(s) URL', `the scheme ${scheme}://`);
  }
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
      delimiter: options.delimiter ?? csvDelimiter(text),
      // Any line end, mixed too: told from the first line alone, a CRLF file with one line
      // ended LF (an edit) joined that row to the next, whose code was lost without a word.
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
      ...(options.onRecord ? { on_record: options.onRecord } : {}),
    });
  } catch (cause) {
    throw new ReferenceFileError(file, 'a CSV file', errorMessage(cause), { cause });
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
 * and how many other rows were refused, with where the first few are.
 */
export class RowProblems {
  private first: ReferenceFileError | null = null;
  private readonly others: string[] = [];
  private count = 0;

  /** Reads one row; a ReferenceFileError it throws is kept, and the next row may be read. */
  row(where: string, read: () => void): void {
    try {
      read();
    } catch (error) {
      if (!(error instanceof ReferenceFileError)) throw error;
      if (!this.first) this.first = error;
      else {
        this.count += 1;
        if (this.others.length < OTHER_ROWS_NAMED) this.others.push(where);
      }
    }
  }

  /**
   * Throws the first problem, counting the rows refused after it; nothing when there was none.
   * `accepted`: how many rows were read, none meaning the whole file is not of the kind.
   */
  check(accepted: number): void {
    const { first } = this;
    if (!first) return;
    throw new ReferenceFileError(first.file, first.expected, first.found, {
      cause: first,
      otherRows: { count: this.count, first: this.others, all: accepted === 0 },
    });
  }
}
