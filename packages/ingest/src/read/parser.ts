import { isModifierOnly, type ChargeRecord, type MrfHeader } from '../model.ts';
import type { ValidationReport } from '../validate/report.ts';

/**
 * What the format readers have in common: bytes are pushed in, the header appears as soon as it
 * is known, and records accumulate in `out` for the caller to drain between pushes.
 */
export interface FormatParser {
  header: MrfHeader | null;
  /**
   * Whether the hospital's name or licence, which say which hospital the file is, may still
   * follow: a JSON file's top-level keys can come after its items. False once the file has ended.
   */
  readonly identityPending?: boolean;
  readonly out: ChargeRecord[];
  push(chunk: Buffer): void;
  /** No more bytes: flush, and throw if the file ended where it must not. */
  end(): void;
}

/**
 * A checked record: with no error it is counted as read and kept in `out`; with any, it is
 * counted as rejected, its rates with it. A modifier's record is counted apart from the charges,
 * and one that continues an earlier record only for its rates.
 */
export function keepOrReject(
  record: ChargeRecord,
  errors: number,
  report: ValidationReport,
  out: ChargeRecord[],
): void {
  const modifier = isModifierOnly(record);
  if (errors > 0) {
    if (modifier) {
      report.rejectedModifiers++;
      report.rejectedModifierEntries += record.payers.length;
    } else {
      report.rejectedRecords++;
      report.rejectedPayers += record.payers.length;
    }
    return;
  }
  // A record that continues an earlier one adds rates, not a charge.
  const more = record.continues === undefined ? 1 : 0;
  if (modifier) {
    report.modifiersRead += more;
    report.modifierEntriesRead += record.payers.length;
  } else {
    report.recordsRead += more;
    report.payersRead += record.payers.length;
  }
  out.push(record);
}
