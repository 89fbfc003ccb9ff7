import { MEDICARE_CONVERSION_FACTOR_2025 } from '@ratelens/core';
import { ReferenceFileError } from './errors.ts';
import {
  csvDecimalMark,
  csvDelimiter,
  isNoteRow,
  KeyedRecords,
  RowProblems,
  normaliseHeader,
  parseCsvRows,
  parseDecimal,
  readSourceText,
  refuseCutLastLine,
  sourceName,
  type DecimalMark,
  type ReferenceSource,
} from './source.ts';

/**
 * A number a row must give and that cannot be negative (a GPCI, a payment cap), or a
 * ReferenceFileError naming its column and place.
 */
function amount(
  value: string | undefined,
  file: string,
  place: string,
  label: string,
  decimalMark: DecimalMark,
): number {
  const parsed = parseDecimal(value, file, `${place} ${label}`, decimalMark);
  if (parsed === null || parsed < 0)
    throw new ReferenceFileError(
      file,
      `${label} at ${place}`,
      parsed === null ? 'an empty cell' : String(parsed),
    );
  return parsed;
}

/** One row of the national physician fee schedule relative value file (PPRRVU). */
export interface PhysicianFeeScheduleRvu {
  hcpcs: string;
  /** "26", "TC", "53"…, or null for the global service. */
  modifier: string | null;
  /** Status code: A active, R restricted, T injections, I not valid for Medicare, N non-covered, … */
  status: string;
  workRvu: number;
  nonFacilityPeRvu: number;
  /**
   * "NA" in NON-FAC NA INDICATOR: the service is rarely or never performed in an office (RVU file
   * read-me); CMS made no non-facility PE RVU for it and prints the facility one there, which is
   * what a contractor that allows the office pays.
   */
  nonFacilityNa: boolean;
  facilityPeRvu: number;
  /** "NA" in FACILITY NA INDICATOR: rarely or never performed in a facility, likewise. */
  facilityNa: boolean;
  mpRvu: number;
  /** "000", "010", "090", "XXX", "YYY", "ZZZ", "MMM". */
  globalDays: string;
  conversionFactor: number | null;
}

/**
 * PPRRVU stacks its column names over five rows under a banner (e.g. "NON-FAC" / "PE RVU",
 * "GLOB" / "DAYS"); the last row alone repeats "PE RVU" and "TOTAL". Names here are the
 * stacked parts joined by spaces.
 */
const RVU_COLUMNS = {
  hcpcs: 'HCPCS',
  modifier: 'MOD',
  status: 'STATUS CODE',
  workRvu: 'WORK RVU',
  nonFacilityPeRvu: 'NON-FAC PE RVU',
  nonFacilityNa: 'NON-FAC NA INDICATOR',
  facilityPeRvu: 'FACILITY PE RVU',
  facilityNa: 'FACILITY NA INDICATOR',
  mpRvu: 'MP RVU',
  globalDays: 'GLOB DAYS',
  conversionFactor: 'CONV FACTOR',
} as const;

/**
 * Columns a file may lack: the NA indicators. A file cut down to the columns priced has none, and
 * is read as marking no setting NA (as every file was before they were read); a file with them
 * must give "NA" or nothing in each code row.
 */
const OPTIONAL_RVU_COLUMNS: readonly (keyof typeof RVU_COLUMNS)[] = ['nonFacilityNa', 'facilityNa'];

/** The year of a fee schedule file, and what in the file said so. */
export interface FeeScheduleYear {
  /** The file name or URL. */
  file: string;
  /** Null when nothing in the file says. */
  year: number | null;
  /** "its banner", "its header and its file name", …; empty when `year` is null. */
  from: string;
}

/**
 * The year a CMS file name carries: "PPRRVU2026_Jan_nonQPP.csv", "GPCI2025.csv", "25LOCCO.csv"
 * (two digits next to the name's kind), or null ("OPPSCAP_Oct.csv"). Of a URL, its last part.
 */
export function fileNameYear(source: ReferenceSource): number | null {
  const name = (source.split(/[?#]/)[0] ?? '').split(/[\\/]/).pop() ?? '';
  const four = /(?<!\d)(20\d{2})(?!\d)/.exec(name)?.[1];
  if (four) return Number(four);
  const two = /^(?:PPRRVU|GPCI|OPPSCAP)_?(\d{2})(?!\d)|^(\d{2})LOCCO/i.exec(name);
  const digits = two?.[1] ?? two?.[2];
  return digits ? 2000 + Number(digits) : null;
}

/**
 * One year from the places a file says it (banner, header, file name), or a ReferenceFileError
 * naming them when they disagree.
 */
function yearOf(
  file: string,
  source: ReferenceSource,
  said: Record<string, number[]>,
): FeeScheduleYear {
  const places: [string, number][] = Object.entries(said).flatMap(([place, years]) =>
    [...new Set(years)].map((year): [string, number] => [place, year]),
  );
  const named = fileNameYear(source);
  if (named !== null) places.push(['file name', named]);
  const years = [...new Set(places.map(([, year]) => year))];
  if (years.length > 1) {
    throw new ReferenceFileError(
      file,
      'one fee schedule year',
      places.map(([place, year]) => `${year} in its ${place}`).join(', '),
    );
  }
  const [year] = years;
  if (year === undefined) return { file, year: null, from: '' };
  const from = [...new Set(places.map(([place]) => `its ${place}`))].join(' and ');
  return { file, year, from };
}

/** Years a banner line states: "2025 National Physician Fee Schedule …", "FINAL CY 2025 …". */
function bannerYears(rows: readonly (readonly string[])[]): number[] {
  const years: number[] = [];
  for (const row of rows) {
    const text = row.join(' ');
    const found =
      /\b(?:CY|calendar year)\s*(20\d{2})\b/i.exec(text) ??
      /\b(20\d{2})\s+(?:national\s+)?(?:physician fee schedule|(?:physician\s+)?relative value)/i.exec(
        text,
      );
    if (found?.[1]) years.push(Number(found[1]));
  }
  return years;
}

/** Conversion factors of the years whose PPRRVU files have been seen to leave the cell empty. */
const KNOWN_CONVERSION_FACTORS: Readonly<Record<number, number>> = {
  2025: MEDICARE_CONVERSION_FACTOR_2025,
};

/**
 * The conversion factor for the code rows of `year` whose CONV FACTOR cell is empty: the year's
 * known factor, else the one factor the file's other rows give. Never another year's: a file
 * with empty cells, of a year with no known factor and no single factor of its own, is refused.
 * Where no cell is empty, the file's own factor (the loader then uses none).
 */
export function conversionFactorFor(
  year: number,
  rows: readonly PhysicianFeeScheduleRvu[],
  file: string,
): number {
  const known = KNOWN_CONVERSION_FACTORS[year];
  const factors = [...new Set(rows.flatMap((row) => row.conversionFactor ?? []))];
  const empty = rows.filter((row) => row.conversionFactor === null).length;
  if (known !== undefined && empty > 0) return known;
  const [own] = factors;
  if (own !== undefined && (factors.length === 1 || empty === 0)) return own;
  if (known !== undefined) return known;
  throw new ReferenceFileError(
    file,
    `a conversion factor for ${year}`,
    factors.length === 0
      ? `no CONV FACTOR in any of its ${rows.length} code rows, and none known for ${year}`
      : `${empty} code rows without one, the others giving ${factors.join(', ')}, and none known for ${year}`,
  );
}

/**
 * The year of a fee schedule file set (RVU, GPCI, OPPSCAP), or an Error: files of different
 * years (a 2026 PPRRVU with the 2025 GPCIs), or none that says its year.
 */
export function feeScheduleYear(years: readonly FeeScheduleYear[]): number {
  const said = years.filter((y) => y.year !== null);
  const distinct = [...new Set(said.map((y) => y.year))];
  if (distinct.length > 1) {
    throw new Error(
      `the fee schedule files are of different years: ${said
        .map((y) => `${y.file} ${y.year} (${y.from})`)
        .join(', ')}; give one year's files together`,
    );
  }
  const [year] = distinct;
  if (year === undefined || year === null) {
    throw new Error(
      `none of ${years.map((y) => y.file).join(', ')} says its year (in a banner, a header ` +
        'such as "2025 PW GPCI", or a file name such as PPRRVU2025_Oct.csv); name the files as CMS does',
    );
  }
  return year;
}

/** A PPRRVU file's code rows and its year. */
export interface RvuFile {
  rows: PhysicianFeeScheduleRvu[];
  year: FeeScheduleYear;
}

/**
 * CMS national physician fee schedule relative value file (PPRRVU2025_Oct.csv and later
 * releases of the same layout).
 *
 * The DESCRIPTION column holds CPT short descriptors, which are AMA-copyrighted: the CSV parser
 * blanks that cell as each record is read (`on_record`), so it never reaches a row, a database or
 * a screen. Codes and RVUs are CMS's and free to use.
 */
export async function parseRvuFile(source: ReferenceSource): Promise<PhysicianFeeScheduleRvu[]> {
  return (await readRvuFile(source)).rows;
}

/**
 * `parseRvuFile`, with the year the file says: its banner ("2026 National Physician Fee Schedule
 * Relative Value File …") and its name (PPRRVU2026_Jan_nonQPP.csv), refused when they disagree.
 * A code row without a cell for each column read, with an RVU empty or negative, or with an NA
 * indicator other than "NA" or empty, is refused, as is a file whose last line is cut.
 */
export async function readRvuFile(source: ReferenceSource): Promise<RvuFile> {
  const file = sourceName(source);
  const content = await readSourceText(source);
  const delimiter = csvDelimiter(content);
  const decimalMark: DecimalMark = delimiter === ';' ? ',' : '.';
  const lines = content.split(/\r\n|\n|\r/);
  // The header block's last line starts "HCPCS,MOD,DESCRIPTION,": find it before parsing rows.
  // The first separator is a comma or semicolon with its blanks, or blanks holding a tab: as
  // `\s*[,;\t]\s*`, every split of a run of tabs was tried, time growing with the square of its
  // length (ADR 0004, "Patterns").
  const headerLine = lines.findIndex((line) =>
    /^"?HCPCS"?(?:\s*[,;]\s*|[^\S\t]*\t\s*)"?MOD"?\s*[,;\t]/i.test(line),
  );
  if (headerLine < 0) throw new ReferenceFileError(file, 'a header row starting HCPCS,MOD');
  const lastHeaderRow = parseCsvRows(lines[headerLine] ?? '', file, { delimiter })[0] ?? [];
  const descriptionIndex = lastHeaderRow.findIndex(
    (cell) => cell.trim().toUpperCase() === 'DESCRIPTION',
  );

  const records = parseCsvRows(content, file, {
    delimiter,
    onRecord: (record) =>
      descriptionIndex < 0 ? record : record.map((cell, i) => (i === descriptionIndex ? '' : cell)),
  });
  // Banner rows (titles, copyright) sit above the header block and only fill the DESCRIPTION
  // column, blanked above; joining every row above the header per column yields the names.
  const headerRows = records.slice(0, headerLine + 1);
  const width = Math.max(...headerRows.map((row) => row.length));
  const names = Array.from({ length: width }, (_, column) =>
    headerRows
      .map((row) => (row[column] ?? '').trim())
      .filter(Boolean)
      .join(' ')
      .replace(/\s+/g, ' ')
      .toUpperCase(),
  );
  const index = {} as Record<keyof typeof RVU_COLUMNS, number>;
  for (const [key, name] of Object.entries(RVU_COLUMNS) as [keyof typeof RVU_COLUMNS, string][]) {
    const at = names.indexOf(name);
    if (at < 0 && !OPTIONAL_RVU_COLUMNS.includes(key))
      throw new ReferenceFileError(file, `a "${name}" column`, `columns ${names.join(' | ')}`);
    index[key] = at;
  }
  // The banner is read before the DESCRIPTION column is blanked: the title sits in it.
  const banner = parseCsvRows(lines.slice(0, headerLine).join('\n'), file, { delimiter });
  const year = yearOf(file, source, { banner: bannerYears(banner) });
  refuseCutLastLine(content, records, lastHeaderRow.length, file);

  const rows: PhysicianFeeScheduleRvu[] = [];
  const problems = new RowProblems();
  for (let r = headerLine + 1; r < records.length; r += 1) {
    const where = `line ${r + 1}`;
    problems.row(where, () => {
      const record = records[r] ?? [];
      const hcpcs = (record[index.hcpcs] ?? '').trim().toUpperCase();
      if (!/^[0-9A-Z]{5}$/.test(hcpcs)) {
        // A footnote, or a blank row; a code's row whose code cannot be read is refused.
        if (isNoteRow(record)) return;
        throw new ReferenceFileError(
          file,
          `a five-character HCPCS code at ${where}`,
          hcpcs || 'none',
        );
      }
      const at = `${where} (${hcpcs})`;
      // A row that ends before a column read (cut, or cells lost) is refused, not read as empty.
      const cell = (key: keyof typeof RVU_COLUMNS): string => {
        const value = record[index[key]];
        if (value === undefined) {
          throw new ReferenceFileError(
            file,
            `${RVU_COLUMNS[key]} at ${at}`,
            `no such cell: the row ends after ${record.length} cells`,
          );
        }
        return value.trim();
      };
      const number = (key: keyof typeof RVU_COLUMNS): number | null => {
        const parsed = parseDecimal(cell(key), file, `${at} ${RVU_COLUMNS[key]}`, decimalMark);
        if (parsed !== null && parsed < 0)
          throw new ReferenceFileError(file, `${RVU_COLUMNS[key]} at ${at}`, String(parsed));
        return parsed;
      };
      const rvu = (key: keyof typeof RVU_COLUMNS): number => {
        const parsed = number(key);
        if (parsed === null)
          throw new ReferenceFileError(file, `${RVU_COLUMNS[key]} at ${at}`, 'an empty cell');
        return parsed;
      };
      // "NA" (any case) marks a setting where the service is rarely or never performed; a file
      // without the column marks none.
      const notApplicable = (key: 'nonFacilityNa' | 'facilityNa'): boolean => {
        if (index[key] < 0) return false;
        const value = cell(key);
        if (value === '') return false;
        if (value.toUpperCase() === 'NA') return true;
        throw new ReferenceFileError(
          file,
          `"NA" or an empty cell in ${RVU_COLUMNS[key]} at ${at}`,
          value,
        );
      };
      // In the file's column order, so that a row cut short names the first cell it lacks.
      const row: PhysicianFeeScheduleRvu = {
        hcpcs,
        modifier: cell('modifier').toUpperCase() || null,
        status: cell('status').toUpperCase(),
        workRvu: rvu('workRvu'),
        nonFacilityPeRvu: rvu('nonFacilityPeRvu'),
        nonFacilityNa: notApplicable('nonFacilityNa'),
        facilityPeRvu: rvu('facilityPeRvu'),
        facilityNa: notApplicable('facilityNa'),
        mpRvu: rvu('mpRvu'),
        globalDays: cell('globalDays').toUpperCase(),
        conversionFactor: number('conversionFactor'),
      };
      if (row.conversionFactor === 0)
        throw new ReferenceFileError(file, `CONV FACTOR at ${at}`, 'a conversion factor of 0');
      rows.push(row);
    });
  }
  problems.check(rows.length);
  if (rows.length === 0) throw new ReferenceFileError(file, 'code rows below the header', 'none');
  return { rows, year };
}

/** Geographic practice cost indices of one Medicare payment locality. */
export interface GpciLocality {
  /** Medicare Administrative Contractor number, five digits ("02102"). */
  carrier: string;
  /** Two-letter state. */
  state: string;
  /** Two-digit locality number ("00", "99"). */
  locality: string;
  /** Locality name without the footnote asterisks ("ALASKA", not "ALASKA*"). */
  name: string;
  workGpci: number;
  peGpci: number;
  mpGpci: number;
}

function findHeader(
  rows: string[][],
  file: string,
  wanted: string[],
): { at: number; names: string[] } {
  const at = rows.findIndex((row) => {
    const names = row.map(normaliseHeader);
    return wanted.every((name) => names.some((cell) => cell.includes(name)));
  });
  const header = rows[at];
  if (!header) throw new ReferenceFileError(file, `a header row with ${wanted.join(', ')}`);
  return { at, names: header.map(normaliseHeader) };
}

function column(
  names: string[],
  file: string,
  test: (name: string) => boolean,
  label: string,
): number {
  const at = names.findIndex(test);
  if (at < 0)
    throw new ReferenceFileError(file, `a ${label} column`, `columns ${names.join(', ')}`);
  return at;
}

/**
 * The column of one index: "2025 PW GPCI (with 1.0 Floor)", "2025 PE GPCI". Where several match
 * (a file giving the work GPCI without and with the 1.0 floor), the one with the floor, which
 * Medicare pays; several still is refused, not left to the order of the columns.
 */
function gpciColumn(names: string[], file: string, kind: RegExp, label: string): number {
  const matching = names.flatMap((name, i) => (kind.test(name) ? [i] : []));
  const floored = matching.filter((i) => /(^|_)with_1_0_floor/.test(names[i] ?? ''));
  const chosen = matching.length > 1 ? floored : matching;
  const [at] = chosen;
  if (at === undefined || chosen.length > 1) {
    throw new ReferenceFileError(
      file,
      matching.length === 0 ? `a ${label} column` : `one ${label} column (or one "with 1.0 Floor")`,
      `columns ${names.join(', ')}`,
    );
  }
  return at;
}

/** A GPCI file's localities and its year. */
export interface GpciFile {
  localities: GpciLocality[];
  year: FeeScheduleYear;
}

/** CMS GPCIs by carrier and locality (GPCI2025.csv, the final rule's Addendum E). */
export async function parseGpciFile(source: ReferenceSource): Promise<GpciLocality[]> {
  return (await readGpciFile(source)).localities;
}

/**
 * `parseGpciFile`, with the year the file says: its banner ("FINAL CY 2025 …"), the GPCI columns'
 * names ("2025 PW GPCI") and its name (GPCI2025.csv), refused when they disagree.
 */
export async function readGpciFile(source: ReferenceSource): Promise<GpciFile> {
  const file = sourceName(source);
  const text = await readSourceText(source);
  const decimalMark = csvDecimalMark(text);
  const rows = parseCsvRows(text, file);
  const { at, names } = findHeader(rows, file, ['locality_number', 'gpci']);
  const carrier = column(names, file, (n) => n.startsWith('medicare_admin') || n === 'mac', 'MAC');
  const state = column(names, file, (n) => n === 'state', 'State');
  const locality = column(names, file, (n) => n === 'locality_number', 'Locality Number');
  const name = column(names, file, (n) => n === 'locality_name', 'Locality Name');
  // "2025 PW GPCI (with 1.0 Floor)": PW is physician work.
  const work = gpciColumn(names, file, /(^|_)(pw|work)_gpci/, 'PW GPCI');
  const pe = gpciColumn(names, file, /(^|_)pe_gpci/, 'PE GPCI');
  const mp = gpciColumn(names, file, /(^|_)mp_gpci/, 'MP GPCI');
  const header = [work, pe, mp].flatMap((i) => {
    const year = /^(?:cy_)?(20\d{2})_/.exec(names[i] ?? '')?.[1];
    return year ? [Number(year)] : [];
  });
  const year = yearOf(file, source, { banner: bannerYears(rows.slice(0, at)), header });
  refuseCutLastLine(text, rows, rows[at]?.length ?? 0, file);

  const localities = new KeyedRecords<GpciLocality>(file, 'MAC and locality');
  const problems = new RowProblems();
  for (let r = at + 1; r < rows.length; r += 1) {
    const where = `line ${r + 1}`;
    problems.row(where, () => {
      const row = rows[r] ?? [];
      const mac = (row[carrier] ?? '').trim();
      // Footnotes ("MAC Assignments as of …", "*Work GPCI reflects …") end the table; a locality's
      // row whose MAC cannot be read is refused, not left out.
      if (!/^\d{4,5}$/.test(mac)) {
        if (isNoteRow(row)) return;
        throw new ReferenceFileError(file, `a MAC number at ${where}`, mac || 'none');
      }
      // As the OPPSCAP and 25LOCCO readers: one or two digits ("5" is 05), never empty or "1.0".
      const number = (row[locality] ?? '').trim();
      if (!/^\d{1,2}$/.test(number))
        throw new ReferenceFileError(file, `a locality number at ${where}`, number || 'none');
      const value = (i: number, label: string): number => {
        if (row[i] === undefined) {
          throw new ReferenceFileError(
            file,
            `${label} at ${where}`,
            `no such cell: the row ends after ${row.length} cells`,
          );
        }
        return amount(row[i], file, where, label, decimalMark);
      };
      const record: GpciLocality = {
        carrier: mac.padStart(5, '0'),
        state: (row[state] ?? '').trim().toUpperCase(),
        locality: number.padStart(2, '0'),
        name: (row[name] ?? '')
          .trim()
          .replace(/(?<!\*)\*+$/, '')
          .trim(),
        workGpci: value(work, 'PW GPCI'),
        peGpci: value(pe, 'PE GPCI'),
        mpGpci: value(mp, 'MP GPCI'),
      };
      localities.add(`${record.carrier} ${record.locality}`, record, where);
    });
  }
  problems.check(localities.records.length);
  if (localities.records.length === 0)
    throw new ReferenceFileError(file, 'locality rows below the header', 'none');
  return { localities: localities.records, year };
}

/** One row of the locality → counties crosswalk. */
export interface LocalityCounties {
  /** Five digits, zero-padded (the file writes "2102" for 02102). */
  carrier: string;
  /** Two digits, zero-padded (the file writes "5" for 05). */
  locality: string;
  /** As written, upper case, carried down from the first row of its state ("HAWAII/GUAM"). */
  stateName: string;
  /** Without trailing footnote asterisks. */
  feeScheduleArea: string;
  /** Free text, as written: "ALL COUNTIES", "ALL OTHER COUNTIES", "DADE AND MONROE", … */
  counties: string;
}

/**
 * CMS counties included in each PFS locality (25LOCCO.csv). The state is written only on the
 * first row of each state; blank separator rows and footnotes are skipped.
 */
export async function parseLocalityCounties(source: ReferenceSource): Promise<LocalityCounties[]> {
  const file = sourceName(source);
  const rows = parseCsvRows(await readSourceText(source), file);
  const { at, names } = findHeader(rows, file, ['locality_number', 'counties']);
  // "Medicare Adminstrative Contractor" (sic) in 2025.
  const carrier = column(names, file, (n) => n.startsWith('medicare_adm') || n === 'mac', 'MAC');
  const locality = column(names, file, (n) => n === 'locality_number', 'Locality Number');
  const state = column(names, file, (n) => n === 'state', 'State');
  const area = column(names, file, (n) => n === 'fee_schedule_area', 'Fee Schedule Area');
  const counties = column(names, file, (n) => n === 'counties', 'Counties');

  const result: LocalityCounties[] = [];
  let currentState = '';
  const problems = new RowProblems();
  for (let r = at + 1; r < rows.length; r += 1) {
    const where = `line ${r + 1}`;
    problems.row(where, () => {
      const row = rows[r] ?? [];
      const mac = (row[carrier] ?? '').trim();
      if (!/^\d{3,5}$/.test(mac)) {
        if (isNoteRow(row)) return;
        throw new ReferenceFileError(file, `a MAC number at ${where}`, mac || 'none');
      }
      const stateName = (row[state] ?? '').trim().toUpperCase();
      if (stateName) currentState = stateName;
      const number = (row[locality] ?? '').trim();
      if (!/^\d{1,2}$/.test(number)) {
        throw new ReferenceFileError(file, `a locality number at line ${r + 1}`, number);
      }
      result.push({
        carrier: mac.padStart(5, '0'),
        locality: number.padStart(2, '0'),
        stateName: currentState,
        feeScheduleArea: (row[area] ?? '').trim().replace(/(?<!\s)\s*(?<!\*)\*+$/, ''),
        counties: (row[counties] ?? '').trim(),
      });
    });
  }
  problems.check(result.length);
  if (result.length === 0)
    throw new ReferenceFileError(file, 'locality rows below the header', 'none');
  return result;
}

/** The OPPS payment cap of one imaging service in one Medicare payment locality. */
export interface OppsCap {
  hcpcs: string;
  /** "TC", or null for the global service. */
  modifier: string | null;
  /** Five digits, zero-padded. */
  carrier: string;
  /** Two digits, zero-padded. */
  locality: string;
  facilityPrice: number;
  nonFacilityPrice: number;
}

/**
 * CMS OPPS payment caps by code, modifier, carrier and locality (OPPSCAP_Oct.csv). Medicare pays
 * these imaging services the lesser of the fee schedule amount and the cap of the locality.
 */
export async function parseOppsCapFile(source: ReferenceSource): Promise<OppsCap[]> {
  const file = sourceName(source);
  const text = await readSourceText(source);
  const decimalMark = csvDecimalMark(text);
  const rows = parseCsvRows(text, file);
  const { at, names } = findHeader(rows, file, ['hcpcs', 'carrier', 'locality']);
  const hcpcs = column(names, file, (n) => n === 'hcpcs', 'HCPCS');
  const modifier = column(names, file, (n) => n === 'mod' || n === 'modifier', 'MOD');
  const carrier = column(names, file, (n) => n === 'carrier' || n === 'mac', 'CARRIER');
  const locality = column(names, file, (n) => n === 'locality', 'LOCALITY');
  // "NON-FACILTY PRICE" (sic) in 2025.
  const nonFacility = column(names, file, (n) => /^non_?facil/.test(n), 'NON-FACILITY PRICE');
  const facility = column(names, file, (n) => n.startsWith('facility'), 'FACILITY PRICE');

  const caps = new KeyedRecords<OppsCap>(file, 'code, modifier, carrier and locality');
  const problems = new RowProblems();
  for (let r = at + 1; r < rows.length; r += 1) {
    const where = `line ${r + 1}`;
    problems.row(where, () => {
      const row = rows[r] ?? [];
      const code = (row[hcpcs] ?? '').trim().toUpperCase();
      // The file ends with a row of empty cells; a cap whose code cannot be read is refused.
      if (!/^[0-9A-Z]{5}$/.test(code)) {
        if (isNoteRow(row)) return;
        throw new ReferenceFileError(
          file,
          `a five-character HCPCS code at ${where}`,
          code || 'none',
        );
      }
      const place = `${where} (${code})`;
      const mac = (row[carrier] ?? '').trim();
      if (!/^\d{4,5}$/.test(mac))
        throw new ReferenceFileError(file, `a MAC number at ${place}`, mac || 'none');
      const number = (row[locality] ?? '').trim();
      if (!/^\d{1,2}$/.test(number)) {
        throw new ReferenceFileError(file, `a locality number at ${place}`, number || 'none');
      }
      const price = (i: number, label: string): number =>
        amount(row[i], file, place, label, decimalMark);
      const record: OppsCap = {
        hcpcs: code,
        modifier: (row[modifier] ?? '').trim().toUpperCase() || null,
        carrier: mac.padStart(5, '0'),
        locality: number.padStart(2, '0'),
        facilityPrice: price(facility, 'FACILITY PRICE'),
        nonFacilityPrice: price(nonFacility, 'NON-FACILITY PRICE'),
      };
      const service = record.modifier ? `${record.hcpcs}-${record.modifier}` : record.hcpcs;
      const key = `${service} ${record.carrier} ${record.locality}`;
      caps.add(key, record, where);
    });
  }
  problems.check(caps.records.length);
  if (caps.records.length === 0)
    throw new ReferenceFileError(file, 'cap rows below the header', 'none');
  return caps.records;
}
