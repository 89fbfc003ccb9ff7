import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { writeTestFile } from '../testing/test-file.ts';
import { isZip5LayoutFile, parseZipLocality } from './zip-locality.ts';

const ZIP5 = 'cms-zip-locality/ZIP5_OCT2025.txt';

describe('parseZipLocality', () => {
  itWithDataFile('reads the 42,956 ZIP codes of October 2025', ZIP5, async (path) => {
    const zips = await parseZipLocality(path);
    expect(zips).toHaveLength(42956);
    expect(new Set(zips.map((zip) => zip.zip)).size).toBe(42956);
  });

  itWithDataFile('places Oak Bluffs in Rest of Massachusetts, rural', ZIP5, async (path) => {
    const zips = await parseZipLocality(path);
    expect(zips.find((zip) => zip.zip === '02557')).toEqual({
      zip: '02557',
      state: 'MA',
      stateAsWritten: 'MA',
      carrier: '14212',
      locality: '99',
      rural: 'rural',
      labCompetitiveBidLocality: 'Z9',
      plusFour: false,
      yearQuarter: '20254',
    });
  });

  itWithDataFile(
    'folds the Kansas and Missouri carrier regions into KS and MO',
    ZIP5,
    async (path) => {
      const zips = await parseZipLocality(path);
      const states = new Set(zips.map((zip) => zip.state));
      expect([...states].filter((state) => ['EK', 'WK', 'EM', 'WM'].includes(state))).toEqual([]);
      expect(zips.find((zip) => zip.zip === '66002')).toMatchObject({
        state: 'KS',
        stateAsWritten: 'WK',
        carrier: '05202',
      });
    },
  );

  itWithDataFile('refuses a CSV', 'hcpcs-level2/hcpcs_level2_2025oct_codes.csv', async (path) => {
    await expect(parseZipLocality(path)).rejects.toThrow(
      /hcpcs_level2_2025oct_codes\.csv: expected a ZIP5 record .* at line 1/,
    );
  });

  it('reads super-rural and plus-four flags', async () => {
    const path = await writeTestFile(
      'ZIP5.txt',
      `AK997010210201BZ9B  1 A${' '.repeat(52)}20254\r\n`,
    );
    expect(await parseZipLocality(path)).toEqual([
      expect.objectContaining({
        zip: '99701',
        rural: 'super-rural',
        plusFour: true,
        locality: '01',
      }),
    ]);
  });

  it('drops a ZIP repeated whole and refuses one placed in two localities', async () => {
    const record = (locality: string) =>
      `AK9970102102${locality} Z9   1 A${' '.repeat(52)}20254\r\n`;
    const path = await writeTestFile('ZIP5.txt', record('01') + record('01'));
    expect(await parseZipLocality(path)).toHaveLength(1);
    await writeFile(path, record('01') + record('99'));
    await expect(parseZipLocality(path)).rejects.toThrow(
      /expected one record for each ZIP; found two that differ for 99701, at line 1 and line 2$/,
    );
  });
});

describe('isZip5LayoutFile', () => {
  it('tells the record layout shipped beside the ZIP5 file from the ZIP5 file', () => {
    expect(['ZIP5lyout.txt', 'zip5LYOUT.TXT', 'ZIP5_layout.txt'].map(isZip5LayoutFile)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['ZIP5_OCT2025.txt', 'ZIP5.txt', 'ZIP5_JAN2026.txt'].map(isZip5LayoutFile)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
