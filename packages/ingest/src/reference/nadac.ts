import { ReferenceFileError } from './errors.ts';
import {
  normaliseHeader,
  parseCsvRows,
  parseDecimal,
  readSourceText,
  RowProblems,
  sourceName,
  type ReferenceSource,
} from './source.ts';

/** One row of the NADAC (National Average Drug Acquisition Cost) weekly file. */
export interface NadacPrice {
  /** 11-digit NDC, leading zeros kept. */
  ndc: string;
  ndcDescription: string;
  nadacPerUnit: number;
  /** ISO date. */
  effectiveDate: string;
  /** EA, ML or GM. */
  pricingUnit: string;
  /** C/I (chain and independent) or others as published. */
  pharmacyTypeIndicator: string;
  otc: boolean;
  /** "1, 5" → ["1", "5"]. */
  explanationCodes: string[];
  /** B (brand) or G (generic). */
  classificationForRateSetting: string;
  correspondingGenericDrugNadacPerUnit: number | null;
  correspondingGenericDrugEffectiveDate: string | null;
  asOfDate: string;
}

/**
 * data.medicaid.gov publishes the columns as "NDC Description", "NDC", "NADAC_Per_Unit",
 * "Effective_Date", … (the API uses snake_case): headers are matched case-, space- and
 * underscore-insensitively, in any order.
 */
const NADAC_COLUMNS = [
  'ndc',
  'ndc_description',
  'nadac_per_unit',
  'effective_date',
  'pricing_unit',
  'pharmacy_type_indicator',
  'otc',
  'explanation_code',
  'classification_for_rate_setting',
  'corresponding_generic_drug_nadac_per_unit',
  'corresponding_generic_drug_effective_date',
  'as_of_date',
] as const;

type NadacColumn = (typeof NADAC_COLUMNS)[number];

/** "MM/DD/YYYY" (the download) or ISO "YYYY-MM-DD…" (the API) → "YYYY-MM-DD"; null when empty. */
function isoDate(value: string, file: string, where: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (us) return `${us[3]}-${us[1]?.padStart(2, '0')}-${us[2]?.padStart(2, '0')}`;
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(text);
  if (iso?.[1]) return iso[1];
  throw new ReferenceFileError(file, `a date (MM/DD/YYYY or YYYY-MM-DD) at ${where}`, text);
}

/** NADAC weekly file as downloaded from data.medicaid.gov (CSV), from a path or URL. */
export async function parseNadac(source: ReferenceSource): Promise<NadacPrice[]> {
  const file = sourceName(source);
  const [header, ...rows] = parseCsvRows(await readSourceText(source), file);
  const names = (header ?? []).map(normaliseHeader);
  const index = {} as Record<NadacColumn, number>;
  for (const name of NADAC_COLUMNS) {
    const at = names.indexOf(name);
    if (at < 0)
      throw new ReferenceFileError(file, `a NADAC column "${name}"`, `columns ${names.join(', ')}`);
    index[name] = at;
  }

  const prices: NadacPrice[] = [];
  const problems = new RowProblems();
  rows.forEach((row, i) => {
    const where = `line ${i + 2}`;
    problems.row(where, () => {
      if (row.every((cell) => cell.trim() === '')) return;
      const cell = (name: NadacColumn): string => (row[index[name]] ?? '').trim();
      const required = <T>(value: T | null, name: NadacColumn): T => {
        if (value === null)
          throw new ReferenceFileError(file, `${name} at ${where}`, 'an empty cell');
        return value;
      };
      const ndc = cell('ndc').replace(/\D/g, '');
      if (ndc.length === 0 || ndc.length > 11)
        throw new ReferenceFileError(file, `an NDC at ${where}`, cell('ndc'));
      prices.push({
        // Spreadsheets drop NDC leading zeros: restore the 11 digits.
        ndc: ndc.padStart(11, '0'),
        ndcDescription: cell('ndc_description'),
        nadacPerUnit: required(parseDecimal(cell('nadac_per_unit'), file, where), 'nadac_per_unit'),
        effectiveDate: required(isoDate(cell('effective_date'), file, where), 'effective_date'),
        pricingUnit: cell('pricing_unit').toUpperCase(),
        pharmacyTypeIndicator: cell('pharmacy_type_indicator').toUpperCase(),
        otc: cell('otc').toUpperCase() === 'Y',
        explanationCodes: cell('explanation_code')
          .split(/[,\s]+/)
          .filter(Boolean),
        classificationForRateSetting: cell('classification_for_rate_setting').toUpperCase(),
        correspondingGenericDrugNadacPerUnit: parseDecimal(
          cell('corresponding_generic_drug_nadac_per_unit'),
          file,
          where,
        ),
        correspondingGenericDrugEffectiveDate: isoDate(
          cell('corresponding_generic_drug_effective_date'),
          file,
          where,
        ),
        asOfDate: required(isoDate(cell('as_of_date'), file, where), 'as_of_date'),
      });
    });
  });
  problems.check(prices.length);
  if (prices.length === 0)
    throw new ReferenceFileError(file, 'price rows below the header', 'none');
  return prices;
}
