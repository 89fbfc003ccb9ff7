import { describe, expect, it } from 'vitest';
import { writeTestFile } from '../testing/test-file.ts';
import { openNadac, parseNadac } from './nadac.ts';

const csvFile = (name: string, content: string) => writeTestFile(`${name}.csv`, content);

// The column names and order of the data.medicaid.gov download.
const PUBLISHED_HEADER =
  'NDC Description,NDC,NADAC_Per_Unit,Effective_Date,Pricing_Unit,Pharmacy_Type_Indicator,OTC,Explanation_Code,Classification_for_Rate_Setting,Corresponding_Generic_Drug_NADAC_Per_Unit,Corresponding_Generic_Drug_Effective_Date,As of Date';

describe('parseNadac', () => {
  it('reads the published header names and US dates', async () => {
    const path = await csvFile(
      'nadac',
      `${PUBLISHED_HEADER}\n` +
        'ATORVASTATIN 40 MG TABLET,00378212177,0.03123,09/17/2025,EA,C/I,N,"1, 5",G,,,09/24/2025\n' +
        'LIPITOR 40 MG TABLET,71015082390,12.53441,01/01/2025,EA,C/I,N,4,B,0.03123,09/17/2025,09/24/2025\n',
    );
    expect(await parseNadac(path)).toEqual([
      {
        ndc: '00378212177',
        ndcDescription: 'ATORVASTATIN 40 MG TABLET',
        nadacPerUnit: 0.03123,
        effectiveDate: '2025-09-17',
        pricingUnit: 'EA',
        pharmacyTypeIndicator: 'C/I',
        otc: false,
        explanationCodes: ['1', '5'],
        classificationForRateSetting: 'G',
        correspondingGenericDrugNadacPerUnit: null,
        correspondingGenericDrugEffectiveDate: null,
        asOfDate: '2025-09-24',
      },
      {
        ndc: '71015082390',
        ndcDescription: 'LIPITOR 40 MG TABLET',
        nadacPerUnit: 12.53441,
        effectiveDate: '2025-01-01',
        pricingUnit: 'EA',
        pharmacyTypeIndicator: 'C/I',
        otc: false,
        explanationCodes: ['4'],
        classificationForRateSetting: 'B',
        correspondingGenericDrugNadacPerUnit: 0.03123,
        correspondingGenericDrugEffectiveDate: '2025-09-17',
        asOfDate: '2025-09-24',
      },
    ]);
  });

  it('accepts snake_case headers in another order, ISO dates and an NDC that lost its zeros', async () => {
    const path = await csvFile(
      'nadac-api',
      'ndc,ndc_description,nadac_per_unit,effective_date,pricing_unit,pharmacy_type_indicator,otc,explanation_code,classification_for_rate_setting,corresponding_generic_drug_nadac_per_unit,corresponding_generic_drug_effective_date,as_of_date\n' +
        '378212177,ATORVASTATIN 40 MG TABLET,0.03123,2025-09-17T00:00:00.000,ea,c/i,Y,1,G,,,2025-09-24T00:00:00.000\n',
    );
    const [price] = await parseNadac(path);
    expect(price).toMatchObject({
      ndc: '00378212177',
      effectiveDate: '2025-09-17',
      otc: true,
      pricingUnit: 'EA',
    });
  });

  /** A file of the published layout whose rows differ in their NDC (and description) only. */
  const ndcFile = (ndcs: readonly string[]) =>
    csvFile(
      'nadac-ndc',
      `${PUBLISHED_HEADER}\n${ndcs
        .map((ndc, i) => `DRUG ${i},"${ndc}",0.5,09/17/2025,EA,C/I,N,,G,,,09/24/2025`)
        .join('\n')}\n`,
    );

  it('pads each segment of a hyphenated 10-digit NDC to 5-4-2', async () => {
    const path = await ndcFile(['0378-2121-77', '12345-678-90', '12345-6789-0', '00378-2121-78']);
    expect((await parseNadac(path)).map((price) => price.ndc)).toEqual([
      '00378212177',
      '12345067890',
      '12345678900',
      '00378212178',
    ]);
  });

  it('refuses an NDC that is not 11 digits or a hyphenated 10-digit code, naming the line', async () => {
    const scientific = await ndcFile(['00378212177', '7.10151E+10']);
    await expect(parseNadac(scientific)).rejects.toThrow(
      'nadac-ndc.csv: expected an NDC of 11 digits, or of 10 with hyphens (4-4-2, 5-3-2, 5-4-1), at line 3; found 7.10151E+10 (a spreadsheet wrote it as a number and lost digits: keep the column as text)',
    );
    const words = await ndcFile(['N/A 12']);
    await expect(parseNadac(words)).rejects.toThrow(/at line 2; found N\/A 12$/);
    const short = await ndcFile(['212177']);
    await expect(parseNadac(short)).rejects.toThrow(
      /at line 2; found 212177 \(too few digits for an NDC\)$/,
    );
    const shapes = await ndcFile(['123-4567-89', '12345-67-890', '1234-5678-9', '003782121770']);
    await expect(parseNadac(shapes)).rejects.toThrow(
      /at line 2; found 123-4567-89; nor could any of the 3 rows after it be read$/,
    );
  });

  it('refuses a date the calendar does not have, or a date with more after it, naming the column and line', async () => {
    const row = (effective: string, asOf: string) =>
      `X,00378212177,0.5,${effective},EA,C/I,N,,G,,,${asOf}`;
    const month = await csvFile(
      'nadac-date',
      `${PUBLISHED_HEADER}\n${row('13/45/2025', '09/24/2025')}\n`,
    );
    await expect(parseNadac(month)).rejects.toThrow(
      'nadac-date.csv: expected a date (MM/DD/YYYY or YYYY-MM-DD) in effective_date at line 2; found 13/45/2025',
    );
    const junk = await csvFile(
      'nadac-date',
      `${PUBLISHED_HEADER}\n${row('09/17/2025', '2025-09-17junk')}\n`,
    );
    await expect(parseNadac(junk)).rejects.toThrow(
      /expected a date \(MM\/DD\/YYYY or YYYY-MM-DD\) in as_of_date at line 2; found 2025-09-17junk$/,
    );
    const february = await csvFile(
      'nadac-date',
      `${PUBLISHED_HEADER}\n${row('02/29/2024', '2025-02-29')}\n`,
    );
    await expect(parseNadac(february)).rejects.toThrow(
      /in as_of_date at line 2; found 2025-02-29$/,
    );
    // 29 February of a leap year is a date.
    const leap = await csvFile(
      'nadac-date',
      `${PUBLISHED_HEADER}\n${row('02/29/2024', '2024-02-29')}\n`,
    );
    expect(await parseNadac(leap)).toMatchObject([
      { effectiveDate: '2024-02-29', asOfDate: '2024-02-29' },
    ]);
  });

  it('drops a row repeated whole and refuses two prices for one NDC, effective date and as-of date', async () => {
    const line = (price: string) => `X,00378212177,${price},09/17/2025,EA,C/I,N,,G,,,09/24/2025`;
    const twice = await csvFile(
      'nadac-twice',
      `${PUBLISHED_HEADER}\n${line('0.5')}\n${line('0.5')}\n`,
    );
    expect(await parseNadac(twice)).toHaveLength(1);
    const differ = await csvFile(
      'nadac-differ',
      `${PUBLISHED_HEADER}\n${line('0.5')}\n${line('0.7')}\n`,
    );
    await expect(parseNadac(differ)).rejects.toThrow(
      'nadac-differ.csv: expected one record for each NDC, effective date and as-of date; found two that differ for 00378212177 effective 2025-09-17 as of 2025-09-24, at line 2 and line 3',
    );
  });

  it('refuses a cell holding a NUL character, naming its column and line', async () => {
    const rows = Array.from(
      { length: 200 },
      (_, i) =>
        `DRUG ${i === 150 ? 'A\u0000B' : i},${String(i).padStart(11, '0')},0.5,09/17/2025,EA,C/I,N,,G,,,09/24/2025`,
    );
    const path = await csvFile('nadac-nul', `${PUBLISHED_HEADER}\n${rows.join('\n')}\n`);
    await expect(parseNadac(path)).rejects.toThrow(
      'nadac-nul.csv: expected ndc_description at line 152 without a NUL character; found one',
    );
  });

  it('names the missing column of a wrong file', async () => {
    const path = await csvFile('not-nadac', 'code,kind,long,short\nA1,modifier,x,x\n');
    await expect(parseNadac(path)).rejects.toThrow(/not-nadac\.csv: expected a NADAC column "ndc"/);
  });

  it('names the line of a bad price', async () => {
    const path = await csvFile(
      'nadac-bad',
      `${PUBLISHED_HEADER}\nX,00378212177,abc,09/17/2025,EA,C/I,N,,G,,,09/24/2025\n`,
    );
    await expect(parseNadac(path)).rejects.toThrow(/expected a number at line 2; found abc/);
  });

  it('refuses a file with its header only, rather than loading no price', async () => {
    const path = await csvFile('nadac-header', `${PUBLISHED_HEADER}\n`);
    await expect(parseNadac(path)).rejects.toThrow(
      /expected price rows below the header; found none$/,
    );
  });

  it("reads a file of many chunks as one read whole: Excel's UTF-16 with tabs, the line of a late bad row", async () => {
    // 3,000 rows: more than one chunk of the stream, in UTF-16 ("Unicode Text") with CRLF.
    const rows = Array.from(
      { length: 3000 },
      (_, i) =>
        `CAF\u00c9 ${i}\t${String(378212177 + i).padStart(11, '0')}\t0.5\t09/17/2025\tEA\tC/I\tN\t\tG\t\t\t09/24/2025`,
    );
    rows[2500] = rows[2500]?.replace('\t0.5\t', '\t0,5x\t') ?? '';
    const text = `${PUBLISHED_HEADER.replace(/,/g, '\t')}\r\n${rows.join('\r\n')}\r\n`;
    const path = await writeTestFile(
      'nadac.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    );
    await expect(parseNadac(path)).rejects.toThrow(
      'nadac.txt: expected a number at line 2502; found 0,5x',
    );
    rows[2500] = rows[2500]?.replace('\t0,5x\t', '\t0.5\t') ?? '';
    const fixed = await writeTestFile(
      'nadac.txt',
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(
          `${PUBLISHED_HEADER.replace(/,/g, '\t')}\r\n${rows.join('\r\n')}\r\n`,
          'utf16le',
        ),
      ]),
    );
    const prices = await parseNadac(fixed);
    expect(prices).toHaveLength(3000);
    expect(prices[2999]).toMatchObject({ ndc: '00378215176', ndcDescription: 'CAF\u00c9 2999' });
  });

  it('opens a file by its header: a wrong file is refused before a row is read', async () => {
    const wrong = await csvFile('not-nadac', 'code,kind,long,short\nA1,modifier,x,x\n');
    await expect(openNadac(wrong)).rejects.toThrow(
      /^not-nadac\.csv: expected a NADAC column "ndc"; found columns code, kind, long, short$/,
    );
    const zip = await writeTestFile(
      'nadac.zip',
      Buffer.concat([Buffer.from('PK\x03\x04\x14\x00\x00\x00', 'latin1'), Buffer.alloc(64)]),
    );
    await expect(openNadac(zip)).rejects.toThrow(
      'nadac.zip: expected a text file; found a zip archive (an xlsx workbook is one)',
    );
    const good = await csvFile(
      'nadac',
      `${PUBLISHED_HEADER}\nX,00378212177,0.5,09/17/2025,EA,C/I,N,,G,,,09/24/2025\n\nY,00378212178,abc,09/17/2025,EA,C/I,N,,G,,,09/24/2025\n`,
    );
    const nadac = await openNadac(good);
    const lines: number[] = [];
    const { prices, problems } = await nadac.read((_, line) => {
      lines.push(line);
      return undefined;
    });
    // The blank line 3 is no price; line 4's price is refused, and kept for the message.
    expect([prices, lines, problems.refused]).toEqual([1, [2], 1]);
    expect(() => problems.check(prices)).toThrow(/expected a number at line 4; found abc$/);
  });

  it('refuses a quote never closed in one line naming the file', async () => {
    const path = await csvFile(
      'nadac-quote',
      `${PUBLISHED_HEADER}\n"ATORVASTATIN,00378212177,0.5,09/17/2025,EA,C/I,N,,G,,,09/24/2025\n`,
    );
    await expect(parseNadac(path)).rejects.toThrow(
      'nadac-quote.csv: expected a CSV file; found Quote Not Closed: the parsing is finished with an opening quote at line 2',
    );
  });
});
