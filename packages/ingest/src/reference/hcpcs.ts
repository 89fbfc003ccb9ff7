import { ReferenceFileError } from './errors.ts';
import {
  KeyedRecords,
  RowProblems,
  normaliseHeader,
  parseCsvRows,
  readSourceText,
  sourceName,
  type ReferenceSource,
} from './source.ts';

export interface HcpcsLevel2Code {
  code: string;
  kind: 'procedure' | 'modifier';
  longDescription: string;
  shortDescription: string;
}

const HEADER = ['code', 'kind', 'long', 'short'];

/** A Level II procedure code is a letter and four digits (A0428); five of either are let by. */
const CODE = { procedure: /^[0-9A-Z]{5}$/, modifier: /^[0-9A-Z]{2}$/ } as const;

/** CMS HCPCS Level II codes and modifiers (hcpcs_level2_2025oct_codes.csv: code,kind,long,short). */
export async function parseHcpcsLevel2(source: ReferenceSource): Promise<HcpcsLevel2Code[]> {
  const file = sourceName(source);
  const [header = [], ...rows] = parseCsvRows(await readSourceText(source), file);
  const names = header.map(normaliseHeader);
  if (HEADER.some((name, i) => names[i] !== name)) {
    // As written: "code;kind;long;short" is not "code_kind_long_short".
    throw new ReferenceFileError(file, `the header ${HEADER.join(',')}`, header.join(','));
  }
  const codes = new KeyedRecords<HcpcsLevel2Code>(file, 'code');
  const problems = new RowProblems();
  rows.forEach((row, i) => {
    const where = `line ${i + 2}`;
    problems.row(where, () => {
      const [code = '', kind = '', long = '', short = ''] = row.map((cell) => cell.trim());
      if (row.every((cell) => cell.trim() === '')) return;
      if (kind !== 'procedure' && kind !== 'modifier') {
        throw new ReferenceFileError(
          file,
          `kind procedure or modifier at ${where}`,
          kind || 'an empty cell',
        );
      }
      const upper = code.toUpperCase();
      if (!CODE[kind].test(upper)) {
        const expected =
          kind === 'procedure' ? 'a five-character code' : 'a two-character modifier';
        throw new ReferenceFileError(file, `${expected} at ${where}`, code || 'an empty cell');
      }
      const record: HcpcsLevel2Code = {
        code: upper,
        kind,
        longDescription: long,
        shortDescription: short,
      };
      codes.add(upper, record, where);
    });
  });
  problems.check(codes.records.length);
  if (codes.records.length === 0) {
    throw new ReferenceFileError(file, 'code rows below the header', 'none');
  }
  return codes.records;
}
