import { describe, expect, it } from 'vitest';
import type { IngestResult } from './ingest-file.ts';
import { ingestNote, refreshSummary, swapWaitNotice } from './ingest-notes.ts';

const run = (fields: Partial<IngestResult>): IngestResult => ({
  runId: 'run',
  status: 'loaded',
  hospitalId: 'h',
  hospital: 'West Mercy Hospital',
  format: 'json',
  version: '3.0.0',
  items: 1,
  rates: 1,
  rejected: 0,
  bytes: 1,
  seconds: 0.1,
  lastUpdatedOn: '2026-04-01',
  ...fields,
});

describe('ingestNote', () => {
  it('says nothing of a first load, or of a newer file replacing an older one', () => {
    expect(ingestNote('b.json', run({}))).toBeNull();
    const previous = { source: 'a.json', lastUpdatedOn: '2026-01-01' };
    expect(ingestNote('b.json', run({ previous }))).toBeNull();
    // The same file again, changed: no parts.
    expect(
      ingestNote('a.json', run({ previous: { ...previous, lastUpdatedOn: '2026-04-01' } })),
    ).toBeNull();
  });

  it('says that a file of the same date from elsewhere replaced the rates: parts keep only the last', () => {
    const previous = { source: 'part-1.json', lastUpdatedOn: '2026-04-01' };
    expect(ingestNote('part-2.json', run({ previous }))).toBe(
      'part-2.json: replaced the rates loaded from part-1.json, which has the same last_updated_on. ' +
        "A hospital's rates come from one file: of a file published in parts, only the last part loaded is kept.",
    );
  });

  it('says when a file without a last_updated_on replaced the rates of another file', () => {
    const dated = { source: 'a.json', lastUpdatedOn: '2026-01-01' };
    expect(ingestNote('b.json', run({ lastUpdatedOn: null, previous: dated }))).toBe(
      'b.json: replaced the rates loaded from a.json (last updated 2026-01-01): this file ' +
        'gives no last_updated_on, so it was taken for the newer.',
    );
    const undated = { source: 'a.json', lastUpdatedOn: null };
    expect(ingestNote('b.json', run({ lastUpdatedOn: null, previous: undated }))).toBe(
      'b.json: replaced the rates loaded from a.json; neither file gives a last_updated_on, so ' +
        "the one loaded last is kept. A hospital's rates come from one file: of a file " +
        'published in parts, only the last part loaded is kept.',
    );
    // A dated file after an undated one is the newer: nothing to add.
    expect(ingestNote('b.json', run({ previous: undated }))).toBeNull();
  });

  it('says why an older file was not loaded, and that unchanged bytes changed nothing', () => {
    const previous = { source: 'new.json', lastUpdatedOn: '2026-06-01' };
    expect(ingestNote('old.json', run({ status: 'older', previous }))).toBe(
      "old.json: last updated 2026-04-01, before the file the hospital's rates come from " +
        '(new.json, last updated 2026-06-01), so it was recorded and not loaded.',
    );
    expect(ingestNote('a.json', run({ status: 'unchanged' }))).toBe(
      'a.json: these bytes are loaded already, so nothing changed; --reload reads them again.',
    );
    expect(
      ingestNote('https://h.org/a.json', run({ status: 'unchanged', unchangedBy: 'server' })),
    ).toBe(
      'https://h.org/a.json: its server says the file has not changed since it was loaded ' +
        '(HTTP 304 Not Modified), so it was not downloaded; --reload downloads and reads it again.',
    );
    // Sent by a server that gives no validators, or did not answer to them: known by its hash.
    expect(
      ingestNote('https://h.org/a.json', run({ status: 'unchanged', unchangedBy: 'hash' })),
    ).toBe(
      'https://h.org/a.json: downloaded again, its bytes are loaded already, so nothing changed; ' +
        '--reload reads them again.',
    );
    // A file of a zip archive that lists it as it was: known by the archive's directory.
    expect(
      ingestNote('https://h.org/a.zip#a.json', run({ status: 'unchanged', unchangedBy: 'entry' })),
    ).toBe(
      'https://h.org/a.zip#a.json: its zip archive lists the file with the CRC-32 and size of the ' +
        'copy loaded already, so it was not read; --reload reads it again.',
    );
    expect(ingestNote('a.json', run({ status: 'failed' }))).toBeNull();
  });

  it('says that a file read before and not put in use was not read again, and which is in use', () => {
    const previous = { source: 'https://h.org/b.json', lastUpdatedOn: '2026-04-01' };
    expect(
      ingestNote(
        'https://h.org/a.json',
        run({ status: 'skipped', unchangedBy: 'server', previous }),
      ),
    ).toBe(
      'https://h.org/a.json: its server says the file has not changed since it was read and not ' +
        "put in use (the hospital's rates come from https://h.org/b.json, last updated " +
        '2026-04-01), so it was not downloaded; --reload downloads and reads it again.',
    );
    expect(
      ingestNote(
        'a.json',
        run({
          status: 'skipped',
          unchangedBy: 'hash',
          previous: { ...previous, lastUpdatedOn: null },
        }),
      ),
    ).toBe(
      "a.json: these bytes were read before and not put in use (the hospital's rates come from " +
        'https://h.org/b.json), so they were not read again; --reload reads them again.',
    );
    expect(
      ingestNote('https://h.org/a.json', run({ status: 'skipped', unchangedBy: 'hash', previous })),
    ).toBe(
      'https://h.org/a.json: downloaded again, its bytes were read before and not put in use ' +
        "(the hospital's rates come from https://h.org/b.json, last updated 2026-04-01), so they " +
        'were not read again; --reload reads them again.',
    );
    expect(
      ingestNote('h.zip#a.json', run({ status: 'skipped', unchangedBy: 'entry', previous })),
    ).toBe(
      'h.zip#a.json: its zip archive lists the file with the CRC-32 and size of the copy read ' +
        "before and not put in use (the hospital's rates come from https://h.org/b.json, last " +
        'updated 2026-04-01), so it was not read again; --reload reads it again.',
    );
    // A file in a remote archive from a server that sends no validators: known once read.
    expect(ingestNote('https://h.org/a.json', run({ status: 'skipped', previous }))).toBe(
      "https://h.org/a.json: these bytes were read before and not put in use (the hospital's " +
        'rates come from https://h.org/b.json, last updated 2026-04-01), so they were not loaded; ' +
        '--reload loads them.',
    );
  });
});

describe('swapWaitNotice', () => {
  it('says the file is read, what it waits for, for how long, and that the earlier file stays', () => {
    expect(swapWaitNotice('mercy.json', 31_600)).toBe(
      'mercy.json: read; waiting for queries reading the rate tables to end before putting it in ' +
        'use (32 s so far; the earlier file stays in use meanwhile).',
    );
  });
});

describe('refreshSummary', () => {
  it('counts the files read again by how each ended, in that order, and what could not be read', () => {
    expect(refreshSummary(['unchanged', 'failed', 'skipped', 'loaded', 'unchanged'], 0, 0)).toBe(
      'Read again: 5 files (1 loaded, 2 unchanged, 1 skipped, 1 failed).',
    );
    expect(refreshSummary(['older'], 1, 2)).toBe(
      'Read again: 1 file (1 older); 1 source could not be read; 2 local files no longer there.',
    );
    expect(refreshSummary([], 0, 1)).toBe('Read again: 0 files; 1 local file no longer there.');
  });
});
