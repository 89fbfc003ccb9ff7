import type { IngestResult } from '../load/ingest-file.ts';

/**
 * What `npm run ingest` says of a run beside its figures, when its status alone would leave the
 * operator guessing; null when there is nothing to add.
 */
export function ingestNote(source: string, result: IngestResult): string | null {
  const previous = result.previous;
  if (result.status === 'unchanged')
    return `${source}: these bytes are loaded already, so nothing changed; --reload reads them again.`;
  if (result.status === 'older' && previous)
    return (
      `${source}: last updated ${result.lastUpdatedOn ?? 'on no date'}, before the file the ` +
      `hospital's rates come from (${previous.source}, last updated ${previous.lastUpdatedOn ?? 'on no date'}), ` +
      'so it was recorded and not loaded.'
    );
  if (
    result.status === 'loaded' &&
    previous &&
    previous.source !== source &&
    previous.lastUpdatedOn === result.lastUpdatedOn
  )
    return (
      `${source}: replaced the rates loaded from ${previous.source}, which has the same ` +
      `last_updated_on. A hospital's rates come from one file: of a file published in parts, ` +
      'only the last part loaded is kept.'
    );
  return null;
}
