import type { ChargeRecord, MrfHeader } from '../model.ts';
import { ValidationReport } from '../validate/report.ts';
import { CsvMrfParser } from './csv-reader.ts';
import { looksBinary, looksLikeHtml, utf16Encoding, utf16ToUtf8 } from './decode.ts';
import { MrfReadError } from './errors.ts';
import { JsonMrfParser } from './json-reader.ts';
import type { FormatParser } from './parser.ts';
import { displayName, openSource, type HttpValidators, type SourceStats } from './source.ts';

export { MrfReadError, type MrfReadErrorCode } from './errors.ts';
export { ValidationReport } from '../validate/report.ts';
export type { HttpValidators, SourceStats } from './source.ts';
export { zipFiles } from './source.ts';

export interface ReadOptions {
  onProgress?: (bytesRead: number, totalBytes: number | null) => void;
  signal?: AbortSignal;
  /** Read size for local files (default 64 KiB). */
  chunkSize?: number;
  /** How long a server may keep a download waiting (default 60 s). */
  stallMs?: number;
  /** For a URL: download it only if it changed since the copy with these validators (see SourceOptions). */
  ifChanged?: HttpValidators;
  /** For a file read by name from a zip archive: read it only if it changed (see SourceOptions). */
  ifEntryChanged?: { crc32: number; bytes: number };
}

export interface MrfReader {
  header: MrfHeader;
  /** The charges, one by one; iterate once. Throws MrfReadError if the file breaks later on. */
  records: AsyncIterable<ChargeRecord>;
  /**
   * Whether the header may still change who the hospital is (its name or licence written after
   * the items of a JSON file): then only the header as it is once the records have been read to
   * their end says which hospital the file is.
   */
  identityPending(): boolean;
  /** Filled as records are consumed; final once the iteration has ended. */
  report: ValidationReport;
  /** Bytes read and SHA-256 of the file as published; final once the iteration has ended. */
  stats(): SourceStats;
  /**
   * Lets go of the file or the download when the records will not be read to the end (iterating
   * to the end, or leaving a started iteration, does it already).
   */
  close(): Promise<void>;
}

/**
 * Opens a hospital machine-readable file (local path or http(s) URL; plain, gzip or zip; JSON,
 * tall or wide CSV; CMS 2.0.0 to 3.0.0) and reads up to its header. Throws MrfReadError when the
 * file cannot be read at all; everything smaller lands in the report.
 */
export async function openMrf(source: string, options: ReadOptions = {}): Promise<MrfReader> {
  const report = new ValidationReport();
  let iterator: AsyncIterator<Buffer> | undefined;
  try {
    const opened = await openSource(source, options);
    iterator = opened.chunks[Symbol.asyncIterator]();
    // What the start tells (UTF-16, binary, the format) is told from as many bytes however the
    // file arrives: a download's chunks may be a few bytes long.
    let { held, ended } = await readOn(iterator, [], () => false, UTF16_SAMPLE);
    const utf16 = held.length === 0 ? null : utf16Encoding(Buffer.concat(held));
    if (utf16) {
      // Read as UTF-8 from here on; the hash and byte counts stay those of the file.
      report.add('encoding.utf-16', `file (${utf16.toUpperCase()})`);
      iterator = utf16ToUtf8(Buffer.concat(held), iterator, utf16);
      held = [];
      ended = false;
    }
    // The format is told from the file's first text: white space or comments alone do not tell
    // it, and the binary check wants a full sample after them.
    if (!ended)
      ({ held, ended } = await readOn(iterator, held, (start) => !untold(start), SNIFF_BYTES));
    const head = held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held);
    if (head.length === 0) {
      throw new MrfReadError('empty-file', `The file ${displayName(source)} has no content.`);
    }
    const parser = chooseParser(head, report);
    parser.push(head);
    if (ended) parser.end();
    while (parser.header === null && !ended) {
      const next = await iterator.next();
      if (next.done) {
        parser.end();
        ended = true;
      } else parser.push(next.value);
    }
    const header = parser.header;
    if (header === null) throw new MrfReadError('not-a-mrf', 'The file has no readable header.');
    const chunks = iterator;
    return {
      header,
      identityPending: () => parser.identityPending === true,
      report,
      records: records(parser, chunks, ended, report, () => {
        for (const name of opened.stats().otherFiles) report.add('archive.other-file', name);
      }),
      stats: () => opened.stats(),
      close: async () => {
        await chunks.return?.();
      },
    };
  } catch (error) {
    // A file refused at its start is let go at once.
    await iterator?.return?.().catch(() => undefined);
    throw fail(error, report, options.signal);
  }
}

async function* records(
  parser: FormatParser,
  iterator: AsyncIterator<Buffer>,
  alreadyEnded: boolean,
  report: ValidationReport,
  /** Once the file has been read to its end. */
  onEnd: () => void,
): AsyncGenerator<ChargeRecord> {
  const out = parser.out;
  let ended = alreadyEnded;
  try {
    for (;;) {
      for (let i = 0; i < out.length; i++) yield out[i] as ChargeRecord;
      out.length = 0;
      if (ended) {
        onEnd();
        return;
      }
      const next = await iterator.next();
      if (next.done) {
        parser.end();
        ended = true;
      } else parser.push(next.value);
    }
  } catch (error) {
    throw fail(error, report, undefined);
  } finally {
    if (!ended) await iterator.return?.();
  }
}

function fail(error: unknown, report: ValidationReport, signal: AbortSignal | undefined): unknown {
  const e =
    signal?.aborted && !(error instanceof MrfReadError)
      ? new MrfReadError('aborted', 'The read was cancelled.', { cause: error })
      : error;
  if (e instanceof MrfReadError) report.fatal = { code: e.code, message: e.message };
  return e;
}

/**
 * What a text file that is plainly no price file is, from its first characters: most often a
 * hospital's link that leads to a web page about the file, or one a site serves instead of it.
 */
function notAPriceFile(start: string): string | null {
  if (looksLikeHtml(start)) {
    return 'The file is a web page (HTML), not a CMS hospital price file: the address may lead to a page about the file rather than to the file itself.';
  }
  if (/^<\?xml/i.test(start))
    return 'The file is XML, not a CMS hospital price file (JSON or CSV).';
  if (start.startsWith('%PDF-'))
    return 'The file is a PDF, not a CMS hospital price file (JSON or CSV).';
  return null;
}

/** The first line of a sample, cut to 60 characters. */
function firstLine(sample: Buffer): string {
  const line = sample.subarray(0, 200).toString('utf8').split(/\r?\n/)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}

/** How much of a file's start is read, at most, for text that tells its format. */
const SNIFF_BYTES = 1 << 16;

/** How many bytes, at least, are read to tell UTF-16 from their zero bytes. */
const UTF16_SAMPLE = 512;

/** How much of the text after the blanks is looked at for binary content. */
const SAMPLE_BYTES = 4096;

/**
 * Reads on (adding to `held`) until `enough` says so or `most` bytes are held, or the file ends.
 * `enough` is asked again each time the bytes held have doubled, so that a file arriving a few
 * bytes at a time is not copied over and over.
 */
async function readOn(
  iterator: AsyncIterator<Buffer>,
  held: Buffer[],
  enough: (start: Buffer) => boolean,
  most: number,
): Promise<{ held: Buffer[]; ended: boolean }> {
  let size = held.reduce((sum, chunk) => sum + chunk.length, 0);
  let asked = 0;
  while (size < most) {
    if (size > 0 && size >= 2 * asked) {
      if (enough(Buffer.concat(held))) break;
      asked = size;
    }
    const next = await iterator.next();
    if (next.done) return { held, ended: true };
    held.push(next.value);
    size += next.value.length;
  }
  return { held, ended: false };
}

/**
 * Whether the start read so far is only white space, comments or an opening bracket, or has
 * fewer than SAMPLE_BYTES after its blanks.
 */
function untold(start: Buffer): boolean {
  let text = start.toString('latin1');
  if (text.startsWith('\xEF\xBB\xBF')) text = text.slice(3);
  if (text.length - blanks(text) < SAMPLE_BYTES) return true;
  const rest = afterComments(text);
  if (rest.length === 0) return true;
  // "[" with the object still to come, or a comment still open.
  return /^\[\s*$/.test(rest) || rest === '/' || rest.startsWith('/*');
}

/** How many spaces, tabs and line ends a text starts with. */
function blanks(text: string): number {
  return /^[ \t\r\n]*/.exec(text)?.[0].length ?? 0;
}

/** The text after the comments and white space it starts with. */
function afterComments(text: string): string {
  return text.replace(/^(?:\s+|\/\/[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, '');
}

/** JSON or CSV from the first bytes (after a BOM and blanks); binary content is refused. */
function chooseParser(head: Buffer, report: ValidationReport): FormatParser {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (
    i < head.length &&
    (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)
  )
    i++;
  const sample = head.subarray(i, i + SAMPLE_BYTES);
  if (looksBinary(sample)) {
    throw new MrfReadError(
      'not-a-mrf',
      'The file is binary, not text: it is neither a JSON nor a CSV hospital price file.',
    );
  }
  const other = notAPriceFile(sample.subarray(0, 64).toString('latin1'));
  if (other) throw new MrfReadError('not-a-mrf', other);
  if (sample[0] === 0x7b) return new JsonMrfParser(report);
  // [ { … } ]: one object written inside a list (the JSON reader says so).
  if (sample[0] === 0x5b && /^\[\s*\{/.test(sample.subarray(0, 64).toString('latin1'))) {
    return new JsonMrfParser(report);
  }
  if (sample[0] === 0x2f && (sample[1] === 0x2f || sample[1] === 0x2a)) {
    // Comments before the object, as JavaScript and JSONC allow: the JSON reader reads past them.
    if (/^[[{]/.test(afterComments(head.toString('latin1', i)))) return new JsonMrfParser(report);
    throw new MrfReadError(
      'not-a-mrf',
      `The file starts with a comment (${JSON.stringify(firstLine(sample))}), which JSON does not have and a CSV's first row cannot be: remove the comments and the file may be read as JSON.`,
    );
  }
  if (sample[0] === 0x5b) {
    throw new MrfReadError(
      'not-a-mrf',
      'The file is a JSON array, not a CMS hospital price file (an object).',
    );
  }
  return new CsvMrfParser(report);
}
