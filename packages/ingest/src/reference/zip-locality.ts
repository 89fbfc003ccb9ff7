import { ReferenceFileError } from './errors.ts';
import {
  KeyedRecords,
  readSourceText,
  RowProblems,
  sourceName,
  type ReferenceSource,
} from './source.ts';

/** One ZIP code of CMS's ZIP5 file: its Medicare carrier and physician fee schedule locality. */
export interface ZipLocality {
  zip: string;
  /**
   * Two-letter state. The file splits Kansas and Missouri by old carrier region (EK/WK, EM/WM);
   * those are folded into KS and MO here, the original kept in `stateAsWritten`.
   */
  state: string;
  stateAsWritten: string;
  /** Medicare Administrative Contractor, five digits. */
  carrier: string;
  /** PFS pricing locality, two digits. */
  locality: string;
  /** Blank = urban, R = rural, B = super rural (OMB/RUCA based). */
  rural: 'urban' | 'rural' | 'super-rural';
  /** Lab competitive bidding locality: Z9 = not a demonstration locality. */
  labCompetitiveBidLocality: string;
  /** True when CMS's ZIP9 file splits this ZIP by +4 extension. */
  plusFour: boolean;
  /** YYYYQ, e.g. "20254". */
  yearQuarter: string;
}

const SPLIT_STATES: Readonly<Record<string, string>> = { EK: 'KS', WK: 'KS', EM: 'MO', WM: 'MO' };

const RURAL: Readonly<Record<string, ZipLocality['rural']>> = {
  ' ': 'urban',
  R: 'rural',
  B: 'super-rural',
};

/**
 * Whether a file name is CMS's ZIP5 record layout (ZIP5lyout.txt, shipped in the same download
 * as the ZIP5 file), a description of the columns rather than ZIP records.
 */
export function isZip5LayoutFile(name: string): boolean {
  return /^ZIP5[ _-]?(?:lyout|layout|lay_?out)\b/i.test(name);
}

/**
 * CMS ZIP5 file (ZIP5_OCT2025.txt), fixed width, 80 characters per record, per CMS's "Zip5
 * Record Layout" (ZIP5lyout.txt in the same download): state 1–2, ZIP 3–7, carrier 8–12,
 * pricing locality 13–14, rural indicator 15, lab CB locality 16–17, rural indicator 2 18,
 * filler 19–20, plus-four flag 21, Part B payment indicator 23, filler 24–75, year/quarter 76–80.
 */
export async function parseZipLocality(source: ReferenceSource): Promise<ZipLocality[]> {
  const file = sourceName(source);
  const lines = (await readSourceText(source)).split(/\r?\n/);
  const result = new KeyedRecords<ZipLocality>(file, 'ZIP');
  const problems = new RowProblems();
  lines.forEach((line, i) => {
    const where = `line ${i + 1}`;
    problems.row(where, () => {
      if (line.trim() === '') return;
      if (!/^[A-Z]{2}\d{5}\d{5}\d{2}[ RB]/.test(line) || line.length < 21) {
        throw new ReferenceFileError(
          file,
          `a ZIP5 record (state, ZIP, carrier, locality) at ${where}`,
          JSON.stringify(line.slice(0, 30)),
        );
      }
      const stateAsWritten = line.slice(0, 2);
      const zip = line.slice(2, 7);
      result.add(
        zip,
        {
          zip,
          state: SPLIT_STATES[stateAsWritten] ?? stateAsWritten,
          stateAsWritten,
          carrier: line.slice(7, 12),
          locality: line.slice(12, 14),
          rural: RURAL[line.charAt(14)] ?? 'urban',
          labCompetitiveBidLocality: line.slice(15, 17).trim(),
          plusFour: line.charAt(20) === '1',
          yearQuarter: line.slice(75, 80).trim(),
        },
        where,
      );
    });
  });
  problems.check(result.records.length);
  if (result.records.length === 0) throw new ReferenceFileError(file, 'ZIP5 records', 'none');
  return result.records;
}
