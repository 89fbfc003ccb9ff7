import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool } from '@ratelens/db';
import { alaskaRatesCsv } from './alaska-rates.ts';

/** Bumped when the file's columns or wording change, so that a stored file is built anew. */
const LAYOUT = 'alaska-1';

/** Where each process keeps its files: `ratelens-alaska-<pid>-<random>` in the system's temp. */
const FOLDER_PREFIX = 'ratelens-alaska-';

/** The stored file of the Alaska rates, opened for one visitor. */
export interface OpenedAlaskaFile {
  /** A hash of the file's bytes: the same ETag is the same file, whichever process built it. */
  etag: string;
  file: FileHandle;
  size: number;
}

interface StoredFile {
  version: string;
  path: string;
  etag: string;
}

/**
 * The free Alaska rates file, built from the rate tables once for each version of the data,
 * stored in a folder of this process's own, and served from there to every visitor. Before, each
 * download read every Alaska rate: two at once at most, the next visitors refused for a minute.
 *
 * The version covers what the file shows: the Alaska hospitals (names, metro areas and their
 * titles, when each one's rates last changed) and the last ingest run anywhere that read its file,
 * which can change a payer/plan pair's line of business that Alaska rates share. A run that found
 * its file unchanged read nothing (the nightly refresh records one a file), so it is left out:
 * counted, it made the next download build the file again. The build reads in one snapshot, so a
 * file swapped in meanwhile is in it whole or not at all. One build runs at a time; while
 * it runs, visitors are served the file stored before it (the first visitors of a process wait
 * for the first). The file before the current one is kept, so a visitor still reading it is not
 * cut off; older ones are removed.
 */
export class StoredAlaskaFile {
  private folder: string | null = null;
  private current: StoredFile | null = null;
  private previous: StoredFile | null = null;
  private building: Promise<StoredFile> | null = null;

  constructor(
    private readonly pool: Pool,
    /** Told of a build that failed while visitors were served the file before it. */
    private readonly onBackgroundError: (error: unknown) => void,
  ) {}

  /** Opens the file of the data as it is now, or as it was while a newer one is built. */
  async open(): Promise<OpenedAlaskaFile> {
    const version = await this.version();
    if (this.current?.version !== version) {
      const build = this.build(version);
      if (this.current === null) await build;
      else build.catch(this.onBackgroundError);
    }
    try {
      return await this.opened(this.current);
    } catch (error) {
      // Gone from the temporary folder (a cleaner's doing): built again, once.
      if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
      this.current = null;
      return this.opened(await this.build(version));
    }
  }

  /** The version of the data now, as a hash (no names or ids in a header). */
  async version(): Promise<string> {
    const { rows } = await this.pool.query<{ stamp: string | null }>(
      `SELECT concat_ws(E'\\n',
                (SELECT max(finished_at)::text FROM mrf_files WHERE status <> 'unchanged'),
                string_agg(concat_ws('@', h.id, h.name, h.is_demo, h.cbsa_code, c.title, hs.updated_at),
                           ',' ORDER BY h.id)) AS stamp
         FROM hospitals h
         LEFT JOIN hospital_summaries hs ON hs.hospital_id = h.id
         LEFT JOIN cbsas c ON c.code = h.cbsa_code
        WHERE h.state_code = 'AK'`,
    );
    return hash(`${LAYOUT}\n${rows[0]?.stamp ?? ''}`);
  }

  /** Removes the stored files (the server closing). */
  async close(): Promise<void> {
    await this.building?.catch(() => undefined);
    if (this.folder) await rm(this.folder, { recursive: true, force: true });
    this.folder = null;
    this.current = this.previous = null;
  }

  private async opened(stored: StoredFile | null): Promise<OpenedAlaskaFile> {
    if (stored === null) throw new Error('no Alaska file was built');
    const file = await open(stored.path, 'r');
    try {
      return { etag: stored.etag, file, size: (await file.stat()).size };
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  /** The build running, whichever version it is of, else one of `version`. */
  private build(version: string): Promise<StoredFile> {
    this.building ??= this.write(version).finally(() => {
      this.building = null;
    });
    return this.building;
  }

  private async write(version: string): Promise<StoredFile> {
    const folder = await this.folderPath();
    const target = path.join(folder, `alaska-${version}.csv`);
    const partial = `${target}.${randomUUID()}.part`;
    const digest = createHash('sha256');
    // One snapshot for the whole build: its reads are many statements (a batch of items each).
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await pipeline(
        Readable.from(alaskaRatesCsv(client)),
        new Transform({
          transform(chunk: Buffer | string, _encoding, done) {
            digest.update(chunk);
            done(null, chunk);
          },
        }),
        createWriteStream(partial),
      );
      await client.query('COMMIT');
      await rename(partial, target);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      await rm(partial, { force: true });
      throw error;
    } finally {
      client.release();
    }
    const built = { version, path: target, etag: `"${digest.digest('base64url').slice(0, 27)}"` };
    const gone = this.previous;
    this.previous = this.current?.path === target ? this.previous : this.current;
    this.current = built;
    if (gone && gone.path !== target && gone.path !== this.previous?.path)
      await rm(gone.path, { force: true }).catch(() => undefined);
    return built;
  }

  /** This process's folder, made again if it was removed; ones left by dead processes go. */
  private async folderPath(): Promise<string> {
    if (this.folder === null) {
      this.folder = path.join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-${randomUUID()}`);
      await removeDeadProcessesFolders();
    }
    await mkdir(this.folder, { recursive: true });
    return this.folder;
  }
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/** The folders of processes no longer running (killed, or the machine stopped). */
async function removeDeadProcessesFolders(): Promise<void> {
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(/^ratelens-alaska-(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    await rm(path.join(tmpdir(), name), { recursive: true, force: true }).catch(() => undefined);
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: running, as another user.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
