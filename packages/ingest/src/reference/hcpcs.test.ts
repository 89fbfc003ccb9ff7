import { describe, expect, it } from 'vitest';
import { parseHcpcsLevel2 } from './hcpcs.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { writeTestFile } from '../testing/test-file.ts';

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
      /expected a five-character code at line 3; found A00!$/,
    );
    const none = await hcpcsFile('code,kind,long,short\nA0001,procedure,x,x\n,procedure,y,y\n\n');
    await expect(parseHcpcsLevel2(none)).rejects.toThrow(
      /expected a five-character code at line 3; found an empty cell$/,
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
});
