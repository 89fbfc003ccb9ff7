import { medicareAllowed } from '@ratelens/core';
import { describe, expect, it } from 'vitest';
import {
  conversionFactorFor,
  feeScheduleYear,
  parseGpciFile,
  parseLocalityCounties,
  parseOppsCapFile,
  parseRvuFile,
  readGpciFile,
  readRvuFile,
  type PhysicianFeeScheduleRvu,
} from './physician-fee-schedule.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { writeTestFile } from '../testing/test-file.ts';

const RVU = 'cms-pfs-rvu-2025/PPRRVU2025_Oct.csv';
const GPCI = 'cms-pfs-rvu-2025/GPCI2025.csv';
const LOCCO = 'cms-pfs-rvu-2025/25LOCCO.csv';
const OPPSCAP = 'cms-pfs-rvu-2025/OPPSCAP_Oct.csv';

describe('parseRvuFile', () => {
  itWithDataFile('reads every code row below the stacked header', RVU, async (path) => {
    const rows = await parseRvuFile(path);
    expect(rows).toHaveLength(19090);
    expect(rows.filter((row) => row.modifier !== null)).toHaveLength(2239);
  });

  itWithDataFile('maps the RVUs of 99213', RVU, async (path) => {
    const rows = await parseRvuFile(path);
    expect(rows.find((row) => row.hcpcs === '99213' && row.modifier === null)).toEqual({
      hcpcs: '99213',
      modifier: null,
      status: 'A',
      workRvu: 1.3,
      nonFacilityPeRvu: 1.35,
      nonFacilityNa: false,
      facilityPeRvu: 0.57,
      facilityNa: false,
      mpRvu: 0.1,
      globalDays: 'XXX',
      conversionFactor: 32.3465,
    });
  });

  itWithDataFile(
    'reads the NA indicators of the settings a service is rarely or never performed in',
    RVU,
    async (path) => {
      const rows = await parseRvuFile(path);
      const settings = (hcpcs: string) =>
        rows
          .filter((row) => row.hcpcs === hcpcs && row.modifier === null)
          .map((row) => [
            row.nonFacilityPeRvu,
            row.nonFacilityNa,
            row.facilityPeRvu,
            row.facilityNa,
          ]);
      // 11004 (debridement, hospital only): the facility PE RVU printed as its non-facility one.
      expect(settings('11004')).toEqual([[4.05, true, 4.05, false]]);
      // 36430 (transfusion) the other way round; 99213 is paid in both.
      expect(settings('36430')).toEqual([[1.26, false, 1.26, true]]);
      expect(settings('99213')).toEqual([[1.35, false, 0.57, false]]);
      expect(rows.filter((row) => row.nonFacilityNa)).toHaveLength(4064);
      expect(rows.filter((row) => row.facilityNa)).toHaveLength(2530);
    },
  );

  itWithDataFile('keeps professional and technical components apart', RVU, async (path) => {
    const rows = await parseRvuFile(path);
    const chestXray = rows.filter((row) => row.hcpcs === '71046');
    expect(chestXray.map((row) => [row.modifier, row.workRvu, row.nonFacilityPeRvu])).toEqual([
      [null, 0.22, 0.77],
      ['26', 0.22, 0.08],
      ['TC', 0, 0.69],
    ]);
  });

  itWithDataFile('returns no CPT descriptor text (AMA copyright)', RVU, async (path) => {
    const rows = await parseRvuFile(path);
    // Every string field is a code in upper case: descriptors are mixed case.
    const strings = rows.flatMap((row) => Object.values(row).filter((v) => typeof v === 'string'));
    expect(strings.filter((value) => /[a-z]/.test(value))).toEqual([]);
    expect(Object.keys(rows[0] ?? {})).not.toContain('description');
  });

  it('drops the DESCRIPTION column while parsing', async () => {
    const path = await writeTestFile(
      'PPRRVU.csv',
      [
        ',,Relative Value File,,,,,,,,,,,,,,,,,,,,,,',
        ',,,STATUS,,WORK,NON-FAC,,FACILITY,,MP,,,,GLOB,,,,,,,,,,CONV',
        'HCPCS,MOD,DESCRIPTION,CODE,PAYMENT,RVU,PE RVU,INDICATOR,PE RVU,INDICATOR,RVU,TOTAL,TOTAL,IND,DAYS,OP,OP,OP,PROC,SURG,SURG,SURG,SURG,BASE,FACTOR',
        '12345,,"Secret, words",A,,1.00,2.00,,0.50,,0.10,3.10,1.60,0,010,0,0,0,0,0,0,0,0,,32.3465',
      ].join('\r\n'),
    );
    const rows = await parseRvuFile(path);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toMatch(/Secret/);
    expect(rows[0]?.globalDays).toBe('010');
  });

  itWithDataFile('refuses a file without the RVU header', GPCI, async (path) => {
    await expect(parseRvuFile(path)).rejects.toThrow(
      /GPCI2025\.csv: expected a header row starting HCPCS,MOD/,
    );
  });
});

describe('fee schedule files with values built to make a pattern backtrack', () => {
  // Each pattern tried every character of a long run against the rest: minutes for 300,000.
  const LONG = 300_000;

  it('answers at once for a long line of tabs above the RVU header', async () => {
    // Above the header, the line is part of the column names: the file is refused, saying so.
    const path = await writeTestFile(
      'PPRRVU.csv',
      [
        `HCPCS${'\t'.repeat(LONG)}x`,
        'HCPCS,MOD,DESCRIPTION,CODE,PAYMENT,RVU,PE RVU,INDICATOR,PE RVU,INDICATOR,RVU,TOTAL,TOTAL,IND,DAYS,OP,OP,OP,PROC,SURG,SURG,SURG,SURG,BASE,FACTOR',
        '12345,,Words,A,,1.00,2.00,,0.50,,0.10,3.10,1.60,0,010,0,0,0,0,0,0,0,0,,32.3465',
      ].join('\n'),
    );
    await expect(parseRvuFile(path)).rejects.toThrow(/PPRRVU\.csv: expected a "HCPCS" column/);
  });

  it('reads a locality name of many "*" that ends in a letter as written', async () => {
    const name = `ALASKA${'*'.repeat(LONG)}X`;
    const path = await writeTestFile(
      'GPCI.csv',
      [
        'Medicare Administrative Contractor (MAC),State,Locality Number,Locality Name,2025 PW GPCI (with 1.0 Floor),2025 PE GPCI,2025 MP GPCI',
        `02102,AK,01,${name},1.5,1.081,0.592`,
        '02102,AK,02,ALASKA**,1.5,1.081,0.592',
      ].join('\n'),
    );
    expect((await parseGpciFile(path)).map((row) => row.name)).toEqual([name, 'ALASKA']);
  });

  it('reads a fee schedule area with a long run of spaces before its last word', async () => {
    const area = `MIAMI${' '.repeat(LONG)}X`;
    const path = await writeTestFile(
      'LOCCO.csv',
      [
        'Medicare Adminstrative Contractor,Locality Number,State ,Fee Schedule Area ,Counties',
        `09102,4,FLORIDA,${area},DADE AND MONROE`,
        '09102,5,FLORIDA,FORT LAUDERDALE  **,BROWARD',
      ].join('\n'),
    );
    expect((await parseLocalityCounties(path)).map((row) => row.feeScheduleArea)).toEqual([
      area,
      'FORT LAUDERDALE',
    ]);
  });
});

describe('parseGpciFile', () => {
  itWithDataFile('reads the 109 localities of 2025', GPCI, async (path) => {
    const localities = await parseGpciFile(path);
    expect(localities).toHaveLength(109);
    expect(localities[1]).toEqual({
      carrier: '02102',
      state: 'AK',
      locality: '01',
      name: 'ALASKA',
      workGpci: 1.5,
      peGpci: 1.081,
      mpGpci: 0.592,
    });
  });

  itWithDataFile('refuses the locality-county crosswalk', LOCCO, async (path) => {
    await expect(parseGpciFile(path)).rejects.toThrow(
      /25LOCCO\.csv: expected a header row with locality_number, gpci/,
    );
  });

  // Hand check: (1.30×1 + 1.35×0.94 + 0.10×1.467) × 32.3465 = 87.84339005 → $87.84.
  itWithDataFile(
    'prices 99213 in the office in Rest of Florida with the parsed files',
    RVU,
    async (path) => {
      const [rvus, gpcis] = await Promise.all([
        parseRvuFile(path),
        parseGpciFile(path.replace('PPRRVU2025_Oct.csv', 'GPCI2025.csv')),
      ]);
      const code = rvus.find((row) => row.hcpcs === '99213' && row.modifier === null);
      const florida = gpcis.find((row) => row.carrier === '09102' && row.locality === '99');
      if (!code || !florida) throw new Error('99213 or Rest of Florida not found');
      expect(
        medicareAllowed(
          { workRvu: code.workRvu, peRvu: code.nonFacilityPeRvu, mpRvu: code.mpRvu },
          florida,
          code.conversionFactor ?? undefined,
        ),
      ).toBe(87.84);
    },
  );
});

describe('a damaged GPCI file', () => {
  const HEADER =
    'Medicare Administrative Contractor (MAC),State,Locality Number,Locality Name,2025 PW GPCI (with 1.0 Floor),2025 PE GPCI,2025 MP GPCI\n';
  async function gpciFile(rows: string): Promise<string> {
    return writeTestFile('GPCI.csv', `ADDENDUM E,,,,,,\n${HEADER}${rows}*Footnote,,,,,,\n`);
  }

  it('refuses a locality whose MAC is damaged, rather than leaving it out', async () => {
    const path = await gpciFile(
      '10112,AL,00,ALABAMA,1,0.869,0.575\n1182X,CA,71,EL CENTRO,1.014,1.093,0.57\n',
    );
    await expect(parseGpciFile(path)).rejects.toThrow(
      /GPCI\.csv: expected a MAC number at line 4; found 1182X$/,
    );
  });

  it('refuses a locality given twice with different indices', async () => {
    const path = await gpciFile(
      '10112,AL,00,ALABAMA,1,0.869,0.575\n10112,AL,00,ALABAMA,1,0.9,0.575\n',
    );
    await expect(parseGpciFile(path)).rejects.toThrow(
      /expected one record for each MAC and locality; found two that differ for 10112 00, at line 3 and line 4$/,
    );
  });
});

describe('the NA indicators of an RVU file', () => {
  /** A PPRRVU file with its NA indicator columns, their names stacked as CMS stacks them. */
  const withIndicators = (rows: string[]) =>
    writeTestFile(
      'PPRRVU.csv',
      [
        ',,,,,,NON-FAC,,FACILITY,,,',
        ',,,STATUS,WORK,NON-FAC,NA,FACILITY,NA,MP,GLOB,CONV',
        'HCPCS,MOD,DESCRIPTION,CODE,RVU,PE RVU,INDICATOR,PE RVU,INDICATOR,RVU,DAYS,FACTOR',
        ...rows,
        '',
      ].join('\r\n'),
    );
  const indicators = (rows: PhysicianFeeScheduleRvu[]) =>
    rows.map((row) => [row.hcpcs, row.nonFacilityNa, row.facilityNa]);

  it('reads "NA" in any case and with blanks around it, and an empty cell as paid', async () => {
    const path = await withIndicators([
      '11004,,x,A,10.80,4.05, na ,4.05,,2.06,000,32.3465',
      '36430,,x,A,0.00,1.26,,1.26,Na,0.03,XXX,32.3465',
    ]);
    expect(indicators(await parseRvuFile(path))).toEqual([
      ['11004', true, false],
      ['36430', false, true],
    ]);
  });

  it('refuses an indicator that is neither "NA" nor empty, naming its column and line', async () => {
    const nonFacility = await withIndicators(['11004,,x,A,10.80,4.05,Y,4.05,,2.06,000,32.3465']);
    await expect(parseRvuFile(nonFacility)).rejects.toThrow(
      /PPRRVU\.csv: expected "NA" or an empty cell in NON-FAC NA INDICATOR at line 4 \(11004\); found Y$/,
    );
    const facility = await withIndicators(['36430,,x,A,0.00,1.26,,1.26,N/A,0.03,XXX,32.3465']);
    await expect(parseRvuFile(facility)).rejects.toThrow(
      /expected "NA" or an empty cell in FACILITY NA INDICATOR at line 4 \(36430\); found N\/A$/,
    );
  });

  it('reads a file without the indicator columns as marking no setting NA', async () => {
    const path = await writeTestFile(
      'PPRRVU.csv',
      rvuText(['11004,,x,A,10.80,4.05,4.05,2.06,000,32.3465', '']),
    );
    expect(indicators(await parseRvuFile(path))).toEqual([['11004', false, false]]);
  });
});

describe('a damaged RVU file', () => {
  it('refuses a code row whose code is damaged, rather than leaving it out', async () => {
    const header =
      ',,,STATUS,WORK,NON-FAC,FACILITY,MP,GLOB,CONV\nHCPCS,MOD,DESCRIPTION,CODE,RVU,PE RVU,PE RVU,RVU,DAYS,FACTOR\n';
    const path = await writeTestFile(
      'PPRRVU.csv',
      `${header}99213,,x,A,1.3,1.35,0.55,0.1,XXX,32.3465\n9921,,x,A,1.92,1.9,0.8,0.14,XXX,32.3465\n`,
    );
    await expect(parseRvuFile(path)).rejects.toThrow(
      /expected a five-character HCPCS code at line 4; found 9921$/,
    );
  });
});

describe('parseLocalityCounties', () => {
  itWithDataFile('reads every locality row and pads carrier and locality', LOCCO, async (path) => {
    const rows = await parseLocalityCounties(path);
    expect(rows).toHaveLength(110);
    expect(rows[1]).toEqual({
      carrier: '02102',
      locality: '01',
      stateName: 'ALASKA',
      feeScheduleArea: 'STATEWIDE',
      counties: 'ALL COUNTIES',
    });
  });

  itWithDataFile('carries the state down to the rows that leave it blank', LOCCO, async (path) => {
    const rows = await parseLocalityCounties(path);
    const miami = rows.find((row) => row.carrier === '09102' && row.locality === '04');
    expect(miami).toMatchObject({
      stateName: 'FLORIDA',
      feeScheduleArea: 'MIAMI',
      counties: 'DADE AND MONROE',
    });
    const restOfCalifornia = rows.find((row) => row.carrier === '01112' && row.locality === '75');
    expect(restOfCalifornia).toMatchObject({
      stateName: 'CALIFORNIA',
      feeScheduleArea: 'REST OF STATE',
    });
  });
});

describe('parseOppsCapFile', () => {
  itWithDataFile(
    'reads every cap row and skips the empty row that ends the file',
    OPPSCAP,
    async (path) => {
      const caps = await parseOppsCapFile(path);
      // 16,102 lines: the header, 16,100 caps, a row of empty cells.
      expect(caps).toHaveLength(16100);
      expect(new Set(caps.map((cap) => `${cap.hcpcs} ${cap.modifier ?? ''}`)).size).toBe(140);
      expect(caps[0]).toEqual({
        hcpcs: '0633T',
        modifier: 'TC',
        carrier: '01112',
        locality: '05',
        facilityPrice: 150.69,
        nonFacilityPrice: 150.69,
      });
      expect(
        caps.filter(
          (cap) => cap.hcpcs === '93990' && cap.carrier === '14212' && cap.locality === '99',
        ),
      ).toEqual([
        {
          hcpcs: '93990',
          modifier: null,
          carrier: '14212',
          locality: '99',
          facilityPrice: 134.68,
          nonFacilityPrice: 134.68,
        },
        {
          hcpcs: '93990',
          modifier: 'TC',
          carrier: '14212',
          locality: '99',
          facilityPrice: 112.65,
          nonFacilityPrice: 112.65,
        },
      ]);
    },
  );

  async function capFile(rows: string): Promise<string> {
    return writeTestFile(
      'OPPSCAP.csv',
      `HCPCS,MOD,PROCSTAT,CARRIER,LOCALITY,FACILITY PRICE,NON-FACILTY PRICE\r\n${rows},,,,,,\r\n`,
    );
  }

  it('pads carriers and localities written without their leading zeros', async () => {
    const caps = await parseOppsCapFile(await capFile('93990,,A,2102,1,98.5,99.25\r\n'));
    expect(caps).toEqual([
      {
        hcpcs: '93990',
        modifier: null,
        carrier: '02102',
        locality: '01',
        facilityPrice: 98.5,
        nonFacilityPrice: 99.25,
      },
    ]);
  });

  it('refuses a cap without its locality, or without a price, rather than leaving it out', async () => {
    await expect(
      parseOppsCapFile(await capFile('93990,,A,14212,,134.68,134.68\r\n')),
    ).rejects.toThrow(/OPPSCAP\.csv: expected a locality number at line 2 \(93990\); found none$/);
    await expect(
      parseOppsCapFile(await capFile('93990,TC,A,14212,99,112.65,\r\n')),
    ).rejects.toThrow(/expected NON-FACILITY PRICE at line 2 \(93990\); found an empty cell$/);
  });

  it('refuses two different caps for the same code, modifier and locality', async () => {
    const path = await capFile(
      '93990,,A,14212,99,134.68,134.68\r\n93990,,A,14212,99,130.00,130.00\r\n',
    );
    await expect(parseOppsCapFile(path)).rejects.toThrow(
      /expected one record for each code, modifier, carrier and locality; found two that differ for 93990 14212 99, at line 2 and line 3$/,
    );
  });
});

/** A PPRRVU file of the columns read, its stacked header under `banner` lines. */
function rvuText(rows: string[], banner: string[] = [], delimiter = ','): string {
  const header = [
    ',,,STATUS,WORK,NON-FAC,FACILITY,MP,GLOB,CONV',
    'HCPCS,MOD,DESCRIPTION,CODE,RVU,PE RVU,PE RVU,RVU,DAYS,FACTOR',
  ].map((line) => line.replaceAll(',', delimiter));
  return [...banner, ...header, ...rows].join('\r\n');
}

const GPCI_HEADER =
  'Medicare Administrative Contractor (MAC),State,Locality Number,Locality Name,2025 PW GPCI (with 1.0 Floor),2025 PE GPCI,2025 MP GPCI';

describe('a fee schedule file written with decimal commas', () => {
  it('reads a ";" GPCI file\'s "0,869" as 0.869, not 869', async () => {
    const path = await writeTestFile(
      'GPCI.csv',
      [
        'ADDENDUM E;;;;;;',
        GPCI_HEADER.replaceAll(',', ';'),
        '10112;AL;00;ALABAMA;1;0,869;0,575',
        '02102;AK;01;ALASKA*;1,5;1,081;0,592',
        '',
      ].join('\r\n'),
    );
    expect(
      (await parseGpciFile(path)).map((row) => [row.workGpci, row.peGpci, row.mpGpci]),
    ).toEqual([
      [1, 0.869, 0.575],
      [1.5, 1.081, 0.592],
    ]);
  });

  it('reads a ";" GPCI file whose first line, a title, has no delimiter', async () => {
    const path = await writeTestFile(
      'GPCI.csv',
      [
        'ADDENDUM E. FINAL CY 2025 GEOGRAPHIC PRACTICE COST INDICES (GPCIs) BY STATE AND MEDICARE LOCALITY',
        GPCI_HEADER.replaceAll(',', ';'),
        '10112;AL;00;ALABAMA;1;0,869;0,575',
        '',
      ].join('\n'),
    );
    expect(await parseGpciFile(path)).toEqual([
      {
        carrier: '10112',
        state: 'AL',
        locality: '00',
        name: 'ALABAMA',
        workGpci: 1,
        peGpci: 0.869,
        mpGpci: 0.575,
      },
    ]);
  });

  it('reads a ";" RVU file\'s RVUs and conversion factor with their decimal commas', async () => {
    const path = await writeTestFile(
      'PPRRVU.csv',
      rvuText(['99213;;x;A;1,30;1,35;0,57;0,10;XXX;32,3465', ''], [], ';'),
    );
    expect(await parseRvuFile(path)).toEqual([
      expect.objectContaining({
        workRvu: 1.3,
        nonFacilityPeRvu: 1.35,
        facilityPeRvu: 0.57,
        mpRvu: 0.1,
        conversionFactor: 32.3465,
      }),
    ]);
  });

  it('refuses an RVU in a ";" file that may be thousands or a decimal, naming the line', async () => {
    const path = await writeTestFile(
      'PPRRVU.csv',
      rvuText(['99213;;x;A;1.300;1,35;0,57;0,10;XXX;32,3465', ''], [], ';'),
    );
    await expect(parseRvuFile(path)).rejects.toThrow(
      /PPRRVU\.csv: expected a number at line 3 \(99213\) WORK RVU; found 1\.300, thousands or a decimal point/,
    );
  });
});

describe('an RVU file with numbers it cannot hold', () => {
  it('refuses "1e3", "0x10" and a negative RVU, naming the line and column', async () => {
    const file = (row: string) => writeTestFile('PPRRVU.csv', rvuText([row, '']));
    await expect(
      parseRvuFile(await file('99213,,x,A,1e3,1.35,0.57,0.1,XXX,32.3465')),
    ).rejects.toThrow(/expected a number at line 3 \(99213\) WORK RVU; found 1e3$/);
    await expect(
      parseRvuFile(await file('99213,,x,A,1.3,0x10,0.57,0.1,XXX,32.3465')),
    ).rejects.toThrow(/expected a number at line 3 \(99213\) NON-FAC PE RVU; found 0x10$/);
    await expect(
      parseRvuFile(await file('99213,,x,A,1.3,1.35,-0.57,0.1,XXX,32.3465')),
    ).rejects.toThrow(/expected FACILITY PE RVU at line 3 \(99213\); found -0\.57$/);
  });
});

describe('a truncated fee schedule file', () => {
  it('refuses an RVU file whose last line is cut, rather than reading its RVUs as 0', async () => {
    const path = await writeTestFile(
      'PPRRVU.csv',
      rvuText(['99213,,x,A,1.3,1.35,0.57,0.1,XXX,32.3465', '99214,,x,A,1.9']),
    );
    await expect(parseRvuFile(path)).rejects.toThrow(
      /PPRRVU\.csv: expected a last line of 10 cells, as the header has; found 5 at line 4, with no line end: the file is cut short$/,
    );
  });

  it('refuses an RVU file whose last line is cut inside its conversion factor', async () => {
    const path = await writeTestFile(
      'PPRRVU.csv',
      [
        ',,,STATUS,WORK,NON-FAC,FACILITY,MP,GLOB,CONV,',
        'HCPCS,MOD,DESCRIPTION,CODE,RVU,PE RVU,PE RVU,RVU,DAYS,FACTOR,PROCEDURES',
        '99213,,x,A,1.3,1.35,0.57,0.1,XXX,32.3465,09',
        '99214,,x,A,1.92,1.9,0.8,0.14,XXX,32.34',
      ].join('\n'),
    );
    await expect(parseRvuFile(path)).rejects.toThrow(/found 10 at line 4, with no line end/);
  });

  it('refuses a code row without its RVU cells, or with one empty', async () => {
    const short = await writeTestFile(
      'PPRRVU.csv',
      rvuText(['99214,,x,A,1.9', '99213,,x,A,1.3,1.35,0.57,0.1,XXX,32.3465', '']),
    );
    await expect(parseRvuFile(short)).rejects.toThrow(
      /expected NON-FAC PE RVU at line 3 \(99214\); found no such cell: the row ends after 5 cells$/,
    );
    const empty = await writeTestFile(
      'PPRRVU.csv',
      rvuText(['99213,,x,A,1.3,,0.57,0.1,XXX,32.3465', '']),
    );
    await expect(parseRvuFile(empty)).rejects.toThrow(
      /expected NON-FAC PE RVU at line 3 \(99213\); found an empty cell$/,
    );
  });

  it('refuses a GPCI file whose last line is cut inside the MAC of its last locality', async () => {
    const path = await writeTestFile(
      'GPCI.csv',
      `${GPCI_HEADER}\n10112,AL,00,ALABAMA,1,0.869,0.575\n036`,
    );
    await expect(parseGpciFile(path)).rejects.toThrow(
      /GPCI\.csv: expected a last line of 7 cells, as the header has; found 1 at line 3, with no line end/,
    );
  });
});

describe('GPCI columns and locality numbers', () => {
  it('refuses a locality number that is empty or not one or two digits', async () => {
    for (const number of ['', '1.0', '123', 'A1']) {
      const path = await writeTestFile(
        'GPCI.csv',
        `${GPCI_HEADER}\n10112,AL,${number},ALABAMA,1,0.869,0.575\n`,
      );
      await expect(parseGpciFile(path), number).rejects.toThrow(
        `GPCI.csv: expected a locality number at line 2; found ${number || 'none'}`,
      );
    }
    const padded = await writeTestFile('GPCI.csv', `${GPCI_HEADER}\n10112,AL,5,ALABAMA,1,1,1\n`);
    expect((await parseGpciFile(padded))[0]?.locality).toBe('05');
  });

  it('takes the work GPCI with the 1.0 floor, which Medicare pays, over the one without', async () => {
    const path = await writeTestFile(
      'GPCI.csv',
      'MAC,State,Locality Number,Locality Name,2025 PW GPCI (without 1.0 Floor),2025 PW GPCI (with 1.0 Floor),2025 PE GPCI,2025 MP GPCI\n' +
        '10112,AL,00,ALABAMA,0.95,1,0.869,0.575\n',
    );
    expect((await parseGpciFile(path))[0]?.workGpci).toBe(1);
  });

  it('refuses two work GPCI columns it cannot choose between', async () => {
    const path = await writeTestFile(
      'GPCI.csv',
      'MAC,State,Locality Number,Locality Name,2024 PW GPCI,2025 PW GPCI,2025 PE GPCI,2025 MP GPCI\n' +
        '10112,AL,00,ALABAMA,0.95,1,0.869,0.575\n',
    );
    await expect(parseGpciFile(path)).rejects.toThrow(
      /GPCI\.csv: expected one PW GPCI column \(or one "with 1\.0 Floor"\); found columns mac, state/,
    );
  });
});

describe('the year of a fee schedule file', () => {
  const BANNER_2026 = [
    ',,2026 National Physician Fee Schedule Relative Value File January Release,,,,,,,',
    ',,CPT codes and descriptions only are copyright 2025 American Medical Association.,,,,,,,',
  ];

  itWithDataFile('reads 2025 from the banner and name of PPRRVU2025_Oct.csv', RVU, async (path) => {
    expect((await readRvuFile(path)).year).toEqual({
      file: 'PPRRVU2025_Oct.csv',
      year: 2025,
      from: 'its banner and its file name',
    });
  });

  itWithDataFile(
    'reads 2025 from the title, columns and name of GPCI2025.csv',
    GPCI,
    async (path) => {
      expect((await readGpciFile(path)).year).toEqual({
        file: 'GPCI2025.csv',
        year: 2025,
        from: 'its banner and its header and its file name',
      });
    },
  );

  it('reads 2026 from a 2026 banner and file name', async () => {
    const path = await writeTestFile(
      'PPRRVU2026_Jan_nonQPP.csv',
      rvuText(['99213,,x,A,1.3,1.35,0.57,0.1,XXX,33.4009', ''], BANNER_2026),
    );
    expect((await readRvuFile(path)).year).toMatchObject({ year: 2026 });
  });

  it('refuses a file whose banner and name disagree', async () => {
    const path = await writeTestFile(
      'PPRRVU2025_Oct.csv',
      rvuText(['99213,,x,A,1.3,1.35,0.57,0.1,XXX,33.4009', ''], BANNER_2026),
    );
    await expect(readRvuFile(path)).rejects.toThrow(
      'PPRRVU2025_Oct.csv: expected one fee schedule year; found 2026 in its banner, 2025 in its file name',
    );
  });

  it('refuses a set of files of different years, or of none', () => {
    expect(() =>
      feeScheduleYear([
        { file: 'PPRRVU2026_Jan_nonQPP.csv', year: 2026, from: 'its banner and its file name' },
        { file: 'GPCI2025.csv', year: 2025, from: 'its file name' },
      ]),
    ).toThrow(
      'the fee schedule files are of different years: PPRRVU2026_Jan_nonQPP.csv 2026 (its banner and its file name), GPCI2025.csv 2025 (its file name)',
    );
    expect(() =>
      feeScheduleYear([
        { file: 'PPRRVU.csv', year: null, from: '' },
        { file: 'GPCI.csv', year: null, from: '' },
      ]),
    ).toThrow(/^none of PPRRVU\.csv, GPCI\.csv says its year/);
    expect(
      feeScheduleYear([
        { file: 'PPRRVU.csv', year: null, from: '' },
        { file: 'GPCI.csv', year: 2025, from: 'its header' },
      ]),
    ).toBe(2025);
  });

  it("fills an empty conversion factor with its own year's only", async () => {
    const rows = async (factor: string) =>
      parseRvuFile(
        await writeTestFile(
          'PPRRVU.csv',
          rvuText([
            `99213,,x,A,1.3,1.35,0.57,0.1,XXX,${factor}`,
            '99214,,x,A,1.92,1.9,0.8,0.14,XXX,',
            '',
          ]),
        ),
      );
    // 2025's is known; 2026's is the file's own, where it gives one; none is refused.
    expect(conversionFactorFor(2025, await rows(''), 'PPRRVU.csv')).toBe(32.3465);
    expect(conversionFactorFor(2026, await rows('33.4009'), 'PPRRVU.csv')).toBe(33.4009);
    const none = await rows('');
    expect(() => conversionFactorFor(2026, none, 'PPRRVU2026.csv')).toThrow(
      'PPRRVU2026.csv: expected a conversion factor for 2026; found no CONV FACTOR in any of its 2 code rows, and none known for 2026',
    );
  });
});
