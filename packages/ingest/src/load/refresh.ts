import { stat } from 'node:fs/promises';
import type { Queryable } from '@ratelens/db';
import { isUrl } from '../read/source.ts';

/**
 * What `npm run ingest -- --refresh` reads again: where each hospital's file in use came from, as
 * it was last asked for. A file found through a hospital's cms-hpt.txt is reached through the list
 * again, since hospitals rename their files as they update them (a date in the name or the
 * folder); a file given by its path or URL is read there again. Demo hospitals are left out: `npm
 * start` makes their files. Each source once, in order.
 */
export async function sourcesInUse(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ source: string }>(
    `SELECT DISTINCT coalesce(
              (SELECT r.listed_in FROM mrf_files r
                WHERE r.source = f.source AND r.hospital_id = f.hospital_id
                  AND r.status IN ('loaded', 'unchanged')
                ORDER BY r.started_at DESC LIMIT 1),
              f.source) AS source
       FROM mrf_files f JOIN hospitals h ON h.id = f.hospital_id
      WHERE f.status = 'loaded' AND NOT h.is_demo
      ORDER BY 1`,
  );
  return rows.map((row) => row.source);
}

/**
 * Whether a local source is still on disk: the path, or for a member of a zip archive
 * (`archive.zip#name`) the archive. A URL is asked of its server, so it is never missing here.
 */
export async function stillThere(source: string): Promise<boolean> {
  if (isUrl(source)) return true;
  const isFile = (path: string) =>
    stat(path).then(
      (s) => s.isFile(),
      () => false,
    );
  if (await isFile(source)) return true;
  const at = source.lastIndexOf('#');
  return at > 0 && (await isFile(source.slice(0, at)));
}
