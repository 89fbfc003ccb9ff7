import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '@ratelens/core';
import { inTransaction, openDatabase, type Pool } from '@ratelens/db';
import {
  loadCbsaDelineation,
  loadHcpcs,
  loadNadacFile,
  loadOppsCaps,
  loadPhysicianFeeSchedule,
  loadStates,
  loadZipLocalities,
  MAX_SHRINK,
  type ReplaceOptions,
} from '../load/reference-loader.ts';
import { parseCbsaDelineation } from '../reference/cbsa.ts';
import { parseHcpcsLevel2 } from '../reference/hcpcs.ts';
import { openNadac } from '../reference/nadac.ts';
import {
  conversionFactorFor,
  feeScheduleYear,
  fileNameYear,
  parseOppsCapFile,
  readGpciFile,
  readRvuFile,
} from '../reference/physician-fee-schedule.ts';
import { sourceName } from '../reference/source.ts';
import { isZip5LayoutFile, parseZipLocality } from '../reference/zip-locality.ts';
import { fromCallerDirectory } from './caller-path.ts';
import { ProgressBar } from './progress.ts';

const USAGE = `Usage: npm run reference -- <kind> <path|url>… [--force]

  states                         the 50 states, DC and PR (built in)
  cbsa <list1.xlsx|list1.csv>    Census CBSA delineation List 1 → CBSAs and counties
  hcpcs <codes.csv>              CMS HCPCS Level II codes and descriptions
  pfs <folder> | <PPRRVU.csv> <GPCI.csv> [ZIP5.txt] [OPPSCAP.csv]
                                 one year's physician fee schedule: RVUs, GPCIs, ZIP → locality,
                                 OPPS payment caps. The year is the files' own (banner, header
                                 or name, as CMS writes them); files of different years are refused
  zip-locality <ZIP5.txt>        CMS ZIP → Medicare carrier and locality
  nadac <nadac.csv>              CMS NADAC drug prices (weekly or yearly file, read as a stream)

Options:
  --force                        cbsa, pfs (its ZIP5 file), zip-locality: load a file even with
                                 more than ${MAX_SHRINK * 100}% fewer rows than are loaded, or none for a
                                 state that has some, which is otherwise refused
  -h, --help                     this text
  --                             what follows is a file, even if it starts with "-"

Loads into DATABASE_URL, else the embedded PostgreSQL of DATA_DIR.`;

/** The kinds --force applies to: their loaders refuse a table that would shrink (allowShrink). */
const FORCE_KINDS = ['cbsa', 'pfs', 'zip-locality'];

interface PfsFiles {
  rvu: string;
  gpci: string;
  zip?: string;
  caps?: string;
}

async function pfsFiles(args: string[]): Promise<PfsFiles> {
  const [first, second] = args;
  const folder =
    first && !second && !/^https?:/i.test(first)
      ? await stat(first).then(
          (s) => s.isDirectory(),
          () => false,
        )
      : false;
  if (first && folder) {
    const names = (await readdir(first)).sort();
    // Two files of a kind (last quarter's and this one's) would leave the choice to chance.
    const pick = (pattern: RegExp, kind: string, ignore?: (name: string) => boolean) => {
      const found = names.filter((n) => pattern.test(n) && !ignore?.(n));
      if (found.length > 1) {
        throw new Error(
          `${first} holds ${found.length} ${kind} files (${found.join(', ')}); name the files instead: npm run reference -- pfs <PPRRVU.csv> <GPCI.csv> [ZIP5.txt] [OPPSCAP.csv]`,
        );
      }
      return found[0];
    };
    const rvu = pick(/^PPRRVU.*\.csv$/i, 'PPRRVU*.csv');
    const gpci = pick(/^GPCI.*\.csv$/i, 'GPCI*.csv');
    if (!rvu || !gpci) throw new Error(`${first} must hold a PPRRVU*.csv and a GPCI*.csv file`);
    // CMS ships the ZIP5 file with its record layout, ZIP5lyout.txt: that one is not data.
    const zip = pick(/^ZIP5.*\.txt$/i, 'ZIP5*.txt', isZip5LayoutFile);
    const caps = pick(/^OPPSCAP.*\.csv$/i, 'OPPSCAP*.csv');
    return {
      rvu: path.join(first, rvu),
      gpci: path.join(first, gpci),
      ...(zip ? { zip: path.join(first, zip) } : {}),
      ...(caps ? { caps: path.join(first, caps) } : {}),
    };
  }
  if (!first || !second) throw new Error('pfs needs a folder, or the PPRRVU and GPCI files');
  // Files named as CMS names them are taken for what they are, in any order; the others fill the
  // rest in order (RVU, GPCI, ZIP5, OPPSCAP).
  const named = (kind: string) => {
    const found = args.filter((arg) => path.basename(arg).toUpperCase().startsWith(kind));
    if (found.length > 1) throw new Error(`pfs takes one ${kind} file; found ${found.join(', ')}`);
    return found[0];
  };
  const slots = [named('PPRRVU'), named('GPCI'), named('ZIP5'), named('OPPSCAP')];
  const unnamed = args.filter((arg) => !slots.includes(arg));
  const [rvu, gpci, zip, caps] = slots.map((file) => file ?? unnamed.shift());
  return {
    rvu: rvu ?? first,
    gpci: gpci ?? second,
    ...(zip ? { zip } : {}),
    ...(caps ? { caps } : {}),
  };
}

/** How many files each kind reads: at least, at most. */
const FILES = {
  states: [0, 0],
  cbsa: [1, 1],
  hcpcs: [1, 1],
  pfs: [1, 4],
  'zip-locality': [1, 1],
  nadac: [1, 1],
} as const;

/**
 * What is wrong with the command line, in words, or null. Checked before the database starts;
 * a second file is refused rather than ignored, as nothing of it would be loaded.
 */
function argumentProblem(kind: string, sources: readonly string[]): string | null {
  if (!Object.hasOwn(FILES, kind)) return `Unknown kind "${kind}".`;
  const [least, most] = FILES[kind as keyof typeof FILES];
  if (sources.length < least) return `${kind} needs a file: a path or an http(s) URL.`;
  if (sources.length > most) {
    return most === 0
      ? `${kind} is built in and reads no file.`
      : `${kind} reads ${most === 1 ? 'one file' : `at most ${most} files`}; ${sources.length} were given.`;
  }
  return null;
}

interface CommandLine {
  kind: string | undefined;
  sources: string[];
  force: boolean;
  help: boolean;
}

/**
 * The kind, the files and the options of a command line, or what is wrong with it in words. An
 * option not known is refused, not read as a file name ("--dry-run: expected a readable file").
 */
function parseCommandLine(args: readonly string[]): CommandLine | string {
  const line: CommandLine = { kind: undefined, sources: [], force: false, help: false };
  let filesOnly = false;
  for (const arg of args) {
    if (!filesOnly && arg.startsWith('-') && arg !== '-') {
      if (arg === '--') filesOnly = true;
      else if (arg === '-h' || arg === '--help') line.help = true;
      else if (arg === '--force') line.force = true;
      else return `Unknown option ${arg}.`;
    } else if (line.kind === undefined) line.kind = arg;
    else line.sources.push(arg);
  }
  return line;
}

async function main(): Promise<number> {
  const line = parseCommandLine(process.argv.slice(2));
  if (typeof line === 'string') {
    console.error(`${line}\n\n${USAGE}`);
    return 2;
  }
  const { kind, sources, force } = line;
  if (line.help || !kind) {
    console.error(USAGE);
    return line.help ? 0 : 2;
  }
  const problem =
    argumentProblem(kind, sources) ??
    (force && !FORCE_KINDS.includes(kind)
      ? `--force applies to ${FORCE_KINDS.join(', ')} only, not ${kind}.`
      : null);
  if (problem) {
    console.error(`${problem}\n\n${USAGE}`);
    return 2;
  }
  // Every file is read and checked before anything is loaded: a bad ZIP5 file given to pfs
  // once left the RVUs and GPCIs of the same run loaded. A NADAC file, streamed, has its header
  // checked here and its rows while they load, in one transaction that a bad row rolls back.
  const parseStarted = performance.now();
  const load = await parseFiles(
    kind,
    sources.map((s) => fromCallerDirectory(s)),
    { allowShrink: force },
  );
  const parseMs = performance.now() - parseStarted;
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.DATA_DIR || './.data',
    applicationName: 'ratelens-reference',
    statementTimeoutMs: 0,
  });
  const started = performance.now();
  try {
    const summary = await load(database.connection.pool);
    console.log(
      JSON.stringify({
        kind,
        ...summary,
        // Reading and loading, not the start of the database between them.
        seconds: Number(((parseMs + performance.now() - started) / 1000).toFixed(2)),
        peakRssMb: peakRssMb(),
      }),
    );
    return 0;
  } finally {
    await database.close();
  }
}

function peakRssMb(): number {
  // maxRSS is in kilobytes.
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

type Loader = (pool: Pool) => Promise<Record<string, number>>;

/**
 * Reads the files of a kind, whole; what it returns loads them. A NADAC file is only opened and
 * its header checked: its rows are read as they load. `options`: --force.
 */
async function parseFiles(
  kind: string,
  sources: readonly string[],
  options: ReplaceOptions,
): Promise<Loader> {
  const source = sources[0] ?? '';
  switch (kind) {
    case 'states':
      return async (pool) => ({ states: await loadStates(pool) });
    case 'cbsa': {
      const delineation = await parseCbsaDelineation(source);
      return async (pool) => {
        await loadStates(pool);
        return loadCbsaDelineation(pool, delineation, options);
      };
    }
    case 'hcpcs': {
      const codes = await parseHcpcsLevel2(source);
      return async (pool) => ({ codes: await loadHcpcs(pool, codes) });
    }
    case 'pfs': {
      const files = await pfsFiles([...sources]);
      const rvu = await readRvuFile(files.rvu);
      const gpci = await readGpciFile(files.gpci);
      const zips = files.zip ? await parseZipLocality(files.zip) : null;
      const caps = files.caps ? await parseOppsCapFile(files.caps) : null;
      // The year is the files' own: a 2026 PPRRVU file once replaced the 2025 rows, priced with
      // 2025's conversion factor. OPPSCAP files say theirs only in a name that has it.
      const capsYear = files.caps
        ? [{ file: sourceName(files.caps), year: fileNameYear(files.caps), from: 'its file name' }]
        : [];
      const year = feeScheduleYear([rvu.year, gpci.year, ...capsYear]);
      const conversionFactor = conversionFactorFor(year, rvu.rows, rvu.year.file);
      // One transaction: a ZIP5 or OPPSCAP file the database refuses leaves the fee schedule as
      // it was. Without an OPPSCAP file the year's caps loaded before stay.
      return (pool) =>
        inTransaction(pool, async (client) => {
          const loaded = await loadPhysicianFeeSchedule(
            client,
            year,
            rvu.rows,
            gpci.localities,
            conversionFactor,
          );
          return {
            year,
            ...loaded,
            ...(zips ? { zips: await loadZipLocalities(client, zips, options) } : {}),
            ...(caps ? { oppsCaps: await loadOppsCaps(client, year, caps) } : {}),
          };
        });
    }
    case 'zip-locality': {
      const zips = await parseZipLocality(source);
      return async (pool) => ({ zips: await loadZipLocalities(pool, zips, options) });
    }
    case 'nadac': {
      // A year's file runs to hundreds of MB and minutes: a bar shows its read (bytes of its
      // size, rows per second), then a line says that the rows are being checked and stored.
      // Drawn once the database is up: its MB/s are the read's, not the database's start.
      let bar: ProgressBar | undefined;
      const progress = (bytes: number, total: number | null, rows: number) =>
        bar?.update(bytes, total, rows);
      // A file's header is checked before the database starts; a download is opened only once
      // it has, so that its server does not see the connection idle meanwhile.
      const early = /^https?:\/\//i.test(source) ? null : await openNadac(source, { progress });
      // prices: the rows stored; rows: the price rows read (a row repeated whole is stored once);
      // keptNewer: the file's prices left unstored, the row there being of a later as-of date.
      return async (pool) => {
        bar = new ProgressBar(source);
        try {
          const nadac = early ?? (await openNadac(source, { progress }));
          return await loadNadacFile(pool, nadac, (prices) => {
            bar?.done();
            console.error(
              `${prices.toLocaleString('en-US')} price rows read; checking and storing them…`,
            );
          });
        } finally {
          bar?.done();
        }
      };
    }
    default:
      throw new Error(`Unknown kind "${kind}".`);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`reference failed: ${errorMessage(error)}`);
    process.exit(1);
  },
);
