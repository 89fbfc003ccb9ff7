import type { IngestResult, IngestStatus } from './ingest-file.ts';
import { isUrl } from '../read/source.ts';
import { plural } from '../validate/report.ts';

/**
 * What `npm run ingest` says of a run beside its figures, when its status alone would leave the
 * operator guessing; null when there is nothing to add.
 */
export function ingestNote(source: string, result: IngestResult): string | null {
  const previous = result.previous;
  if (result.status === 'unchanged' && result.unchangedBy === 'server')
    return (
      `${source}: its server says the file has not changed since it was loaded (HTTP 304 Not ` +
      'Modified), so it was not downloaded; --reload downloads and reads it again.'
    );
  // A file of a zip archive, known by the archive's directory: its CRC-32 and size there.
  const listed = 'its zip archive lists the file with the CRC-32 and size of the copy';
  if (result.status === 'unchanged' && result.unchangedBy === 'entry')
    return `${source}: ${listed} loaded already, so it was not read; --reload reads it again.`;
  // A URL known by its hash: its server sent the file (it gives no ETag or Last-Modified to ask it
  // with, or did not answer to them), which was hashed and not read.
  const bytes =
    result.unchangedBy === 'hash' && isUrl(source) ? 'downloaded again, its bytes' : 'these bytes';
  if (result.status === 'unchanged')
    return `${source}: ${bytes} are loaded already, so nothing changed; --reload reads them again.`;
  if (result.status === 'skipped') {
    const inUse = previous
      ? `the hospital's rates come from ${previous.source}` +
        (previous.lastUpdatedOn ? `, last updated ${previous.lastUpdatedOn}` : '')
      : "the hospital's rates come from another file";
    if (result.unchangedBy === 'server')
      return (
        `${source}: its server says the file has not changed since it was read and not put in ` +
        `use (${inUse}), so it was not downloaded; --reload downloads and reads it again.`
      );
    if (result.unchangedBy === 'entry')
      return (
        `${source}: ${listed} read before and not put in use (${inUse}), so it was not read ` +
        'again; --reload reads it again.'
      );
    if (result.unchangedBy === 'hash')
      return (
        `${source}: ${bytes} were read before and not put in use (${inUse}), so they were ` +
        'not read again; --reload reads them again.'
      );
    // Known only once read: a file of a remote zip archive, whose server sends no validators,
    // loaded before the archive's entries were kept.
    return (
      `${source}: these bytes were read before and not put in use (${inUse}), so they were not ` +
      'loaded; --reload loads them.'
    );
  }
  // (A file is older only when both it and the file in use give a date.)
  if (result.status === 'older' && previous)
    return (
      `${source}: last updated ${result.lastUpdatedOn}, before the file the hospital's rates ` +
      `come from (${previous.source}, last updated ${previous.lastUpdatedOn}), so it was ` +
      'recorded and not loaded.'
    );
  if (result.status !== 'loaded' || !previous || previous.source === source) return null;
  const parts =
    "A hospital's rates come from one file: of a file published in parts, only the last part " +
    'loaded is kept.';
  if (result.lastUpdatedOn === null)
    return previous.lastUpdatedOn === null
      ? `${source}: replaced the rates loaded from ${previous.source}; neither file gives a ` +
          `last_updated_on, so the one loaded last is kept. ${parts}`
      : `${source}: replaced the rates loaded from ${previous.source} (last updated ` +
          `${previous.lastUpdatedOn}): this file gives no last_updated_on, so it was taken for ` +
          'the newer.';
  if (previous.lastUpdatedOn === result.lastUpdatedOn)
    return (
      `${source}: replaced the rates loaded from ${previous.source}, which has the same ` +
      `last_updated_on. ${parts}`
    );
  return null;
}

/** Between two of swapWaitNotice's lines for one file. */
export const SWAP_WAIT_NOTICE_MS = 30_000;

/** What `npm run ingest` says while a file's swap gives way to queries reading the rate tables. */
export function swapWaitNotice(source: string, waitedMs: number): string {
  return (
    `${source}: read; waiting for queries reading the rate tables to end before putting it in ` +
    `use (${Math.ceil(waitedMs / 1000)} s so far; the earlier file stays in use meanwhile).`
  );
}

/**
 * The last words of `npm run ingest -- --refresh`: what became of the files read again, in the
 * order a run can end, and the sources that could not be: a cms-hpt.txt or file that could not be
 * read (`unreadable`), a local file no longer on disk (`missing`).
 */
export function refreshSummary(
  statuses: readonly IngestStatus[],
  unreadable: number,
  missing: number,
): string {
  const order: IngestStatus[] = ['loaded', 'unchanged', 'skipped', 'older', 'failed'];
  const counts = order
    .map((status) => [status, statuses.filter((s) => s === status).length] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => plural(n, status, status));
  const files = `Read again: ${plural(statuses.length, 'file')}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`;
  const others = [
    unreadable > 0 ? `${plural(unreadable, 'source')} could not be read` : null,
    missing > 0 ? `${plural(missing, 'local file')} no longer there` : null,
  ].filter((part) => part !== null);
  return `${[files, ...others].join('; ')}.`;
}
