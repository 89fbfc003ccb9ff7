import { stateByName } from '@ratelens/core';
import { ReferenceFileError } from './errors.ts';
import {
  isNoteRow,
  KeyedRecords,
  RowProblems,
  normaliseHeader,
  readTableRows,
  type ReferenceSource,
} from './source.ts';

/** One Core Based Statistical Area of the OMB delineation (Census "List 1"). */
export interface Cbsa {
  code: string;
  title: string;
  kind: 'metropolitan' | 'micropolitan';
  /** Two-letter codes of the states its counties are in, sorted. */
  stateCodes: string[];
  csaCode: string | null;
  csaTitle: string | null;
}

/** One county (or county equivalent) of a CBSA. */
export interface CbsaCounty {
  /** Five-digit FIPS: state + county. */
  countyFips: string;
  name: string;
  stateCode: string;
  cbsaCode: string;
  metroDivisionCode: string | null;
  metroDivisionTitle: string | null;
  centralOutlying: 'central' | 'outlying';
}

export interface CbsaDelineation {
  /** Sorted by code. */
  cbsas: Cbsa[];
  /** In file order (by CBSA title, then county). */
  counties: CbsaCounty[];
}

/** A cell of either file: strings from the CSV, whatever read-excel-file makes of the workbook. */
type Cell = unknown;

/**
 * Header names of the official workbook (left) and of its snake_case CSV twin (right),
 * normalised by {@link normaliseHeader}.
 */
const COLUMNS = {
  cbsaCode: ['cbsa_code'],
  metroDivisionCode: ['metropolitan_division_code', 'metro_division_code'],
  csaCode: ['csa_code'],
  cbsaTitle: ['cbsa_title'],
  kind: ['metropolitan_micropolitan_statistical_area', 'cbsa_type'],
  metroDivisionTitle: ['metropolitan_division_title', 'metro_division_title'],
  csaTitle: ['csa_title'],
  countyName: ['county_county_equivalent', 'county_name'],
  stateName: ['state_name'],
  stateFips: ['fips_state_code', 'state_fips'],
  countyFips: ['fips_county_code', 'county_fips'],
  centralOutlying: ['central_outlying_county', 'central_outlying'],
} as const;

type Column = keyof typeof COLUMNS;

/** What the fields of a CBSA that each of its rows repeats are called, for an error. */
const CBSA_FIELD_NAMES = {
  title: 'title',
  kind: 'metropolitan or micropolitan kind',
  csaCode: 'CSA code',
  csaTitle: 'CSA title',
} as const;

function text(cell: Cell): string {
  if (typeof cell === 'string') return cell.trim();
  if (typeof cell === 'number') return String(cell);
  return '';
}

/**
 * The delineation from the rows of either file. The official workbook has banner rows above its
 * header (the 2023 copy in shared data happens not to) and notes below the data: the header is
 * found by its "CBSA Code" cell and rows without a five-digit CBSA code are skipped.
 */
export function cbsaDelineationFromRows(
  rows: readonly (readonly Cell[])[],
  file: string,
): CbsaDelineation {
  const headerIndex = rows.findIndex((row) =>
    row.some((cell) => normaliseHeader(text(cell)) === 'cbsa_code'),
  );
  const header = rows[headerIndex];
  if (!header) {
    const first = rows.find((row) => !isNoteRow(row)) ?? rows.find((row) => row.some(text));
    const found = first && `no such row, the first being ${first.map(text).join(',')}`;
    throw new ReferenceFileError(file, 'a header row with a "CBSA Code" column', found);
  }
  const names = header.map((cell) => normaliseHeader(text(cell)));
  const index = {} as Record<Column, number>;
  for (const [column, aliases] of Object.entries(COLUMNS) as [Column, readonly string[]][]) {
    const at = names.findIndex((name) => aliases.includes(name));
    if (at < 0) {
      throw new ReferenceFileError(
        file,
        `a "${aliases.join('" or "')}" column`,
        `columns ${names.join(', ')}`,
      );
    }
    index[column] = at;
  }

  // Each CBSA with the row it was first read from.
  const cbsas = new Map<string, { cbsa: Cbsa; where: string }>();
  const counties = new KeyedRecords<CbsaCounty>(file, 'county FIPS code');
  const problems = new RowProblems();
  for (let r = headerIndex + 1; r < rows.length; r += 1) {
    const where = `row ${r + 1}`;
    problems.row(where, () => {
      const row = rows[r] ?? [];
      const cell = (column: Column): string => text(row[index[column]]);
      const cbsaCode = cell('cbsaCode');
      // The notes below the table fill one cell; a county's row without its CBSA is refused.
      if (!/^\d{5}$/.test(cbsaCode)) {
        if (isNoteRow(row)) return;
        throw new ReferenceFileError(
          file,
          `a five-digit CBSA code at ${where}`,
          cbsaCode || 'none',
        );
      }
      const state = stateByName(cell('stateName'));
      if (!state) throw new ReferenceFileError(file, `a state name at ${where}`, cell('stateName'));
      const kindText = cell('kind').toLowerCase();
      const kind = kindText.startsWith('metropolitan')
        ? 'metropolitan'
        : kindText.startsWith('micropolitan')
          ? 'micropolitan'
          : undefined;
      if (!kind)
        throw new ReferenceFileError(file, `Metropolitan or Micropolitan at ${where}`, kindText);
      const centralText = cell('centralOutlying').toLowerCase();
      if (centralText !== 'central' && centralText !== 'outlying') {
        throw new ReferenceFileError(file, `Central or Outlying at ${where}`, centralText);
      }
      const countyFips = `${cell('stateFips').padStart(2, '0')}${cell('countyFips').padStart(3, '0')}`;
      if (!/^\d{5}$/.test(countyFips))
        throw new ReferenceFileError(file, `county FIPS codes at ${where}`, countyFips);
      // The state's FIPS code is the county's first two digits: one that is not the named
      // state's would store the county under another state's code.
      if (countyFips.slice(0, 2) !== state.fips) {
        throw new ReferenceFileError(
          file,
          `the FIPS state code of ${state.name} (${state.fips}) at ${where}`,
          countyFips.slice(0, 2),
        );
      }

      const cbsa: Cbsa = {
        code: cbsaCode,
        title: cell('cbsaTitle'),
        kind,
        stateCodes: [],
        csaCode: cell('csaCode') || null,
        csaTitle: cell('csaTitle') || null,
      };
      const earlier = cbsas.get(cbsaCode);
      if (earlier) {
        // Each of a CBSA's counties repeats its title, kind and CSA: rows that disagree leave
        // which one is right to chance.
        const differs = (['title', 'kind', 'csaCode', 'csaTitle'] as const).find(
          (field) => earlier.cbsa[field] !== cbsa[field],
        );
        if (differs) {
          throw new ReferenceFileError(
            file,
            `one ${CBSA_FIELD_NAMES[differs]} for each CBSA`,
            `two for ${cbsaCode}, ${JSON.stringify(earlier.cbsa[differs])} at ${earlier.where} and ${JSON.stringify(cbsa[differs])} at ${where}`,
          );
        }
      }
      const entry = earlier ?? { cbsa, where };
      if (!entry.cbsa.stateCodes.includes(state.code)) entry.cbsa.stateCodes.push(state.code);
      cbsas.set(cbsaCode, entry);
      const county: CbsaCounty = {
        countyFips,
        name: cell('countyName'),
        stateCode: state.code,
        cbsaCode,
        metroDivisionCode: cell('metroDivisionCode') || null,
        metroDivisionTitle: cell('metroDivisionTitle') || null,
        centralOutlying: centralText,
      };
      counties.add(countyFips, county, where);
    });
  }
  problems.check(counties.records.length);
  if (counties.records.length === 0)
    throw new ReferenceFileError(file, 'county rows below the header', 'none');
  const list = [...cbsas.values()].map(({ cbsa }) => cbsa);
  for (const cbsa of list) cbsa.stateCodes.sort();
  return {
    cbsas: list.sort((a, b) => a.code.localeCompare(b.code)),
    counties: counties.records,
  };
}

/**
 * Census Bureau delineation List 1 (list1_2023.xlsx, or the CSV with the same columns), from a
 * path or an http(s) URL. The format is told by content (an xlsx is a zip: "PK"), not by name.
 */
export async function parseCbsaDelineation(source: ReferenceSource): Promise<CbsaDelineation> {
  const { file, rows } = await readTableRows(source);
  return cbsaDelineationFromRows(rows, file);
}
