import { Readable } from 'node:stream';
import { crc32, createInflateRaw, type Gunzip, type InflateRaw } from 'node:zlib';
import { MrfReadError } from './errors.ts';

export function errorText(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = (cause as Error & { cause?: unknown }).cause;
    // Node's fetch refuses the ports browsers block (9, 25, 6000…): "fetch failed (bad port)".
    if (inner instanceof Error && inner.message === 'bad port')
      return 'fetch refuses that port, one browsers block as kept for another protocol';
    return inner instanceof Error ? `${cause.message} (${inner.message})` : cause.message;
  }
  return String(cause);
}

/** Pipes compressed chunks through a zlib stream and yields what comes out. */
export async function* inflate(
  input: AsyncIterable<Buffer>,
  stream: Gunzip | InflateRaw,
  kind: 'gzip' | 'zip',
): AsyncGenerator<Buffer> {
  Readable.from(input, { objectMode: false })
    .on('error', (e) => stream.destroy(e))
    .pipe(stream);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk;
  } catch (cause) {
    if (cause instanceof MrfReadError) throw cause;
    throw new MrfReadError(
      'unsupported-archive',
      `The ${kind} data is damaged or truncated: ${errorText(cause)}.`,
      { cause },
    );
  }
}

export const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
/** How much of the archive's end is kept to read its central directory: some 10,000 names. */
export const TAIL_BYTES = 1 << 20;

/** Directory entries and macOS resource forks: not files anyone published. */
function isSkipped(name: string): boolean {
  return name.endsWith('/') || name.startsWith('__MACOSX/');
}

/** The last bytes read, up to a limit. */
class Tail {
  private chunks: Buffer[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    while (this.chunks.length > 1 && this.length - (this.chunks[0]?.length ?? 0) >= this.limit) {
      this.length -= this.chunks.shift()?.length ?? 0;
    }
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/**
 * A zip entry's bytes as they come, checked once they have all come against the CRC-32 its
 * archive gives for them (`expected`, asked for then: a streamed entry's may be known only from
 * the directory at the archive's end; null when the archive does not say). A mismatch means the
 * bytes are not the ones the archive was made with (damaged on the way, or an archive replaced
 * while it was read by ranges), and the read is refused, so that the hospital's rates stay as
 * they were, rather than loaded: deflate finds some damage on its own, stored bytes none.
 */
export async function* crcChecked(
  chunks: AsyncIterable<Buffer>,
  name: string,
  expected: () => Promise<number | null> | number | null,
): AsyncGenerator<Buffer> {
  let crc = 0;
  for await (const chunk of chunks) {
    crc = crc32(chunk, crc);
    yield chunk;
  }
  const written = await expected();
  if (written !== null && crc !== written) {
    throw new MrfReadError(
      'unsupported-archive',
      `The zip archive is damaged: the bytes of "${name}" do not match its checksum (CRC-32), ` +
        'so they are not the ones the archive was made with.',
    );
  }
}

export function unsupportedMethod(name: string, method: number): MrfReadError {
  return new MrfReadError(
    'unsupported-archive',
    `The zip entry "${name}" uses compression method ${method}; only stored and deflate are supported.`,
  );
}

/** One file of a zip archive, as its central directory lists it. */
export interface ZipDirectoryEntry {
  name: string;
  /** 0 stored, 8 deflate. */
  method: number;
  compressedSize: number;
  /** Where its local file header starts, from the start of the archive. */
  localHeaderOffset: number;
  /** The CRC-32 of its bytes once uncompressed. */
  crc32: number;
}

/**
 * A zip archive's central directory, from the archive's last bytes; null when it is not there
 * (no end-of-directory record, or a directory larger than the bytes given). Zip64 sizes and
 * offsets are read from each entry's extra field.
 */
export function centralDirectory(end: Buffer): ZipDirectoryEntry[] | null {
  let at = -1;
  for (let i = end.length - 22; i >= Math.max(0, end.length - 22 - 0xffff); i--) {
    if (end.readUInt32LE(i) === END_OF_DIRECTORY) {
      at = i;
      break;
    }
  }
  if (at === -1) return null;
  let size = end.readUInt32LE(at + 12);
  let directoryEnd = at;
  // Zip64: the sizes are in the zip64 record, which sits before its 20-byte locator.
  if (size === 0xffffffff && at >= 76 && end.readUInt32LE(at - 76) === ZIP64_END_OF_DIRECTORY) {
    directoryEnd = at - 76;
    size = Number(end.readBigUInt64LE(directoryEnd + 40));
  }
  const entries: ZipDirectoryEntry[] = [];
  for (let i = directoryEnd - size; i >= 0 && i + 46 <= directoryEnd;) {
    if (end.readUInt32LE(i) !== CENTRAL_HEADER) return null;
    const nameLength = end.readUInt16LE(i + 28);
    const extraLength = end.readUInt16LE(i + 30);
    const extra = end.subarray(i + 46 + nameLength, i + 46 + nameLength + extraLength);
    // The zip64 extra field holds, in this order, only the values marked 0xffffffff.
    const wide = [end.readUInt32LE(i + 24), end.readUInt32LE(i + 20), end.readUInt32LE(i + 42)];
    const marked = wide.map((value) => value === 0xffffffff);
    if (marked.some(Boolean)) {
      const values = zip64Values(extra, marked.filter(Boolean).length);
      let next = 0;
      for (let k = 0; k < 3; k++) if (marked[k]) wide[k] = values[next++] ?? Number.NaN;
    }
    entries.push({
      name: end.toString('utf8', i + 46, i + 46 + nameLength),
      method: end.readUInt16LE(i + 10),
      compressedSize: wide[1] as number,
      localHeaderOffset: wide[2] as number,
      crc32: end.readUInt32LE(i + 16),
    });
    i += 46 + nameLength + extraLength + end.readUInt16LE(i + 32);
  }
  return directoryEnd - size >= 0 ? entries : null;
}

/** The first `count` 8-byte values of a zip64 extended-information extra field. */
function zip64Values(extra: Buffer, count: number): number[] {
  for (let i = 0; i + 4 <= extra.length;) {
    const id = extra.readUInt16LE(i);
    const size = extra.readUInt16LE(i + 2);
    if (id === 0x0001 && size >= 8 * count) {
      return Array.from({ length: count }, (_, k) => Number(extra.readBigUInt64LE(i + 4 + 8 * k)));
    }
    i += 4 + size;
  }
  return [];
}

/** The files of a zip archive that anyone published: no directories, no macOS resource forks. */
/** The first entry of every Office Open XML file (xlsx, docx, pptx), itself a zip archive. */
const OFFICE_CONTENT_TYPES = '[Content_Types].xml';

/**
 * The refusal of a zip archive that is an Office document, an Excel workbook above all: some
 * hospitals publish one, and read as a zip it would be a dozen XML files, each refused apart.
 * Null for an archive whose names say nothing of the kind.
 */
export function officeDocument(names: readonly string[]): MrfReadError | null {
  if (!names.includes(OFFICE_CONTENT_TYPES)) return null;
  const workbook = names.length === 1 || names.some((name) => name.startsWith('xl/'));
  return new MrfReadError(
    'not-a-mrf',
    workbook
      ? 'The file is an Excel workbook (xlsx), not a CMS hospital price file (JSON or CSV): ' +
          'save its sheet as a CSV file (comma-separated) and load that. (A reference workbook, ' +
          'such as the CBSA delineation, loads with npm run reference.)'
      : 'The file is an Office document (docx or pptx), not a CMS hospital price file (JSON or CSV).',
  );
}

export function publishedFiles<T extends { name: string }>(entries: T[]): T[] {
  return entries.filter((entry) => !isSkipped(entry.name));
}

/**
 * Streams the first file of a zip archive (hospitals publish one MRF per zip), reading local
 * file headers as they come, so a zip from a URL never has to be saved first. Directory entries
 * and macOS resource forks are skipped. The rest of the archive is then read too (the run's
 * SHA-256 is of the whole file), and `otherFiles` hears the names of the files that were not
 * read, from the central directory at its end (none when it cannot be found).
 */
export async function* unzipFirstEntry(
  input: AsyncIterable<Buffer>,
  otherFiles: (names: string[]) => void,
): AsyncGenerator<Buffer> {
  const iterator = input[Symbol.asyncIterator]();
  const tail = new Tail(TAIL_BYTES);
  /** The next chunk of the archive, whoever reads it, also kept for its end. */
  const pull = async (): Promise<IteratorResult<Buffer>> => {
    const next = await iterator.next();
    if (!next.done) tail.push(next.value);
    return next;
  };
  let buffer: Buffer = Buffer.alloc(0);
  let ended = false;
  const fill = async (n: number): Promise<boolean> => {
    while (buffer.length < n && !ended) {
      const next = await pull();
      if (next.done) ended = true;
      else buffer = buffer.length ? Buffer.concat([buffer, next.value]) : next.value;
    }
    return buffer.length >= n;
  };
  const damaged = (what: string) =>
    new MrfReadError('unsupported-archive', `The zip archive is damaged: ${what}.`);

  for (;;) {
    if (!(await fill(30)) || buffer.readUInt32LE(0) !== LOCAL_HEADER) {
      throw new MrfReadError('unsupported-archive', 'The zip archive holds no file to read.');
    }
    const flags = buffer.readUInt16LE(6);
    const method = buffer.readUInt16LE(8);
    const localCrc = buffer.readUInt32LE(14);
    let compressedSize = buffer.readUInt32LE(18);
    const nameLength = buffer.readUInt16LE(26);
    const extraLength = buffer.readUInt16LE(28);
    if (!(await fill(30 + nameLength + extraLength))) throw damaged('a file header is cut short');
    const name = buffer.toString('utf8', 30, 30 + nameLength);
    if (compressedSize === 0xffffffff) {
      compressedSize = zip64CompressedSize(
        buffer.subarray(30 + nameLength, 30 + nameLength + extraLength),
      );
    }
    buffer = buffer.subarray(30 + nameLength + extraLength);
    const sizeKnown = (flags & 0x08) === 0;
    if (isSkipped(name)) {
      if (!sizeKnown) throw damaged(`cannot skip "${name}" (its size is unknown)`);
      if (!(await fill(compressedSize))) throw damaged('an entry is cut short');
      buffer = buffer.subarray(compressedSize);
      continue;
    }
    const office = name === OFFICE_CONTENT_TYPES ? officeDocument([name]) : null;
    if (office) throw office;
    if (method !== 0 && method !== 8) throw unsupportedMethod(name, method);
    if (method === 0 && !sizeKnown) throw damaged(`the stored entry "${name}" has no size`);

    // The entry's compressed bytes: exactly compressedSize when known, else the rest of the
    // stream (deflate knows where it ends and zlib ignores what follows).
    const rest = buffer;
    async function* entryBytes(): AsyncGenerator<Buffer> {
      let remaining = sizeKnown ? compressedSize : Infinity;
      if (rest.length) {
        const part = rest.subarray(0, Math.min(rest.length, remaining));
        remaining -= part.length;
        yield part;
      }
      while (remaining > 0) {
        const next = await pull();
        if (next.done) {
          if (sizeKnown) throw damaged('the file is cut short');
          return;
        }
        const part = next.value.length > remaining ? next.value.subarray(0, remaining) : next.value;
        remaining -= part.length;
        yield part;
      }
    }
    const entry = method === 0 ? entryBytes() : inflate(entryBytes(), createInflateRaw(), 'zip');
    const listed: ZipDirectoryEntry[] = [];
    // The rest of the archive is read before the check: a streamed entry's CRC-32 is in the
    // directory at its end (and in a descriptor after its bytes, which the directory repeats).
    yield* crcChecked(entry, name, async () => {
      while (!(await pull()).done);
      listed.push(...(centralDirectory(tail.bytes()) ?? []));
      return sizeKnown ? localCrc : (listed.find((file) => file.name === name)?.crc32 ?? null);
    });
    const files = listed.map((file) => file.name).filter((file) => !isSkipped(file));
    const read = files.indexOf(name);
    if (read !== -1) files.splice(read, 1);
    otherFiles(files);
    return;
  }
}

function zip64CompressedSize(extra: Buffer): number {
  for (let i = 0; i + 4 <= extra.length;) {
    const id = extra.readUInt16LE(i);
    const size = extra.readUInt16LE(i + 2);
    if (id === 0x0001 && size >= 16) return Number(extra.readBigUInt64LE(i + 12));
    i += 4 + size;
  }
  throw new MrfReadError('unsupported-archive', 'The zip archive is damaged: bad zip64 sizes.');
}
