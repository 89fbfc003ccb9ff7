import { roundToCents } from './money.ts';

/**
 * CY 2025 Medicare physician fee schedule conversion factor, as printed in the CONV FACTOR column
 * of PPRRVU2025_Oct.csv (CMS-1807-F).
 */
export const MEDICARE_CONVERSION_FACTOR_2025 = 32.3465;

export interface RelativeValueUnits {
  workRvu: number;
  /** Practice-expense RVU of the setting priced: non-facility (office) or facility. */
  peRvu: number;
  mpRvu: number;
}

export interface GeographicIndices {
  workGpci: number;
  peGpci: number;
  mpGpci: number;
}

/**
 * Medicare physician allowed amount for one code in one locality:
 * (work RVU × work GPCI + PE RVU × PE GPCI + MP RVU × MP GPCI) × conversion factor, in dollars
 * rounded to cents (42 CFR 414.22 and the PFS relative value file's read-me).
 */
export function medicareAllowed(
  rvus: RelativeValueUnits,
  gpcis: GeographicIndices,
  conversionFactor: number = MEDICARE_CONVERSION_FACTOR_2025,
): number {
  const geographicRvus =
    rvus.workRvu * gpcis.workGpci + rvus.peRvu * gpcis.peGpci + rvus.mpRvu * gpcis.mpGpci;
  return roundToCents(geographicRvus * conversionFactor);
}
