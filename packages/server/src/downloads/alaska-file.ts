import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool } from '@ratelens/db';
import { alaskaRatesCsv } from './alaska-rates.ts';

/** Bumped when the file's columns or wording change, so that a stored file is built anew. */
const LAYOUT = 'alaska-1';

/** The stored file of the Alaska rates as they are now, opened for one visitor. */
export interface OpenedAlaskaFile {
  /** Names this version of the data: the same bytes for as long as it does not change. */
  etag: string;
  file: FileHandle;
  size: number;
}

/**
 * The free Alaska rates file, built once for each version of the Alaska hospitals' data and
 * stored in a folder of this process's own, then served from there to every visitor. It used to be
 * read from the rate tables for each download: two at once at most, the next visitors refused
 * for a minute, and the same rows read again for each. The version is the Alaska hospitals
 * with when each one's rates last changed (its summary, written at every load), so a new file
 * loaded for one of them builds the file anew at the next download. Visitors who come while it
 * is built wait for that build; the last two versions are kept, so a visitor still reading the
 * one before is not cut off.
 */
export class StoredAlaskaFile {
  private folder: Promise<string> | null = null;
  private readonly builds = new Map<string, Promise<string>>();
  private readonly kept: string[] = [];

  constructor(private readonly pool: Pool) {}

  /** Opens the file of the data as it is now, building it first when it is not stored yet. */
  async open(): Promise<OpenedAlaskaFile> {
    const version = await this.version();
    const etag = `"${version}"`;
    let file: FileHandle;
    try {
      file = await open(await this.stored(version), 'r');
    } catch (error) {
      // Gone from the temporary folder (a cleaner's doing): built again, once.
      if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
      this.forget(version);
      file = await open(await this.stored(version), 'r');
    }
    try {
      return { etag, file, size: (await file.stat()).size };
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  /** The version of the data now, as a short hash (no names or ids in a header). */
  async version(): Promise<string> {
    const { rows } = await this.pool.query<{ stamp: string | null }>(
      `SELECT string_agg(concat_ws('@', h.id, h.name, h.is_demo, h.cbsa_code, hs.updated_at), ','
                         ORDER BY h.id) AS stamp
         FROM hospitals h LEFT JOIN hospital_summaries hs ON hs.hospital_id = h.id
        WHERE h.state_code = 'AK'`,
    );
    return createHash('sha256')
      .update(`${LAYOUT}\n${rows[0]?.stamp ?? ''}`)
      .digest('base64url')
      .slice(0, 22);
  }

  /** Removes the stored files (the server closing). */
  async close(): Promise<void> {
    const folder = this.folder;
    this.folder = null;
    if (folder) await rm(await folder, { recursive: true, force: true });
  }

  private forget(version: string): void {
    const at = this.kept.indexOf(`alaska-${version}.csv`);
    if (at !== -1) this.kept.splice(at, 1);
  }

  private async stored(version: string): Promise<string> {
    const name = `alaska-${version}.csv`;
    if (this.kept.includes(name)) return path.join(await this.folderPath(), name);
    let build = this.builds.get(name);
    if (!build) {
      build = this.build(name).finally(() => this.builds.delete(name));
      this.builds.set(name, build);
    }
    return build;
  }

  private folderPath(): Promise<string> {
    this.folder ??= mkdtemp(path.join(tmpdir(), 'ratelens-alaska-'));
    return this.folder;
  }

  private async build(name: string): Promise<string> {
    const folder = await this.folderPath();
    const target = path.join(folder, name);
    const partial = `${target}.${randomUUID()}.part`;
    try {
      await pipeline(Readable.from(alaskaRatesCsv(this.pool)), createWriteStream(partial));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    this.kept.push(name);
    // Two versions kept: a visitor who opened the one before reads it to its end.
    for (const old of this.kept.splice(0, Math.max(0, this.kept.length - 2)))
      await rm(path.join(folder, old), { force: true });
    return target;
  }
}
