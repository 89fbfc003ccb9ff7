import type { Connection, Queryable } from '@ratelens/db';
import { errorMessage } from '@ratelens/core';
import {
  HPT_TXT_NAME,
  hptTxtOfSite,
  isHptTxt,
  readHptTxt,
  type HptListing,
  type HptLocation,
} from '../read/hpt-txt.ts';
import { zipFiles } from '../read/index.ts';
import { isUrl, stillThere } from '../read/source.ts';
import { plural } from '../validate/report.ts';
import {
  ingestFile,
  type IngestOptions,
  type IngestResult,
  type IngestStatus,
} from './ingest-file.ts';
import { ingestNote } from './ingest-notes.ts';
import { delineationLoaded, hospitalLocator } from './reference-loader.ts';
import {
  entryName,
  hospitalEntries,
  readWholeBefore,
  recordListFailure,
  sourcesInUse,
  type HospitalEntries,
} from './refresh.ts';

/*
 * What `npm run ingest` and the worker's refresh job share: the files a list of sources stands
 * for (a hospital's cms-hpt.txt, a website, a zip archive of several files), each read and loaded
 * in turn, and what to say of each. The command shows a progress bar and a line of figures per
 * file; the worker logs the lines.
 */

/** A file to read, with what the hospital's cms-hpt.txt says of it when it came from one. */
export interface ListedFile {
  source: string;
  listing: HptListing | undefined;
  /** Why it cannot be read, when that was found while listing it (see ingestFile's option). */
  unreadable?: Error;
  /** When the request that found it unreadable began: its time is the file's. */
  startedAt?: number;
}

/**
 * Called with a cms-hpt.txt that could not be read, or named no file that could be, and why in
 * words: a load records it for the hospitals whose files came through it (recordListFailure).
 */
type ListFailed = (list: string, why: string, durationMs: number) => Promise<unknown>;

/** Where expand says what it finds, and what it asks of the database when there is one. */
export interface ExpandOptions {
  /** Each line it has to say: a list's files, a file it cannot read, an archive read file by file. */
  say: (line: string) => void;
  /** A list that could not be read, or named no file that could (recordListFailure). */
  listFailed?: ListFailed;
  /** Whether a URL need not be asked whether it is an archive of several files (readWholeBefore). */
  readWhole?: (url: string) => Promise<boolean>;
  /** Of a list, only this hospital's entries, when any is (a refresh of one hospital). */
  entriesOf?: HospitalEntries;
}

/**
 * The files to read: a hospital's `cms-hpt.txt` stands for the files it lists, and a zip archive of
 * several files for each of its files. What cannot be read is said and counted.
 */
export async function expand(
  sources: string[],
  options: ExpandOptions,
  listings: ReadonlyMap<string, HptListing> = new Map(),
): Promise<{ files: ListedFile[]; unreadable: number }> {
  const { say, listFailed, readWhole, entriesOf } = options;
  const files: ListedFile[] = [];
  let unreadable = 0;
  for (const given of sources) {
    // A hospital's website given by its address alone: the list CMS asks it to publish at its root.
    const site = hptTxtOfSite(given);
    if (site) say(`${given}: a website; reading its ${HPT_TXT_NAME}, ${site}`);
    const source = site ?? given;
    if (isHptTxt(source)) {
      const started = performance.now();
      let failure: string | null = null;
      try {
        const list = await readHptTxt(source);
        const { problems } = list;
        for (const problem of problems) say(`${source}: ${problem}`);
        const locations = entriesOf
          ? hospitalsOwn(source, list.locations, entriesOf, say)
          : list.locations;
        // A file listed for several locations keeps what its first location says of it.
        const listed = new Map<string, HptListing>();
        for (const { mrfUrl, sourcePageUrl, contactName, contactEmail } of locations)
          if (!listed.has(mrfUrl))
            listed.set(mrfUrl, { sourcePageUrl, contactName, contactEmail, listedIn: source });
        const urls = [...listed.keys()];
        say(`${source}: ${plural(locations.length, 'location')}, ${plural(urls.length, 'file')}`);
        // A list that names another list (or a website, which stands for one) is not followed:
        // it could name itself.
        const lists = urls.filter((url) => isHptTxt(url) || hptTxtOfSite(url) !== null);
        for (const url of lists)
          say(`${source}: ${url} is no file but a list or a website; not followed`);
        const fileUrls = urls.filter((url) => !lists.includes(url));
        if (fileUrls.length === 0)
          failure = `it names no file to read${problems[0] ? ` (${problems[0]})` : ''}`;
        const read = await expand(fileUrls, options, listed);
        files.push(...read.files);
        unreadable += read.unreadable;
      } catch (error) {
        // A reference-file error names its source already: said once, and recorded without it.
        const message = errorMessage(error);
        const named = `${source}: `;
        failure = message.startsWith(named) ? message.slice(named.length) : message;
        say(`${named}${failure}`);
      }
      if (failure !== null) {
        unreadable++;
        await listFailed?.(source, failure, performance.now() - started);
      }
      continue;
    }
    const listing = listings.get(source);
    let members: string[] | null;
    const startedAt = performance.now();
    try {
      members = isUrl(source) && (await readWhole?.(source)) ? null : await zipFiles(source);
    } catch (error) {
      files.push({ source, listing, unreadable: error as Error, startedAt });
      continue;
    }
    if (members) say(`${source}: a zip archive of ${members.length} files, read one by one`);
    for (const file of members ? members.map((name) => `${source}#${name}`) : [source])
      files.push({ source: file, listing });
  }
  return { files, unreadable };
}

/**
 * The entries of a list that are the hospital's (HospitalEntries): a file it was read from before,
 * or a location of its name. With none, every entry, said: the hospital may have renamed both its
 * file and its locations, and reading every file of the list is how its file is found then.
 */
function hospitalsOwn(
  list: string,
  locations: HptLocation[],
  entriesOf: HospitalEntries,
  say: (line: string) => void,
): HptLocation[] {
  const own = locations.filter(
    ({ mrfUrl, locationName }) =>
      entriesOf.urls.has(mrfUrl) ||
      (locationName !== null && entriesOf.names.has(entryName(locationName))),
  );
  if (own.length === 0)
    say(
      `${list}: no location in it has the hospital's name or a file it was read from, so every file it lists is read`,
    );
  else if (own.length < locations.length)
    say(
      `${list}: ${plural(own.length, 'location')} of the hospital's, of ${locations.length}; the others are left alone`,
    );
  return own.length === 0 ? locations : own;
}

/** What a refresh reads again (sourcesInUse), less the local files no longer on disk, said. */
async function refreshSources(
  pool: Queryable,
  say: (line: string) => void,
  hospitalId?: string,
): Promise<{ sources: string[]; missing: number }> {
  const sources: string[] = [];
  let missing = 0;
  for (const source of await sourcesInUse(pool, hospitalId)) {
    if (await stillThere(source)) sources.push(source);
    else {
      missing++;
      say(`${source}: no longer there, so not read again; its hospital's rates stay.`);
    }
  }
  say(
    sources.length + missing === 0
      ? 'No file is in use yet, so there is nothing to read again (demo hospitals are left out).'
      : `Reading again ${plural(sources.length, 'source')} of the files in use.`,
  );
  return { sources, missing };
}

/** How a caller follows one file of `ingestSources`: its progress, and its end. */
export interface FileWatch {
  progress?: IngestOptions['progress'];
  swapWaiting?: IngestOptions['swapWaiting'];
  /** The file is done: called before its error or note is said (a progress bar ends its line). */
  ended?: () => void;
  /** Called last, with the file's result. */
  result?: (result: IngestResult) => void;
  /** Called last instead, when the file failed in a way its run could not record: with why. */
  unrecorded?: (error: string) => void;
}

export interface IngestSourcesOptions {
  /** Each line to say: the lists read, files that cannot be, each file's error or note. */
  say: (line: string) => void;
  demo?: boolean;
  reload?: boolean;
  /** Called as each file starts, with its place among them. */
  starting?: (file: ListedFile, index: number, files: readonly ListedFile[]) => FileWatch;
  /** Told of a cms-hpt.txt that could not be read, or named no file that could, once recorded. */
  listUnreadable?: (list: string, why: string) => void;
  /** When aborted, no further file is started (the file being read is finished). */
  signal?: AbortSignal;
  /** When aborted, the file being read is stopped too (its run fails; the previous data stays). */
  fileSignal?: AbortSignal;
  /** Of a list, only this hospital's entries, when any is (ExpandOptions). */
  entriesOf?: HospitalEntries;
  /**
   * The files read longest ago first (never read, first of all), not in the lists' order: a
   * refresh cut short mid-list starts the next with the files it did not reach (a refresh).
   */
  oldestFirst?: boolean;
}

/**
 * What a run of sources came to: each file's status, the sources that could not be read, and the
 * files found and not started when `signal` said to start no more.
 */
export interface SourcesResult {
  statuses: IngestStatus[];
  unreadable: number;
  notRead: number;
}

/**
 * Reads and loads the files that `sources` stand for, one after another. A list that fails is a
 * failed run of each hospital whose file came through it (recordListFailure); a URL that a file
 * was read whole from before is not asked again whether it is an archive (readWholeBefore).
 */
export async function ingestSources(
  connection: Connection,
  sources: string[],
  options: IngestSourcesOptions,
): Promise<SourcesResult> {
  const { say, signal } = options;
  const pool = connection.pool;
  const expanded = await expand(sources, {
    say,
    listFailed: async (list, why, ms) => {
      await recordListFailure(pool, list, why, ms);
      options.listUnreadable?.(list, why);
    },
    readWhole: (url) => readWholeBefore(pool, url),
    entriesOf: options.entriesOf,
  });
  const { unreadable } = expanded;
  const files = options.oldestFirst ? await oldestFirst(pool, expanded.files) : expanded.files;
  if (files.length > 0 && !(await delineationLoaded(pool)))
    say(
      'No metro areas are loaded yet: each hospital is placed in its county, and gets its metro ' +
        'area when the CBSA delineation is loaded (npm run reference -- cbsa <List 1 file>).',
    );
  const statuses: IngestStatus[] = [];
  for (const [index, file] of files.entries()) {
    if (signal?.aborted) {
      say(cutShort(files.length - index, files.length, signal.reason));
      break;
    }
    const watch = options.starting?.(file, index, files) ?? {};
    let result: IngestResult;
    try {
      result = await ingestFile(connection, file.source, {
        demo: options.demo ?? false,
        reload: options.reload ?? false,
        listing: file.listing,
        unreadable: file.unreadable,
        startedAt: file.startedAt,
        locate: hospitalLocator(pool),
        progress: watch.progress,
        swapWaiting: watch.swapWaiting,
        signal: options.fileSignal,
      });
    } catch (error) {
      // What ingestFile could not record itself (the database refused, or went away): said and
      // counted as failed, and the next file read all the same. The file's previous data stays.
      watch.ended?.();
      statuses.push('failed');
      say(`${file.source}: failed, and could not be recorded: ${errorMessage(error)}`);
      watch.unrecorded?.(errorMessage(error));
      continue;
    }
    watch.ended?.();
    statuses.push(result.status);
    if (result.error) say(`${file.source}: ${result.error}`);
    const note = ingestNote(file.source, result);
    if (note) say(note);
    watch.result?.(result);
  }
  return { statuses, unreadable, notRead: files.length - statuses.length };
}

/** The line said when files are left unread because `signal` was aborted, and why when it says. */
function cutShort(left: number, of: number, reason: unknown): string {
  const why = reason instanceof Error && reason.name !== 'AbortError' ? ` (${reason.message})` : '';
  return `Cut short${why}: ${plural(left, 'file')} of ${of} not read; they are read next time.`;
}

/** `files` by when each was last read (its latest run), never read first; else as given. */
async function oldestFirst(pool: Queryable, files: ListedFile[]): Promise<ListedFile[]> {
  const { rows } = await pool.query<{ source: string; at: Date }>(
    `SELECT source, max(started_at) AS at FROM mrf_files WHERE source = ANY($1::text[]) GROUP BY source`,
    [files.map((file) => file.source)],
  );
  const lastRead = new Map(rows.map((row) => [row.source, row.at.getTime()]));
  const at = (file: ListedFile) => lastRead.get(file.source) ?? Number.NEGATIVE_INFINITY;
  return [...files].sort((a, b) => at(a) - at(b));
}

/**
 * Reads again where every hospital's file in use came from (sourcesInUse), loading what changed:
 * `npm run ingest -- --refresh`, and the worker's scheduled refresh. A local file no longer on
 * disk is said and counted as missing; its hospital's rates stay. With `hospitalId`, that
 * hospital's alone: of a list its file came through, only its own entries (hospitalsOwn).
 */
export async function refreshSourcesInUse(
  connection: Connection,
  options: IngestSourcesOptions & { /** Only this hospital's file. */ hospitalId?: string },
): Promise<SourcesResult & { missing: number }> {
  const { hospitalId } = options;
  const { sources, missing } = await refreshSources(connection.pool, options.say, hospitalId);
  const entriesOf =
    hospitalId === undefined
      ? undefined
      : ((await hospitalEntries(connection.pool, hospitalId)) ?? undefined);
  const read = await ingestSources(connection, sources, {
    ...options,
    entriesOf,
    oldestFirst: true,
  });
  return { ...read, missing };
}
