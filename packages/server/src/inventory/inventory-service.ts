import {
  FileProgressSchema,
  RateMixSchema,
  ValidationLineSchema,
  isAdmin,
  type FailingFile,
  type HospitalClassification,
  type HospitalDetail,
  type HospitalItem,
  type HospitalRefresh,
  type InventoryRow,
  type MsaItem,
  type RateMix,
  type RefreshStatus,
  type StateItem,
  type ValidationLine,
} from '@ratelens/core';
import type { Pool } from '@ratelens/db';
import {
  INTERRUPTED_RUN,
  liveRuns,
  sourcesInUse,
  stillThere,
  storedSummary,
  summaryLines,
} from '@ratelens/ingest';
import { z } from 'zod';
import type { AuthContext } from '../auth/auth-service.ts';
import { conflict, fieldError, forbidden, notFound } from '../http/errors.ts';
import type { RefreshRequests } from '../worker/refresh-requests.ts';
import { refreshStatus } from '../worker/refresh-status.ts';
import { STARTS_ENTRY } from './run-entries.ts';

const StoredLinesSchema = z.array(ValidationLineSchema);

/** The report's totals, as the ingester stores them beside its lines. */
const CleanTotalsSchema = z.object({
  errorCount: z.literal(0),
  warningCount: z.literal(0),
  recordsRejected: z.literal(0),
  payersRejected: z.literal(0),
  // Absent from reports stored before modifiers were counted apart.
  modifiersRejected: z.literal(0).optional(),
  modifierEntriesRejected: z.literal(0).optional(),
});

/**
 * A run's validation report in plain words, with its examples: worded today from the report the
 * ingester stored (`storedSummary`), so that a run read before the words changed reads as a new
 * one; else the lines stored beside it (a rule since renamed, say), and for runs recorded before
 * examples were kept, the sentences alone. A report with nothing to say (no error, no warning,
 * nothing rejected) has no lines: its one line of totals would only repeat the file's counts,
 * and the page says "No problems found." instead.
 */
function validationLines(validation: unknown): ValidationLine[] {
  if (CleanTotalsSchema.safeParse(validation).success) return [];
  const summary = storedSummary(validation);
  if (summary) return summaryLines(summary, { fatal: false, plain: true });
  const stored = validation as { lines?: unknown; sentences?: unknown } | null;
  const lines = StoredLinesSchema.safeParse(stored?.lines);
  if (lines.success) return lines.data;
  const sentences = stored?.sentences;
  return Array.isArray(sentences)
    ? sentences
        .filter((s): s is string => typeof s === 'string')
        .map((sentence) => ({ sentence, examples: [] }))
    : [];
}

/** A file's rate mix as the ingester stored it; null before it counted one, or if unreadable. */
function rateMix(stored: unknown): RateMix | null {
  const parsed = RateMixSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** A loading run's progress as the ingester wrote it; null for any other run, or if unreadable. */
function fileProgress(status: string, stored: unknown) {
  if (status !== 'loading') return null;
  const parsed = FileProgressSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** An http(s) address, the only kind the hospital's page makes a link of. */
function isWebAddress(text: string | null): text is string {
  return text !== null && /^https?:\/\//i.test(text) && URL.canParse(text);
}

/**
 * How a file's source is shown: by its name alone (a path on the server that loaded it says
 * nothing to a visitor), with a link for a file read from the hospital's site. A zip archive's
 * file is `archive.zip#name`, and its link is the archive's.
 */
export function fileSource(source: string): { source: string; sourceUrl: string | null } {
  if (isWebAddress(source)) {
    const url = new URL(source);
    const member = url.hash.length > 1 ? decoded(url.hash.slice(1)) : null;
    url.hash = '';
    return { source: withMember(decoded(lastSegment(url.pathname)), member), sourceUrl: url.href };
  }
  // A local path may hold a "#" of its own; only one after ".zip" names an archive's file.
  const zip = /^(.*?\.zip)#(.+)$/i.exec(source);
  return {
    source: zip ? withMember(lastSegment(zip[1] ?? ''), zip[2] ?? '') : lastSegment(source),
    sourceUrl: null,
  };
}

/** A path in quotes, as Node's file errors write it ("open '/srv/mrf/x.json'"). */
const QUOTED_PATH = /'(?:[A-Za-z]:)?[\\/](?:[^'\\/]*[\\/])*([^'\\/]*)'/g;

/**
 * A run's error as the public page shows it: a file error names the file, not where this
 * server keeps it, whether Node quoted the path or the ingest wrote the file's own ("The file
 * /srv/mrf/north.json does not exist…"). The admin's list of failing files shows it whole.
 */
export function shownError(error: string | null, source: string): string | null {
  if (error === null) return null;
  const shown = error.replace(QUOTED_PATH, "'$1'");
  if (isWebAddress(source)) return shown;
  const path = /^(.*?\.zip)#/i.exec(source)?.[1] ?? source;
  const folder = path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return folder ? shown.split(folder).join('') : shown;
}

const lastSegment = (path: string) => path.replace(/^.*[\\/]/, '');
const withMember = (name: string, member: string | null) =>
  member ? `${name}#${lastSegment(member)}` : name;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray "%": shown as written
  }
}

/**
 * Reads for the inventory screen and the state/MSA/hospital selectors (public data), and the
 * admin's classification of a hospital and requests to read its file again.
 */
export class InventoryService {
  constructor(
    private readonly pool: Pool,
    private readonly refreshes: RefreshRequests,
  ) {}

  async states(): Promise<StateItem[]> {
    const { rows } = await this.pool.query<StateItem>(
      `SELECT fips::int AS "stateID", name AS "stateName", code AS "stateCode" FROM states ORDER BY name`,
    );
    return rows;
  }

  /** The state's CBSAs that have at least one hospital, plus its non-metro group when it has one. */
  async msasByStateCode(stateCode: string): Promise<MsaItem[]> {
    const { rows } = await this.pool.query<MsaItem>(
      `SELECT c.code AS "msaID", c.title AS "MSA", c.code AS "TableName"
         FROM cbsas c
        WHERE EXISTS (SELECT 1 FROM hospitals h WHERE h.cbsa_code = c.code AND h.state_code = $1)
        ORDER BY c.title`,
      [stateCode.toUpperCase()],
    );
    return rows;
  }

  async msasByStateName(stateName: string): Promise<MsaItem[]> {
    const { rows } = await this.pool.query<{ code: string }>(
      `SELECT code FROM states WHERE lower(name) = lower($1)`,
      [stateName.trim()],
    );
    const code = rows[0]?.code;
    return code ? this.msasByStateCode(code) : [];
  }

  /**
   * The hospitals of a state and metro area. A metro area id that names none we know is refused,
   * as an unknown state is: an empty list would say it has no hospitals. (One of another state
   * is known, and has none there.)
   */
  async hospitals(filter: { stateName?: string; msaId?: string }): Promise<HospitalItem[]> {
    const { rows } = await this.pool.query<HospitalItem>(
      `SELECT h.id AS "hospitalID", h.name AS "facilityName"
         FROM hospitals h LEFT JOIN states s ON s.code = h.state_code
        WHERE ($1::text IS NULL OR lower(s.name) = lower($1))
          AND ($2::text IS NULL OR h.cbsa_code = $2)
        ORDER BY h.name`,
      [filter.stateName || null, filter.msaId || null],
    );
    if (rows.length === 0 && filter.msaId) {
      const known = await this.pool.query(`SELECT 1 FROM cbsas WHERE code = $1`, [filter.msaId]);
      if (known.rowCount === 0)
        throw fieldError(
          'FilterJson.msaId',
          'unknown',
          `${filter.msaId} is not a metro area we know.`,
        );
    }
    return rows;
  }

  async listings(): Promise<InventoryRow[]> {
    const { rows } = await this.pool.query<InventoryRow>(
      `SELECT h.id AS "hospitalID",
              coalesce(s.name, h.state_code, '') AS "stateName",
              coalesce(c.title, '') AS "msaName",
              -- The first location the file names; "and N more" when it lists several sites.
              coalesce(h.location_names[1], '') ||
                CASE WHEN cardinality(h.location_names) > 1 THEN ' and ' || (cardinality(h.location_names) - 1) || ' more' ELSE '' END
                AS "careCenter",
              h.name AS "facilityName",
              (sm.hospital_id IS NOT NULL) AS "hasFiles",
              coalesce(sm.has_cash, false) AS "cashRates",
              coalesce(sm.has_commercial, false) AS "commercialRates",
              coalesce(sm.has_medicare, false) AS "medicareRates",
              coalesce(sm.has_inpatient, false) AS "inpatient",
              coalesce(sm.has_outpatient, false) AS "outpatient",
              coalesce(sm.has_drugs, false) AS "drugs"
         FROM hospitals h
         LEFT JOIN states s ON s.code = h.state_code
         LEFT JOIN cbsas c ON c.code = h.cbsa_code
         LEFT JOIN hospital_summaries sm ON sm.hospital_id = h.id
        ORDER BY "stateName", "msaName", h.name`,
    );
    return rows;
  }

  async hospital(hospitalId: string): Promise<HospitalDetail> {
    const { rows } = await this.pool.query<{
      id: string;
      name: string;
      state_name: string | null;
      msa_name: string | null;
      addresses: string[];
      location_names: string[];
      type_2_npis: string[];
      is_demo: boolean;
      hospital_type: string | null;
      health_system_type: string | null;
    }>(
      `SELECT h.id, h.name, s.name AS state_name, c.title AS msa_name, h.addresses, h.location_names, h.type_2_npis, h.is_demo,
              h.hospital_type, h.health_system_type
         FROM hospitals h LEFT JOIN states s ON s.code = h.state_code LEFT JOIN cbsas c ON c.code = h.cbsa_code
        WHERE h.id = $1`,
      [hospitalId],
    );
    const hospital = rows[0];
    if (!hospital) throw notFound('No hospital has this id.');
    const files = await this.pool.query<{
      id: string;
      source: string;
      status: string;
      format: string | null;
      version: string | null;
      last_updated_on: string | null;
      items: number;
      rates: number;
      rejected: number;
      validation: unknown;
      rate_mix: unknown;
      source_page_url: string | null;
      contact_name: string | null;
      contact_email: string | null;
      listed_in: string | null;
      started_at: Date;
      finished_at: Date | null;
      first_read_at: Date | null;
      times_read: number;
      error: string | null;
      replaced_by: HospitalDetail['files'][number]['replacedBy'];
      progress: unknown;
    }>(
      `WITH run AS (
         -- Each source's repeated runs are one entry (STARTS_ENTRY); the runs the retention job
         -- deleted are counted on their entry's first.
         SELECT id, source, started_at, finished_at, status, repeats_pruned,
                ${STARTS_ENTRY} AS starts_entry
           FROM mrf_files WHERE hospital_id = $1
         WINDOW w AS (PARTITION BY source ORDER BY started_at)
       ),
       numbered AS (
         SELECT *, sum(starts_entry) OVER (PARTITION BY source ORDER BY started_at) AS entry FROM run
       ),
       entry AS (
         SELECT (array_agg(id ORDER BY started_at DESC))[1] AS id,
                (count(*) + sum(repeats_pruned))::int AS times_read,
                min(finished_at) AS first_read_at, max(started_at) AS newest,
                bool_or(status = 'loaded') AS in_use
           FROM numbered GROUP BY source, entry
       ),
       shown AS (
         (SELECT * FROM entry ORDER BY newest DESC LIMIT 20)
         -- The file in use, however many runs came after it (failed ones are listed too).
         UNION SELECT * FROM entry WHERE in_use
       )
       SELECT f.id, f.source, f.status, f.format, f.version, f.last_updated_on::text, f.items, f.rates, f.rejected, f.validation,
              f.rate_mix, f.source_page_url, f.contact_name, f.contact_email, f.listed_in, f.started_at, f.finished_at, f.error, f.progress,
              shown.times_read, shown.first_read_at,
              CASE WHEN successor.sha256 IS NULL THEN NULL
                   WHEN f.sha256 = successor.sha256 THEN 'same-file'
                   WHEN f.last_updated_on IS NULL OR successor.last_updated_on IS NULL THEN 'undated'
                   WHEN f.last_updated_on = successor.last_updated_on THEN 'same-date'
                   ELSE 'newer' END AS replaced_by
         FROM shown JOIN mrf_files f ON f.id = shown.id
         -- The run that replaced it: the ingester marks the file in use 'replaced' as it swaps in the
         -- next one (swapIn, packages/ingest/src/load/ingest-file.ts), so the next loaded or replaced run.
         LEFT JOIN LATERAL (
           SELECT n.sha256, n.last_updated_on FROM mrf_files n
            WHERE n.hospital_id = f.hospital_id AND n.status IN ('loaded', 'replaced') AND n.finished_at > f.finished_at
            ORDER BY n.finished_at LIMIT 1
         ) successor ON f.status = 'replaced'
        ORDER BY f.started_at DESC`,
      [hospitalId],
    );
    // A run its process left 'loading' when it died is failed already, though nothing has marked
    // it so yet (the next ingest does, or the worker within ten minutes): the page says so now
    // rather than show it loading, and stops asking for the hospital again.
    const alive = await liveRuns(
      this.pool,
      files.rows.filter((file) => file.status === 'loading').map((file) => file.id),
    );
    // Such a run is shown as markInterruptedRuns will record it, tried when it started.
    const runs = files.rows.map((file) =>
      file.status === 'loading' && !alive.has(file.id)
        ? { ...file, status: 'failed', error: INTERRUPTED_RUN, finished_at: file.started_at }
        : file,
    );
    return {
      hospitalID: hospital.id,
      facilityName: hospital.name,
      stateName: hospital.state_name ?? '',
      msaName: hospital.msa_name ?? '',
      addresses: hospital.addresses,
      locations: hospital.location_names,
      npis: hospital.type_2_npis,
      isDemo: hospital.is_demo,
      hospitalType: hospital.hospital_type,
      healthsystemType: hospital.health_system_type,
      files: runs.map((file) => ({
        ...fileSource(file.source),
        // Checked when cms-hpt.txt was read; checked again, as the page makes it a link.
        sourcePageUrl: isWebAddress(file.source_page_url) ? file.source_page_url : null,
        contactName: file.contact_name,
        contactEmail: file.contact_email,
        // A list read from a local path is no page to open; a run of the list itself (one that
        // could not be read) has its address as its source already.
        listedInUrl:
          isWebAddress(file.listed_in) && file.listed_in !== file.source ? file.listed_in : null,
        status: file.status,
        format: file.format,
        version: file.version,
        lastUpdatedOn: file.last_updated_on,
        items: file.items,
        rates: file.rates,
        rejected: file.rejected,
        validation: validationLines(file.validation),
        rateMix: rateMix(file.rate_mix),
        loadedAt: file.finished_at?.toISOString() ?? null,
        timesRead: file.times_read,
        firstReadAt: file.first_read_at?.toISOString() ?? null,
        replacedBy: file.replaced_by,
        error: shownError(file.error, file.source),
        progress: fileProgress(file.status, file.progress),
      })),
    };
  }

  /** Sets a hospital's type and system labels (admin only); the rate search shows them. */
  async classifyHospital(
    auth: AuthContext,
    hospitalId: string,
    input: HospitalClassification,
  ): Promise<HospitalClassification> {
    if (!isAdmin(auth.role)) throw forbidden('Only administrators can classify hospitals.');
    const { rowCount } = await this.pool.query(
      `UPDATE hospitals SET hospital_type = $2, health_system_type = $3 WHERE id = $1`,
      [hospitalId, input.hospitalType, input.healthsystemType],
    );
    if (!rowCount) throw notFound('No hospital has this id.');
    return input;
  }

  /**
   * Asks the background worker to read a hospital's file again where it came from (admin only),
   * as the daily refresh does for every hospital. A hospital with no file in use that can be read
   * again (demo data, or no file loaded) is refused with why.
   */
  async refreshHospital(auth: AuthContext, hospitalId: string): Promise<HospitalRefresh> {
    if (!isAdmin(auth.role))
      throw forbidden("Only administrators can ask for a hospital's file to be read again.");
    const { rows } = await this.pool.query<{ is_demo: boolean }>(
      'SELECT is_demo FROM hospitals WHERE id = $1',
      [hospitalId],
    );
    const hospital = rows[0];
    if (!hospital) throw notFound('No hospital has this id.');
    if (hospital.is_demo)
      throw conflict(
        'This is a demo hospital: its file is made when the server starts, so there is nothing to read again.',
      );
    const sources = await sourcesInUse(this.pool, hospitalId);
    if (sources.length === 0)
      throw conflict('This hospital has no file in use yet, so there is nothing to read again.');
    // A file loaded from a path on this machine that has since gone: the worker would pass it by
    // (as the command does), and the page would wait for a run that never comes.
    const there = await Promise.all(sources.map((source) => stillThere(source)));
    const gone = sources.find((_, i) => !there[i]);
    if (gone !== undefined && !there.some(Boolean))
      throw conflict(
        `The hospital's file was read from ${gone}, which is no longer there, so there is nothing to read again.`,
      );
    return { status: await this.refreshes.ask(hospitalId) };
  }

  /**
   * The daily refresh of the hospitals' files (admin only): whether a worker runs it, when next,
   * how the latest ended, and the administrators' requests for one hospital's (refreshStatus).
   */
  async refreshStatus(auth: AuthContext): Promise<RefreshStatus> {
    if (!isAdmin(auth.role))
      throw forbidden('Only administrators can see how the daily refresh of the files went.');
    return refreshStatus(this.pool);
  }

  /**
   * The hospitals whose latest read of their file failed (admin only), the longest failing
   * first: the daily refresh reads every file again, and a hospital that moved or took down its
   * file otherwise shows it only on its own page. Demo hospitals are left out (never refreshed).
   * Runs still loading do not count; a run that died is failed once marked so.
   */
  async failingFiles(auth: AuthContext): Promise<FailingFile[]> {
    if (!isAdmin(auth.role))
      throw forbidden('Only administrators can see which hospitals’ files could not be read.');
    const { rows } = await this.pool.query<{
      id: string;
      name: string;
      state_name: string | null;
      source: string;
      error: string | null;
      since: Date;
      last_tried: Date;
      failures: number;
      in_use_read_at: Date | null;
    }>(
      // Each lateral is one hospital's runs, by mrf_files_hospital_idx; the failures are counted
      // only for hospitals whose latest run failed.
      `SELECT h.id, h.name, s.name AS state_name, latest.source, latest.error,
              latest.started_at AS last_tried, streak.since, streak.failures,
              used.finished_at AS in_use_read_at
         FROM hospitals h
         LEFT JOIN states s ON s.code = h.state_code
         CROSS JOIN LATERAL (
           SELECT f.source, f.error, f.status, f.started_at FROM mrf_files f
            WHERE f.hospital_id = h.id AND f.status <> 'loading'
            ORDER BY f.started_at DESC LIMIT 1
         ) latest
         CROSS JOIN LATERAL (
           SELECT min(f.started_at) AS since, count(*)::int AS failures FROM mrf_files f
            WHERE f.hospital_id = h.id AND f.status = 'failed'
              AND f.started_at > coalesce(
                (SELECT max(g.started_at) FROM mrf_files g
                  WHERE g.hospital_id = h.id AND g.status NOT IN ('failed', 'loading')),
                '-infinity')
         ) streak
         LEFT JOIN LATERAL (
           SELECT u.finished_at FROM mrf_files u WHERE u.hospital_id = h.id AND u.status = 'loaded'
            ORDER BY u.finished_at DESC LIMIT 1
         ) used ON true
        WHERE latest.status = 'failed' AND NOT h.is_demo
        ORDER BY streak.since, h.name`,
    );
    return rows.map((row) => ({
      hospitalID: row.id,
      facilityName: row.name,
      stateName: row.state_name ?? '',
      ...fileSource(row.source),
      error: row.error,
      failingSince: row.since.toISOString(),
      lastTriedAt: row.last_tried.toISOString(),
      failures: row.failures,
      inUseReadAt: row.in_use_read_at?.toISOString() ?? null,
    }));
  }
}
