import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  inTransaction,
  isLockTimeout,
  poolLike,
  type Connection,
  type Pool,
  type PoolClient,
  type Queryable,
} from '@ratelens/db';
import type { MrfHeader } from '../model.ts';
import {
  MrfReadError,
  openMrf,
  type HttpValidators,
  type MrfReader,
  type ValidationReport,
} from '../read/index.ts';
import type { HptListing } from '../read/hpt-txt.ts';
import { hashDownload, inRemoteArchive, isUrl } from '../read/source.ts';
import {
  currentPartitions,
  dropRunTables,
  RATE_TABLES,
  swapPartitions,
  TableLoad,
} from './rate-tables.ts';
import type { Placement } from './reference-loader.ts';
import { countyForZip, parseAddressZip } from '../reference/zip-county.ts';
import { RowEncoder, type CodeEntry, type PayerPlanEntry, type Summary } from './row-encoder.ts';
import { errorMessage, type FileProgress, type RateMix } from '@ratelens/core';

/**
 * How a run ended. `unchanged`: the file in use, the same bytes again. `skipped`: a file read
 * before and not put in use (older than, or as old as, the file in use), the same bytes again, so
 * not read again: a hospital's list often names its older files, or one file in two formats.
 */
export type IngestStatus = 'loaded' | 'unchanged' | 'skipped' | 'older' | 'failed';

export interface IngestResult {
  runId: string;
  status: IngestStatus;
  hospitalId: string | null;
  hospital: string | null;
  format: string | null;
  version: string | null;
  items: number;
  rates: number;
  rejected: number;
  bytes: number;
  seconds: number;
  /** The file's own last_updated_on, once read. */
  lastUpdatedOn: string | null;
  /**
   * The file the hospital's rates came from when this run reached its swap: replaced when this
   * one loaded, kept when this one is older; for a skipped file, the file in use.
   */
  previous?: { source: string; lastUpdatedOn: string | null };
  /**
   * How an unchanged or skipped file was known without loading it: its local file's bytes hashed
   * again ('hash'), its server's 304 Not Modified to a conditional download ('server'), or its
   * zip archive's directory listing it with the CRC-32 and size it had ('entry').
   */
  unchangedBy?: 'hash' | 'server' | 'entry';
  error?: string;
}

/**
 * What a pass over a file's bytes is for: `checking`, hashing bytes that may be the ones read
 * before (a local file of a size read before, a download without validators), before `reading`.
 */
export type ReadPhase = 'checking' | 'reading';

/** How far a file's read has come: records read, bytes read, and of how many when known. */
interface ReadProgress {
  records: number;
  bytes: number;
  total: number | null;
}

export interface IngestOptions {
  /**
   * Called as the file is read: bytes so far, total bytes when known, records so far, and which
   * pass this is (a file hashed first is passed over twice).
   */
  progress?: (bytes: number, total: number | null, records: number, phase: ReadPhase) => void;
  signal?: AbortSignal;
  /** Marks the hospital as fictional demo data. */
  demo?: boolean;
  /** Places a hospital (address → ZIP → county → CBSA); without it hospitals have no geography. */
  locate?: (header: MrfHeader) => Promise<Placement>;
  /**
   * Reads and loads the file even when the same bytes are loaded already, so that rules the
   * readers gained since reach the rows loaded before them. An older file is still not loaded.
   */
  reload?: boolean;
  /** What the hospital's cms-hpt.txt says of the file: its page and whom to ask about it. */
  listing?: HptListing;
  /**
   * Why the file cannot be read, found before the run (its server said nothing to an earlier
   * request): the run is recorded as failed with it, and the file is not asked for again.
   */
  unreadable?: Error;
  /**
   * When the work on this file began (a `performance.now()` time), when that was before this
   * call: the request that found it unreadable counts in the run's seconds.
   */
  startedAt?: number;
  /**
   * How long, in milliseconds, the swap keeps trying while queries hold the rate tables (swapIn);
   * then the run fails and the hospital's previous file stays in use. Ten minutes unless said.
   */
  swapPatience?: number;
  /** Called each time the swap gives way to queries reading the rate tables: how long it has waited. */
  swapWaiting?: (waitedMs: number) => void;
}

/** A run's advisory-lock key: held while the run is alive, so a crashed run can be told from a slow one. */
function lockKey(runId: string): bigint {
  return BigInt.asIntN(
    64,
    BigInt(`0x${createHash('sha256').update(runId).digest('hex').slice(0, 16)}`),
  );
}

/**
 * Which of these runs are alive: held by a process that is still reading or loading them. A run
 * left 'loading' by a process that died is not, until the next ingest or the worker marks it
 * failed (markInterruptedRuns), so a page can say so at once. Its lock is a 64-bit advisory key,
 * which pg_locks shows as two 32-bit halves.
 */
export async function liveRuns(via: Queryable, runIds: readonly string[]): Promise<Set<string>> {
  if (runIds.length === 0) return new Set();
  const keys = new Map(runIds.map((id) => [lockKey(id).toString(), id]));
  const { rows } = await via.query<{ key: string }>(
    `SELECT ((l.classid::int8 << 32) | l.objid::int8)::text AS key
       FROM pg_locks l
      WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND ((l.classid::int8 << 32) | l.objid::int8) = ANY($1::int8[])`,
    [[...keys.keys()]],
  );
  return new Set(rows.flatMap(({ key }) => keys.get(key) ?? []));
}

/** What a run that died before it finished says, once it is known to have died. */
export const INTERRUPTED_RUN =
  'The ingest stopped before it finished (the process ended); the previous data is unchanged.';

/** The advisory lock that lets one swap run at a time (swapOnce). */
export const SWAP_LOCK_KEY = lockKey('swap of a hospital’s rate partitions');

/**
 * How long a swap waits for a table lock before it gives way. Its DROP needs the parent tables to
 * itself: while it waits for a query already reading them, every query asked after it (each
 * search) queues behind it. So it waits this long at most, rolls back, lets them through, and
 * tries again after a pause that doubles up to SWAP_PAUSE_MAX_MS (ADR 0013, "Session 38").
 */
const SWAP_LOCK_TIMEOUT_MS = 200;
const SWAP_PAUSE_MAX_MS = 2_000;
const SWAP_PATIENCE_MS = 10 * 60_000;

/**
 * What identifies "the same hospital" across its files (docs/decisions/0011-rate-data.md): its
 * licence and name, since locations under one licence may each publish a file; the name by its
 * ASCII letters and digits in lower case ("St. Mary's" is "St Marys"), as migration 0013 wrote
 * it for the hospitals known before. Without a licence, its name and state: the licence's state,
 * else the state the ZIP of its address places it in (as `hospitalLocator` places it, so that two
 * "Memorial Hospital"s of other states without a licence state are two hospitals; migration 0014
 * wrote it so for the hospitals known before).
 */
export function hospitalSourceKey(header: MrfHeader): string {
  if (header.licenseState && header.licenseNumber) {
    const licence = `${header.licenseState.toUpperCase()}:${header.licenseNumber.trim().toUpperCase()}`;
    return `license:${licence}:${header.hospitalName.replace(/[^A-Za-z0-9]+/g, '').toLowerCase()}`;
  }
  const state = header.licenseState?.toUpperCase() ?? addressState(header.addresses) ?? '';
  return `name:${state}:${header.hospitalName.trim().toLowerCase().replace(/\s+/g, ' ')}`;
}

/**
 * The state of the first address with a ZIP that places it in a county. Not of an address placed
 * by its city (`countyForAddresses`): the hospitals known before those were placed are keyed
 * without a state, and keyed with one now, each would be loaded again as another hospital.
 */
function addressState(addresses: readonly string[]): string | undefined {
  for (const address of addresses) {
    const zip = parseAddressZip(address)?.zip;
    const found = zip ? countyForZip(zip) : undefined;
    if (found) return found.state;
  }
  return undefined;
}

/**
 * Ingests one hospital file: read, validate, normalise, COPY into three fresh tables (one per
 * rate table, each filled and indexed in its own transaction), then swap them in as the
 * hospital's partitions in one transaction. The previous data of the hospital stays whole until
 * that transaction commits, whatever happens to this process (kill -9 included).
 */
export async function ingestFile(
  connection: Connection,
  source: string,
  options: IngestOptions = {},
): Promise<IngestResult> {
  // A pool of the run's own: a run holds four connections to its end (its lock and three COPYs)
  // and asks for more beside them. On a shared pool it left the pool's other users waiting, and
  // three runs at once on a pool of ten waited on each other for ever (ADR 0013, "Session 37").
  const pool = poolLike(connection.pool, RUN_CONNECTIONS);
  try {
    return await runIngest({ ...connection, pool }, source, options);
  } finally {
    await pool.end();
  }
}

/**
 * Gives back a run's lock and its connection, however the run ended. A connection the database
 * ended meanwhile (a restart, an administrator) cannot unlock; closed, its lock goes with its
 * session. Kept out, it held up the run pool's end for ever: the run never ended, and `npm run
 * ingest` exited with 0, printing nothing, once nothing else was left to wait for.
 */
async function letGo(client: PoolClient, runId: string): Promise<void> {
  const unlocked = await client.query('SELECT pg_advisory_unlock($1)', [lockKey(runId)]).then(
    () => true,
    () => false,
  );
  client.release(!unlocked);
}

/**
 * The most connections a run holds at once: its lock, three COPYs, and the short queries beside
 * them (payer/plan ids and codes while reading; tidying a dead run, two; the swap).
 */
const RUN_CONNECTIONS = 8;

async function runIngest(
  connection: Connection,
  source: string,
  options: IngestOptions,
): Promise<IngestResult> {
  const started = options.startedAt ?? performance.now();
  const pool = connection.pool;
  // The run's id is chosen here so that its advisory lock is held before its row exists: a
  // markInterruptedRuns elsewhere can never take this live run for a dead one.
  const runId = randomUUID();
  // Everything that does not need the header (connecting, which authenticates each connection,
  // recording the run, tidying interrupted runs) goes on while the file's header is read.
  const locking = pool.connect();
  const connecting = Promise.allSettled(RATE_TABLES.map(() => pool.connect()));
  const progress: ReadProgress = { records: 0, bytes: 0, total: null };
  const remote = isUrl(source);
  // A file named in a zip archive (`archive.zip#name`), at a URL or on disk: it is asked with the
  // archive's entry for it (the CRC-32 and size a run read), not read while that is the same.
  const member = remote ? inRemoteArchive(source) : source.includes('#');
  // A local file's first bytes are read while unchangedLoad may hash it: the read's progress is
  // held until that is settled, so that the two passes are shown one after the other.
  let readingHeld = !remote && !options.reload;
  // How far the hashing pass is, while one runs (unchangedLoad, unchangedDownload): null once
  // the read proper is shown.
  let checking: { bytes: number; total: number | null } | null = null;
  // How far the run is, written on its row for the hospital's page once the row exists.
  const progressRow = progressWriter(pool, runId, () =>
    checking
      ? { phase: 'checking', bytesRead: checking.bytes, totalBytes: checking.total, records: 0 }
      : {
          phase: 'reading',
          bytesRead: progress.bytes,
          totalBytes: progress.total,
          records: progress.records,
        },
  );
  let recorded = false;
  const readProgress = (bytes: number, total: number | null) => {
    progress.bytes = bytes;
    progress.total = total;
    if (readingHeld) return;
    checking = null;
    options.progress?.(bytes, total, progress.records, 'reading');
    if (recorded) progressRow.write();
  };
  const checkProgress = (bytes: number, total: number | null) => {
    checking = { bytes, total };
    options.progress?.(bytes, total, 0, 'checking');
    if (recorded) progressRow.write();
  };
  // A URL whose bytes were read before is asked for only if it changed since (the validators its
  // server sent with them), and what it sends is hashed before it is read, when it may be the
  // same bytes (unchangedDownload). A file in a remote zip archive is asked for so by the
  // archive's first range, and by its entry there (knownInArchive).
  const runsBefore =
    (remote || member) && !options.reload && !options.unreadable
      ? readFrom(pool, source)
      : Promise.resolve([]);
  const asked = runsBefore.then(
    (runs) => runs.find((run) => run.validators || run.zipCrc32 !== null) ?? null,
  );
  const downloaded = runsBefore.then((runs) =>
    unchangedDownload(pool, source, runs, options, checkProgress),
  );
  const knownBefore = downloaded.then((outcome) => outcome.known);
  const opening = options.unreadable
    ? Promise.reject(options.unreadable)
    : Promise.all([asked, downloaded]).then(([loaded, { known, spooled }]) =>
        known
          ? Promise.reject(new Error('not read: the bytes read before'))
          : openMrf(spooled?.path ?? source, {
              signal: options.signal,
              onProgress: readProgress,
              ifChanged: member && remote ? (loaded?.validators ?? undefined) : undefined,
              ifEntryChanged:
                member && loaded?.zipCrc32 != null
                  ? { crc32: loaded.zipCrc32, bytes: loaded.bytes }
                  : undefined,
            }),
      );
  // Awaited in the try below; until then a failure must not go unhandled. A download that
  // fails (a 404) while the run is being recorded rejected knownBefore with nothing listening
  // yet: an unhandled rejection, which ends a Node process (the server, with its worker).
  for (const pending of [opening, knownBefore, asked]) pending.catch(() => undefined);
  let lockClient: PoolClient | null = null;
  let failed = false;
  const result: IngestResult = {
    runId,
    status: 'failed',
    hospitalId: null,
    hospital: null,
    format: null,
    version: null,
    items: 0,
    rates: 0,
    rejected: 0,
    bytes: 0,
    seconds: 0,
    lastUpdatedOn: null,
  };
  try {
    lockClient = await locking;
    await lockClient.query('SELECT pg_advisory_lock($1)', [lockKey(runId)]);
    // Runs that died are tidied first (on this connection: no other is free yet), then this one is recorded.
    await markInterruptedRuns(connection, lockClient);
    // Under the hospital this source's file was read for, when one alone (PRESUMED_HOSPITAL).
    await lockClient.query(
      `INSERT INTO mrf_files (id, source, status, source_page_url, contact_name, contact_email, listed_in, hospital_id)
       VALUES ($1, $2, 'loading', $3, $4, $5, $6, ${PRESUMED_HOSPITAL})`,
      [
        runId,
        source,
        options.listing?.sourcePageUrl ?? null,
        options.listing?.contactName ?? null,
        options.listing?.contactEmail ?? null,
        options.listing?.listedIn ?? null,
      ],
    );
    recorded = true;
    // A hashing pass that got ahead of the row (a download begins at once) is shown from now.
    if (checking) progressRow.write();
    const known = (await knownBefore) ?? (member ? await knownInArchive(asked, opening) : null);
    const unchanged = options.reload
      ? null
      : (known?.run ??
        (remote ? null : await unchangedLoad(lockClient, source, options, checkProgress)));
    readingHeld = false;
    if (progress.bytes > 0 && !unchanged) readProgress(progress.bytes, progress.total);
    if (unchanged) {
      await opening.then((reader) => reader.close()).catch(() => undefined);
      Object.assign(result, await recordUnchanged(lockClient, runId, unchanged));
      result.unchangedBy = known?.by ?? (remote ? 'server' : 'hash');
    } else {
      await loadFile(
        { pool, lockClient, runId, opening, downloaded, connecting, progress, options },
        result,
      );
    }
  } catch (error) {
    failed = true;
    result.status = 'failed';
    result.error = errorMessage(error);
    // Under its hospital, when the file got as far as saying which, with its report so far: the
    // hospital's page then says why its rates are not this file's.
    const reader = await opening.catch(() => null);
    const report = reader?.report ?? null;
    // What the file said of itself, as far as it was read (a CSV is wide or tall from its column
    // names on): the hospital's page shows it beside the error.
    const header = reader?.header ?? null;
    result.format = header?.format ?? null;
    result.version = header?.version ?? null;
    const recordFailure = () =>
      pool.query(
        `UPDATE mrf_files SET status = 'failed', error = $2, finished_at = now(), hospital_id = coalesce($3, hospital_id),
                validation = $4, format = $5, version = $6, last_updated_on = $7, progress = NULL
          WHERE id = $1`,
        [
          runId,
          result.error,
          result.hospitalId,
          report && JSON.stringify(storedValidation(report)),
          result.format,
          result.version,
          header?.lastUpdatedOn ?? null,
        ],
      );
    // Once more on failing: when the database ended the run's sessions (a restart), the pool may
    // still hold an idle connection whose end it has not heard of yet, and the next is new.
    await recordFailure().catch(recordFailure);
  } finally {
    progressRow.stop();
    // A failure before the records were read leaves the file open.
    if (failed) await opening.then((reader) => reader.close()).catch(() => undefined);
    // After a failure the connections may be mid-protocol (and mid-transaction): close them.
    for (const connected of await connecting)
      if (connected.status === 'fulfilled') connected.value.release(failed);
    try {
      if (result.status !== 'loaded') await dropRunTables(pool, runId);
    } finally {
      if (lockClient) await letGo(lockClient, runId);
      // A download's copy goes too, the database gone or not: a worker's process lives on.
      const spooled = (await downloaded.catch(() => null))?.spooled;
      if (spooled) await rm(dirname(spooled.path), { recursive: true, force: true });
    }
  }
  result.seconds = (performance.now() - started) / 1000;
  await pool.query(`UPDATE mrf_files SET duration_ms = $2 WHERE id = $1`, [
    runId,
    Math.round(result.seconds * 1000),
  ]);
  return result;
}

/** How often a loading run writes on its row how far its read is (FileProgress). */
export const PROGRESS_EVERY_MS = 2000;

/**
 * Writes `progress` on the run's row as a FileProgress, at most every PROGRESS_EVERY_MS and
 * always the latest figures: a call in between sets a write for the end of the interval, so a
 * read that stalls (a server that stops sending) shows how far it got. Not awaited: the read goes
 * on. Only while the run is loading, so a write that lands after the run ended changes nothing;
 * the run's last UPDATE clears it.
 */
function progressWriter(
  pool: Pool,
  runId: string,
  current: () => FileProgress,
): { write: () => void; stop: () => void } {
  let writtenAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | null = null;
  const write = () => {
    timer = null;
    writtenAt = performance.now();
    const written = current();
    pool
      .query(`UPDATE mrf_files SET progress = $2 WHERE id = $1 AND status = 'loading'`, [
        runId,
        JSON.stringify(written),
      ])
      // A lost write is the next one's to make up: the page says how far the read is, roughly.
      .catch(() => undefined);
  };
  return {
    write: () => {
      if (timer !== null) return;
      timer = setTimeout(write, Math.max(0, writtenAt + PROGRESS_EVERY_MS - performance.now()));
    },
    // When the run ends: a write set for later would change nothing.
    stop: () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}

/**
 * The run under its hospital while it loads, once the file has said which: the hospital's page
 * lists it as loading, with how far it is, instead of saying nothing until it ends.
 */
async function showLoading(client: PoolClient, runId: string, hospitalId: string): Promise<void> {
  await client.query('UPDATE mrf_files SET hospital_id = $2 WHERE id = $1', [runId, hospitalId]);
}

interface LoadRun {
  pool: Pool;
  /** The run's own connection (holding its advisory lock). */
  lockClient: PoolClient;
  runId: string;
  opening: Promise<MrfReader>;
  /** What hashing a URL's download found: its bytes kept on disk are what `opening` reads. */
  downloaded: Promise<DownloadOutcome>;
  /** One connection per rate table, asked for when the run began. */
  connecting: Promise<PromiseSettledResult<PoolClient>[]>;
  /** Records read so far, and the bytes last said, for the progress callback. */
  progress: ReadProgress;
  options: IngestOptions;
}

/**
 * Reads the file into the run's three tables and swaps them in (unless the hospital's loaded
 * file is the same or newer). `result` is filled in as the run learns, so that a failure still
 * names the hospital; on failure the COPYs are abandoned (an open COPY keeps its connection busy)
 * before the error goes up.
 */
async function loadFile(run: LoadRun, result: IngestResult): Promise<void> {
  const { pool, runId, options } = run;
  const reader = await run.opening;
  const { header } = reader;
  const demo = options.demo ?? false;
  // Which hospital the file is: known now, or (a JSON file whose name or licence follows its
  // items) only once it has been read. Until then its rows carry an id of their own, which
  // becomes the hospital's if the hospital is new (upsertHospital, TableLoad.finish).
  const pending = reader.identityPending();
  let hospitalId: string;
  let newHospital = false;
  if (pending) hospitalId = randomUUID();
  else {
    refuseUnnamed(header);
    result.hospital = header.hospitalName;
    const hospital = await upsertHospital(run.lockClient, header, demo);
    hospitalId = hospital.id;
    result.hospitalId = hospitalId;
    newHospital = hospital.inserted;
    await showLoading(run.lockClient, runId, hospitalId);
  }

  const loads: TableLoad[] = [];
  try {
    const clients: PoolClient[] = [];
    for (const connected of await run.connecting) {
      if (connected.status === 'rejected') throw connected.reason;
      clients.push(connected.value);
    }
    RATE_TABLES.forEach((spec, i) =>
      loads.push(new TableLoad(clients[i] as PoolClient, spec, { runId, hospitalId })),
    );
    await Promise.all(loads.map((load) => load.start()));
    const [items, codes, rates] = loads as [TableLoad, TableLoad, TableLoad];
    const encoder = new RowEncoder(
      { items, codes, rates },
      (pairs) => payerPlanIds(pool, pairs),
      (entries) => upsertCodes(pool, entries),
    );
    const { progress } = run;
    for await (const record of reader.records) {
      progress.records++;
      await encoder.add(record);
    }
    // Bytes are read ahead of the records: the last figures count every record.
    run.options.progress?.(progress.bytes, progress.total, progress.records, 'reading');
    // A file with no charge (a modifier's record is none), or whose every rate was rejected,
    // would replace the hospital's rates with none.
    const empty = emptiness(reader, encoder.summary.items);
    if (empty) throw empty;
    if (pending) {
      refuseUnnamed(header);
      result.hospital = header.hospitalName;
      hospitalId = (await upsertHospital(run.lockClient, header, demo, hospitalId)).id;
      result.hospitalId = hospitalId;
      await showLoading(run.lockClient, runId, hospitalId);
    }
    const { summary } = encoder;
    // PostgreSQL takes the last rows and writes the tables to disk meanwhile: the last codes and
    // placing the hospital (CPU work here) fit in that time.
    const [, , place] = await Promise.all([
      Promise.all(loads.map((load) => load.finish(hospitalId))),
      encoder.end(),
      new Promise((resolve) => setImmediate(resolve)).then(() => options.locate?.(header) ?? null),
    ]);
    const stats = reader.stats();
    // A JSON file may declare its version after the items (keys in alphabetical order), and a
    // CSV is told wide or tall by its column names, after the header rows that open the reader.
    result.format = header.format;
    result.version = header.version;
    result.lastUpdatedOn = header.lastUpdatedOn;
    result.items = summary.items;
    result.rates = summary.rates;
    result.bytes = stats.bytes;
    result.rejected = reader.report.rejected();
    result.status = await swapIn(pool, options, {
      runId,
      hospitalId,
      header,
      place,
      sha256: stats.sha256,
      // Read from the download's copy on disk: what the server said of it when it sent it.
      validators: stats.validators ?? (await run.downloaded).spooled?.validators ?? null,
      entryCrc32: stats.entryCrc32,
      reload: options.reload ?? false,
      demo,
      summary,
      rateMix: encoder.rateMix(),
      result,
      validation: storedValidation(reader.report),
    });
  } catch (error) {
    const reason = error instanceof Error ? error : new Error(String(error));
    await Promise.all(loads.map((load) => load.abort(reason)));
    // A hospital first seen in this file is listed all the same: placed from the file's
    // address, it shows in its state and metro area, and the metro area's filter finds it.
    // The file's failure is what the run reports, whatever becomes of this.
    if (newHospital && options.locate)
      await options
        .locate(header)
        .then((place) => placeHospital(run.lockClient, hospitalId, place))
        .catch(() => undefined);
    throw error;
  }
}

/**
 * The payer_plans ids of a record's new pairs, in their order, in one round trip: their canonical
 * payers join `payers` and the pairs join `payer_plans` when new. The canonical payer and line of
 * business follow the current rules (a pair seen before takes them too, for every hospital).
 * Rows are written in the order of their keys, as in upsertCodes: runs at once then lock shared
 * rows in one order (ADR 0013, "Session 37").
 */
async function payerPlanIds(pool: Pool, pairs: readonly PayerPlanEntry[]): Promise<number[]> {
  const { rows } = await pool.query<{ id: number; payer_name: string; plan_name: string }>(
    `WITH pair AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
                  AS p(payer_name, plan_name, canonical_name, line_of_business)),
     payer AS (
       INSERT INTO payers (canonical_name)
       SELECT DISTINCT canonical_name FROM pair ORDER BY canonical_name
       ON CONFLICT (canonical_name) DO UPDATE SET canonical_name = EXCLUDED.canonical_name
       RETURNING id, canonical_name)
     INSERT INTO payer_plans (payer_id, payer_name, plan_name, line_of_business)
     SELECT payer.id, pair.payer_name, pair.plan_name, pair.line_of_business
       FROM pair JOIN payer USING (canonical_name)
      ORDER BY pair.payer_name, pair.plan_name
     ON CONFLICT (payer_name, plan_name) DO UPDATE
       SET payer_id = EXCLUDED.payer_id, line_of_business = EXCLUDED.line_of_business
     RETURNING id, payer_name, plan_name`,
    [
      pairs.map((p) => p.payerName),
      pairs.map((p) => p.planName),
      pairs.map((p) => p.canonicalPayer),
      pairs.map((p) => p.lineOfBusiness),
    ],
  );
  const ids = new Map(rows.map((row) => [`${row.payer_name}\t${row.plan_name}`, row.id]));
  return pairs.map(({ payerName, planName }) => {
    const id = ids.get(`${payerName}\t${planName}`);
    if (id === undefined) throw new Error(`could not record payer ${payerName}, plan ${planName}`);
    return id;
  });
}

/**
 * The statuses of a run that read its file whole (SQL): the file in use, one replaced since, or one
 * older than the file in use; not a run that knew its file without reading it, or failed.
 */
export const READ_WHOLE = `('loaded', 'replaced', 'older')`;

/**
 * The hospital a run of source `$2` is presumed to be for until its file says (SQL): the one
 * hospital whose runs read a file whole from that source, if one alone did. A refresh then shows
 * on the hospital's page while it hashes a download to tell whether it changed, and a source
 * that cannot be read any more (a 404, a file cut short, an empty file) is a failed run listed
 * there; before, such a run belonged to no hospital, and an administrator who asked for the file
 * to be read again was told after two minutes that no worker had taken the request. A file
 * that turns out to be another hospital's is moved under it as it says so (showLoading).
 */
const PRESUMED_HOSPITAL = `(
  SELECT CASE WHEN count(DISTINCT f.hospital_id) = 1 THEN (array_agg(f.hospital_id))[1] END
    FROM mrf_files f JOIN hospitals h ON h.id = f.hospital_id
   WHERE f.source = $2 AND f.status IN ${READ_WHOLE})`;

interface ReadRun {
  id: string;
  hospital_id: string;
  hospital: string;
  sha256: string;
  bytes: number;
  /** Whether its file is the one its hospital's rates come from. */
  inUse: boolean;
  /** For a file downloaded whole from a URL, what its server said of these bytes' version. */
  validators: HttpValidators | null;
  /** For a file read by name from a zip archive, its CRC-32 there (SourceStats.entryCrc32). */
  zipCrc32: number | null;
}

/**
 * The runs that read a file from `source` (a path or URL) whole, newest first: the file in use
 * ('loaded'), or one that was and was replaced, or one older than the file in use. One source may
 * have served more than one hospital.
 */
async function readFrom(db: Queryable, source: string): Promise<ReadRun[]> {
  const { rows } = await db.query<
    Omit<ReadRun, 'validators' | 'inUse' | 'zipCrc32'> & {
      status: string;
      etag: string | null;
      last_modified: string | null;
      zip_crc32: string | null;
    }
  >(
    `SELECT f.id, f.hospital_id, h.name AS hospital, f.sha256, f.bytes, f.status,
            f.http_etag AS etag, f.http_last_modified AS last_modified, f.zip_crc32
       FROM mrf_files f JOIN hospitals h ON h.id = f.hospital_id
      WHERE f.source = $1 AND f.status IN ${READ_WHOLE}
      ORDER BY f.finished_at DESC`,
    [source],
  );
  return rows.map(({ etag, last_modified: lastModified, status, zip_crc32: crc, ...run }) => ({
    ...run,
    bytes: Number(run.bytes),
    inUse: status === 'loaded',
    validators: etag !== null || lastModified !== null ? { etag, lastModified } : null,
    zipCrc32: crc === null ? null : Number(crc),
  }));
}

/** The run, newest first, that read these very bytes (the same size and SHA-256), if any. */
function sameBytes(runs: ReadRun[], bytes: number, sha256: string): ReadRun | null {
  return runs.find((run) => run.bytes === bytes && run.sha256 === sha256) ?? null;
}

/**
 * The run whose file a local `source` still is, found without parsing it: a file read from the
 * same path with the same size (in use or not), whose SHA-256 the file's bytes still have
 * (hashing reads the file once, several times faster than an ingest; progress is reported).
 * Anything else (a new size, another hash) is ingested in full, and the swap still finds a file
 * identical to the loaded one by its hash. (A URL: unchangedDownload.)
 */
async function unchangedLoad(
  client: PoolClient,
  source: string,
  options: IngestOptions,
  checked: (bytes: number, total: number) => void,
): Promise<ReadRun | null> {
  const size = await stat(source).then(
    (s) => (s.isFile() ? s.size : null),
    () => null,
  );
  if (!size) return null;
  const runs = (await readFrom(client, source)).filter((read) => read.bytes === size);
  if (runs.length === 0) return null;
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(source, {
    highWaterMark: 1 << 20,
    signal: options.signal,
  }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    checked(bytes, size);
  }
  return sameBytes(runs, bytes, hash.digest('hex'));
}

/**
 * A file known, without reading it, as the one a run read: by its server's word, its hash, or
 * (in a zip archive) the archive's entry for it.
 */
interface KnownFile {
  run: ReadRun;
  by: 'server' | 'hash' | 'entry';
}

/** A URL's bytes found new by unchangedDownload, kept on disk to be read from there. */
interface SpooledDownload {
  /** The copy, in a folder of its own, removed when the run ends. */
  path: string;
  /** What the server said of this version as it sent it. */
  validators: HttpValidators | null;
}

/** What unchangedDownload found: the run whose bytes these are, or a copy of new bytes, or neither. */
interface DownloadOutcome {
  known: KnownFile | null;
  spooled: SpooledDownload | null;
}

const NOTHING_DOWNLOADED: DownloadOutcome = { known: null, spooled: null };

/** How the folders of downloads kept on disk are named: the prefix, then the process id. */
const SPOOL_PREFIX = 'ratelens-download-';

/**
 * The run whose file a URL read whole before still is, known without reading it. Asked for with
 * the validators of the latest such run that kept any: a 304 Not Modified says so. What the server
 * sends instead (or what a server without validators sends) is downloaded and hashed, not read, as a
 * local file's bytes are (unchangedLoad): a server that sends no validators, ignores them, or gives
 * one file other ETags from other machines would otherwise have an unchanged file parsed and
 * loaded on every refresh, to throw the work away at the swap. Only when the bytes may be the
 * same: an announced size (Content-Length) that no run read is a new file, read at once from a
 * second GET (the first one's body let go unread); with none announced the bytes are hashed first.
 * The bytes hashed are kept on disk meanwhile (in the system's temporary folder), so that new ones
 * are read from there rather than downloaded again; where the disk cannot hold them, they are
 * downloaded again. Validators the server sent with bytes found the same are kept on the run
 * matched, for the next time. A file in a remote zip archive (`archive.zip#name`) is read by
 * ranges, not whole: knownInArchive, and the swap's hash check.
 */
async function unchangedDownload(
  db: Queryable,
  source: string,
  runs: ReadRun[],
  options: IngestOptions,
  checked: (bytes: number, total: number | null) => void,
): Promise<DownloadOutcome> {
  if (runs.length === 0 || !isUrl(source) || inRemoteArchive(source)) return NOTHING_DOWNLOADED;
  const asked = runs.find((run) => run.validators) ?? null;
  await sweepSpools();
  const folder = await mkdtemp(join(tmpdir(), `${SPOOL_PREFIX}${process.pid}-`)).catch(() => null);
  const path = folder === null ? null : join(folder, spoolName(source));
  let outcome: DownloadOutcome = NOTHING_DOWNLOADED;
  try {
    const hashed = await hashDownload(
      source,
      (announced) => announced === null || runs.some((run) => run.bytes === announced),
      {
        signal: options.signal,
        onProgress: checked,
        ifChanged: asked?.validators ?? undefined,
        spoolTo: path ?? undefined,
      },
    );
    const run = hashed ? sameBytes(runs, hashed.bytes, hashed.sha256) : null;
    if (!hashed || !run) {
      const spooled = hashed?.spooled && path ? { path, validators: hashed.validators } : null;
      outcome = { known: null, spooled };
      return outcome;
    }
    if (hashed.validators)
      await db.query(`UPDATE mrf_files SET http_etag = $2, http_last_modified = $3 WHERE id = $1`, [
        run.id,
        hashed.validators.etag,
        hashed.validators.lastModified,
      ]);
    return { known: { run, by: 'hash' }, spooled: null };
  } catch (error) {
    if (asked && error instanceof MrfReadError && error.code === 'not-modified')
      return { known: { run: asked, by: 'server' }, spooled: null };
    throw error;
  } finally {
    // The copy is kept only when it is to be read from.
    if (folder !== null && !outcome.spooled) await rm(folder, { recursive: true, force: true });
  }
}

/** The copy's file name: the URL's own (what reports name the file by), else "download". */
function spoolName(url: string): string {
  const last = new URL(url).pathname.split('/').pop() ?? '';
  return (
    decoded(last)
      .replace(/[^\w.-]/g, '_')
      .replace(/^\.+/, '') || 'download'
  );
}

/** A URL's part with its %-escapes decoded; as written when they are broken (`%E0`). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * Removes the downloads kept on disk by processes that ended without removing them (killed, or
 * the machine stopped): each folder names its process, and one that is no longer running has no
 * use for it.
 */
async function sweepSpools(): Promise<void> {
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(SPOOL_PREFIX)) continue;
    const pid = Number(name.slice(SPOOL_PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid === process.pid || running(pid)) continue;
    await rm(join(tmpdir(), name), { recursive: true, force: true });
  }
}

/** Whether a process of this id runs (one of another user's counts: it may not be signalled). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The run whose file in a zip archive still is, known before reading it: by the server of a
 * remote archive, its first range asked for only if it changed and answered 304 Not Modified
 * (openMrf's 'not-modified'), or by the archive's directory, remote or local, which lists the
 * file with the CRC-32 and size the run read ('entry-unchanged'). Any other outcome, the file
 * read or not, leaves it to the load, which reports a failure.
 */
async function knownInArchive(
  readBefore: Promise<ReadRun | null>,
  opening: Promise<MrfReader>,
): Promise<KnownFile | null> {
  const loaded = await readBefore.catch(() => null);
  if (!loaded) return null;
  const by = await opening.then(
    () => null,
    (error: unknown) =>
      !(error instanceof MrfReadError)
        ? null
        : error.code === 'not-modified'
          ? ('server' as const)
          : error.code === 'entry-unchanged'
            ? ('entry' as const)
            : null,
  );
  return by ? { run: loaded, by } : null;
}

/**
 * The run, recorded as unchanged (or skipped, when the run it matches is not in use) with the
 * figures of the run it matches, its validation summary with them (the counts of errors, warnings
 * and what was read and rejected) but not the rules' sentences and examples (about a kilobyte):
 * the run it matches has them, and a daily refresh records such a run for every hospital every
 * day. A skipped file's result names the hospital's file in use (`previous`).
 */
async function recordUnchanged(
  client: PoolClient,
  runId: string,
  loaded: ReadRun,
): Promise<Partial<IngestResult>> {
  const status: IngestStatus = loaded.inUse ? 'unchanged' : 'skipped';
  const {
    rows: [run],
  } = await client.query<{
    format: string | null;
    version: string | null;
    items: number;
    rates: number;
    rejected: number;
    last_updated_on: string | null;
  }>(
    `UPDATE mrf_files f SET hospital_id = l.hospital_id, status = $3, sha256 = l.sha256, bytes = l.bytes,
            format = l.format, version = l.version, last_updated_on = l.last_updated_on, items = l.items,
            rates = l.rates, rejected = l.rejected, validation = l.validation - 'rules' - 'lines',
            finished_at = now()
       FROM mrf_files l
      WHERE f.id = $1 AND l.id = $2
      RETURNING l.format, l.version, l.items, l.rates, l.rejected, l.last_updated_on::text`,
    [runId, loaded.id, status],
  );
  if (!run) throw new Error('could not record the run');
  const { last_updated_on: lastUpdatedOn, ...figures } = run;
  const result: Partial<IngestResult> = {
    status,
    hospitalId: loaded.hospital_id,
    hospital: loaded.hospital,
    bytes: loaded.bytes,
    lastUpdatedOn,
    ...figures,
  };
  if (status === 'skipped') {
    const { rows } = await client.query<{ source: string; last_updated_on: string | null }>(
      `SELECT source, last_updated_on::text FROM mrf_files
        WHERE hospital_id = $1 AND status = 'loaded' ORDER BY finished_at DESC LIMIT 1`,
      [loaded.hospital_id],
    );
    const inUse = rows[0];
    if (inUse) result.previous = { source: inUse.source, lastUpdatedOn: inUse.last_updated_on };
  }
  return result;
}

/**
 * A run's validation report as stored: the plain-words lines, with their examples, are what the
 * inventory shows (the error that ended a read is the run's `error`, shown apart); the rest is
 * there for whoever digs.
 */
function storedValidation(report: ValidationReport) {
  return { ...report.toJSON(), lines: report.lines({ fatal: false, plain: true }) };
}

/**
 * A file that does not name its hospital cannot be told from another hospital's file (CMS's
 * templates, published with their header values blank, would all be one nameless hospital).
 */
function refuseUnnamed(header: MrfHeader): void {
  const refusal = unnamedHospital(header);
  if (refusal) throw refusal;
}

function unnamedHospital(header: MrfHeader): MrfReadError | null {
  return header.hospitalName.trim() === ''
    ? new MrfReadError(
        'no-hospital-name',
        'The file does not name its hospital (hospital_name is empty or missing), so its rates ' +
          'could not be told from another hospital’s. Nothing was loaded.',
      )
    : null;
}

/**
 * Why loading a file that has been read to its end would be refused (no charge, no hospital
 * name), in the words a load would use, or null: `--validate-only` fails a file for them too.
 */
export function loadRefusal(reader: MrfReader): MrfReadError | null {
  return emptiness(reader) ?? unnamedHospital(reader.header);
}

/**
 * The error for a file that, loaded, would leave the hospital with no rates: one with no charge
 * (`charges` of them were read), or one whose every payer rate was rejected.
 */
function emptiness(reader: MrfReader, charges = reader.report.recordsRead): MrfReadError | null {
  if (charges === 0) return noCharges(reader);
  const { payersRead, rejectedPayers } = reader.report;
  return payersRead === 0 && rejectedPayers > 0 ? noRates(rejectedPayers) : null;
}

/** The error for a file whose every payer rate was rejected: its charges alone would load. */
function noRates(rejected: number): MrfReadError {
  return new MrfReadError(
    'no-charges',
    `Every payer rate in the file was rejected (${rejected.toLocaleString('en-US')}; the report says why). ` +
      'Nothing was loaded; the hospital’s rates from an earlier file, if any, are kept.',
  );
}

/** The error for a file with no charge: loaded, it would leave the hospital with no rates. */
function noCharges(reader: MrfReader): MrfReadError {
  const { report } = reader;
  const rejected = report.rejectedRecords;
  return new MrfReadError(
    'no-charges',
    (rejected > 0
      ? `Every charge in the file was rejected (${rejected.toLocaleString('en-US')}; the report says why).`
      : report.count('required.standard_charge_information') > 0
        ? 'The file has no standard_charge_information list, so no charges (the report names any field it has that CMS does not define).'
        : report
              .examples('json.wrong-type')
              .some((issue) => issue.location === 'standard_charge_information')
          ? 'The file’s standard_charge_information is not a list, so no charges were read.'
          : 'The file lists no charges.') +
      ' Nothing was loaded; the hospital’s rates from an earlier file, if any, are kept.',
  );
}

/**
 * The hospital's id, its row added from the file's header if it is new. An existing hospital's
 * details are left as they are: the file may turn out older, or break, and what the hospital's
 * page says comes from the file its rates come from (refreshHospital, at the swap); its place is
 * filled in there too. `id` is the one a new hospital takes (the id its rows were written with
 * before its name and licence were read); `inserted` says the hospital is new.
 */
async function upsertHospital(
  pool: Queryable,
  header: MrfHeader,
  demo: boolean,
  id?: string,
): Promise<{ id: string; inserted: boolean }> {
  const { rows } = await pool.query<{ id: string; inserted: boolean }>(
    `INSERT INTO hospitals (id, source_key, name, state_code, license_number, license_state, type_2_npis, location_names, addresses, is_demo)
     VALUES (COALESCE($10::uuid, gen_random_uuid()), $1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (source_key) DO UPDATE SET source_key = EXCLUDED.source_key
     RETURNING id, (xmax = 0) AS inserted`,
    [
      hospitalSourceKey(header),
      header.hospitalName,
      header.licenseState,
      header.licenseNumber,
      header.licenseState,
      header.type2Npis,
      header.locationNames,
      header.addresses,
      demo,
      id ?? null,
    ],
  );
  const found = rows[0];
  if (!found) throw new Error('could not record the hospital');
  return found;
}

/**
 * Address → ZIP → county → CBSA and Medicare locality; what is unknown keeps its old value. A
 * hospital placed in another county than before (a newer file giving only a city elsewhere) is
 * placed there whole: the ZIP and locality of its old address are not its own any more.
 */
async function placeHospital(client: PoolClient, hospitalId: string, place: Placement) {
  await client.query(
    `UPDATE hospitals h SET state_code = COALESCE($2, h.state_code),
            zip = CASE WHEN o.moved THEN $3 ELSE COALESCE($3, h.zip) END,
            county_fips = COALESCE($4, h.county_fips),
            cbsa_code = CASE WHEN o.moved THEN $5 ELSE COALESCE($5, h.cbsa_code) END,
            medicare_carrier = CASE WHEN o.moved THEN $6 ELSE COALESCE($6, h.medicare_carrier) END,
            medicare_locality = CASE WHEN o.moved THEN $7 ELSE COALESCE($7, h.medicare_locality) END
       FROM (SELECT id, $4::text IS NOT NULL AND county_fips IS DISTINCT FROM $4::text AS moved
               FROM hospitals WHERE id = $1) o
      WHERE h.id = o.id`,
    [
      hospitalId,
      place.stateCode,
      place.zip,
      place.countyFips,
      place.cbsaCode,
      place.medicareCarrier,
      place.medicareLocality,
    ],
  );
}

interface SwapInput {
  runId: string;
  hospitalId: string;
  header: MrfHeader;
  place: Placement | null;
  sha256: string;
  /** What the server of a URL said of the file's version (SourceStats.validators). */
  validators: HttpValidators | null;
  /** For a file read by name from a zip archive, its CRC-32 there (SourceStats.entryCrc32). */
  entryCrc32: number | null;
  /** Load the file even if its bytes are the loaded ones (IngestOptions.reload). */
  reload: boolean;
  /** The hospital is fictional demo data (IngestOptions.demo). */
  demo: boolean;
  summary: Summary;
  rateMix: RateMix;
  result: IngestResult;
  validation: unknown;
}

const SUMMARY_SQL = `
  INSERT INTO hospital_summaries AS s (hospital_id, items, rates, has_cash, has_commercial, has_medicare, has_inpatient,
                                       has_outpatient, has_drugs, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
  ON CONFLICT (hospital_id) DO UPDATE SET
    items = EXCLUDED.items, rates = EXCLUDED.rates, has_cash = EXCLUDED.has_cash, has_commercial = EXCLUDED.has_commercial,
    has_medicare = EXCLUDED.has_medicare, has_inpatient = EXCLUDED.has_inpatient, has_outpatient = EXCLUDED.has_outpatient,
    has_drugs = EXCLUDED.has_drugs, updated_at = now()`;

/**
 * The code table holds what the search shows for a code instead of the hospital's own item text:
 * its description, where we may show one. MS-DRG and other DRG names come from the files
 * themselves and join it here, in batches while the file is read (so whether or not the file is
 * loaded in the end); CPT text is AMA-copyrighted, so CPT codes get none; HCPCS descriptions come
 * from the CMS file (`npm run reference -- hcpcs`). Codes with nothing to show get no row: a
 * chargemaster code is often unique to its item, and writing them cost PostgreSQL a fifth of
 * its CPU during an ingest (ADR 0013, "Session 15"). Codes already there with their description
 * are left untouched (no dead rows, no WAL). Rows are written in the order of their keys: two
 * runs at once writing the same new codes in other orders deadlocked (ADR 0013, "Session 37").
 */
async function upsertCodes(pool: Pool, codes: readonly CodeEntry[]): Promise<void> {
  await pool.query(
    `INSERT INTO codes (type, code, description, category)
     SELECT n.type, n.code, n.description, n.category
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS n(type, code, description, category)
      WHERE NOT EXISTS (SELECT 1 FROM codes c
                         WHERE c.type = n.type AND c.code = n.code AND (c.description IS NOT NULL OR n.description IS NULL))
      ORDER BY n.type, n.code
     ON CONFLICT (type, code) DO UPDATE SET description = EXCLUDED.description`,
    [
      codes.map((c) => c.type),
      codes.map((c) => c.code),
      codes.map((c) => c.description),
      codes.map((c) => c.category),
    ],
  );
}

/**
 * The hospital's details from the file its rates now come from, in the swap, from the whole
 * header (a JSON file's top-level keys may follow its items). Its identity (`source_key`) stays
 * as it was found, and its state is the place's (placeHospital).
 */
async function refreshHospital(
  client: Queryable,
  hospitalId: string,
  header: MrfHeader,
  demo: boolean,
) {
  await client.query(
    `UPDATE hospitals SET name = $2, license_number = $3, license_state = $4, type_2_npis = $5,
            location_names = $6, addresses = $7, is_demo = $8, updated_at = now()
      WHERE id = $1`,
    [
      hospitalId,
      header.hospitalName,
      header.licenseNumber,
      header.licenseState,
      header.type2Npis,
      header.locationNames,
      header.addresses,
      demo,
    ],
  );
}

/**
 * Swaps the run's tables in (swapOnce), trying again while queries hold the rate tables, for
 * `swapPatience` at most.
 */
async function swapIn(
  pool: Pool,
  { swapPatience: patience = SWAP_PATIENCE_MS, swapWaiting }: IngestOptions,
  input: SwapInput,
): Promise<IngestStatus> {
  const started = performance.now();
  for (let pause = 50; ; pause = Math.min(2 * pause, SWAP_PAUSE_MAX_MS)) {
    try {
      return await swapOnce(pool, input);
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
      const waited = performance.now() - started;
      swapWaiting?.(waited);
      if (waited + pause > patience)
        throw new Error(
          `The new rates were not swapped in: queries kept the rate tables busy for ${formatWait(patience)}. The hospital's previous file stays in use; ingest this file again later.`,
          { cause: error },
        );
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

function formatWait(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

/**
 * Whether the run's bytes are those a run of the same source read before for the hospital and did
 * not put in use, or put in use until another file replaced them. Known before reading by the
 * validators or the hash (readFrom) where the source gives them; here, after reading, for a server
 * that sends neither: a hospital's list naming two of its files of one date would otherwise swap
 * the one in use for the other on every refresh.
 */
async function passedOverBefore(
  client: PoolClient,
  runId: string,
  hospitalId: string,
  sha256: string,
): Promise<boolean> {
  const { rows } = await client.query(
    `SELECT 1 FROM mrf_files run JOIN mrf_files f ON f.source = run.source
      WHERE run.id = $1 AND f.hospital_id = $2 AND f.sha256 = $3 AND f.status IN ('replaced', 'older')
      LIMIT 1`,
    [runId, hospitalId, sha256],
  );
  return rows.length > 0;
}

/** The one transaction that replaces a hospital's rates, or decides not to. */
async function swapOnce(pool: Pool, input: SwapInput): Promise<IngestStatus> {
  const { runId, hospitalId, header, sha256, result, summary } = input;
  return inTransaction(pool, async (client) => {
    // One swap at a time, whatever the hospital: a swap locks the three parent tables one by one
    // (DROP and ATTACH), and two swaps taking them in another order deadlocked (ADR 0013,
    // "Session 37"). A swap is catalog work, milliseconds; the wait is short.
    await client.query('SELECT pg_advisory_xact_lock($1)', [SWAP_LOCK_KEY]);
    // From here on no lock is waited for long: see SWAP_LOCK_TIMEOUT_MS.
    await client.query(`SET LOCAL lock_timeout = ${SWAP_LOCK_TIMEOUT_MS}`);
    if (input.place) await placeHospital(client, hospitalId, input.place);
    const {
      rows: [current],
    } = await client.query<{
      id: string;
      source: string;
      sha256: string | null;
      last_updated_on: string | null;
    }>(
      `SELECT id, source, sha256, last_updated_on::text FROM mrf_files WHERE hospital_id = $1 AND status = 'loaded' ORDER BY finished_at DESC LIMIT 1`,
      [hospitalId],
    );
    if (current)
      result.previous = { source: current.source, lastUpdatedOn: current.last_updated_on };
    let status: IngestStatus = 'loaded';
    if (current?.sha256 === sha256 && !input.reload) {
      status = 'unchanged';
      // The same bytes from the same URL under new validators (a server that changed its ETag):
      // the next download asks with these.
      if (input.validators)
        await client.query(
          `UPDATE mrf_files f SET http_etag = $3, http_last_modified = $4
             FROM mrf_files run WHERE f.id = $1 AND run.id = $2 AND run.source = f.source`,
          [current.id, runId, input.validators.etag, input.validators.lastModified],
        );
      // So too its entry in a zip archive, which a file loaded before it was kept lacks.
      if (input.entryCrc32 !== null)
        await client.query(
          `UPDATE mrf_files f SET zip_crc32 = $3
             FROM mrf_files run WHERE f.id = $1 AND run.id = $2 AND run.source = f.source`,
          [current.id, runId, input.entryCrc32],
        );
    } else if (
      current?.last_updated_on &&
      header.lastUpdatedOn &&
      header.lastUpdatedOn < current.last_updated_on
    )
      status = 'older';
    else if (!input.reload && (await passedOverBefore(client, runId, hospitalId, sha256)))
      status = 'skipped';
    if (status === 'loaded') {
      await refreshHospital(client, hospitalId, header, input.demo);
      await swapPartitions(
        client,
        { runId, hospitalId },
        await currentPartitions(client, hospitalId),
      );
      if (current)
        await client.query(`UPDATE mrf_files SET status = 'replaced' WHERE id = $1`, [current.id]);
      await client.query(SUMMARY_SQL, [
        hospitalId,
        summary.items,
        summary.rates,
        summary.hasCash,
        summary.hasCommercial,
        summary.hasMedicare,
        summary.hasInpatient,
        summary.hasOutpatient,
        summary.hasDrugs,
      ]);
    }
    await client.query(
      `UPDATE mrf_files SET hospital_id = $2, status = $3, sha256 = $4, bytes = $5, format = $6, version = $7, last_updated_on = $8,
              items = $9, rates = $10, rejected = $11, validation = $12, rate_mix = $13,
              http_etag = $14, http_last_modified = $15, zip_crc32 = $16, finished_at = now(), progress = NULL
       WHERE id = $1`,
      [
        runId,
        hospitalId,
        status,
        sha256,
        result.bytes,
        header.format,
        header.version,
        header.lastUpdatedOn,
        result.items,
        result.rates,
        result.rejected,
        JSON.stringify(input.validation),
        JSON.stringify(input.rateMix),
        input.validators?.etag ?? null,
        input.validators?.lastModified ?? null,
        input.entryCrc32,
      ],
    );
    return status;
  });
}

/**
 * Runs left in 'loading' by a process that died (kill -9, power loss) are marked failed and any
 * table they had filled is dropped. A live run holds its advisory lock, so it is left alone.
 */
export async function markInterruptedRuns(
  connection: Connection,
  /** Where to look for them; a connection the caller already holds saves opening one. */
  via: Queryable = connection.pool,
): Promise<number> {
  const pool = connection.pool;
  const { rows } = await via.query<{ id: string }>(
    `SELECT id FROM mrf_files WHERE status = 'loading'`,
  );
  let marked = 0;
  for (const { id } of rows) {
    const client = await pool.connect();
    // A failure may leave the dead run's lock taken on this connection: closed, not pooled.
    let held = false;
    try {
      const {
        rows: [lock],
      } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        lockKey(id),
      ]);
      if (!lock?.ok) continue;
      held = true;
      await client.query(
        `UPDATE mrf_files SET status = 'failed', error = $2, finished_at = now(), progress = NULL
          WHERE id = $1 AND status = 'loading'`,
        [id, INTERRUPTED_RUN],
      );
      await dropRunTables(pool, id);
      await client.query('SELECT pg_advisory_unlock($1)', [lockKey(id)]);
      held = false;
      marked++;
    } finally {
      client.release(held);
    }
  }
  return marked;
}
