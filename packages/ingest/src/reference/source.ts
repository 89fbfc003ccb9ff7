import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parse } from 'csv-parse/sync';
import { errorMessage } from '@ratelens/core';
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
    response = await fetch(source, { signal: stall.signal() });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    const reason = stall.stalled
      ? `no answer within ${stall.words}`
      : cause instanceof Error
        ? cause.message
        : String(error);
    throw new ReferenceFileError(source, 'a download', `it failed (${reason})`);
  } finally {
    stall.pause();
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
      stall.arm();
      bytes += chunk.length;
      // Counted as it arrives: a server need not say the length, nor tell the truth about it.
      // Leaving the loop cancels the download.
      if (bytes > maxBytes) throw new ReferenceFileError(source, limit(maxBytes), 'more than that');
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ReferenceFileError) throw error;
    const reason = stall.stalled
      ? `the server sent nothing for ${stall.words}`
      : errorMessage(error);
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

/** The bytes of a reference file, read from disk or downloaded, whole. */
export function readSource(
  source: ReferenceSource,
  maxBytes = REFERENCE_MAX_BYTES,
  stallMs?: number,
): Promise<Buffer> {
  return isUrl(source) ? download(source, maxBytes, stallMs) : readLocal(source, maxBytes);
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
 * ReferenceFileError naming the file and the line.
 */
export function parseCsvRows(
  text: string,
  file: string,
  options: { onRecord?: (record: string[]) => string[] } = {},
): string[][] {
  try {
    return parse(text, {
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

/** "Locality Number", "NADAC_Per_Unit", " ndc description " → "locality_number", … */
export function normaliseHeader(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** A decimal cell, or a ReferenceFileError naming the row. Empty is null. */
export function parseDecimal(
  value: string | undefined,
  file: string,
  where: string,
): number | null {
  const text = (value ?? '').trim().replace(/^\$/, '').replace(/,/g, '');
  if (text === '') return null;
  const number = Number(text);
  if (!Number.isFinite(number)) throw new ReferenceFileError(file, `a number at ${where}`, text);
  return number;
}
