import type { Stream, Writable } from 'node:stream';
import { SEARCH_MESSAGES, type OopRateRow } from '@ratelens/core';
import ExcelJS from 'exceljs';
import { rateSourceText, reportDate } from './report-format.ts';

/** Excel's number format for dollars: numbers stay numbers, so the sheet can sum and sort them. */
export const MONEY_FORMAT = '"$"#,##0.00';

export interface RatesWorkbookInput {
  /** First line of the Assumptions sheet and the workbook's title property. */
  title: string;
  /** Read one at a time and written as they arrive: the whole result is never held. */
  rows: AsyncIterable<OopRateRow>;
  assumptions: string[];
  /** The employer report has the hospitals' notes; the individual one does not (§6). */
  includeNotes: boolean;
  includeMemberOop: boolean;
  /** When the rates were loaded (the newest ingest); the note says "as loaded on" that day. */
  ratesLoadedAt?: Date | null;
  /** Defaults to now. */
  generatedAt?: Date;
}

interface RateColumn {
  header: string;
  width: number;
  money?: boolean;
  value: (row: OopRateRow) => string | number | null;
}

/** The visible columns of the results, in their order on screen, then the detail columns. */
function rateColumns(input: Pick<RatesWorkbookInput, 'includeNotes' | 'includeMemberOop'>) {
  const columns: (RateColumn | false)[] = [
    { header: 'Code', width: 10, value: (r) => r.medicalcode },
    { header: 'Code Description', width: 42, value: (r) => r.CodeDescription },
    { header: 'Metro Area', width: 28, value: (r) => r.msaname },
    { header: 'Facility Name', width: 36, value: (r) => r.FacilityName },
    { header: 'Plan Name', width: 28, value: (r) => r.planname },
    { header: 'Payer', width: 24, value: (r) => r.payername },
    { header: 'Line of Business', width: 16, value: (r) => r.LOB },
    { header: 'Negotiated Rate ($)', width: 18, money: true, value: (r) => r.rates },
    { header: 'How the rate was published', width: 40, value: rateSourceText },
    // The row's own line's, as its out-of-pocket is weighed against; else the hospital's lowest.
    { header: 'Cash Price ($)', width: 15, money: true, value: (r) => r.lineCashRate ?? r.cashRate },
    input.includeMemberOop && {
      header: 'Your Estimated Out-of-Pocket ($)',
      width: 20,
      money: true,
      value: (r) => r.MemberOOP,
    },
    input.includeNotes && { header: 'Notes', width: 40, value: (r) => r.notes },
    { header: 'Category', width: 18, value: (r) => r.Category },
    { header: 'Code Type', width: 11, value: (r) => r.codetype },
    { header: 'Modifiers', width: 11, value: (r) => r.modifiers.join(', ') },
    { header: 'Billing Class', width: 14, value: (r) => r.billingClass },
    { header: 'Location', width: 24, value: (r) => r.location },
    { header: 'NPI', width: 13, value: (r) => r.npi },
  ];
  return columns.filter((c): c is RateColumn => c !== false);
}

/** Rows between checks that compression and the consumer keep up. */
const ROWS_PER_CHECK = 200;

/**
 * What exceljs 4.4's WorksheetWriter keeps on `stream`: the sheet's XML buffer, with the zip
 * entry's input (archiver's PassThrough) it writes into without looking at write()'s answer.
 */
interface SheetXmlStream {
  pipes?: NodeJS.WritableStream[];
}

/** Node's flag, or the state behind it on the readable-stream 2 PassThrough archiver pipes into. */
function needsDrain(stream: NodeJS.WritableStream): boolean {
  const writable = stream as Partial<Writable> & { _writableState?: { needDrain?: boolean } };
  return (writable.writableNeedDrain ?? writable._writableState?.needDrain) === true;
}

const OUTPUT_CLOSED = 'The workbook output closed before it was written.';

/**
 * Waits for `stream` to drain, or fails once it or `out` closes or errs. `stream` may be inside
 * exceljs's zip: `out` gone (its client left), the zip stops reading it and it never drains.
 */
function drain(stream: NodeJS.WritableStream, out: NodeJS.WritableStream): Promise<void> {
  if ((out as Partial<Writable>).destroyed) return Promise.reject(new Error(OUTPUT_CLOSED));
  const watched = stream === out ? [stream] : [stream, out];
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      stream.off('drain', onDrain);
      for (const each of watched) {
        each.off('error', onError);
        each.off('close', onClose);
      }
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(new Error(OUTPUT_CLOSED));
    stream.on('drain', onDrain);
    for (const each of watched) {
      each.on('error', onError);
      each.on('close', onClose);
    }
  });
}

/** Fails once `out` is closed or errs before it has finished; never settles otherwise. */
function untilGone(out: NodeJS.WritableStream): Promise<never> {
  const writable = out as Partial<Writable>;
  return new Promise<never>((_resolve, reject) => {
    if (writable.destroyed && !writable.writableFinished) reject(new Error(OUTPUT_CLOSED));
    out.once('error', reject);
    out.once('close', () => {
      if (!writable.writableFinished) reject(new Error(OUTPUT_CLOSED));
    });
  });
}

/**
 * exceljs writes committed rows into its zip without backpressure: a loop faster than deflate or
 * than the reader of `out` would pile the sheet up in memory. So the writer waits while the
 * entry's deflate input or `out` is over its high-water mark. The memory test guards this.
 */
async function keepUp(sheet: ExcelJS.Worksheet, out: NodeJS.WritableStream): Promise<void> {
  const xml = (sheet as unknown as { stream?: SheetXmlStream }).stream;
  for (;;) {
    const behind = [...(xml?.pipes ?? []), out].find(needsDrain);
    if (!behind) return;
    await drain(behind, out);
  }
}

/**
 * Writes the rates of a search as an .xlsx into `out` (exceljs's streaming writer; shared strings
 * off so nothing accumulates per row), then ends `out`; if the rows fail, `out` is destroyed with
 * the error instead. Sheet 'Rates': one line per rate, money as
 * numbers in dollars, a bold frozen header. Sheet 'Assumptions': the title, the assumptions of the
 * estimate, where the rates come from and the Good Faith Estimate notice. Text cells are written as
 * strings, never formulas, so a hospital's '=…' description cannot run in Excel.
 */
export async function writeRatesWorkbook(
  out: NodeJS.WritableStream,
  input: RatesWorkbookInput,
): Promise<{ rows: number }> {
  const generatedAt = input.generatedAt ?? new Date();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    // exceljs pipes its zip into any writable; its types ask for the Stream class.
    stream: out as unknown as Stream,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'RateLens';
  workbook.title = input.title;
  workbook.created = generatedAt;

  const columns = rateColumns(input);
  const rates = workbook.addWorksheet('Rates', { views: [{ state: 'frozen', ySplit: 1 }] });
  rates.columns = columns.map((column) => ({
    header: column.header,
    width: column.width,
    ...(column.money ? { style: { numFmt: MONEY_FORMAT } } : {}),
  }));
  const header = rates.getRow(1);
  header.font = { bold: true };
  header.commit();

  let count = 0;
  try {
    for await (const row of input.rows) {
      // Gone (its client left): stop reading rows, letting go of what they are read through.
      if ((out as Partial<Writable>).destroyed) throw new Error(OUTPUT_CLOSED);
      rates.addRow(columns.map((column) => column.value(row))).commit();
      count += 1;
      if (count % ROWS_PER_CHECK === 0) await keepUp(rates, out);
    }
  } catch (error) {
    // A half-written workbook must not end like a whole one: the reader of `out` sees the error.
    (out as Partial<Writable>).destroy?.(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  rates.commit();

  const notes = workbook.addWorksheet('Assumptions');
  notes.columns = [{ width: 110 }];
  const title = notes.addRow([input.title]);
  title.font = { bold: true, size: 14 };
  title.commit();
  notes.addRow([]).commit();
  if (input.assumptions.length > 0) {
    const heading = notes.addRow(['Assumptions']);
    heading.font = { bold: true };
    heading.commit();
    for (const line of input.assumptions) notes.addRow([line]).commit();
    notes.addRow([]).commit();
  }
  notes.addRow([dataSourceNote(input.ratesLoadedAt ?? null, generatedAt)]).commit();
  notes.addRow([`${count.toLocaleString('en-US')} rates.`]).commit();
  const notice = notes.addRow([SEARCH_MESSAGES.footerNotice]);
  notice.font = { bold: true };
  notice.commit();
  notes.commit();

  // Its zip never finishes into an output that is gone: that is a failure, not a wait for ever.
  await Promise.race([workbook.commit(), untilGone(out)]);
  return { rows: count };
}

export function dataSourceNote(ratesLoadedAt: Date | null, generatedAt: Date): string {
  return ratesLoadedAt
    ? `Rates from the hospitals' machine-readable files, as loaded on ${reportDate(ratesLoadedAt)}. File made on ${reportDate(generatedAt)}.`
    : `Rates from the hospitals' machine-readable files, as loaded in RateLens on ${reportDate(generatedAt)}, when this file was made.`;
}
