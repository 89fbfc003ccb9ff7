import type { ChargeRecord, MrfHeader } from '../model.ts';

/**
 * What the format readers have in common: bytes are pushed in, the header appears as soon as it
 * is known, and records accumulate in `out` for the caller to drain between pushes.
 */
export interface FormatParser {
  header: MrfHeader | null;
  readonly out: ChargeRecord[];
  push(chunk: Buffer): void;
  /** No more bytes: flush, and throw if the file ended where it must not. */
  end(): void;
}
