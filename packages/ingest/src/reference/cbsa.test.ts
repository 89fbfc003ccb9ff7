import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cbsaDelineationFromRows, parseCbsaDelineation, type CbsaDelineation } from './cbsa.ts';
import { ReferenceFileError } from './errors.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';

const XLSX = 'census-cbsa/list1_2023.xlsx';
const CSV = 'census-cbsa/list1_2023_county_to_cbsa.csv';

function expectAlaska(delineation: CbsaDelineation): void {
  const alaska = delineation.cbsas.filter((cbsa) => cbsa.stateCodes.includes('AK'));
  expect(alaska.map((cbsa) => [cbsa.code, cbsa.title, cbsa.kind])).toEqual([
    ['11260', 'Anchorage, AK', 'metropolitan'],
    ['21820', 'Fairbanks-College, AK', 'metropolitan'],
    ['27940', 'Juneau, AK', 'micropolitan'],
    ['28540', 'Ketchikan, AK', 'micropolitan'],
  ]);
  expect(
    delineation.counties.filter((county) => county.cbsaCode === '11260').map((c) => c.countyFips),
  ).toEqual(['02020', '02170']);
}

describe('parseCbsaDelineation', () => {
  itWithDataFile(
    'reads 935 CBSAs and 1,915 counties from the official workbook',
    XLSX,
    async (path) => {
      const delineation = await parseCbsaDelineation(path);
      expect(delineation.cbsas).toHaveLength(935);
      expect(delineation.counties).toHaveLength(1915);
      expectAlaska(delineation);
    },
  );

  itWithDataFile('reads the same rows from the CSV twin', CSV, async (path) => {
    const delineation = await parseCbsaDelineation(path);
    expect(delineation.cbsas).toHaveLength(935);
    expect(delineation.counties).toHaveLength(1915);
    expectAlaska(delineation);
  });

  itWithDataFile('gives identical results for the workbook and the CSV', XLSX, async (xlsx) => {
    const fromCsv = await parseCbsaDelineation(
      xlsx.replace('list1_2023.xlsx', 'list1_2023_county_to_cbsa.csv'),
    );
    expect(await parseCbsaDelineation(xlsx)).toEqual(fromCsv);
  });

  itWithDataFile('lists every state a CBSA spans, and its CSA', CSV, async (path) => {
    const { cbsas, counties } = await parseCbsaDelineation(path);
    const newYork = cbsas.find((cbsa) => cbsa.code === '35620');
    expect(newYork?.stateCodes).toEqual(['NJ', 'NY']);
    expect(newYork?.csaCode).toBe('408');
    const dukes = counties.find((county) => county.countyFips === '25007');
    expect(dukes).toEqual({
      countyFips: '25007',
      name: 'Dukes County',
      stateCode: 'MA',
      cbsaCode: '47240',
      metroDivisionCode: null,
      metroDivisionTitle: null,
      centralOutlying: 'central',
    });
  });

  itWithDataFile('names the file when the workbook is cut short', XLSX, async (path) => {
    const dir = await mkdtemp(join(tmpdir(), 'ratelens-cbsa-'));
    try {
      const cut = join(dir, 'list1_cut.xlsx');
      const bytes = await readFile(path);
      await writeFile(cut, bytes.subarray(0, bytes.length >> 1));
      const refusal = parseCbsaDelineation(cut);
      await expect(refusal).rejects.toBeInstanceOf(ReferenceFileError);
      await expect(refusal).rejects.toThrow(
        /^list1_cut\.xlsx: expected an xlsx workbook that can be read; found /,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  itWithDataFile(
    'refuses a file that is not List 1',
    'hcpcs-level2/hcpcs_level2_2025oct_codes.csv',
    async (path) => {
      await expect(parseCbsaDelineation(path)).rejects.toThrow(
        /hcpcs_level2_2025oct_codes\.csv: expected a header row with a "CBSA Code" column/,
      );
    },
  );
});

describe('cbsaDelineationFromRows', () => {
  const header = [
    'CBSA Code',
    'Metropolitan Division Code',
    'CSA Code',
    'CBSA Title',
    'Metropolitan/Micropolitan Statistical Area',
    'Metropolitan Division Title',
    'CSA Title',
    'County/County Equivalent',
    'State Name',
    'FIPS State Code',
    'FIPS County Code',
    'Central/Outlying County',
  ];
  const juneau = [
    '27940',
    null,
    null,
    'Juneau, AK',
    'Micropolitan Statistical Area',
    null,
    null,
    'Juneau City and Borough',
    'Alaska',
    '02',
    '110',
    'Central',
  ];

  it('finds the header below the banner rows of the official workbook', () => {
    const rows = [
      [
        'List 1. CORE BASED STATISTICAL AREAS (CBSAs), METROPOLITAN DIVISIONS, AND COMBINED STATISTICAL AREAS (CSAs)',
      ],
      ['July 2023'],
      header,
      juneau,
      [],
      ['Note: …'],
    ];
    const { cbsas, counties } = cbsaDelineationFromRows(rows, 'list1.xlsx');
    expect(cbsas).toEqual([
      {
        code: '27940',
        title: 'Juneau, AK',
        kind: 'micropolitan',
        stateCodes: ['AK'],
        csaCode: null,
        csaTitle: null,
      },
    ]);
    expect(counties[0]?.countyFips).toBe('02110');
  });

  it('pads FIPS codes that a spreadsheet stored as numbers', () => {
    const numeric = [...juneau.slice(0, 9), 2, 110, 'Central'];
    expect(cbsaDelineationFromRows([header, numeric], 'list1.xlsx').counties[0]?.countyFips).toBe(
      '02110',
    );
  });

  it('names the file and the column when a column is missing', () => {
    const error = (() => {
      try {
        cbsaDelineationFromRows([header.slice(0, 11), juneau], 'list1.xlsx');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ReferenceFileError);
    expect((error as ReferenceFileError).message).toMatch(
      /^list1\.xlsx: expected a "central_outlying_county" or "central_outlying" column/,
    );
  });

  it('refuses a county row whose CBSA code is damaged, rather than leaving the county out', () => {
    const damaged = ['2794', ...juneau.slice(1)];
    expect(() => cbsaDelineationFromRows([header, juneau, damaged, ['Note: …']], 'x.csv')).toThrow(
      'x.csv: expected a five-digit CBSA code at row 3; found 2794',
    );
    const blank = [null, ...juneau.slice(1)];
    expect(() => cbsaDelineationFromRows([header, blank, juneau], 'x.csv')).toThrow(
      'x.csv: expected a five-digit CBSA code at row 2; found none',
    );
  });

  it('drops a county repeated whole and refuses one placed in two CBSAs', () => {
    const twice = cbsaDelineationFromRows([header, juneau, juneau], 'x.csv');
    expect(twice.counties).toHaveLength(1);
    const elsewhere = ['28540', ...juneau.slice(1)];
    expect(() => cbsaDelineationFromRows([header, juneau, elsewhere], 'x.csv')).toThrow(
      'x.csv: expected one record for each county FIPS code; found two that differ for 02110, at row 2 and row 3',
    );
  });

  it('shows the first row of a file without the header', () => {
    expect(() =>
      cbsaDelineationFromRows([['Title'], ['code', 'kind', 'long', 'short']], 'codes.csv'),
    ).toThrow(
      'codes.csv: expected a header row with a "CBSA Code" column; found no such row, the first being code,kind,long,short',
    );
  });

  it("refuses a county whose FIPS state code is not its state's, rather than storing it under another", () => {
    const donaAna = [
      '29740',
      null,
      '238',
      'Las Cruces, NM',
      'Metropolitan Statistical Area',
      null,
      'El Paso-Las Cruces, TX-NM',
      'Doña Ana County',
      'New Mexico',
      '48',
      '013',
      'Central',
    ];
    expect(() => cbsaDelineationFromRows([header, juneau, donaAna], 'x.csv')).toThrow(
      'x.csv: expected the FIPS state code of New Mexico (35) at row 3; found 48',
    );
    const right = [...donaAna.slice(0, 9), '35', '013', 'Central'];
    expect(cbsaDelineationFromRows([header, right], 'x.csv').counties[0]).toMatchObject({
      countyFips: '35013',
      stateCode: 'NM',
    });
  });

  it('refuses rows of one CBSA that give it two titles, kinds or CSAs, naming both rows', () => {
    // Juneau's second county (made up): the same CBSA, with something of its own changed.
    const second = (column: number, value: string) => {
      const row: (string | null)[] = [
        ...juneau.slice(0, 7),
        'Second Borough',
        'Alaska',
        '02',
        '999',
        'Outlying',
      ];
      row[column] = value;
      return row;
    };
    expect(() =>
      cbsaDelineationFromRows([header, juneau, second(3, 'Juneau City, AK')], 'x.csv'),
    ).toThrow(
      'x.csv: expected one title for each CBSA; found two for 27940, "Juneau, AK" at row 2 and "Juneau City, AK" at row 3',
    );
    expect(() =>
      cbsaDelineationFromRows(
        [header, juneau, second(4, 'Metropolitan Statistical Area')],
        'x.csv',
      ),
    ).toThrow(
      'x.csv: expected one metropolitan or micropolitan kind for each CBSA; found two for 27940, "micropolitan" at row 2 and "metropolitan" at row 3',
    );
    expect(() => cbsaDelineationFromRows([header, juneau, second(2, '999')], 'x.csv')).toThrow(
      'x.csv: expected one CSA code for each CBSA; found two for 27940, null at row 2 and "999" at row 3',
    );
    // The same CBSA in the same words: its counties are read, and it is listed once.
    const same = cbsaDelineationFromRows([header, juneau, second(0, '27940')], 'x.csv');
    expect(same.cbsas).toHaveLength(1);
    expect(same.counties.map((county) => county.countyFips)).toEqual(['02110', '02999']);
  });
});
