import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createGunzip, createInflateRaw } from 'node:zlib';
import { MrfReadError } from './errors.ts';
import {
  LOCAL_HEADER,
  TAIL_BYTES,
  centralDirectory,
  errorText,
  inflate,
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
  /** The size announced by the file system or the server's Content-Length, if any. */
  totalBytes: number | null;
  compression: 'none' | 'gzip' | 'zip';
  /** True once the last byte has been read. */
  complete: boolean;
  /** A zip archive's files other than the one read (known once it has been read to the end). */
  otherFiles: string[];
}

export interface SourceOptions {
  onProgress?: (bytesRead: number, totalBytes: number | null) => void;
  signal?: AbortSignal;
  /** Read size for local files (default 64 KiB, see DEFAULT_CHUNK). */
  chunkSize?: number;
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
  readonly hash = createHash('sha256');

  snapshot(): SourceStats {
    return {
      bytes: this.bytes,
      sha256: this.hash.copy().digest('hex'),
      totalBytes: this.totalBytes,
      compression: this.compression,
      complete: this.complete,
      otherFiles: this.otherFiles,
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

/**
 * Opens a local path or an http(s) URL, hashing the raw bytes and undoing gzip or zip. A local
 * `archive.zip#name` is the file of that name in the archive (see `zipFiles`): only its bytes
 * are read and hashed.
 */
export async function openSource(
  source: string,
  options: SourceOptions = {},
): Promise<OpenedSource> {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
  const inArchive = isUrl(source) ? null : await archiveMember(source);
  if (inArchive) return openArchiveMember(inArchive.archive, inArchive.name, chunkSize, options);
  const { raw, totalBytes } = isUrl(source)
    ? await openUrl(source, options.signal)
    : await openFile(source, chunkSize);
  const stats = new RawStats();
  stats.totalBytes = totalBytes;
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
 * The files of a local zip archive that has more than one, by name (directories and macOS
 * resource forks left out); null for anything else. Each can be read as `archive.zip#name`.
 */
export async function zipFiles(path: string): Promise<string[] | null> {
  if (isUrl(path)) return null;
  const entries = await readDirectory(path).catch(() => null);
  const files = entries ? publishedFiles(entries).map((entry) => entry.name) : [];
  return files.length > 1 ? files : null;
}

/** `archive.zip#name` split at its last `#`, when the whole is not a file and the archive is. */
async function archiveMember(source: string): Promise<{ archive: string; name: string } | null> {
  const at = source.lastIndexOf('#');
  if (at <= 0 || at === source.length - 1) return null;
  const isFile = (path: string) =>
    stat(path).then(
      (s) => s.isFile(),
      () => false,
    );
  if (await isFile(source)) return null;
  const archive = source.slice(0, at);
  return (await isFile(archive)) ? { archive, name: source.slice(at + 1) } : null;
}

/** A local zip archive's central directory (from its last bytes); null when it is not a zip. */
async function readDirectory(path: string): Promise<ZipDirectoryEntry[] | null> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(4);
    await file.read(head, 0, 4, 0);
    if (size < 22 || head.readUInt32LE(0) !== LOCAL_HEADER) return null;
    const length = Math.min(size, TAIL_BYTES);
    const end = Buffer.alloc(length);
    await file.read(end, 0, length, size - length);
    return centralDirectory(end);
  } finally {
    await file.close();
  }
}

async function openArchiveMember(
  archive: string,
  name: string,
  chunkSize: number,
  options: SourceOptions,
): Promise<OpenedSource> {
  const shown = `${displayName(archive)}#${name}`;
  const directory = await readDirectory(archive).catch((cause: unknown) => {
    throw new MrfReadError('source-not-found', `The file ${archive} cannot be read.`, { cause });
  });
  if (!directory) {
    throw new MrfReadError(
      'unsupported-archive',
      `${displayName(archive)} is not a zip archive whose directory can be read, so ${shown} cannot be found.`,
    );
  }
  const entry = directory.find((e) => e.name === name);
  if (!entry) {
    throw new MrfReadError(
      'source-not-found',
      `The zip archive ${displayName(archive)} has no file named "${name}".`,
    );
  }
  if (entry.method !== 0 && entry.method !== 8) throw unsupportedMethod(name, entry.method);
  const damaged = () =>
    new MrfReadError('unsupported-archive', `The zip archive is damaged at "${name}".`);
  const { compressedSize, localHeaderOffset } = entry;
  if (!Number.isSafeInteger(compressedSize) || !Number.isSafeInteger(localHeaderOffset)) {
    throw damaged(); // zip64 values marked but missing
  }
  // The data starts after the local header, whose extra field may differ from the directory's.
  const header = Buffer.alloc(30);
  const file = await open(archive, 'r');
  try {
    await file.read(header, 0, 30, localHeaderOffset);
  } finally {
    await file.close();
  }
  if (header.readUInt32LE(0) !== LOCAL_HEADER) throw damaged();
  const start = localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (compressedSize === 0) {
    throw new MrfReadError('empty-file', `The file ${shown} is empty (0 bytes).`);
  }
  const raw = createReadStream(archive, {
    start,
    end: start + compressedSize - 1,
    highWaterMark: chunkSize,
  }) as AsyncIterable<Buffer>;
  const stats = new RawStats();
  stats.totalBytes = compressedSize;
  stats.compression = 'zip';
  const tapped = tap(raw, stats, options);
  return {
    chunks: entry.method === 8 ? inflate(tapped, createInflateRaw(), 'zip') : tapped,
    stats: () => stats.snapshot(),
  };
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

async function openFile(path: string, chunkSize: number) {
  let totalBytes: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) throw new MrfReadError('source-not-found', `${path} is not a file.`);
    totalBytes = s.size;
  } catch (cause) {
    if (cause instanceof MrfReadError) throw cause;
    throw new MrfReadError(
      'source-not-found',
      `The file ${path} does not exist or cannot be read.`,
      {
        cause,
      },
    );
  }
  if (totalBytes === 0) {
    throw new MrfReadError('empty-file', `The file ${displayName(path)} is empty (0 bytes).`);
  }
  const raw = createReadStream(path, { highWaterMark: chunkSize }) as AsyncIterable<Buffer>;
  return { raw, totalBytes };
}

async function openUrl(url: string, signal: AbortSignal | undefined) {
  let response: Response;
  try {
    response = await fetch(url, { signal: signal ?? null, redirect: 'follow' });
  } catch (cause) {
    if (signal?.aborted) throw new MrfReadError('aborted', 'The read was cancelled.', { cause });
    throw new MrfReadError('http-error', `Could not download ${url}: ${errorText(cause)}.`, {
      cause,
    });
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new MrfReadError(
      'http-error',
      `The server answered ${response.status} ${response.statusText || ''} for ${url}.`.replace(
        '  ',
        ' ',
      ),
    );
  }
  const length = Number(response.headers.get('content-length'));
  const totalBytes = Number.isFinite(length) && length > 0 ? length : null;
  const body = response.body;
  async function* raw(): AsyncGenerator<Buffer> {
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
  }
  return { raw: raw(), totalBytes };
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
