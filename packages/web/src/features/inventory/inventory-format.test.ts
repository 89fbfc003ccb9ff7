import { describe, expect, it } from 'vitest';
import {
  examplesLabel,
  fileCounts,
  fileFormatWords,
  fileStatusWords,
  hospitalsShown,
  lineOfBusinessBars,
  loadProgress,
  pricesFreshness,
  runReadWhen,
  type HospitalFile,
} from './inventory-format.ts';
import { formatCalendarDate } from '../../shared/format-date.ts';
import { inTimeZone } from '../../test/time-zone.ts';

// The known words and the time-zone-proof date are checked on the detail view
// (routes/hospital-detail.test.tsx); these are the edges it does not reach.
describe('inventory file words', () => {
  it('shows a value that is not a calendar date as it came', () => {
    expect(formatCalendarDate('2026-02-30')).toBe('2026-02-30');
    expect(formatCalendarDate('soon')).toBe('soon');
  });

  it("says how far a loading file's read is before its first figures and without its size", () => {
    expect(loadProgress(null)).toEqual({
      words: 'Reading has begun; how far it is shows here in a few seconds.',
      percent: null,
    });
    // A download whose server did not say its length: no share, no bar.
    expect(
      loadProgress({ phase: 'reading', bytesRead: 5_250_000, totalBytes: null, records: 1 }),
    ).toEqual({
      words: 'Read 5.3 MB so far, 1 entry (its size is not known until its end).',
      percent: null,
    });
    expect(loadProgress({ phase: 'reading', bytesRead: 0, totalBytes: 0, records: 0 })).toEqual({
      words: 'Read to its end (0.0 MB, 0 entries): its rates are being stored.',
      percent: 100,
    });
  });

  it('says when a file is hashed first, to tell whether it is the one read before', () => {
    const checking = (bytesRead: number, totalBytes: number | null) =>
      loadProgress({ phase: 'checking', bytesRead, totalBytes, records: 0 });
    expect(checking(300_000_000, 900_000_000)).toEqual({
      words:
        'Checking whether the file is the one read before, by its bytes: 300.0 of 900.0 MB (33%).',
      percent: 33,
    });
    // A download whose server did not say its length.
    expect(checking(5_250_000, null)).toEqual({
      words: 'Checking whether the file is the one read before, by its bytes: 5.3 MB so far.',
      percent: null,
    });
  });

  it('says of a file passed over that it was read before, and why it was not read again', () => {
    expect(fileStatusWords({ status: 'skipped', replacedBy: null })).toBe(
      'Same file as when it was read before and not put in use: not read again',
    );
  });

  it('says what replaced a file, and calls it newer only when its date says so', () => {
    const replaced = (replacedBy: HospitalFile['replacedBy']) =>
      fileStatusWords({ status: 'replaced', replacedBy });
    expect(replaced('newer')).toBe('Replaced by a newer file');
    expect(replaced('same-date')).toBe('Replaced by another file of the same date, loaded later');
    expect(replaced('undated')).toBe('Replaced by another file, loaded later');
    expect(replaced('same-file')).toBe('Replaced when the same file was read again');
    expect(replaced(null)).toBe('Replaced by another file');
  });

  it('passes an unknown status or format through unchanged', () => {
    expect(fileStatusWords({ status: 'queued', replacedBy: null })).toBe('queued');
    expect(fileFormatWords('xml')).toBe('xml');
  });

  it("labels a rule's examples with how many there are", () => {
    expect(examplesLabel(1)).toBe('Where in the file (1 example)');
    expect(examplesLabel(5)).toBe('Where in the file (5 examples)');
  });

  it('writes singular nouns for a count of one', () => {
    expect(fileCounts({ items: 1, rates: 1, rejected: 0 })).toBe('1 charge, 1 rate, 0 rejected');
  });

  it('says a share of nearly all as >99%, not 100%, and of nearly none as <1%', () => {
    // Martha's Vineyard's origins: 10,444 of 10,452 rates in dollars, 8 from the median.
    const bars = lineOfBusinessBars({
      payers: 2,
      plans: 2,
      byLineOfBusiness: {
        commercial: 10_444,
        'medicare-advantage': 0,
        'medicaid-managed-care': 0,
        exchange: 0,
        other: 8,
      },
      byOrigin: { dollar: 0, 'percentage-of-gross': 0, median: 0, estimated: 0, none: 0 },
    });
    expect(bars.map((bar) => bar.sentence)).toEqual([
      'Commercial: 10,444 rates (>99%)',
      "Other: original Medicare, workers' comp, auto, TRICARE and the like: 8 rates (<1%)",
    ]);
  });

  it('counts the hospitals, and says which rows a page of the table shows', () => {
    expect(hospitalsShown(1, { first: 0, last: 1 })).toBe('1 hospital');
    expect(hospitalsShown(0, { first: 0, last: 0 })).toBe('0 hospitals');
    expect(hospitalsShown(50, { first: 0, last: 50 })).toBe('50 hospitals');
    expect(hospitalsShown(6000, { first: 50, last: 100 })).toBe('6,000 hospitals, showing 51–100');
    expect(hospitalsShown(1234, { first: 1200, last: 1234 })).toBe(
      '1,234 hospitals, showing 1,201–1,234',
    );
  });
});

describe('when repeated runs were read', () => {
  inTimeZone('America/Los_Angeles');

  it('says the day, or the day and minute, of repeated runs once when they share it', () => {
    const entry = (firstReadAt: string, loadedAt: string) =>
      runReadWhen({ status: 'unchanged', timesRead: 3, firstReadAt, loadedAt });
    expect(entry('2026-03-25T17:42:00Z', '2026-03-27T17:42:00Z')).toBe(
      'Read 3 times, from March 25, 2026 at 10:42 AM to March 27, 2026 at 10:42 AM',
    );
    expect(entry('2026-03-27T17:42:00Z', '2026-03-27T18:05:00Z')).toBe(
      'Read 3 times on March 27, 2026, from 10:42 AM to 11:05 AM',
    );
    expect(entry('2026-03-27T17:42:00Z', '2026-03-27T17:42:50Z')).toBe(
      'Read 3 times on March 27, 2026 at 10:42 AM',
    );
    // Five minutes before and after midnight in Los Angeles: two days, though one in UTC.
    expect(entry('2026-03-27T06:55:00Z', '2026-03-27T07:05:00Z')).toBe(
      'Read 3 times, from March 26, 2026 at 11:55 PM to March 27, 2026 at 12:05 AM',
    );
    expect(
      runReadWhen({
        status: 'unchanged',
        timesRead: 1,
        firstReadAt: '2026-03-27T17:42:00Z',
        loadedAt: '2026-03-27T17:42:00Z',
      }),
    ).toBe('Read on March 27, 2026 at 10:42 AM');
    // Runs that failed alike, one after the other (a list taken down, read daily).
    expect(
      runReadWhen({
        status: 'failed',
        timesRead: 2,
        firstReadAt: '2026-03-26T17:42:00Z',
        loadedAt: '2026-03-27T17:42:00Z',
      }),
    ).toBe('Tried 2 times, from March 26, 2026 at 10:42 AM to March 27, 2026 at 10:42 AM');
  });
});

describe('how fresh the prices are', () => {
  inTimeZone('America/Los_Angeles');
  const run = (status: string, loadedAt: string | null, lastUpdatedOn: string | null = null) => ({
    status,
    loadedAt,
    lastUpdatedOn,
  });

  it('gives the date of the file in use, when it was read, and when a later run found it newest', () => {
    const inUse = run('loaded', '2026-03-27T17:42:00Z', '2026-01-15');
    expect(pricesFreshness([inUse])).toBe(
      'Prices from the hospital’s file last updated on January 15, 2026, read on March 27, 2026.',
    );
    // Newest first: a failed run says nothing of the file in use; an unchanged one does.
    expect(
      pricesFreshness([
        run('unchanged', '2026-11-24T07:05:00Z'),
        run('failed', '2026-11-22T17:00:00Z'),
        run('unchanged', '2026-11-20T17:00:00Z'),
        inUse,
        run('replaced', '2026-01-20T17:00:00Z', '2025-12-01'),
      ]),
    ).toBe(
      'Prices from the hospital’s file last updated on January 15, 2026, read on March 27, ' +
        '2026; still its newest on November 23, 2026.',
    );
    // The newest run failed (a list taken down): said, after the last check that did not.
    expect(
      pricesFreshness([
        run('failed', '2026-11-25T17:00:00Z'),
        run('unchanged', '2026-11-24T07:05:00Z'),
        inUse,
      ]),
    ).toBe(
      'Prices from the hospital’s file last updated on January 15, 2026, read on March 27, ' +
        '2026; still its newest on November 23, 2026; the last look for a newer file failed on ' +
        'November 25, 2026 (below, why).',
    );
    // An older file found since counts too; a check the same day as the read is not repeated.
    expect(pricesFreshness([run('older', '2026-04-02T17:00:00Z'), inUse])).toMatch(
      /; still its newest on April 2, 2026\.$/,
    );
    // So does a file read before and not in use, asked again and found unchanged.
    expect(pricesFreshness([run('skipped', '2026-04-03T17:00:00Z'), inUse])).toMatch(
      /; still its newest on April 3, 2026\.$/,
    );
    expect(pricesFreshness([run('unchanged', '2026-03-27T20:00:00Z'), inUse])).toBe(
      pricesFreshness([inUse]),
    );
  });

  it('says when the file gives no date, and when there are no prices', () => {
    expect(pricesFreshness([run('loaded', '2026-03-27T17:42:00Z')])).toBe(
      'Prices from the hospital’s file (it gives no date of its last update), read on March 27, 2026.',
    );
    expect(pricesFreshness([])).toBe(
      'No file of this hospital has been read yet, so it has no prices.',
    );
    expect(pricesFreshness([run('failed', '2026-03-27T17:42:00Z')])).toBe(
      'None of this hospital’s files could be loaded, so it has no prices (below, why).',
    );
  });
});
