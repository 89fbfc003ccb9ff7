import type { HospitalDetail, RateMix } from '@ratelens/core';
import { dayAndTime, formatCalendarDate, formatDateAndTime } from '../../shared/format-date.ts';

export type HospitalFile = HospitalDetail['files'][number];

/** A file's ingest status in plain words; an unknown status is shown as it came. */
const FILE_STATUS_WORDS: Record<string, string> = {
  loaded: 'In use',
  replaced: 'Replaced by another file',
  unchanged: 'Same file as the one in use at the time: nothing changed',
  skipped: 'Same file as when it was read before and not put in use: not read again',
  older: 'Older than the file in use: not loaded',
  failed: 'Failed',
  loading: 'Loading',
};

const FILE_FORMAT_WORDS: Record<string, string> = {
  json: 'JSON',
  'csv-tall': 'CSV (tall)',
  'csv-wide': 'CSV (wide)',
};

/** What replaced a file, in plain words (see `replacedBy` in the contract). */
const REPLACED_BY_WORDS: Record<NonNullable<HospitalFile['replacedBy']>, string> = {
  // `npm run ingest -- --reload` replaces a file by its own bytes, read again.
  'same-file': 'Replaced when the same file was read again',
  newer: 'Replaced by a newer file',
  'same-date': 'Replaced by another file of the same date, loaded later',
  // Without a date on both, the file loaded later is kept: neither is known to be the newer.
  undated: 'Replaced by another file, loaded later',
};

export function fileStatusWords(file: Pick<HospitalFile, 'status' | 'replacedBy'>): string {
  if (file.status === 'replaced' && file.replacedBy) return REPLACED_BY_WORDS[file.replacedBy];
  return FILE_STATUS_WORDS[file.status] ?? file.status;
}

/**
 * Whether a run's card shows its figures. A run that found the file in use already (unchanged),
 * or a file read before and not put in use (skipped), has that run's figures without its
 * report's lines: its status says so, rather than repeat them, or say "no problems" of a report
 * it did not keep.
 */
export function showsFigures(file: Pick<HospitalFile, 'status'>): boolean {
  return file.status !== 'unchanged' && file.status !== 'skipped';
}

/**
 * When a run ended, to tell apart runs of one file: 'Read on March 27, 2026 at 10:42 AM' ('Tried on'
 * for one that failed); null for one still loading.
 */
export function fileReadWhen(file: Pick<HospitalFile, 'status' | 'loadedAt'>): string | null {
  if (file.loadedAt === null) return null;
  return `${file.status === 'failed' ? 'Tried' : 'Read'} on ${formatDateAndTime(file.loadedAt)}`;
}

/**
 * The position of the last run shown whole: the file in use, and every run since (one still
 * loading, one that failed or found the file in use already); without a file in use, the newest
 * run. The runs before it are history: a hospital's file read every week would otherwise make a
 * page of twenty whole cards.
 */
export function lastOpenRun(files: readonly HospitalFile[]): number {
  return Math.max(
    files.findIndex((file) => file.status === 'loaded'),
    0,
  );
}

/**
 * When a listed run ended: as fileReadWhen for one run; for an entry that stands for several
 * (a file found unchanged run after run), how many and between when, saying a day or a minute
 * once: 'Read 3 times, from March 25, 2026 at 10:42 AM to March 27, 2026 at 10:42 AM', 'Read 2 times
 * on March 27, 2026, from 10:42 AM to 11:05 AM', 'Read 2 times on March 27, 2026 at 10:42 AM'.
 */
export function runReadWhen(
  file: Pick<HospitalFile, 'status' | 'loadedAt' | 'timesRead' | 'firstReadAt'>,
): string | null {
  const first = file.firstReadAt === null ? null : dayAndTime(file.firstReadAt);
  const last = file.loadedAt === null ? null : dayAndTime(file.loadedAt);
  if (file.timesRead === 1 || !first || !last) return fileReadWhen(file);
  const times = `${file.status === 'failed' ? 'Tried' : 'Read'} ${file.timesRead} times`;
  if (first.day !== last.day)
    return `${times}, from ${first.day} at ${first.time} to ${last.day} at ${last.time}`;
  if (first.time !== last.time)
    return `${times} on ${last.day}, from ${first.time} to ${last.time}`;
  return `${times} on ${last.day} at ${last.time}`;
}

/**
 * Where the hospital's prices come from and how fresh they are, for the top of its page: the date
 * the hospital gives its file in use, when RateLens read it, and the last time a later run found
 * it still the newest ('Prices from the hospital's file last updated on January 15, 2026, read on
 * March 27, 2026; still its newest on November 24, 2026.'), and whether the newest run failed.
 */
export function pricesFreshness(
  files: readonly Pick<HospitalFile, 'status' | 'lastUpdatedOn' | 'loadedAt'>[],
): string {
  // Newest first, as the server lists them.
  const inUse = files.findIndex((file) => file.status === 'loaded');
  const file = files[inUse];
  if (!file)
    return files.length === 0
      ? 'No file of this hospital has been read yet, so it has no prices.'
      : 'None of this hospital’s files could be loaded, so it has no prices (below, why).';
  const day = (iso: string | null) => (iso === null ? null : (dayAndTime(iso)?.day ?? null));
  const updated =
    file.lastUpdatedOn === null
      ? 'Prices from the hospital’s file (it gives no date of its last update)'
      : `Prices from the hospital’s file last updated on ${formatCalendarDate(file.lastUpdatedOn)}`;
  const read = day(file.loadedAt);
  // A later run that found no newer file: the same file again, an older one, or one passed over.
  const check = files
    .slice(0, inUse)
    .find((run) => ['unchanged', 'older', 'skipped'].includes(run.status) && run.loadedAt);
  const checked = check ? day(check.loadedAt) : null;
  // The newest run failed (a list taken down, a broken file): the cards below say why.
  const newest = files[0];
  const failed = inUse > 0 && newest?.status === 'failed' ? day(newest.loadedAt) : null;
  return (
    `${updated}${read ? `, read on ${read}` : ''}` +
    `${checked && checked !== read ? `; still its newest on ${checked}` : ''}` +
    `${failed ? `; the last look for a newer file failed on ${failed} (below, why)` : ''}.`
  );
}

export function fileFormatWords(format: string): string {
  return FILE_FORMAT_WORDS[format] ?? format;
}

const counting = new Intl.NumberFormat('en-US');

function count(value: number, one: string, many: string): string {
  return `${counting.format(value)} ${value === 1 ? one : many}`;
}

/**
 * The inventory's count of hospitals, with the rows shown when the table has pages:
 * '3 hospitals', '6,000 hospitals, showing 51–100'.
 */
export function hospitalsShown(total: number, shown: { first: number; last: number }): string {
  const hospitals = count(total, 'hospital', 'hospitals');
  if (shown.first === 0 && shown.last === total) return hospitals;
  return `${hospitals}, showing ${counting.format(shown.first + 1)}–${counting.format(shown.last)}`;
}

/** The label of a validation rule's examples: 'Where in the file (5 examples)'. */
export function examplesLabel(count: number): string {
  return `Where in the file (${count === 1 ? '1 example' : `${count} examples`})`;
}

const megabytes = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const mb = (bytes: number) => megabytes.format(bytes / 1e6);

const CHECKING_WORDS = 'Checking whether the file is the one read before, by its bytes:';

/**
 * How far a loading file's read is, in words, with the share read (0–100) when its size is known:
 * 'Read 12.3 of 36.6 MB (33%), 8,104 entries so far.'
 */
export function loadProgress(progress: HospitalFile['progress']): {
  words: string;
  percent: number | null;
} {
  if (progress === null)
    return {
      words: 'Reading has begun; how far it is shows here in a few seconds.',
      percent: null,
    };
  const { phase, bytesRead, totalBytes, records } = progress;
  if (phase === 'checking') {
    // Hashed first, as its size or its server could not say it is new: not read yet.
    const checked = CHECKING_WORDS;
    if (totalBytes === null || totalBytes === 0)
      return { words: `${checked} ${mb(bytesRead)} MB so far.`, percent: null };
    const percent = Math.min(100, Math.floor((bytesRead / totalBytes) * 100));
    return {
      words: `${checked} ${mb(bytesRead)} of ${mb(totalBytes)} MB (${percent}%).`,
      percent,
    };
  }
  const entries = count(records, 'entry', 'entries');
  if (totalBytes === null)
    return {
      words: `Read ${mb(bytesRead)} MB so far, ${entries} (its size is not known until its end).`,
      percent: null,
    };
  if (bytesRead >= totalBytes)
    return {
      words: `Read to its end (${mb(totalBytes)} MB, ${entries}): its rates are being stored.`,
      percent: 100,
    };
  const percent = Math.floor((bytesRead / totalBytes) * 100);
  return {
    words: `Read ${mb(bytesRead)} of ${mb(totalBytes)} MB (${percent}%), ${entries} so far.`,
    percent,
  };
}

/** '10,452 charges, 29,143 rates, 12 rejected'. */
export function fileCounts(file: Pick<HospitalFile, 'items' | 'rates' | 'rejected'>): string {
  return [
    count(file.items, 'charge', 'charges'),
    count(file.rates, 'rate', 'rates'),
    `${counting.format(file.rejected)} rejected`,
  ].join(', ');
}

const LINE_OF_BUSINESS_WORDS: Record<keyof RateMix['byLineOfBusiness'], string> = {
  commercial: 'Commercial',
  'medicare-advantage': 'Medicare Advantage',
  'medicaid-managed-care': 'Medicaid managed care',
  exchange: 'Exchange (marketplace) plans',
  other: "Other: original Medicare, workers' comp, auto, TRICARE and the like",
};

const ORIGIN_WORDS: Record<keyof RateMix['byOrigin'], string> = {
  dollar: 'A dollar amount',
  'percentage-of-gross': 'A percentage of the billed charge, worked out in dollars',
  median: 'The median of amounts paid',
  estimated: "The hospital's estimate of the amount paid",
  none: 'No dollar figure: an algorithm, or a percentage of a fee schedule or of an unpublished billed charge',
};

/** One bar of a rate mix: its share of the file's rates, and the sentence that says it. */
export interface RateMixBar {
  key: string;
  /** Of all the file's rates, 0–100. */
  percent: number;
  /**
   * 'Commercial: 80,412 rates (59%)', for whoever does not see the bar; shares under 1% are '<1%',
   * and over 99% but not all '>99%'.
   */
  sentence: string;
}

function mixBars<K extends string>(
  counts: Record<K, number>,
  words: Record<K, string>,
  total: number,
): RateMixBar[] {
  return (Object.keys(words) as K[])
    .filter((key) => counts[key] > 0)
    .map((key) => {
      const percent = total > 0 ? (counts[key] / total) * 100 : 0;
      // Never '0%' for some nor '100%' for not all.
      const share =
        percent > 0 && percent < 0.5
          ? '<1%'
          : percent < 100 && percent >= 99.5
            ? '>99%'
            : `${Math.round(percent)}%`;
      const rates = count(counts[key], 'rate', 'rates');
      return { key, percent, sentence: `${words[key]}: ${rates} (${share})` };
    });
}

/** The file's rates by the plans' line of business, in a fixed order; lines without rates left out. */
export function lineOfBusinessBars(mix: RateMix): RateMixBar[] {
  return mixBars(mix.byLineOfBusiness, LINE_OF_BUSINESS_WORDS, sum(mix.byLineOfBusiness));
}

/** The file's rates by where their dollar figure comes from; origins without rates left out. */
export function originBars(mix: RateMix): RateMixBar[] {
  return mixBars(mix.byOrigin, ORIGIN_WORDS, sum(mix.byOrigin));
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((total, n) => total + n, 0);
}

/** 'From 38 payers in 164 plans.' */
export function payersSentence(mix: Pick<RateMix, 'payers' | 'plans'>): string {
  return `From ${count(mix.payers, 'payer', 'payers')} in ${count(mix.plans, 'plan', 'plans')}.`;
}
