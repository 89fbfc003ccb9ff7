import { passesLuhn } from '../payments/card.ts';

/** What an NPI's check digit is computed behind: the health industry's card issuer prefix. */
const NPI_PREFIX = '80840';

/**
 * Whether `npi` is an NPI: ten digits, the last the Luhn check digit of the other nine behind the
 * prefix 80840 (CMS, "Requirements for NPI check digit"). A type 2 NPI copied with a digit
 * wrong, cut, or shown in scientific notation by a spreadsheet (`1.30694E+09`) fails it.
 */
export function isNpi(npi: string): boolean {
  return /^\d{10}$/.test(npi) && passesLuhn(`${NPI_PREFIX}${npi}`);
}

/** The check digit that makes nine digits an NPI (see isNpi). */
export function npiCheckDigit(nine: string): number {
  const digit = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].find((d) => passesLuhn(`${NPI_PREFIX}${nine}${d}`));
  if (digit === undefined) throw new Error(`${nine} is not nine digits`);
  return digit;
}
