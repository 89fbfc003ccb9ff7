import { ReferenceFileError } from './errors.ts';
import {
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

/** CMS HCPCS Level II codes and modifiers (hcpcs_level2_2025oct_codes.csv: code,kind,long,short). */
export async function parseHcpcsLevel2(source: ReferenceSource): Promise<HcpcsLevel2Code[]> {
  const file = sourceName(source);
  const [header, ...rows] = parseCsvRows(await readSourceText(source), file);
  const names = (header ?? []).map(normaliseHeader);
  if (HEADER.some((name, i) => names[i] !== name)) {
    throw new ReferenceFileError(file, `the header ${HEADER.join(',')}`, names.join(','));
  }
  const codes: HcpcsLevel2Code[] = [];
  rows.forEach((row, i) => {
    const [code = '', kind = '', long = '', short = ''] = row.map((cell) => cell.trim());
    if (!code) return;
    if (kind !== 'procedure' && kind !== 'modifier') {
      throw new ReferenceFileError(file, `kind procedure or modifier at line ${i + 2}`, kind);
    }
    codes.push({ code: code.toUpperCase(), kind, longDescription: long, shortDescription: short });
  });
  return codes;
}
