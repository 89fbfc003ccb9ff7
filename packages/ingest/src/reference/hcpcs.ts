import { ReferenceFileError } from './errors.ts';
import {
  calendarDate,
  isNoteRow,
  KeyedRecords,
  RowProblems,
  normaliseHeader,
  readTableRows,
  type ReferenceSource,
} from './source.ts';

export interface HcpcsLevel2Code {
  code: string;
  kind: 'procedure' | 'modifier';
  longDescription: string;
  shortDescription: string;
}

export interface HcpcsOptions {
  /**
   * The day (YYYY-MM-DD) a code must not be terminated before to be read: a code whose
   * termination date is earlier is not current and is left out. Today (UTC) by default.
   */
  asOf?: string;
}

const HEADER = ['code', 'kind', 'long', 'short'];

/**
 * A Level II procedure code is a letter and four digits (A0428); a modifier two letters or digits.
 * Five digits are a CPT code (Level I), whose descriptions are the AMA's and must not be stored.
 */
const CODE = { procedure: /^[A-Z]\d{4}$/, modifier: /^[0-9A-Z]{2}$/ } as const;

/** The names a termination date column goes by, normalised by {@link normaliseHeader}. */
const TERM_DATE = ['term_dt', 'term_date', 'termination_date'];

/** A cell of either file: strings from a CSV, whatever read-excel-file makes of a workbook. */
type Cell = unknown;

function text(cell: Cell): string {
  if (typeof cell === 'string') return cell.trim();
  if (typeof cell === 'number') return String(cell);
  if (cell instanceof Date && !Number.isNaN(cell.getTime())) return cell.toISOString().slice(0, 10);
  return '';
}

/**
 * A termination date: CMS writes CCYYMMDD (20251231; a number in the workbook), a spreadsheet may
 * make it a date or write it MM/DD/YYYY. Empty is null; anything else is refused naming the row.
 */
function termDate(cell: Cell, file: string, where: string): string | null {
  const value = text(cell);
  if (value === '') return null;
  const iso = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  const date = iso
    ? calendarDate(iso[1] ?? '', iso[2] ?? '', iso[3] ?? '')
    : us && calendarDate(us[3] ?? '', us[1] ?? '', us[2] ?? '');
  if (!date) {
    throw new ReferenceFileError(file, `a termination date (CCYYMMDD) at ${where}`, value);
  }
  return date;
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * CMS HCPCS Level II codes and modifiers, current on `options.asOf` (today), from a path or an
 * http(s) URL, in either of two layouts:
 * - the project's CSV `code,kind,long,short` (hcpcs_level2_2025oct_codes.csv);
 * - CMS's own, as published in its quarterly "Alpha-Numeric HCPCS File" (HCPC2025_OCT_ANWEB.xlsx,
 *   or that sheet saved as CSV): HCPC, SEQNUM, RECID, LONG DESCRIPTION, SHORT DESCRIPTION, …,
 *   TERM DT. A long description longer than one record goes on in continuation records (RECID 4
 *   for a procedure, 8 for a modifier), joined in SEQNUM order.
 * A code whose termination date (a TERM DT column, in either layout) is before `asOf` is not
 * current and is left out. The format is told by content (an xlsx is a zip: "PK"), not by name.
 */
export async function parseHcpcsLevel2(
  source: ReferenceSource,
  options: HcpcsOptions = {},
): Promise<HcpcsLevel2Code[]> {
  const asOf = options.asOf ?? today();
  const asOfParts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(asOf);
  if (!asOfParts || !calendarDate(asOfParts[1] ?? '', asOfParts[2] ?? '', asOfParts[3] ?? '')) {
    throw new RangeError(`asOf must be a date written YYYY-MM-DD; it is ${asOf}`);
  }
  const { file, sheet: isZip, rows } = await readTableRows(source);
  const place = (r: number) => (isZip ? `row ${r + 1}` : `line ${r + 1}`);

  const first = rows[0] ?? [];
  const names = first.map((cell) => normaliseHeader(text(cell)));
  if (HEADER.every((name, i) => names[i] === name)) {
    return projectCodes(rows, names, file, asOf, place);
  }
  const cmsHeader = rows.findIndex((row) =>
    row.some((cell) => normaliseHeader(text(cell)) === 'hcpc'),
  );
  if (cmsHeader >= 0) return cmsCodes(rows, cmsHeader, file, asOf, place);
  // As written: "code;kind;long;short" is not "code_kind_long_short".
  throw new ReferenceFileError(file, `the header ${HEADER.join(',')}`, first.map(text).join(','));
}

/** The project's `code,kind,long,short` CSV, a termination date column honoured if it has one. */
function projectCodes(
  rows: readonly (readonly Cell[])[],
  names: readonly string[],
  file: string,
  asOf: string,
  place: (r: number) => string,
): HcpcsLevel2Code[] {
  const termAt = names.findIndex((name) => TERM_DATE.includes(name));
  const codes = new KeyedRecords<HcpcsLevel2Code>(file, 'code');
  const retired = new Set<string>();
  const problems = new RowProblems();
  for (let r = 1; r < rows.length; r += 1) {
    const row = rows[r] ?? [];
    const where = place(r);
    problems.row(where, () => {
      if (row.every((cell) => text(cell) === '')) return;
      const [code = '', kind = '', long = '', short = ''] = row.map(text);
      if (kind !== 'procedure' && kind !== 'modifier') {
        throw new ReferenceFileError(
          file,
          `kind procedure or modifier at ${where}`,
          kind || 'an empty cell',
        );
      }
      const upper = checkedCode(code, kind, file, where);
      const terminated = termAt >= 0 ? termDate(row[termAt], file, where) : null;
      const record: HcpcsLevel2Code = {
        code: upper,
        kind,
        longDescription: long,
        shortDescription: short,
      };
      codes.add(upper, record, where);
      if (terminated !== null && terminated < asOf) retired.add(upper);
    });
  }
  return currentCodes(codes.records, retired, problems, file, asOf);
}

/** CMS record identification codes: a first record, or a continuation of its long description. */
const RECORD_IDS: Readonly<Record<string, { kind: HcpcsLevel2Code['kind']; first: boolean }>> = {
  '3': { kind: 'procedure', first: true },
  '4': { kind: 'procedure', first: false },
  '7': { kind: 'modifier', first: true },
  '8': { kind: 'modifier', first: false },
};

/** The columns read from CMS's layout; the others (prices, cross-walks, BETOS…) are not. */
const CMS_COLUMNS = {
  code: ['hcpc'],
  sequence: ['seqnum'],
  recordId: ['recid'],
  long: ['long_description'],
  short: ['short_description'],
  terminated: TERM_DATE,
} as const;
type CmsColumn = keyof typeof CMS_COLUMNS;
const CMS_REQUIRED: readonly CmsColumn[] = ['code', 'recordId', 'long', 'short'];

interface FirstRecord {
  where: string;
  kind: HcpcsLevel2Code['kind'];
  short: string;
  terminated: string | null;
}

interface CmsCode {
  first?: FirstRecord;
  /** The long description's parts by SEQNUM. */
  parts: Map<number, { where: string; text: string }>;
}

const sameFirst = (a: FirstRecord, b: FirstRecord) =>
  a.kind === b.kind && a.short === b.short && a.terminated === b.terminated;

/** What a row's HCPC cell holds when it is a record: five or two letters and digits. */
const LOOKS_LIKE_CODE = /^(?:[0-9A-Z]{5}|[0-9A-Z]{2})$/i;

/** CMS's layout (the ANWEB workbook or its CSV), from its header row at `headerIndex`. */
function cmsCodes(
  rows: readonly (readonly Cell[])[],
  headerIndex: number,
  file: string,
  asOf: string,
  place: (r: number) => string,
): HcpcsLevel2Code[] {
  const names = (rows[headerIndex] ?? []).map((cell) => normaliseHeader(text(cell)));
  const index = {} as Record<CmsColumn, number>;
  for (const [column, aliases] of Object.entries(CMS_COLUMNS) as [CmsColumn, readonly string[]][]) {
    index[column] = names.findIndex((name) => aliases.includes(name));
    if (index[column] < 0 && CMS_REQUIRED.includes(column)) {
      throw new ReferenceFileError(
        file,
        `a HCPCS column "${aliases.join('" or "')}"`,
        `columns ${names.join(', ')}`,
      );
    }
  }
  const codes = new Map<string, CmsCode>();
  const continuations: { code: string; where: string }[] = [];
  const problems = new RowProblems();
  for (let r = headerIndex + 1; r < rows.length; r += 1) {
    const row = rows[r] ?? [];
    const where = place(r);
    problems.row(where, () => {
      const cell = (column: CmsColumn): string =>
        index[column] < 0 ? '' : text(row[index[column]]);
      // A blank row, or a note below the table in one cell; a code alone is a damaged record.
      if (isNoteRow(row) && !LOOKS_LIKE_CODE.test(cell('code'))) return;
      const recordId = RECORD_IDS[cell('recordId')];
      if (!recordId) {
        throw new ReferenceFileError(
          file,
          `a RECID of 3 or 4 (a procedure) or 7 or 8 (a modifier) at ${where}`,
          cell('recordId') || 'an empty cell',
        );
      }
      const code = checkedCode(cell('code'), recordId.kind, file, where);
      const sequenceText = cell('sequence');
      const sequence = index.sequence < 0 ? r : Number(sequenceText);
      if (sequenceText === '' ? index.sequence >= 0 : !Number.isInteger(sequence)) {
        throw new ReferenceFileError(file, `a SEQNUM at ${where}`, sequenceText || 'an empty cell');
      }
      const entry: CmsCode = codes.get(code) ?? { parts: new Map() };
      if (recordId.first) {
        const first: FirstRecord = {
          where,
          kind: recordId.kind,
          short: cell('short'),
          terminated: index.terminated < 0 ? null : termDate(row[index.terminated], file, where),
        };
        if (entry.first && !sameFirst(entry.first, first)) {
          throw new ReferenceFileError(
            file,
            'one first record (RECID 3 or 7) for each code',
            `two that differ for ${code}, at ${entry.first.where} and ${where}`,
          );
        }
        entry.first ??= first;
      } else continuations.push({ code, where });
      const earlier = entry.parts.get(sequence);
      if (earlier && earlier.text !== cell('long')) {
        throw new ReferenceFileError(
          file,
          'one description line for each code and SEQNUM',
          `two that differ for ${code} ${sequenceText}, at ${earlier.where} and ${where}`,
        );
      }
      if (!earlier) entry.parts.set(sequence, { where, text: cell('long') });
      codes.set(code, entry);
    });
  }
  // A continuation whose code has no first record: its kind and short description are unknown.
  for (const { code, where } of continuations) {
    problems.row(where, () => {
      if (!codes.get(code)?.first) {
        throw new ReferenceFileError(
          file,
          `a first record (RECID 3 or 7) for ${code}, continued at ${where}`,
          'none',
        );
      }
    });
  }
  const records: HcpcsLevel2Code[] = [];
  const retired = new Set<string>();
  for (const [code, { first, parts }] of codes) {
    if (!first) continue;
    const long = [...parts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, part]) => part.text)
      .filter(Boolean)
      .join(' ');
    records.push({ code, kind: first.kind, longDescription: long, shortDescription: first.short });
    if (first.terminated !== null && first.terminated < asOf) retired.add(code);
  }
  return currentCodes(records, retired, problems, file, asOf);
}

function checkedCode(
  code: string,
  kind: HcpcsLevel2Code['kind'],
  file: string,
  where: string,
): string {
  const upper = code.toUpperCase();
  if (!CODE[kind].test(upper)) {
    const expected =
      kind === 'procedure'
        ? 'a Level II code (a letter and four digits)'
        : 'a two-character modifier';
    throw new ReferenceFileError(file, `${expected} at ${where}`, code || 'an empty cell');
  }
  return upper;
}

/** The codes read, less those terminated before `asOf`; refused if a row was, or none is left. */
function currentCodes(
  records: readonly HcpcsLevel2Code[],
  retired: ReadonlySet<string>,
  problems: RowProblems,
  file: string,
  asOf: string,
): HcpcsLevel2Code[] {
  problems.check(records.length);
  if (records.length === 0) {
    throw new ReferenceFileError(file, 'code rows below the header', 'none');
  }
  const current = records.filter((record) => !retired.has(record.code));
  if (current.length === 0) {
    throw new ReferenceFileError(
      file,
      `a code current on ${asOf}`,
      `all ${records.length} terminated before`,
    );
  }
  return current;
}
