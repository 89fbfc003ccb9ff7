import { describe, expect, it } from 'vitest';
import { parseHcpcsLevel2 } from './hcpcs.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { writeTestFile } from '../testing/test-file.ts';
import { zipArchive } from '../testing/zip-archive.ts';

const HCPCS = 'hcpcs-level2/hcpcs_level2_2025oct_codes.csv';

describe('parseHcpcsLevel2', () => {
  itWithDataFile('reads the 8,846 codes and modifiers of October 2025', HCPCS, async (path) => {
    const codes = await parseHcpcsLevel2(path);
    expect(codes).toHaveLength(8846);
    expect(new Set(codes.map((code) => code.kind))).toEqual(new Set(['procedure', 'modifier']));
  });

  itWithDataFile('maps the columns to long and short descriptions', HCPCS, async (path) => {
    const codes = await parseHcpcsLevel2(path);
    expect(codes.find((code) => code.code === 'A1')).toEqual({
      code: 'A1',
      kind: 'modifier',
      longDescription: 'Dressing for one wound',
      shortDescription: 'Dressing for one wound',
    });
    const j1100 = codes.find((code) => code.code === 'J1100');
    expect(j1100?.kind).toBe('procedure');
    expect(j1100?.longDescription).toMatch(/dexamethasone/i);
  });

  itWithDataFile(
    'refuses another CSV',
    'census-cbsa/list1_2023_county_to_cbsa.csv',
    async (path) => {
      await expect(parseHcpcsLevel2(path)).rejects.toThrow(
        /list1_2023_county_to_cbsa\.csv: expected the header code,kind,long,short; found cbsa_code,/,
      );
    },
  );

  it('refuses an unknown kind, naming the line', async () => {
    const path = await writeTestFile(
      'hcpcs.csv',
      'code,kind,long,short\nA0001,procedure,x,x\nA0002,drug,y,y\n',
    );
    await expect(parseHcpcsLevel2(path)).rejects.toThrow(
      /expected kind procedure or modifier at line 3; found drug/,
    );
  });

  const hcpcsFile = (content: string) => writeTestFile('hcpcs.csv', content);

  it('refuses a file with its header only, rather than loading no code', async () => {
    const path = await hcpcsFile('code,kind,long,short\n');
    await expect(parseHcpcsLevel2(path)).rejects.toThrow(
      /expected code rows below the header; found none$/,
    );
  });

  it('refuses a row whose code is not a code, rather than storing it or leaving it out', async () => {
    const bad = await hcpcsFile('code,kind,long,short\nA0001,procedure,x,x\nA00!,procedure,y,y\n');
    await expect(parseHcpcsLevel2(bad)).rejects.toThrow(
      /expected a Level II code \(a letter and four digits\) at line 3; found A00!$/,
    );
    const none = await hcpcsFile('code,kind,long,short\nA0001,procedure,x,x\n,procedure,y,y\n\n');
    await expect(parseHcpcsLevel2(none)).rejects.toThrow(
      /expected a Level II code \(a letter and four digits\) at line 3; found an empty cell$/,
    );
  });

  it('drops a row repeated whole and refuses a code given two descriptions', async () => {
    const twice = await hcpcsFile(
      'code,kind,long,short\nA0001,procedure,x,x\nA0002,procedure,y,y\nA0001,procedure,x,x\n',
    );
    expect((await parseHcpcsLevel2(twice)).map((c) => c.code)).toEqual(['A0001', 'A0002']);
    const differ = await hcpcsFile(
      'code,kind,long,short\nA0001,procedure,x,x\nA0001,procedure,z,z\n',
    );
    await expect(parseHcpcsLevel2(differ)).rejects.toThrow(
      /expected one record for each code; found two that differ for A0001, at line 2 and line 3$/,
    );
  });

  it('shows a wrong header as written', async () => {
    const page = await hcpcsFile('<!doctype html><html><body>Sign in</body></html>\n');
    await expect(parseHcpcsLevel2(page)).rejects.toThrow(
      /expected the header code,kind,long,short; found <!doctype html><html><body>Sign in<\/body><\/html>$/,
    );
  });

  it('reads a file separated by semicolons', async () => {
    const path = await hcpcsFile('code;kind;long;short\nA0001;procedure;"Taxi, wheelchair";x\n');
    expect(await parseHcpcsLevel2(path)).toEqual([
      {
        code: 'A0001',
        kind: 'procedure',
        longDescription: 'Taxi, wheelchair',
        shortDescription: 'x',
      },
    ]);
  });

  it('reads every row before refusing a file, and says how many rows it refused and where', async () => {
    const rows = ['A0001,procedure,x,x', 'A0002,procedur,y,y', 'A0003,procedure,z,z'];
    rows.push(',modifier,w,w', 'A0005,,v,v', 'X1,procedure,u,u', 'A0007,drug,t,t');
    rows.push('A0008,drug,s,s', 'A0009,drug,r,r', 'A0010,procedure,q,q');
    const path = await hcpcsFile(`code,kind,long,short\n${rows.join('\n')}\n`);
    await expect(parseHcpcsLevel2(path)).rejects.toThrow(
      /: expected kind procedure or modifier at line 3; found procedur; and 6 more refused \(line 5, line 6, line 7, line 8, line 9, …\)$/,
    );
  });

  it('says when no row at all could be read', async () => {
    const path = await hcpcsFile('code,kind,long,short\nA0001,drug,x,x\nA0002,drug,y,y\n');
    await expect(parseHcpcsLevel2(path)).rejects.toThrow(
      /at line 2; found drug; nor could the row after it be read$/,
    );
  });

  it('reads a file whose line ends are mixed, one row to a line', async () => {
    // A CRLF file with a line added by an editor that ends lines LF.
    const path = await hcpcsFile(
      'code,kind,long,short\r\nA0001,procedure,x,x\nA0002,procedure,y,y\r\nA0003,procedure,z,z\r\n',
    );
    expect((await parseHcpcsLevel2(path)).map((c) => c.code)).toEqual(['A0001', 'A0002', 'A0003']);
  });

  it("refuses a CPT code (five digits, or four and a letter), whose descriptions are the AMA's", async () => {
    const path = await hcpcsFile(
      'code,kind,long,short\nA0428,procedure,x,x\n99213,procedure,Office visit,Office visit\n0001U,procedure,y,y\n',
    );
    await expect(parseHcpcsLevel2(path)).rejects.toThrow(
      /expected a Level II code \(a letter and four digits\) at line 3; found 99213; and 1 more refused \(line 4\)$/,
    );
  });

  it('leaves out a code of the project CSV whose termination date has passed', async () => {
    const path = await hcpcsFile(
      'code,kind,long,short,term_dt\nA0001,procedure,x,x,\nA0002,procedure,y,y,20241231\nA0003,procedure,z,z,20251231\n',
    );
    const codes = (asOf: string) =>
      parseHcpcsLevel2(path, { asOf }).then((list) => list.map((c) => c.code));
    expect(await codes('2025-10-01')).toEqual(['A0001', 'A0003']);
    // Its last day is still current.
    expect(await codes('2025-12-31')).toEqual(['A0001', 'A0003']);
    expect(await codes('2026-01-01')).toEqual(['A0001']);
    await expect(parseHcpcsLevel2(path, { asOf: '2025-13-01' })).rejects.toThrow(
      'asOf must be a date written YYYY-MM-DD; it is 2025-13-01',
    );
  });
});

/** CMS's "Alpha-Numeric HCPCS File" columns (HCPC2025_OCT_ANWEB.xlsx), all 48 of them. */
const CMS_HEADER = [
  'HCPC',
  'SEQNUM',
  'RECID',
  'LONG DESCRIPTION',
  'SHORT DESCRIPTION',
  ...['PRICE1', 'PRICE2', 'PRICE3', 'PRICE4', 'MULT_PI', 'CIM1', 'CIM2', 'CIM3'],
  ...['MCM1', 'MCM2', 'MCM3', 'STATUTE', 'LABCERT1', 'LABCERT2', 'LABCERT3', 'LABCERT4'],
  ...['LABCERT5', 'LABCERT6', 'LABCERT7', 'LABCERT8', 'XREF1', 'XREF2', 'XREF3', 'XREF4'],
  ...['XREF5', 'COV', 'ASC_GRP', 'ASC_DT', 'OPPS', 'OPPS_PI', 'OPPS_DT', 'PROCNOTE', 'BETOS'],
  ...['TOS1', 'TOS2', 'TOS3', 'TOS4', 'TOS5', 'ANEST_BU', 'ADD DT', 'ACT EFF DT', 'TERM DT'],
  'ACTION CD',
];

/** A record of CMS's layout: the columns read, the others blank but for a price code. */
function cmsRecord(
  code: string,
  sequence: string,
  recordId: string,
  long: string,
  short = '',
  termDate = '',
): string[] {
  const row = CMS_HEADER.map(() => '');
  Object.assign(row, { 0: code, 1: sequence, 2: recordId, 3: long, 4: short });
  if (recordId === '3' || recordId === '7') row[5] = '00';
  row[CMS_HEADER.indexOf('TERM DT')] = termDate;
  return row;
}

const CMS_RECORDS = [
  cmsRecord(
    'A0021',
    '00100',
    '3',
    'Ambulance service, outside state per mile, transport',
    'Outside state ambulance serv',
  ),
  cmsRecord('A0021', '00200', '4', '(medicaid only)'),
  cmsRecord(
    'A0080',
    '00100',
    '3',
    'Non-emergency transportation, per mile - vehicle provided by volunteer',
    'Noninterest escort in non er',
    '20241231',
  ),
  cmsRecord(
    'A0428',
    '00100',
    '3',
    'Ambulance service, basic life support, non-emergency transport, (bls)',
    'Bls',
    '20251231',
  ),
  cmsRecord(
    'AA',
    '00100',
    '7',
    'Anesthesia services performed personally by anesthesiologist',
    'Anes perf by anesthesiologist',
  ),
];

const csvCell = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
const cmsCsv = (rows: readonly string[][]) =>
  writeTestFile(
    'HCPC2025_OCT_ANWEB.csv',
    [CMS_HEADER, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n',
  );

/** The smallest xlsx workbook read-excel-file reads: one sheet, strings inline, numbers as such. */
function workbook(rows: readonly (readonly (string | number)[])[]): Buffer {
  const escape = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const column = (i: number): string =>
    (i >= 26 ? column(Math.floor(i / 26) - 1) : '') + String.fromCharCode(65 + (i % 26));
  const sheetRows = rows.map((row, r) => {
    const cells = row.map((value, c) => {
      const ref = `${column(c)}${r + 1}`;
      if (value === '') return '';
      return typeof value === 'number'
        ? `<c r="${ref}"><v>${value}</v></c>`
        : `<c r="${ref}" t="inlineStr"><is><t>${escape(value)}</t></is></c>`;
    });
    return `<row r="${r + 1}">${cells.join('')}</row>`;
  });
  const xml = (text: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>${text}`);
  const main = 'http://schemas.openxmlformats.org';
  return zipArchive([
    {
      name: '[Content_Types].xml',
      content: xml(
        `<Types xmlns="${main}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
      ),
    },
    {
      name: '_rels/.rels',
      content: xml(
        `<Relationships xmlns="${main}/package/2006/relationships"><Relationship Id="rId1" Type="${main}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/workbook.xml',
      content: xml(
        `<workbook xmlns="${main}/spreadsheetml/2006/main" xmlns:r="${main}/officeDocument/2006/relationships"><sheets><sheet name="HCPC2025_OCT_ANWEB" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      content: xml(
        `<Relationships xmlns="${main}/package/2006/relationships"><Relationship Id="rId1" Type="${main}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      content: xml(
        `<worksheet xmlns="${main}/spreadsheetml/2006/main"><sheetData>${sheetRows.join('')}</sheetData></worksheet>`,
      ),
    },
  ]);
}

const EXPECTED_OCT_2025 = [
  {
    code: 'A0021',
    kind: 'procedure',
    longDescription: 'Ambulance service, outside state per mile, transport (medicaid only)',
    shortDescription: 'Outside state ambulance serv',
  },
  {
    code: 'A0428',
    kind: 'procedure',
    longDescription: 'Ambulance service, basic life support, non-emergency transport, (bls)',
    shortDescription: 'Bls',
  },
  {
    code: 'AA',
    kind: 'modifier',
    longDescription: 'Anesthesia services performed personally by anesthesiologist',
    shortDescription: 'Anes perf by anesthesiologist',
  },
];

describe("parseHcpcsLevel2, CMS's layout", () => {
  it('reads the CSV: continuation records joined by SEQNUM, codes terminated before the day left out', async () => {
    // The continuation record first: the description is put together by SEQNUM, not file order.
    const [first, second, ...rest] = CMS_RECORDS;
    const path = await cmsCsv([second, first, ...rest] as string[][]);
    expect(await parseHcpcsLevel2(path, { asOf: '2025-10-01' })).toEqual(EXPECTED_OCT_2025);
    // A0428 ends on 31 December 2025.
    const codes = await parseHcpcsLevel2(path, { asOf: '2026-01-01' });
    expect(codes.map((code) => code.code)).toEqual(['A0021', 'AA']);
  });

  it('reads the xlsx workbook CMS publishes, numbers and all', async () => {
    const rows = [CMS_HEADER, ...CMS_RECORDS].map((row, r) =>
      // SEQNUM, RECID and TERM DT as a spreadsheet holds them: numbers.
      r === 0 ? row : row.map((cell, c) => ([1, 2, 46].includes(c) && cell ? Number(cell) : cell)),
    );
    const path = await writeTestFile('HCPC2025_OCT_ANWEB.xlsx', workbook(rows));
    expect(await parseHcpcsLevel2(path, { asOf: '2025-10-01' })).toEqual(EXPECTED_OCT_2025);
  });

  it('refuses a CPT code, a continuation of no code, a bad record id or termination date, naming each row', async () => {
    const path = await cmsCsv([
      cmsRecord('99213', '00100', '3', 'Office visit', 'Office visit'),
      cmsRecord('A0022', '00200', '4', 'continued'),
      cmsRecord('A0023', '00100', '5', 'x', 'x'),
      cmsRecord('A0024', '00100', '3', 'x', 'x', '20251345'),
      ...CMS_RECORDS,
    ]);
    await expect(parseHcpcsLevel2(path, { asOf: '2025-10-01' })).rejects.toThrow(
      'HCPC2025_OCT_ANWEB.csv: expected a Level II code (a letter and four digits) at line 2; found 99213; and 3 more refused (line 4, line 5, line 3)',
    );
    const date = await cmsCsv([cmsRecord('A0024', '00100', '3', 'x', 'x', '20251345')]);
    await expect(parseHcpcsLevel2(date)).rejects.toThrow(
      'HCPC2025_OCT_ANWEB.csv: expected a termination date (CCYYMMDD) at line 2; found 20251345',
    );
    const orphan = await cmsCsv([...CMS_RECORDS, cmsRecord('A0022', '00200', '4', 'continued')]);
    await expect(parseHcpcsLevel2(orphan)).rejects.toThrow(
      'HCPC2025_OCT_ANWEB.csv: expected a first record (RECID 3 or 7) for A0022, continued at line 7; found none',
    );
  });

  it('refuses two first records of a code that differ, and a file of codes all terminated', async () => {
    const twice = await cmsCsv([
      ...CMS_RECORDS,
      cmsRecord(
        'A0428',
        '00100',
        '3',
        'Ambulance service, basic life support, non-emergency transport, (bls)',
        'Bls',
      ),
    ]);
    await expect(parseHcpcsLevel2(twice, { asOf: '2025-10-01' })).rejects.toThrow(
      'expected one first record (RECID 3 or 7) for each code; found two that differ for A0428, at line 5 and line 7',
    );
    const old = await cmsCsv([cmsRecord('A0080', '00100', '3', 'x', 'x', '20241231')]);
    await expect(parseHcpcsLevel2(old, { asOf: '2025-10-01' })).rejects.toThrow(
      'expected a code current on 2025-10-01; found all 1 terminated before',
    );
  });
});
