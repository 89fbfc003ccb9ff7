import { parseArgs } from 'node:util';
import { openDatabase, type Queryable } from '@ratelens/db';
import { ingestFile, loadRefusal, type IngestStatus } from '../load/ingest-file.ts';
import { readWholeBefore, recordListFailure, sourcesInUse } from '../load/refresh.ts';
import { isUrl, stillThere } from '../read/source.ts';
import { delineationLoaded, hospitalLocator } from '../load/reference-loader.ts';
import {
  HPT_TXT_NAME,
  hptTxtOfSite,
  isHptTxt,
  readHptTxt,
  type HptListing,
} from '../read/hpt-txt.ts';
import { openMrf, zipFiles, type MrfReader } from '../read/index.ts';
import { ProgressBar } from './progress.ts';
import { plural } from '../validate/report.ts';
import { errorMessage } from '@ratelens/core';
import { fromCallerDirectory } from './caller-path.ts';
import { ingestNote, refreshSummary, SWAP_WAIT_NOTICE_MS, swapWaitNotice } from './ingest-notes.ts';

const USAGE = `Usage: npm run ingest -- [--validate-only] [--reload] [--demo] <file|url>…
       npm run ingest -- --refresh [--reload]

Reads each hospital machine-readable file (CMS JSON, tall or wide CSV, v2.0–v3.0; plain, gzip
or zip; a path or an http(s) URL), validates and normalises it, and loads it into the database
(DATABASE_URL, else the embedded PostgreSQL of DATA_DIR). A zip archive of several files is read
file by file (archive.zip#name each; one such name reads that file alone); from a URL, only when
its server answers HTTP Range requests, else its first file only. A hospital's cms-hpt.txt (path
or URL) stands for the files it lists, and a website's address alone (https://hospital.org) for
the cms-hpt.txt at its root. The last line of each file is one JSON object with the
figures of the run.

  --validate-only  print each file's validation report; load nothing
  --reload         read and load a file even when the same bytes are loaded already, so that
                   rules the readers gained since reach its rows (an older file still is not)
  --demo           mark the hospitals as fictional demo data
  --refresh        read again where every hospital's file in use came from (its cms-hpt.txt when
                   it was found through one, else its path or URL), loading what changed: a URL
                   is downloaded only if its server says it changed, a local file is hashed`;

function peakRssMb(): number {
  // maxRSS is in kilobytes.
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** CPU seconds the whole process (every thread, garbage collection included) has used since `since`. */
function cpuSeconds(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return Number(((user + system) / 1e6).toFixed(2));
}

/**
 * Reads a file to its end without loading it: the report, then one JSON line of figures. A file
 * that cannot be read is said and the next one checked, as a load does; false when it fails.
 */
async function validateOnly({ source, unreadable, startedAt }: ListedFile): Promise<boolean> {
  const started = startedAt ?? performance.now();
  const cpu = process.cpuUsage();
  const bar = new ProgressBar(source);
  const read = { records: 0, bytes: 0, total: null as number | null };
  let reader: MrfReader | undefined;
  let failure: string | undefined;
  try {
    if (unreadable) throw unreadable;
    reader = await openMrf(source, {
      onProgress: (bytes, total) => {
        Object.assign(read, { bytes, total });
        bar.update(bytes, total, read.records);
      },
    });
    for await (const record of reader.records) {
      read.records++;
      void record;
    }
    // Bytes are read ahead of the records: the last figures count every record.
    bar.update(read.bytes, read.total, read.records);
  } catch (error) {
    failure = errorMessage(error);
  }
  bar.done();
  const seconds = (performance.now() - started) / 1000;
  const report = reader?.report;
  // What was read before a failure is reported; the failure itself is said once, below.
  if (report) console.log(report.toText({ examples: true, fatal: false }));
  // What a load would refuse fails the check with the same words, and so do whole records
  // rejected (a charge's or a modifier's); a rejected rate is reported.
  failure ??= reader && loadRefusal(reader)?.message;
  if (failure) console.error(`${source}: ${failure}`);
  else if (report && report.rejectedRecords + report.rejectedModifiers > 0)
    console.error(
      `${source}: ${rejectedRecords(report.rejectedRecords, report.rejectedModifiers)}`,
    );
  console.log(
    JSON.stringify({
      hospital: reader?.header.hospitalName ?? null,
      status: failure ? 'failed' : 'checked',
      format: reader?.header.format ?? null,
      version: reader?.header.version ?? null,
      items: report?.recordsRead ?? 0,
      rates: report?.payersRead ?? 0,
      rejected: report?.rejected() ?? 0,
      errors: report?.errorCount ?? 0,
      warnings: report?.warningCount ?? 0,
      seconds: Number(seconds.toFixed(2)),
      cpuSeconds: cpuSeconds(cpu),
      mbPerSecond: reader ? Number((reader.stats().bytes / 1e6 / seconds).toFixed(1)) : 0,
      peakRssMb: peakRssMb(),
    }),
  );
  return (
    !failure && report !== undefined && report.rejectedRecords + report.rejectedModifiers === 0
  );
}

/** Why `--validate-only` fails a file whose charges or modifiers were rejected. */
function rejectedRecords(charges: number, modifiers: number): string {
  const what = [
    charges > 0 ? plural(charges, 'charge') : null,
    modifiers > 0 ? plural(modifiers, 'modifier') : null,
  ]
    .filter((part) => part !== null)
    .join(' and ');
  return `${what} rejected (the errors above say why): a load would leave ${charges + modifiers === 1 ? 'it' : 'them'} out.`;
}

/** A file to read, with what the hospital's cms-hpt.txt says of it when it came from one. */
interface ListedFile {
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

/** What expand asks of the database, when there is one. */
interface ExpandOptions {
  /** A list that could not be read, or named no file that could (recordListFailure). */
  listFailed?: ListFailed;
  /** Whether a URL need not be asked whether it is an archive of several files (readWholeBefore). */
  readWhole?: (url: string) => Promise<boolean>;
}

/**
 * The files to read: a hospital's `cms-hpt.txt` stands for the files it lists, and a zip archive of
 * several files for each of its files. What cannot be read is said and counted.
 */
async function expand(
  sources: string[],
  options: ExpandOptions = {},
  listings: ReadonlyMap<string, HptListing> = new Map(),
): Promise<{ files: ListedFile[]; unreadable: number }> {
  const { listFailed, readWhole } = options;
  const files: ListedFile[] = [];
  let unreadable = 0;
  for (const given of sources) {
    // A hospital's website given by its address alone: the list CMS asks it to publish at its root.
    const site = hptTxtOfSite(given);
    if (site) console.error(`${given}: a website; reading its ${HPT_TXT_NAME}, ${site}`);
    const source = site ?? given;
    if (isHptTxt(source)) {
      const started = performance.now();
      let failure: string | null = null;
      try {
        const { locations, problems } = await readHptTxt(source);
        for (const problem of problems) console.error(`${source}: ${problem}`);
        // A file listed for several locations keeps what its first location says of it.
        const listed = new Map<string, HptListing>();
        for (const { mrfUrl, sourcePageUrl, contactName, contactEmail } of locations)
          if (!listed.has(mrfUrl))
            listed.set(mrfUrl, { sourcePageUrl, contactName, contactEmail, listedIn: source });
        const urls = [...listed.keys()];
        console.error(
          `${source}: ${plural(locations.length, 'location')}, ${plural(urls.length, 'file')}`,
        );
        // A list that names another list (or a website, which stands for one) is not followed:
        // it could name itself.
        const lists = urls.filter((url) => isHptTxt(url) || hptTxtOfSite(url) !== null);
        for (const url of lists)
          console.error(`${source}: ${url} is no file but a list or a website; not followed`);
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
        console.error(`${named}${failure}`);
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
    if (members)
      console.error(`${source}: a zip archive of ${members.length} files, read one by one`);
    for (const file of members ? members.map((name) => `${source}#${name}`) : [source])
      files.push({ source: file, listing });
  }
  return { files, unreadable };
}

/** Where a run of several files is (a refresh reads every hospital's): each file's bar is its own. */
function sayWhichFile(index: number, files: readonly ListedFile[]): void {
  if (files.length > 1)
    console.error(`File ${index + 1} of ${files.length}: ${files[index]?.source}`);
}

/** What `--refresh` reads again (sourcesInUse), less the local files no longer on disk, said. */
async function refreshSources(pool: Queryable): Promise<{ sources: string[]; missing: number }> {
  const sources: string[] = [];
  let missing = 0;
  for (const source of await sourcesInUse(pool)) {
    if (await stillThere(source)) sources.push(source);
    else {
      missing++;
      console.error(`${source}: no longer there, so not read again; its hospital's rates stay.`);
    }
  }
  console.error(
    sources.length + missing === 0
      ? 'No file is in use yet, so there is nothing to read again (demo hospitals are left out).'
      : `Reading again ${plural(sources.length, 'source')} of the files in use.`,
  );
  return { sources, missing };
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        'validate-only': { type: 'boolean' },
        reload: { type: 'boolean' },
        demo: { type: 'boolean' },
        refresh: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    // Node's own words ("Unknown option '--x'…"), then what the command takes.
    console.error(`${errorMessage(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.refresh && (positionals.length > 0 || values['validate-only'] || values.demo)) {
    console.error(
      `--refresh reads again the files already loaded: give it no file, nor --validate-only or --demo.\n\n${USAGE}`,
    );
    return 2;
  }
  if (values.help || (positionals.length === 0 && !values.refresh)) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const given = positionals.map((s) => fromCallerDirectory(s));
  if (values['validate-only']) {
    const { files, unreadable } = await expand(given);
    let ok = unreadable === 0;
    for (const [index, file] of files.entries()) {
      sayWhichFile(index, files);
      ok = (await validateOnly(file)) && ok;
    }
    return ok ? 0 : 1;
  }
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.DATA_DIR || './.data',
    applicationName: 'ratelens-ingest',
    statementTimeoutMs: 0,
  });
  try {
    const refresh = values.refresh ? await refreshSources(database.connection.pool) : undefined;
    // A list that fails is a failed run of each hospital whose file came through it.
    const pool = database.connection.pool;
    const { files, unreadable } = await expand(refresh?.sources ?? given, {
      listFailed: (list, why, ms) => recordListFailure(pool, list, why, ms),
      readWhole: (url) => readWholeBefore(pool, url),
    });
    const statuses: IngestStatus[] = [];
    if (!(await delineationLoaded(database.connection.pool)))
      console.error(
        'No metro areas are loaded yet: each hospital is placed in its county, and gets its metro ' +
          'area when the CBSA delineation is loaded (npm run reference -- cbsa <List 1 file>).',
      );
    for (const [index, { source, listing, unreadable, startedAt }] of files.entries()) {
      sayWhichFile(index, files);
      const bar = new ProgressBar(source);
      const cpu = process.cpuUsage();
      let toldWaiting = Number.NEGATIVE_INFINITY;
      const result = await ingestFile(database.connection, source, {
        demo: values.demo ?? false,
        reload: values.reload ?? false,
        listing,
        unreadable,
        startedAt,
        locate: hospitalLocator(database.connection.pool),
        progress: (bytes, total, records, phase) => bar.update(bytes, total, records, phase),
        // Said at once, then every 30 s: a swap gives way to long reads for up to 10 minutes.
        swapWaiting: (waited) => {
          if (waited - toldWaiting < SWAP_WAIT_NOTICE_MS) return;
          toldWaiting = waited;
          bar.done();
          console.error(swapWaitNotice(source, waited));
        },
      });
      bar.done();
      statuses.push(result.status);
      if (result.error) console.error(`${source}: ${result.error}`);
      const note = ingestNote(source, result);
      if (note) console.error(note);
      console.log(
        JSON.stringify({
          hospital: result.hospital,
          status: result.status,
          format: result.format,
          version: result.version,
          items: result.items,
          rates: result.rates,
          rejected: result.rejected,
          seconds: Number(result.seconds.toFixed(2)),
          cpuSeconds: cpuSeconds(cpu),
          // A file its server said had not changed was not read at all.
          mbPerSecond:
            result.seconds > 0 && result.unchangedBy !== 'server'
              ? Number((result.bytes / 1e6 / result.seconds).toFixed(1))
              : 0,
          peakRssMb: peakRssMb(),
        }),
      );
    }
    if (refresh) console.error(refreshSummary(statuses, unreadable, refresh.missing));
    return statuses.includes('failed') || unreadable > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`ingest failed: ${errorMessage(error)}`);
    process.exit(1);
  },
);
