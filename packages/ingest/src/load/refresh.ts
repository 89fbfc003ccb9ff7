import type { Queryable } from '@ratelens/db';

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
