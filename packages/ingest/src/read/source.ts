import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import { createGunzip, createInflateRaw } from 'node:zlib';
import type { Response } from 'undici';
import { fetchPublic } from './address-guard.ts';
import { MrfReadError } from './errors.ts';
import { DownloadStall } from './stall.ts';
import {
  LOCAL_HEADER,
  TAIL_BYTES,
  centralDirectory,
  crcChecked,
  errorText,
  inflate,
  officeDocument,
  publishedFiles,
  unsupportedMethod,
  unzipFirstEntry,
  type ZipDirectoryEntry,
} from './compression.ts';

export interface SourceStats {
  /** Bytes of the file as published (read from the path or URL, before decompression). */
  bytes: number;
  /** SHA-256 (hex) of those bytes: of the whole file once the records have been read. */
  sha256: string;
  /**
   * The size announced by the file system or the server's Content-Length, if any; none when the
   * server compressed the file for the wire (Content-Encoding), as `bytes` count it decompressed.
   */
  totalBytes: number | null;
  compression: 'none' | 'gzip' | 'zip';
  /** True once the last byte has been read. */
  complete: boolean;
  /** A zip archive's files other than the one read (known once it has been read to the end). */
  otherFiles: string[];
  /**
   * For a URL: what its server said of the version of the file downloaded whole, or of the
   * archive a file was read from by ranges; else null.
   */
  validators: HttpValidators | null;
  /**
   * For a file read by name from a zip archive (`archive.zip#name`): its CRC-32 in the archive's
   * directory, which with its size (`bytes`) tells the file unchanged (see ifEntryChanged).
   */
  entryCrc32: number | null;
}

/** What a server says of the version of a file it sends (RFC 9110 §8.8): ETag, Last-Modified. */
export interface HttpValidators {
  etag: string | null;
  lastModified: string | null;
}

export interface SourceOptions {
  onProgress?: (bytesRead: number, totalBytes: number | null) => void;
  signal?: AbortSignal;
  /** Read size for local files (default 64 KiB, see DEFAULT_CHUNK). */
  chunkSize?: number;
  /** How long a server may keep a download waiting (default DOWNLOAD_STALL_MS, 60 s). */
  stallMs?: number;
  /**
   * For a URL: the validators of the copy loaded already. The download then asks for the file
   * only if it changed (If-None-Match, If-Modified-Since), and a server's 304 Not Modified is the
   * MrfReadError 'not-modified'. For a file inside a remote zip archive, read by ranges, the
   * archive's first range is asked for so: an unchanged archive has every file unchanged.
   */
  ifChanged?: HttpValidators;
  /**
   * For a file read by name from a zip archive: the CRC-32 and size of the copy loaded already.
   * When the archive's directory gives it the same, it is the MrfReadError 'entry-unchanged',
   * and nothing of it is read.
   */
  ifEntryChanged?: { crc32: number; bytes: number };
}

/** What a download needs of the options: the caller's cancel, and how long to wait. */
type Net = Pick<SourceOptions, 'signal' | 'stallMs'>;

/** The headers that ask for a file only if it changed since the copy `ifChanged` describes. */
function conditional(ifChanged: HttpValidators | undefined): Record<string, string> {
  const asked: Record<string, string> = {};
  if (ifChanged?.etag) asked['if-none-match'] = ifChanged.etag;
  if (ifChanged?.lastModified) asked['if-modified-since'] = ifChanged.lastModified;
  return asked;
}

/** What a server's answer says of the file's version; null when it says nothing. */
function validatorsOf(response: Response): HttpValidators | null {
  const etag = response.headers.get('etag');
  const lastModified = response.headers.get('last-modified');
  return etag || lastModified ? { etag, lastModified } : null;
}

export interface OpenedSource {
  /** The content bytes, decompressed. */
  chunks: AsyncIterable<Buffer>;
  stats(): SourceStats;
}

class RawStats {
  bytes = 0;
  totalBytes: number | null = null;
  compression: SourceStats['compression'] = 'none';
  complete = false;
  otherFiles: string[] = [];
  validators: HttpValidators | null = null;
  entryCrc32: number | null = null;
  readonly hash = createHash('sha256');

  snapshot(): SourceStats {
    return {
      bytes: this.bytes,
      sha256: this.hash.copy().digest('hex'),
      totalBytes: this.totalBytes,
      compression: this.compression,
      complete: this.complete,
      otherFiles: this.otherFiles,
      validators: this.validators,
      entryCrc32: this.entryCrc32,
    };
  }
}

// A parser turns a whole chunk into records before the first is consumed: with 1 MiB chunks,
// hundreds of records outlived the young generation and the ingest spent ~20 % more CPU
// (docs/decisions/0013-ingest-loading.md).
const DEFAULT_CHUNK = 1 << 16;

export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** Whether a URL names a file inside a zip archive (`archive.zip#name`), read by ranges. */
export function inRemoteArchive(url: string): boolean {
  const at = url.indexOf('#');
  return at !== -1 && at !== url.length - 1;
}

/** INGEST_MAX_DOWNLOAD_GB's default: well past the largest real files (13 GB unpacked). */
const DOWNLOAD_LIMIT_GB = 50;

/** The most a download may give the reader, unpacked, in bytes (INGEST_MAX_DOWNLOAD_GB). */
export function downloadLimitBytes(): number {
  const gigabytes = Number(process.env.INGEST_MAX_DOWNLOAD_GB || DOWNLOAD_LIMIT_GB);
  return (Number.isFinite(gigabytes) && gigabytes > 0 ? gigabytes : DOWNLOAD_LIMIT_GB) * 1e9;
}

/**
 * A download's bytes, unpacked, until they pass downloadLimitBytes: then a `too-large` error,
 * which cancels the download. A server that never ends its answer, or a small gzip or zip that
 * unpacks to terabytes, would otherwise keep the refresh reading (and staging rows) for ever.
 */
async function* limited(chunks: AsyncIterable<Buffer>, source: string): AsyncGenerator<Buffer> {
  const limit = downloadLimitBytes();
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    if (bytes > limit)
      throw new MrfReadError(
        'too-large',
        `${displayName(source)} gave more than ${limit / 1e9} GB, the most a download is read ` +
          '(INGEST_MAX_DOWNLOAD_GB).',
      );
    yield chunk;
  }
}

/**
 * Opens a local path or an http(s) URL, hashing the raw bytes and undoing gzip or zip.
 * `archive.zip#name` is the file of that name in the archive (see `zipFiles`): only its bytes
 * are read and hashed. A URL's bytes are read up to downloadLimitBytes, unpacked.
 */
export async function openSource(
  source: string,
  options: SourceOptions = {},
): Promise<OpenedSource> {
  const opened = await openAnySource(source, options);
  return isUrl(source) ? { ...opened, chunks: limited(opened.chunks, source) } : opened;
}

async function openAnySource(source: string, options: SourceOptions): Promise<OpenedSource> {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
  const inArchive = await archiveMember(source, options);
  if (inArchive) return openArchiveMember(inArchive.archive, inArchive.name, chunkSize, options);
  const { raw, totalBytes, validators } = isUrl(source)
    ? await openUrl(source, options)
    : { ...(await openFile(source, chunkSize)), validators: null };
  const stats = new RawStats();
  stats.totalBytes = totalBytes;
  stats.validators = validators;
  const snapshot = () => stats.snapshot();
  const tapped = tap(raw, stats, options);
  const iterator = tapped[Symbol.asyncIterator]();

  // Peek at the first bytes: the magic number decides, never the file name.
  const head: Buffer[] = [];
  let headLength = 0;
  while (headLength < 4) {
    const next = await iterator.next();
    if (next.done) break;
    head.push(next.value);
    headLength += next.value.length;
  }
  if (headLength === 0) {
    throw new MrfReadError('empty-file', `The file ${displayName(source)} is empty (0 bytes).`);
  }
  const first = Buffer.concat(head);
  const rest: AsyncIterable<Buffer> = {
    [Symbol.asyncIterator]: () => replay(head, iterator),
  };

  if (first[0] === 0x1f && first[1] === 0x8b) {
    stats.compression = 'gzip';
    return { chunks: inflate(rest, createGunzip(), 'gzip'), stats: snapshot };
  }
  if (first[0] === 0x50 && first[1] === 0x4b && first[2] === 0x03 && first[3] === 0x04) {
    stats.compression = 'zip';
    const chunks = unzipFirstEntry(rest, (names) => (stats.otherFiles = names));
    return { chunks, stats: snapshot };
  }
  return { chunks: rest, stats: snapshot };
}

/**
 * The files of a zip archive that has more than one, by name (directories and macOS resource
 * forks left out); null for anything else. Each can be read as `archive.zip#name`. From a URL
 * this takes a server that answers HTTP Range requests (null otherwise: the archive is then read
 * whole, its first file only). A server that says nothing for the stall time is a
 * `server-silent` error: the read would wait for it as long again. A URL that names one of its
 * files (`archive.zip#name`, as archiveMember splits it) is that one file: null, asking nothing.
 */
export async function zipFiles(
  source: string,
  options: Pick<SourceOptions, 'stallMs'> = {},
): Promise<string[] | null> {
  if (isUrl(source) && /#./.test(source)) return null;
  const archive = isUrl(source) ? remoteArchive(source, options) : localArchive(source);
  const entries = await archive.directory().catch((error: unknown) => {
    if (error instanceof MrfReadError && error.code === 'server-silent') throw error;
    return null;
  });
  const files = entries ? publishedFiles(entries).map((entry) => entry.name) : [];
  const office = officeDocument(files);
  if (office) throw office;
  return files.length > 1 ? files : null;
}

/**
 * `archive.zip#name` split at the `#`: for a URL at the first (a fragment is never sent to the
 * server), for a local path at the last, and only when the whole is not a file and the archive is.
 */
async function archiveMember(
  source: string,
  options: Pick<SourceOptions, 'signal' | 'stallMs' | 'ifChanged'>,
): Promise<{ archive: ZipArchive; name: string } | null> {
  if (isUrl(source)) {
    if (!inRemoteArchive(source)) return null;
    const at = source.indexOf('#');
    const archive = remoteArchive(source.slice(0, at), options, options.ifChanged);
    return { archive, name: source.slice(at + 1) };
  }
  const at = source.lastIndexOf('#');
  if (at <= 0 || at === source.length - 1) return null;
  if (await isFile(source)) return null;
  const archive = source.slice(0, at);
  return (await isFile(archive))
    ? { archive: localArchive(archive), name: source.slice(at + 1) }
    : null;
}

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * Whether a local source is on disk: the path, or for a member of a zip archive
 * (`archive.zip#name`) the archive, as archiveMember reads them. A URL is asked of its server, so
 * it is taken to be there.
 */
export async function stillThere(source: string): Promise<boolean> {
  if (isUrl(source) || (await isFile(source))) return true;
  const at = source.lastIndexOf('#');
  return at > 0 && (await isFile(source.slice(0, at)));
}

/** Reads parts of a zip archive where they lie: a local file, or a URL by HTTP Range requests. */
interface ZipArchive {
  /** Its name as messages show it. */
  shown: string;
  /** What its server said of its version (a URL's, once asked); null for a local file. */
  validators(): HttpValidators | null;
  /** Its central directory; null when it is not a zip whose directory can be read. */
  directory(): Promise<ZipDirectoryEntry[] | null>;
  /** `length` bytes from `offset` (fewer at the end of the archive). */
  read(offset: number, length: number): Promise<Buffer>;
  /** `length` bytes from `offset`, as they come. */
  stream(offset: number, length: number, chunkSize: number): Promise<AsyncIterable<Buffer>>;
}

function localArchive(path: string): ZipArchive {
  const read = async (offset: number, length: number) => {
    const file = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  };
  return {
    shown: displayName(path),
    validators: () => null,
    read,
    async directory() {
      const { size } = await stat(path);
      if (size < 22 || (await read(0, 4)).readUInt32LE(0) !== LOCAL_HEADER) return null;
      return centralDirectory(await read(Math.max(0, size - TAIL_BYTES), TAIL_BYTES));
    },
    stream: async (offset, length, chunkSize) =>
      createReadStream(path, {
        start: offset,
        end: offset + length - 1,
        highWaterMark: chunkSize,
      }) as AsyncIterable<Buffer>,
  };
}

function remoteArchive(url: string, net: Net, ifChanged?: HttpValidators): ZipArchive {
  let validators: HttpValidators | null = null;
  /**
   * The response to a Range request; null when the server sends the whole file instead. The
   * first asks only if the archive changed (a 304 is the 'not-modified' error).
   */
  const part = async (range: string, first = false): Promise<Response | null> => {
    const headers = { range: `bytes=${range}`, ...(first ? conditional(ifChanged) : {}) };
    const response = await download(url, net, headers);
    if (response.status !== 206) {
      await setAside(response);
      return null;
    }
    validators ??= validatorsOf(response);
    return response;
  };
  const noRanges = () =>
    new MrfReadError(
      'http-error',
      `The server of ${url} does not send parts of files (HTTP Range requests), so one file of ` +
        'the zip archive cannot be read alone; download the archive and ingest it from disk.',
    );
  return {
    shown: url,
    validators: () => validators,
    async directory() {
      // Four bytes first: a file that is not a zip costs no more than that.
      const head = await part('0-3', true);
      if (!head) throw noRanges();
      const magic = await wholeBody(head, net);
      if (magic.length < 4 || magic.readUInt32LE(0) !== LOCAL_HEADER) return null;
      const response = await part(`-${TAIL_BYTES}`);
      if (!response) throw noRanges();
      return centralDirectory(await wholeBody(response, net));
    },
    async read(offset, length) {
      const response = await part(`${offset}-${offset + length - 1}`);
      if (!response) throw noRanges();
      return wholeBody(response, net);
    },
    async stream(offset, length) {
      const response = await part(`${offset}-${offset + length - 1}`);
      if (!response) throw noRanges();
      // A server that answers another range than the one asked for would hand over wrong bytes.
      if (!response.headers.get('content-range')?.startsWith(`bytes ${offset}-`)) {
        await setAside(response);
        throw noRanges();
      }
      return bodyChunks(response, net);
    },
  };
}

async function openArchiveMember(
  archive: ZipArchive,
  name: string,
  chunkSize: number,
  options: SourceOptions,
): Promise<OpenedSource> {
  const shown = `${archive.shown}#${name}`;
  const directory = await archive.directory().catch((cause: unknown) => {
    if (cause instanceof MrfReadError) throw cause;
    throw new MrfReadError('source-not-found', `The file ${archive.shown} cannot be read.`, {
      cause,
    });
  });
  if (!directory) {
    throw new MrfReadError(
      'unsupported-archive',
      `${archive.shown} is not a zip archive whose directory can be read, so ${shown} cannot be found.`,
    );
  }
  const entry =
    directory.find((e) => e.name === name) ?? directory.find((e) => e.name === decoded(name));
  if (!entry) {
    throw new MrfReadError(
      'source-not-found',
      `The zip archive ${archive.shown} has no file named "${name}".`,
    );
  }
  if (entry.method !== 0 && entry.method !== 8) throw unsupportedMethod(name, entry.method);
  const damaged = () =>
    new MrfReadError('unsupported-archive', `The zip archive is damaged at "${name}".`);
  const { compressedSize, localHeaderOffset } = entry;
  if (!Number.isSafeInteger(compressedSize) || !Number.isSafeInteger(localHeaderOffset)) {
    throw damaged(); // zip64 values marked but missing
  }
  const loaded = options.ifEntryChanged;
  if (loaded && loaded.crc32 === entry.crc32 && loaded.bytes === compressedSize) {
    throw new MrfReadError(
      'entry-unchanged',
      `The zip archive lists ${shown} with the CRC-32 and size of the copy loaded already.`,
    );
  }
  // The data starts after the local header, whose extra field may differ from the directory's.
  const header = await archive.read(localHeaderOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_HEADER) throw damaged();
  const start = localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (compressedSize === 0) {
    throw new MrfReadError('empty-file', `The file ${shown} is empty (0 bytes).`);
  }
  const raw = await archive.stream(start, compressedSize, chunkSize);
  const stats = new RawStats();
  stats.totalBytes = compressedSize;
  stats.compression = 'zip';
  stats.validators = archive.validators();
  stats.entryCrc32 = entry.crc32;
  const tapped = tap(raw, stats, options);
  const bytes = entry.method === 8 ? inflate(tapped, createInflateRaw(), 'zip') : tapped;
  return { chunks: crcChecked(bytes, name, () => entry.crc32), stats: () => stats.snapshot() };
}

/** A name as a URL's fragment may carry it, percent-encoded (`a%20b.csv`). */
function decoded(name: string): string | undefined {
  try {
    return decodeURIComponent(name);
  } catch {
    return undefined;
  }
}

async function* replay(head: Buffer[], iterator: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  let ended = false;
  try {
    yield* head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Left early (closed, or a failure downstream): the file or the download is let go.
    if (!ended) await iterator.return?.();
  }
}

export function displayName(source: string): string {
  if (isUrl(source)) return source;
  const parts = source.split(/[\\/]/);
  return parts[parts.length - 1] ?? source;
}

/** What to say of a folder given as a file: which of its files could be named instead. */
async function folderAdvice(path: string): Promise<string> {
  const folder = path.replace(/[\\/]+$/, '');
  const files = (await readdir(folder).catch(() => []))
    .filter((name) => /\.(json|csv|txt|gz|zip)$/i.test(name))
    .sort();
  if (files.length === 0)
    return `${path} is a folder, and holds no JSON, CSV, gzip or zip file to read.`;
  const shown = files.slice(0, 2).map((name) => `${folder}/${name}`);
  const more = files.length > 2 ? ` (${files.length} such files in all)` : '';
  return `${path} is a folder: name its files instead, for example ${shown.join(' ')}${more}.`;
}

async function openFile(path: string, chunkSize: number) {
  let totalBytes: number;
  try {
    const s = await stat(path);
    if (s.isDirectory()) {
      throw new MrfReadError('source-not-found', await folderAdvice(path));
    }
    if (!s.isFile()) throw new MrfReadError('source-not-found', `${path} is not a file.`);
    totalBytes = s.size;
  } catch (cause) {
    if (cause instanceof MrfReadError) throw cause;
    // ftp://, s3://, file://: a URL of a kind not read, rather than a file that is not there.
    const otherUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(path);
    throw new MrfReadError(
      'source-not-found',
      otherUrl
        ? `The address ${path} cannot be read: files come from a local path or an http(s) URL.`
        : `The file ${path} does not exist or cannot be read.`,
      { cause },
    );
  }
  if (totalBytes === 0) {
    throw new MrfReadError('empty-file', `The file ${displayName(path)} is empty (0 bytes).`);
  }
  const raw = createReadStream(path, { highWaterMark: chunkSize }) as AsyncIterable<Buffer>;
  return { raw, totalBytes };
}

/** Each download's stall timer, from the GET to the end of its body (see bodyChunks). */
const stalls = new WeakMap<Response, DownloadStall>();

/**
 * A GET of the URL that the server answered with success (2xx and a body). A server that does
 * not answer within the stall time (60 s) is an http-error that says so.
 */
async function download(
  url: string,
  net: Net,
  headers: Record<string, string> = {},
): Promise<Response> {
  const stall = new DownloadStall(net.stallMs);
  let response: Response;
  try {
    stall.arm();
    response = await fetchPublic(url, { signal: stall.signal(net.signal), headers });
  } catch (cause) {
    stall.pause();
    if (cause instanceof MrfReadError) throw cause;
    if (net.signal?.aborted)
      throw new MrfReadError('aborted', 'The read was cancelled.', { cause });
    if (stall.stalled) {
      throw new MrfReadError(
        'server-silent',
        `The server of ${url} did not answer within ${stall.words}.`,
        { cause },
      );
    }
    throw new MrfReadError('http-error', `Could not download ${url}: ${errorText(cause)}.`, {
      cause,
    });
  }
  stall.answered();
  stalls.set(response, stall);
  if (response.status === 304 && ('if-none-match' in headers || 'if-modified-since' in headers)) {
    await setAside(response);
    throw new MrfReadError(
      'not-modified',
      `The server says ${url} has not changed since the copy loaded (HTTP 304 Not Modified).`,
    );
  }
  if (!response.ok || response.body === null) {
    await setAside(response);
    throw new MrfReadError(
      'http-error',
      `The server answered ${response.status} ${response.statusText || ''} for ${url}.`.replace(
        '  ',
        ' ',
      ),
    );
  }
  return response;
}

/** A response not read: its body let go. */
async function setAside(response: Response): Promise<void> {
  stalls.get(response)?.pause();
  await response.body?.cancel();
}

/**
 * A response's body as Buffers; a connection lost halfway, or a server quiet for the stall time
 * between two parts, is an http-error that says so. The wait runs only while the body is awaited,
 * not while the reader (or PostgreSQL behind it) works on a part.
 */
async function* bodyChunks(response: Response, net: Net): AsyncGenerator<Buffer> {
  const stall = stalls.get(response);
  let bytes = 0;
  try {
    stall?.arm();
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      stall?.pause(chunk.byteLength);
      bytes += chunk.byteLength;
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      // fetch never settles the next read of a body aborted while no read was pending:
      // a cancel that came while the reader held this part is seen here, not by the next read.
      if (net.signal?.aborted) throw new MrfReadError('aborted', 'The read was cancelled.');
      stall?.arm();
    }
  } catch (cause) {
    if (cause instanceof MrfReadError) throw cause;
    if (net.signal?.aborted)
      throw new MrfReadError('aborted', 'The read was cancelled.', { cause });
    const silent = stall?.stalled === true;
    const why = silent ? stall.why : errorText(cause);
    throw new MrfReadError(
      silent ? 'server-silent' : 'http-error',
      `The download of ${response.url} broke off after ${bytes} bytes: ${why}.`,
      { cause },
    );
  } finally {
    stall?.pause();
  }
}

/** A (small) response's whole body: a part of a remote zip archive. */
async function wholeBody(response: Response, net: Net): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of bodyChunks(response, net)) parts.push(part);
  return Buffer.concat(parts);
}

async function openUrl(
  url: string,
  options: Pick<SourceOptions, 'signal' | 'stallMs' | 'ifChanged'>,
) {
  const response = await download(url, options, conditional(options.ifChanged));
  // Sent compressed (Content-Encoding: gzip), the length is the compressed one, while fetch hands
  // over, and the bar counts, the bytes after decompression: the total is then not known.
  const encoding = response.headers.get('content-encoding')?.trim().toLowerCase();
  const length =
    encoding && encoding !== 'identity' ? NaN : Number(response.headers.get('content-length'));
  const totalBytes = Number.isFinite(length) && length > 0 ? length : null;
  return {
    raw: bodyChunks(response, options),
    totalBytes,
    validators: validatorsOf(response),
    response,
  };
}

/** What `hashDownload` found of a URL's bytes, downloaded and not read. */
export interface DownloadedHash {
  bytes: number;
  sha256: string;
  /** What the server said of this version, if anything (it may have begun to say so). */
  validators: HttpValidators | null;
  /** Whether the bytes were kept whole at `spoolTo`, to be read from there. */
  spooled: boolean;
}

/**
 * The SHA-256 of a URL's bytes, downloaded whole and not read (nothing parsed), with progress
 * reported; null, the body let go unread, when the server announces a length (Content-Length)
 * for which `worthHashing` says no: a file of a new size is not one read before. The hash is that
 * of `openSource`'s SourceStats for the same bytes (a gzip or zip file as published). With
 * `ifChanged`, asked for only if it changed, as `openSource` asks (a 304 is 'not-modified').
 * With `spoolTo`, a path of a file not there yet, the bytes are also written there, so that bytes
 * found new can be read from the disk instead of downloaded again; a write that fails (a full
 * disk) only ends the spooling (the file is removed, `spooled` false), never the hash.
 */
export async function hashDownload(
  url: string,
  worthHashing: (announcedBytes: number | null) => boolean,
  options: Pick<SourceOptions, 'signal' | 'stallMs' | 'onProgress' | 'ifChanged'> & {
    spoolTo?: string;
  } = {},
): Promise<DownloadedHash | null> {
  const { raw, totalBytes, validators, response } = await openUrl(url, options);
  if (!worthHashing(totalBytes)) {
    await setAside(response);
    return null;
  }
  const stats = new RawStats();
  stats.totalBytes = totalBytes;
  const { spoolTo } = options;
  let spool = spoolTo ? await open(spoolTo, 'wx').catch(() => null) : null;
  const stopSpooling = async () => {
    await spool?.close().catch(() => undefined);
    spool = null;
    if (spoolTo) await rm(spoolTo, { force: true });
  };
  try {
    // As openSource limits what it reads: here the bytes as published, spooled to disk.
    for await (const chunk of tap(limited(raw, url), stats, options)) {
      if (spool && !(await writeWhole(spool, chunk))) await stopSpooling();
    }
  } catch (error) {
    await stopSpooling();
    throw error;
  }
  const spooled = spool !== null;
  await spool?.close();
  return { bytes: stats.bytes, sha256: stats.hash.digest('hex'), validators, spooled };
}

/** Writes all of `chunk` at the file's end; false when the disk refuses (full, gone). */
async function writeWhole(file: FileHandle, chunk: Buffer): Promise<boolean> {
  try {
    for (let done = 0; done < chunk.length;) {
      const { bytesWritten } = await file.write(chunk, done, chunk.length - done);
      done += bytesWritten;
    }
    return true;
  } catch {
    return false;
  }
}

async function* tap(
  raw: AsyncIterable<Buffer>,
  stats: RawStats,
  options: SourceOptions,
): AsyncGenerator<Buffer> {
  const { onProgress, signal } = options;
  for await (const chunk of raw) {
    if (signal?.aborted) throw new MrfReadError('aborted', 'The read was cancelled.');
    stats.hash.update(chunk);
    stats.bytes += chunk.length;
    onProgress?.(stats.bytes, stats.totalBytes);
    yield chunk;
  }
  stats.complete = true;
}
