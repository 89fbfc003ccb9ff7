import { ReferenceFileError } from './errors.ts';
import {
  isNoteRow,
  KeyedRecords,
  RowProblems,
  normaliseHeader,
  parseCsvRows,
  parseDecimal,
  readSourceText,
  sourceName,
  type ReferenceSource,
} from './source.ts';

/** One row of the national physician fee schedule relative value file (PPRRVU). */
export interface PhysicianFeeScheduleRvu {
  hcpcs: string;
  /** "26", "TC", "53"…, or null for the global service. */
  modifier: string | null;
  /** Status code: A active, R restricted, T injections, I not valid for Medicare, N non-covered, … */
  status: string;
  workRvu: number;
  nonFacilityPeRvu: number;
  facilityPeRvu: number;
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
  facilityPeRvu: 'FACILITY PE RVU',
  mpRvu: 'MP RVU',
  globalDays: 'GLOB DAYS',
  conversionFactor: 'CONV FACTOR',
} as const;

/**
 * CMS national physician fee schedule relative value file (PPRRVU2025_Oct.csv and later
 * releases of the same layout).
 *
 * The DESCRIPTION column holds CPT short descriptors, which are AMA-copyrighted: the CSV parser
 * blanks that cell as each record is read (`on_record`), so it never reaches a row, a database or
 * a screen. Codes and RVUs are CMS's and free to use.
 */
export async function parseRvuFile(source: ReferenceSource): Promise<PhysicianFeeScheduleRvu[]> {
  const file = sourceName(source);
  const content = await readSourceText(source);
  const lines = content.split(/\r\n|\n|\r/);
  // The header block's last line starts "HCPCS,MOD,DESCRIPTION,": find it before parsing rows.
  // The first separator is a comma or semicolon with its blanks, or blanks holding a tab: as
  // `\s*[,;\t]\s*`, every split of a run of tabs was tried, time growing with the square of its
  // length (ADR 0004, "Patterns").
  const headerLine = lines.findIndex((line) =>
    /^"?HCPCS"?(?:\s*[,;]\s*|[^\S\t]*\t\s*)"?MOD"?\s*[,;\t]/i.test(line),
  );
  if (headerLine < 0) throw new ReferenceFileError(file, 'a header row starting HCPCS,MOD');
  const lastHeaderRow = parseCsvRows(lines[headerLine] ?? '', file)[0] ?? [];
  const descriptionIndex = lastHeaderRow.findIndex(
    (cell) => cell.trim().toUpperCase() === 'DESCRIPTION',
  );

  const records = parseCsvRows(content, file, {
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
    if (at < 0)
      throw new ReferenceFileError(file, `a "${name}" column`, `columns ${names.join(' | ')}`);
    index[key] = at;
  }

  const rows: PhysicianFeeScheduleRvu[] = [];
  const problems = new RowProblems();
  for (let r = headerLine + 1; r < records.length; r += 1) {
    const where = `line ${r + 1}`;
    problems.row(where, () => {
      const record = records[r] ?? [];
      const cell = (key: keyof typeof RVU_COLUMNS): string => (record[index[key]] ?? '').trim();
      const hcpcs = cell('hcpcs').toUpperCase();
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
      const number = (key: keyof typeof RVU_COLUMNS): number =>
        parseDecimal(cell(key), file, `${at} ${RVU_COLUMNS[key]}`) ?? 0;
      rows.push({
        hcpcs,
        modifier: cell('modifier').toUpperCase() || null,
        status: cell('status').toUpperCase(),
        workRvu: number('workRvu'),
        nonFacilityPeRvu: number('nonFacilityPeRvu'),
        facilityPeRvu: number('facilityPeRvu'),
        mpRvu: number('mpRvu'),
        globalDays: cell('globalDays').toUpperCase(),
        conversionFactor: parseDecimal(cell('conversionFactor'), file, `${at} CONV FACTOR`),
      });
    });
  }
  problems.check(rows.length);
  if (rows.length === 0) throw new ReferenceFileError(file, 'code rows below the header', 'none');
  return rows;
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

/** CMS GPCIs by carrier and locality (GPCI2025.csv, the final rule's Addendum E). */
export async function parseGpciFile(source: ReferenceSource): Promise<GpciLocality[]> {
  const file = sourceName(source);
  const rows = parseCsvRows(await readSourceText(source), file);
  const { at, names } = findHeader(rows, file, ['locality_number', 'gpci']);
  const carrier = column(names, file, (n) => n.startsWith('medicare_admin') || n === 'mac', 'MAC');
  const state = column(names, file, (n) => n === 'state', 'State');
  const locality = column(names, file, (n) => n === 'locality_number', 'Locality Number');
  const name = column(names, file, (n) => n === 'locality_name', 'Locality Name');
  // "2025 PW GPCI (with 1.0 Floor)": PW is physician work.
  const work = column(names, file, (n) => /(^|_)(pw|work)_gpci/.test(n), 'PW GPCI');
  const pe = column(names, file, (n) => /(^|_)pe_gpci/.test(n), 'PE GPCI');
  const mp = column(names, file, (n) => /(^|_)mp_gpci/.test(n), 'MP GPCI');

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
      const value = (i: number, label: string): number => {
        const parsed = parseDecimal(row[i], file, `${where} ${label}`);
        if (parsed === null)
          throw new ReferenceFileError(file, `${label} at ${where}`, 'an empty cell');
        return parsed;
      };
      const record: GpciLocality = {
        carrier: mac.padStart(5, '0'),
        state: (row[state] ?? '').trim().toUpperCase(),
        locality: (row[locality] ?? '').trim().padStart(2, '0'),
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
  return localities.records;
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
  const rows = parseCsvRows(await readSourceText(source), file);
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
      const price = (i: number, label: string): number => {
        const parsed = parseDecimal(row[i], file, `${place} ${label}`);
        if (parsed === null || parsed < 0)
          throw new ReferenceFileError(
            file,
            `${label} at ${place}`,
            parsed === null ? 'an empty cell' : String(parsed),
          );
        return parsed;
      };
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
