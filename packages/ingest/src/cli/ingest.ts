import { parseArgs } from 'node:util';
import { errorMessage } from '@ratelens/core';
import { openDatabase } from '@ratelens/db';
import { loadRefusal, type IngestResult } from '../load/ingest-file.ts';
import { refreshSummary, SWAP_WAIT_NOTICE_MS, swapWaitNotice } from '../load/ingest-notes.ts';
import {
  expand,
  ingestSources,
  refreshSourcesInUse,
  type IngestSourcesOptions,
  type ListedFile,
} from '../load/sources.ts';
import { openMrf, type MrfReader } from '../read/index.ts';
import { plural } from '../validate/report.ts';
import { fromCallerDirectory } from './caller-path.ts';
import { ProgressBar } from './progress.ts';

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
      source,
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
      ...(failure ? { error: failure } : {}),
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

/** Where a run of several files is (a refresh reads every hospital's): each file's bar is its own. */
function sayWhichFile(index: number, files: readonly ListedFile[]): void {
  if (files.length > 1)
    console.error(`File ${index + 1} of ${files.length}: ${files[index]?.source}`);
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
        help: { type: 'boolean', short: 'h' },
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
  if (values['validate-only'] && (values.reload || values.demo)) {
    console.error(
      `--validate-only loads nothing: --reload and --demo, which say how to load, do not go with it.\n\n${USAGE}`,
    );
    return 2;
  }
  if (values.help || (positionals.length === 0 && !values.refresh)) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const given = positionals.map((s) => fromCallerDirectory(s));
  if (values['validate-only']) {
    const { files, unreadable } = await expand(given, {
      say: (line) => console.error(line),
      listFailed: async (list, why) => failedLine(list, why),
    });
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
    const options: IngestSourcesOptions = {
      say: (line) => console.error(line),
      demo: values.demo ?? false,
      reload: values.reload ?? false,
      starting: (file, index, files) => {
        sayWhichFile(index, files);
        const { source } = file;
        const bar = new ProgressBar(source);
        const cpu = process.cpuUsage();
        let toldWaiting = Number.NEGATIVE_INFINITY;
        return {
          progress: (bytes, total, records, phase) => bar.update(bytes, total, records, phase),
          // Said at once, then every 30 s: a swap gives way to long reads for up to 10 minutes.
          swapWaiting: (waited) => {
            if (waited - toldWaiting < SWAP_WAIT_NOTICE_MS) return;
            toldWaiting = waited;
            bar.done();
            console.error(swapWaitNotice(source, waited));
          },
          ended: () => bar.done(),
          result: (result) => console.log(JSON.stringify(figures(source, result, cpu))),
          unrecorded: (error) => failedLine(source, error),
        };
      },
      listUnreadable: failedLine,
    };
    if (values.refresh) {
      const { statuses, unreadable, missing } = await refreshSourcesInUse(
        database.connection,
        options,
      );
      console.error(refreshSummary(statuses, unreadable, missing));
      return statuses.includes('failed') || unreadable > 0 ? 1 : 0;
    }
    const { statuses, unreadable } = await ingestSources(database.connection, given, options);
    return statuses.includes('failed') || unreadable > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

/**
 * The JSON line of a cms-hpt.txt that could not be read (or named no file that could), and of a
 * file that failed in a way its run could not record (the database went away).
 */
function failedLine(source: string, error: string): void {
  console.log(JSON.stringify({ source, status: 'failed', error }));
}

/**
 * The last line of a file: one JSON object with the run's figures, naming the file (a run of
 * several is told apart by more than its order) and, when it failed, why.
 */
function figures(source: string, result: IngestResult, cpu: NodeJS.CpuUsage): object {
  return {
    source,
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
    ...(result.status === 'failed'
      ? { error: result.error ?? 'the file could not be loaded' }
      : {}),
  };
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`ingest failed: ${errorMessage(error)}`);
    process.exit(1);
  },
);
