/**
 * A problem that makes the whole file unreadable. Everything smaller (a bad record, a bent value)
 * is a validation issue in the report, never an exception.
 */
export type MrfReadErrorCode =
  | 'source-not-found'
  | 'http-error'
  /** A URL, or a redirect, to this machine or a private network (read/address-guard.ts). */
  | 'private-address'
  /** No answer, or under 64 KB of body, in the stall time we waited (read/stall.ts). */
  | 'server-silent'
  /** A download that unpacked to more than INGEST_MAX_DOWNLOAD_GB (read/source.ts). */
  | 'too-large'
  | 'empty-file'
  | 'unsupported-archive'
  | 'not-a-mrf'
  | 'invalid-json'
  | 'truncated-json'
  | 'missing-header-rows'
  | 'missing-columns'
  | 'wrong-delimiter'
  | 'duplicate-columns'
  | 'malformed-payer-column'
  | 'unknown-version'
  | 'mixed-hospitals'
  | 'no-hospital-name'
  | 'no-charges'
  | 'aborted'
  /** A conditional download (SourceOptions.ifChanged) answered 304: the file is as it was. */
  | 'not-modified'
  /** A zip archive lists the file as the copy loaded (SourceOptions.ifEntryChanged) does. */
  | 'entry-unchanged';

export class MrfReadError extends Error {
  override readonly name = 'MrfReadError';

  constructor(
    readonly code: MrfReadErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
