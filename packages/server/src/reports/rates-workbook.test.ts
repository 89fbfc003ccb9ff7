import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SEARCH_MESSAGES, type OopRateRow } from '@ratelens/core';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONEY_FORMAT, writeRatesWorkbook, type RatesWorkbookInput } from './rates-workbook.ts';
import { sampleRateRow } from './sample-rows.ts';

async function* each<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function workbookOf(input: RatesWorkbookInput): Promise<ExcelJS.Workbook> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  await writeRatesWorkbook(out, input);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  return workbook;
}

function headerOf(sheet: ExcelJS.Worksheet): string[] {
  const values = sheet.getRow(1).values as unknown[];
  return values.slice(1).map(String);
}

const rows: OopRateRow[] = [
  sampleRateRow(),
  sampleRateRow({
    FacilityName: '=HYPERLINK("http://evil")',
    planname: 'HMO',
    rates: 90,
    rateOrigin: 'percentage-of-gross',
    rateDerivation: 'derived from 45% of billed charges',
    cashRate: null,
    lineCashRate: null,
    MemberOOP: 90,
    notes: null,
    location: null,
    npi: null,
  }),
];

const employer: RatesWorkbookInput = {
  title: 'Rates for 70551 in Anchorage, AK',
  rows: each(rows),
  assumptions: ['Coverage: single person.', 'Coinsurance 20%.'],
  includeNotes: true,
  includeMemberOop: true,
  ratesLoadedAt: new Date('2026-11-01T12:00:00Z'),
  generatedAt: new Date('2026-11-21T12:00:00Z'),
};

describe('writeRatesWorkbook', () => {
  let workbook: ExcelJS.Workbook;
  beforeAll(async () => {
    workbook = await workbookOf(employer);
  });

  it('writes the Rates sheet first and the Assumptions sheet second', () => {
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Rates', 'Assumptions']);
  });

  it('puts the visible result columns first, then the detail columns', () => {
    expect(headerOf(workbook.getWorksheet('Rates')!)).toEqual([
      'Code',
      'Code Description',
      'Metro Area',
      'Facility Name',
      'Plan Name',
      'Payer',
      'Line of Business',
      'Negotiated Rate ($)',
      'How the rate was published',
      'Cash Price ($)',
      'Your Estimated Out-of-Pocket ($)',
      'Notes',
      'Category',
      'Code Type',
      'Modifiers',
      'Billing Class',
      'Location',
      'NPI',
    ]);
  });

  it('makes the header bold and freezes it', () => {
    const sheet = workbook.getWorksheet('Rates')!;
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });

  it('writes money as numbers in a dollar format', () => {
    const line = workbook.getWorksheet('Rates')!.getRow(2);
    for (const column of [8, 10, 11]) {
      expect(typeof line.getCell(column).value).toBe('number');
      expect(line.getCell(column).numFmt).toBe(MONEY_FORMAT);
    }
    expect(line.getCell(8).value).toBe(1234.5);
    expect(line.getCell(10).value).toBe(999.99);
  });

  it("gives each rate its own line's cash price, else the hospital's lowest", async () => {
    const lines = [
      sampleRateRow({ cashRate: 112.5, lineCashRate: 1642.5 }),
      sampleRateRow({ cashRate: 112.5, lineCashRate: null }),
    ];
    const sheet = (await workbookOf({ ...employer, rows: each(lines) })).getWorksheet('Rates')!;
    expect([2, 3].map((row) => sheet.getRow(row).getCell(10).value)).toEqual([1642.5, 112.5]);
  });

  it('writes one line per rate with its text, leaving unknown values empty', () => {
    const sheet = workbook.getWorksheet('Rates')!;
    expect(sheet.rowCount).toBe(3);
    const second = sheet.getRow(3);
    expect(second.getCell(1).value).toBe('70551');
    expect(second.getCell(5).value).toBe('HMO');
    expect(second.getCell(9).value).toBe('Derived from 45% of billed charges');
    expect(second.getCell(10).value).toBeNull();
    expect(second.getCell(12).value).toBeNull();
    expect(sheet.getRow(2).getCell(9).value).toBe('The negotiated dollar amount');
    expect(sheet.getRow(2).getCell(12).value).toBe('Per case; includes professional fee');
  });

  it('keeps a formula-like hospital name as text', () => {
    const cell = workbook.getWorksheet('Rates')!.getRow(3).getCell(4);
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.value).toBe('=HYPERLINK("http://evil")');
  });

  it('lists the title, the assumptions, the data source and the Good Faith Estimate notice', () => {
    const sheet = workbook.getWorksheet('Assumptions')!;
    const lines: string[] = [];
    sheet.eachRow((row) => lines.push(row.getCell(1).text));
    expect(lines[0]).toBe('Rates for 70551 in Anchorage, AK');
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(lines).toContain('Coverage: single person.');
    expect(lines).toContain('Coinsurance 20%.');
    expect(lines).toContain(
      "Rates from the hospitals' machine-readable files, as loaded on November 1, 2026. File made on November 21, 2026.",
    );
    expect(lines).toContain('2 rates.');
    expect(lines.at(-1)).toBe(SEARCH_MESSAGES.footerNotice);
  });

  it('leaves out the notes and the out-of-pocket estimate when asked to', async () => {
    const individual = await workbookOf({
      ...employer,
      rows: each(rows),
      includeNotes: false,
      includeMemberOop: false,
    });
    const header = headerOf(individual.getWorksheet('Rates')!);
    expect(header).not.toContain('Notes');
    expect(header).not.toContain('Your Estimated Out-of-Pocket ($)');
    expect(header).toHaveLength(16);
    expect(individual.getWorksheet('Rates')!.getRow(2).getCell(11).value).toBe('Radiology');
  });

  it('destroys the output instead of ending it when the rows fail', async () => {
    async function* failing(): AsyncGenerator<OopRateRow> {
      yield sampleRateRow();
      throw new Error('the database went away');
    }
    const out = new PassThrough();
    out.resume();
    await expect(writeRatesWorkbook(out, { ...employer, rows: failing() })).rejects.toThrow(
      'the database went away',
    );
    expect(out.destroyed).toBe(true);
    expect(out.writableFinished).toBe(false);
  });

  it('stops, letting go of its rows, when its client goes while it waits', async () => {
    let released = false;
    async function* endless(): AsyncGenerator<OopRateRow> {
      try {
        for (let i = 0; ; i += 1)
          yield sampleRateRow({ planname: `Plan ${i}`, notes: `${i}`.repeat(60) });
      } finally {
        released = true;
      }
    }
    // The client reads a while, then goes: the route destroys the output. The writer is most
    // often waiting for the zip's deflate then, which stops once the output is gone.
    const out = new PassThrough();
    let received = 0;
    out.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > 256 * 1024) out.destroy();
    });
    await expect(writeRatesWorkbook(out, { ...employer, rows: endless() })).rejects.toThrow(
      'The workbook output closed before it was written.',
    );
    expect(released).toBe(true);
  });

  it('writes a valid workbook with only the header when there are no rates', async () => {
    const empty = await workbookOf({ ...employer, rows: each([]) });
    expect(empty.getWorksheet('Rates')!.rowCount).toBe(1);
    expect(empty.getWorksheet('Assumptions')!.getRow(1).getCell(1).value).toBe(employer.title);
  });
});

describe('writeRatesWorkbook with 100,000 rates', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ratelens-workbook-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // A way to collect garbage without starting the test process with --expose-gc.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const retained = () => {
    gc();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };

  it('keeps memory flat while the rows stream through', { timeout: 180_000 }, async () => {
    const total = 100_000;
    let peak = 0;
    const baseline = retained();
    async function* generated(): AsyncGenerator<OopRateRow> {
      for (let i = 1; i <= total; i += 1) {
        if (i % 10_000 === 0) peak = Math.max(peak, retained() - baseline);
        yield sampleRateRow({
          FacilityName: `Hospital ${i % 97}`,
          planname: `Plan ${i}`,
          rates: i / 100,
          MemberOOP: i / 200,
        });
      }
    }
    const file = path.join(dir, 'large.xlsx');
    const out = createWriteStream(file);
    const result = await writeRatesWorkbook(out, {
      ...employer,
      rows: generated(),
    });
    await finished(out);

    expect(result.rows).toBe(total);
    // Paced, the writer holds about 2 MB; unpaced, exceljs keeps the sheet's XML (80 MB here).
    expect(peak).toBeLessThan(40 * 1024 * 1024);
    expect((await stat(file)).size).toBeGreaterThan(1_000_000);

    // Read back as a stream: every row arrived, the last one intact.
    let lastRow: unknown[] = [];
    let count = 0;
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(createReadStream(file), {});
    for await (const sheet of reader) {
      for await (const row of sheet) {
        // Rates is the first sheet written. Its name is known to the streaming reader only once it
        // has read workbook.xml, and one clean-clone run under load counted 0 rows by name.
        if (String((sheet as unknown as { id: string | number }).id) !== '1') continue;
        count += 1;
        lastRow = row.values as unknown[];
      }
    }
    expect(count).toBe(total + 1);
    expect(lastRow[5]).toBe(`Plan ${total}`);
    expect(lastRow[8]).toBe(total / 100);
  });
});
