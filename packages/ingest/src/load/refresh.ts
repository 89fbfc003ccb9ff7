import type { Queryable } from '@ratelens/db';
import { READ_WHOLE } from './ingest-file.ts';

/**
 * Where the file in use of run `f` was last asked for: the cms-hpt.txt its latest loaded or
 * unchanged run of the same source came through, else null (given by its path or URL).
 */
const LAST_LISTED_IN = `(SELECT r.listed_in FROM mrf_files r
    WHERE r.source = f.source AND r.hospital_id = f.hospital_id AND r.status IN ('loaded', 'unchanged')
    ORDER BY r.started_at DESC LIMIT 1)`;

/**
 * What `npm run ingest -- --refresh` reads again: where each hospital's file in use came from, as
 * it was last asked for. A file found through a hospital's cms-hpt.txt is reached through the list
 * again, since hospitals rename their files as they update them (a date in the name or the
 * folder); a file given by its path or URL is read there again. Demo hospitals are left out: `npm
 * start` makes their files. Each source once; of one hospital when `hospitalId` is given.
 *
 * The source whose hospitals were read longest ago comes first (by their latest run, whatever
 * its end): a refresh cut short by its time limit leaves the most recently read for the next,
 * which starts with those it did not reach. In a fixed order, the sources after the point
 * where every night's refresh stops would never be read again.
 */
export async function sourcesInUse(db: Queryable, hospitalId?: string): Promise<string[]> {
  const { rows } = await db.query<{ source: string }>(
    `SELECT coalesce(${LAST_LISTED_IN}, f.source) AS source
       FROM mrf_files f JOIN hospitals h ON h.id = f.hospital_id
       CROSS JOIN LATERAL (SELECT max(r.started_at) AS at FROM mrf_files r
                            WHERE r.hospital_id = f.hospital_id) latest
      WHERE f.status = 'loaded' AND NOT h.is_demo AND ($1::uuid IS NULL OR h.id = $1::uuid)
      GROUP BY 1
      ORDER BY min(latest.at), 1`,
    [hospitalId ?? null],
  );
  return rows.map((row) => row.source);
}

/**
 * How a hospital's entries are told among the others of a cms-hpt.txt (a health system lists all
 * its hospitals in one): the addresses its files were read from, and its names (the hospital's,
 * its locations'), in `entryName`'s form.
 */
export interface HospitalEntries {
  urls: ReadonlySet<string>;
  names: ReadonlySet<string>;
}

/** A location's name as entries are matched by it: case and runs of spaces do not count. */
export const entryName = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** What tells the hospital's entries in a list (HospitalEntries); null for no such hospital. */
export async function hospitalEntries(
  db: Queryable,
  hospitalId: string,
): Promise<HospitalEntries | null> {
  const { rows } = await db.query<{ names: string[]; sources: string[] }>(
    `SELECT array_prepend(h.name, h.location_names) AS names,
            array(SELECT DISTINCT f.source FROM mrf_files f WHERE f.hospital_id = h.id) AS sources
       FROM hospitals h WHERE h.id = $1`,
    [hospitalId],
  );
  const hospital = rows[0];
  if (!hospital) return null;
  // A file of a zip archive is `archive#name`: the list names the archive.
  const urls = hospital.sources.flatMap((source) => [source, source.replace(/#.*$/, '')]);
  return { urls: new Set(urls), names: new Set(hospital.names.map(entryName)) };
}

/**
 * A cms-hpt.txt that could not be read (or named no file that could be), recorded as a failed run
 * of each hospital whose file in use came through it, so that the hospital's page says that its
 * newer files could not be looked for, and why. Returns how many hospitals that is.
 */
export async function recordListFailure(
  db: Queryable,
  list: string,
  why: string,
  durationMs: number,
): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO mrf_files (hospital_id, source, listed_in, status, error, finished_at, duration_ms)
     SELECT DISTINCT f.hospital_id, $1, $1, 'failed', $2, now(), $3::int
       FROM mrf_files f
      WHERE f.status = 'loaded' AND ${LAST_LISTED_IN} = $1`,
    [
      list,
      `The hospital’s list of its price files could not be read: ${why}`,
      Math.round(durationMs),
    ],
  );
  return rowCount ?? 0;
}

/**
 * Whether a URL need not be asked first whether it is a zip archive of several files (`zipFiles`,
 * one Range request): a file was read whole from it (the file in use, or one not put in use), and
 * was no such archive (its report has no `archive.other-file`). Then the ingest's one request
 * (a conditional GET, or a download hashed before it is read from a server that sends no
 * validators) is the only one for an unchanged file. A URL that has since become an archive of
 * several files is read whole once more, its first file only and the others named in the report,
 * and asked again the next time.
 */
export async function readWholeBefore(db: Queryable, url: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM mrf_files
      WHERE source = $1 AND status IN ${READ_WHOLE}
        AND NOT coalesce(
          jsonb_path_exists(validation, '$.rules[*] ? (@.rule == "archive.other-file")'), false)
      LIMIT 1`,
    [url],
  );
  return rows.length > 0;
}
