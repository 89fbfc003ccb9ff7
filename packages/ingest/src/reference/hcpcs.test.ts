import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHcpcsLevel2 } from './hcpcs.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';

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
    const path = join(tmpdir(), `hcpcs-${process.pid}.csv`);
    await writeFile(path, 'code,kind,long,short\nA0001,procedure,x,x\nA0002,drug,y,y\n');
    await expect(parseHcpcsLevel2(path)).rejects.toThrow(
      /expected kind procedure or modifier at line 3; found drug/,
    );
  });
});
