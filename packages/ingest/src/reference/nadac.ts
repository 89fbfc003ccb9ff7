import { ReferenceFileError } from './errors.ts';
import {
  calendarDate,
  csvRecordStream,
  KeyedRecords,
  normaliseHeader,
  parseDecimal,
  referenceTextChunks,
  RowProblems,
  sourceChunks,
  sourceName,
  type ReferenceSource,
} from './source.ts';

/** One row of the NADAC (National Average Drug Acquisition Cost) weekly file. */
export interface NadacPrice {
  /** 11-digit NDC, leading zeros kept. */
  ndc: string;
  ndcDescription: string;
  nadacPerUnit: number;
  /** ISO date. */
  effectiveDate: string;
  /** EA, ML or GM. */
  pricingUnit: string;
  /** C/I (chain and independent) or others as published. */
  pharmacyTypeIndicator: string;
  otc: boolean;
  /** "1, 5" → ["1", "5"]. */
  explanationCodes: string[];
  /** B (brand) or G (generic). */
  classificationForRateSetting: string;
  correspondingGenericDrugNadacPerUnit: number | null;
  correspondingGenericDrugEffectiveDate: string | null;
  asOfDate: string;
}

/**
 * data.medicaid.gov publishes the columns as "NDC Description", "NDC", "NADAC_Per_Unit",
 * "Effective_Date", … (the API uses snake_case): headers are matched case-, space- and
 * underscore-insensitively, in any order.
 */
const NADAC_COLUMNS = [
  'ndc',
  'ndc_description',
  'nadac_per_unit',
  'effective_date',
  'pricing_unit',
  'pharmacy_type_indicator',
  'otc',
  'explanation_code',
  'classification_for_rate_setting',
  'corresponding_generic_drug_nadac_per_unit',
  'corresponding_generic_drug_effective_date',
  'as_of_date',
] as const;

type NadacColumn = (typeof NADAC_COLUMNS)[number];

/**
 * "MM/DD/YYYY" (the download) or ISO "YYYY-MM-DD", with or without the API's time
 * ("2025-09-17T00:00:00.000"), → "YYYY-MM-DD"; null when empty. Anything else, or a date the
 * calendar does not have ("13/45/2025"), is refused naming the column and the line: PostgreSQL
 * would refuse it later without saying where it was.
 */
function isoDate(value: string, file: string, column: string, where: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const iso =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(
      text,
    );
  const [year, month, day] = us
    ? [us[3], us[1], us[2]]
    : iso
      ? [iso[1], iso[2], iso[3]]
      : [undefined, undefined, undefined];
  const date = year && month && day ? calendarDate(year, month, day) : null;
  if (date) return date;
  throw new ReferenceFileError(
    file,
    `a date (MM/DD/YYYY or YYYY-MM-DD) in ${column} at ${where}`,
    text,
  );
}

/**
 * The 11-digit (5-4-2) NDC of a cell, or null. NADAC writes every NDC as 11 digits without
 * hyphens, so fewer digits alone (7 to 10) are leading zeros a spreadsheet dropped, put back
 * (the smallest labeler code is 00002: an NDC has 7 digits or more once its zeros are gone). A
 * 10-digit NDC written with its hyphens (4-4-2, 5-3-2 or 5-4-1, and 5-4-2 already padded) gets the
 * zero its short segment lacks. Anything else is not guessed at: a spreadsheet's "7.10151E+10"
 * has lost digits.
 */
export function elevenDigitNdc(value: string): string | null {
  const text = value.trim();
  if (/^\d{7,11}$/.test(text)) return text.padStart(11, '0');
  const parts = /^(\d{4,5})-(\d{3,4})-(\d{1,2})$/.exec(text);
  if (!parts) return null;
  const [, labeler = '', product = '', pack = ''] = parts;
  const shape = `${labeler.length}-${product.length}-${pack.length}`;
  if (!['4-4-2', '5-3-2', '5-4-1', '5-4-2'].includes(shape)) return null;
  return `${labeler.padStart(5, '0')}${product.padStart(4, '0')}${pack.padStart(2, '0')}`;
}

/** What an NDC cell that is not one holds, with what a spreadsheet may have done to it. */
function ndcProblem(value: string): string {
  if (value === '') return 'an empty cell';
  if (/^\d{1,6}$/.test(value)) return `${value} (too few digits for an NDC)`;
  if (/^\d(?:\.\d+)?E\+?\d+$/i.test(value))
    return `${value} (a spreadsheet wrote it as a number and lost digits: keep the column as text)`;
  return value;
}

/** What the key of a NADAC price is, in words, for an error naming two rows that differ. */
export const NADAC_KEY_LABEL = 'NDC, effective date and as-of date';

/** The key a NADAC file has one price for: "00378212177 effective 2025-09-17 as of 2025-09-24". */
export function nadacKey(price: Pick<NadacPrice, 'ndc' | 'effectiveDate' | 'asOfDate'>): string {
  return `${price.ndc} effective ${price.effectiveDate} as of ${price.asOfDate}`;
}

/** A row of a NADAC file read: its price, or null for a blank row. Throws a ReferenceFileError. */
function readPrice(
  row: readonly string[],
  index: Readonly<Record<NadacColumn, number>>,
  file: string,
  where: string,
): NadacPrice | null {
  if (row.every((cell) => cell.trim() === '')) return null;
  const cell = (name: NadacColumn): string => {
    const value = (row[index[name]] ?? '').trim();
    // The database's text holds no NUL: refused here, naming the line, not by the COPY.
    if (value.includes('\0'))
      throw new ReferenceFileError(file, `${name} at ${where} without a NUL character`, 'one');
    return value;
  };
  const required = <T>(value: T | null, name: NadacColumn): T => {
    if (value === null) throw new ReferenceFileError(file, `${name} at ${where}`, 'an empty cell');
    return value;
  };
  const ndc = elevenDigitNdc(cell('ndc'));
  if (!ndc) {
    throw new ReferenceFileError(
      file,
      `an NDC of 11 digits, or of 10 with hyphens (4-4-2, 5-3-2, 5-4-1), at ${where}`,
      ndcProblem(cell('ndc')),
    );
  }
  const date = (name: NadacColumn) => isoDate(cell(name), file, name, where);
  return {
    ndc,
    ndcDescription: cell('ndc_description'),
    nadacPerUnit: required(parseDecimal(cell('nadac_per_unit'), file, where), 'nadac_per_unit'),
    effectiveDate: required(date('effective_date'), 'effective_date'),
    pricingUnit: cell('pricing_unit').toUpperCase(),
    pharmacyTypeIndicator: cell('pharmacy_type_indicator').toUpperCase(),
    otc: cell('otc').toUpperCase() === 'Y',
    explanationCodes: cell('explanation_code')
      .split(/[,\s]+/)
      .filter(Boolean),
    classificationForRateSetting: cell('classification_for_rate_setting').toUpperCase(),
    correspondingGenericDrugNadacPerUnit: parseDecimal(
      cell('corresponding_generic_drug_nadac_per_unit'),
      file,
      where,
    ),
    correspondingGenericDrugEffectiveDate: date('corresponding_generic_drug_effective_date'),
    asOfDate: required(date('as_of_date'), 'as_of_date'),
  };
}

/**
 * What `NadacFile.read` hands each price it reads: the price and its line. A ReferenceFileError it
 * throws refuses that row as a bad cell would; a promise it returns is waited for (a COPY's
 * backpressure) before the next row is read.
 */
export type NadacPriceHandler = (price: NadacPrice, line: number) => Promise<void> | undefined;

/** A NADAC file opened (`openNadac`): its header read and checked, its rows not yet read. */
/** How far a NADAC file's read is: bytes read of its size (null: a URL's), and rows read. */
export type NadacProgress = (bytes: number, total: number | null, rows: number) => void;

export interface NadacFile {
  /** The name errors give it: the file name of a path, the whole URL. */
  readonly file: string;
  /**
   * Reads every row, one at a time, handing each good price to `onPrice`. A row that is not good
   * (a bad cell, or one `onPrice` refuses) is kept in the `problems` returned, and the rows after
   * it are read too; `prices` counts the good ones. A file that cannot be read on (a quote never
   * closed, a download broken off) throws its ReferenceFileError. Reads once.
   */
  read(onPrice: NadacPriceHandler): Promise<{ prices: number; problems: RowProblems }>;
  /** Lets the file go unread (a caller that does not read it). */
  close(): Promise<void>;
}

/**
 * Opens a NADAC file, a path or a URL, and reads its header, refusing a file that is not text or
 * lacks a column; its rows are read as `read` asks for them, so a file of any size is read in
 * little memory. Its encodings, delimiters and line ends are those of the other reference files
 * (`referenceTextChunks`, `csvRecordStream`).
 */
export async function openNadac(
  source: ReferenceSource,
  options: { progress?: NadacProgress } = {},
): Promise<NadacFile> {
  const file = sourceName(source);
  const { progress } = options;
  let bytes = 0;
  let total: number | null = null;
  const chunks = sourceChunks(source, undefined, undefined, (read, size) => {
    bytes = read;
    total = size;
  });
  const records = csvRecordStream(referenceTextChunks(chunks, file), file);
  let index: Record<NadacColumn, number>;
  try {
    const first = await records.next();
    const names = (first.done ? [] : first.value).map(normaliseHeader);
    index = {} as Record<NadacColumn, number>;
    for (const name of NADAC_COLUMNS) {
      const at = names.indexOf(name);
      if (at < 0)
        throw new ReferenceFileError(
          file,
          `a NADAC column "${name}"`,
          `columns ${names.join(', ')}`,
        );
      index[name] = at;
    }
  } catch (error) {
    await records.return(undefined);
    throw error;
  }
  let read = false;
  return {
    file,
    async read(onPrice) {
      if (read) throw new Error(`${file} was read already`);
      read = true;
      const problems = new RowProblems();
      let prices = 0;
      // The header is line 1; a row's line is its record's (a blank line is a record too).
      let line = 1;
      for await (const row of records) {
        line += 1;
        progress?.(bytes, total, line - 1);
        const where = `line ${line}`;
        let wait: Promise<void> | undefined;
        problems.row(
          where,
          () => {
            const price = readPrice(row, index, file, where);
            if (!price) return;
            wait = onPrice(price, line);
            prices += 1;
          },
          line,
        );
        if (wait) await wait;
      }
      progress?.(bytes, total, line - 1);
      return { prices, problems };
    },
    async close() {
      await records.return(undefined);
    },
  };
}

/**
 * NADAC weekly file as downloaded from data.medicaid.gov (CSV), from a path or URL, as an array
 * (for files that fit in memory: `npm run reference -- nadac` streams them, `loadNadacFile`).
 * One price per NDC, effective date and as-of date: a row repeated whole is dropped, two that
 * differ are refused naming both lines (the database would keep one at random).
 */
export async function parseNadac(source: ReferenceSource): Promise<NadacPrice[]> {
  const nadac = await openNadac(source);
  const prices = new KeyedRecords<NadacPrice>(nadac.file, NADAC_KEY_LABEL);
  const { problems } = await nadac.read((price, line) => {
    prices.add(nadacKey(price), price, `line ${line}`);
    return undefined;
  });
  problems.check(prices.records.length);
  refuseNoPrices(nadac.file, prices.records.length);
  return prices.records;
}

/** Refuses a NADAC file without a price row below its header. */
export function refuseNoPrices(file: string, prices: number): void {
  if (prices === 0) throw new ReferenceFileError(file, 'price rows below the header', 'none');
}
