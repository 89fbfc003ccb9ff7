/**
 * What every reader of a hospital machine-readable file produces, whatever the format (JSON,
 * tall CSV, wide CSV) and CMS version (2.0 to 3.0): one header, then charge records. Values are
 * already normalised (trimmed, enums lower-cased, dates ISO, numbers parsed); anything that could
 * not be interpreted is reported as an issue, never thrown.
 */

export type MrfFormat = 'json' | 'csv-tall' | 'csv-wide';
export type CmsVersion = '2.0.0' | '2.1.0' | '2.2.0' | '2.2.1' | '3.0.0';

export interface MrfHeader {
  format: MrfFormat;
  version: CmsVersion;
  /** As written in the file, when it differs from the version detected (e.g. "V3.0", "3"). */
  declaredVersion: string | null;
  hospitalName: string;
  /** ISO 8601 date (YYYY-MM-DD). */
  lastUpdatedOn: string | null;
  locationNames: string[];
  addresses: string[];
  licenseNumber: string | null;
  /** Two-letter state of the licence. */
  licenseState: string | null;
  type2Npis: string[];
  attesterName: string | null;
  attestationConfirmed: boolean | null;
  generalContractProvisions: string | null;
}

export interface CodeRef {
  code: string;
  /** CMS code type, upper case: CPT, HCPCS, MS-DRG, APR-DRG, RC, NDC, CDM, APC, LOCAL, … */
  type: string;
}

/** CMS's code types in v2.x, upper case. */
export const CMS_CODE_TYPES_V2 = [
  'CPT',
  'HCPCS',
  'ICD',
  'DRG',
  'MS-DRG',
  'R-DRG',
  'S-DRG',
  'APS-DRG',
  'AP-DRG',
  'APR-DRG',
  'TRIS-DRG',
  'APC',
  'NDC',
  'HIPPS',
  'LOCAL',
  'EAPG',
  'CDT',
  'RC',
  'CDM',
] as const;
/** CMS's code types in v3.0, which added CMG and MS-LTC-DRG. */
export const CMS_CODE_TYPES_V3 = [...CMS_CODE_TYPES_V2, 'CMG', 'MS-LTC-DRG'] as const;

export type Setting = 'inpatient' | 'outpatient' | 'both';
export type Methodology =
  'case rate' | 'fee schedule' | 'percent of total billed charges' | 'per diem' | 'other';

export interface PayerCharge {
  payerName: string;
  planName: string;
  methodology: Methodology | null;
  dollar: number | null;
  percentage: number | null;
  algorithm: string | null;
  /** v2.x `estimated_amount`. */
  estimatedAmount: number | null;
  /** v3 `median_amount`, `10th_percentile`, `90th_percentile`, `count` (a string such as "0" or "1 through 10"). */
  median: number | null;
  p10: number | null;
  p90: number | null;
  count: string | null;
  notes: string | null;
}

/** A payer and plan's entry with `fields` set and everything else null. */
export function payerChargeWith(
  payerName: string,
  planName: string,
  fields: Partial<Omit<PayerCharge, 'payerName' | 'planName'>> = {},
): PayerCharge {
  return {
    payerName,
    planName,
    methodology: null,
    dollar: null,
    percentage: null,
    algorithm: null,
    estimatedAmount: null,
    median: null,
    p10: null,
    p90: null,
    count: null,
    notes: null,
    ...fields,
  };
}

/** One standard charge of one item: an item × setting × modifiers, with its payers. */
export interface ChargeRecord {
  /** Where it is in the file, for reports: "row 1234" (CSV, 1-based physical line) or "standard_charge_information[12].standard_charges[0]". */
  location: string;
  description: string;
  codes: CodeRef[];
  setting: Setting | null;
  modifiers: string[];
  drugUnit: number | null;
  drugType: string | null;
  gross: number | null;
  discountedCash: number | null;
  min: number | null;
  max: number | null;
  genericNotes: string | null;
  payers: PayerCharge[];
  /**
   * More rates of a charge passed on before: the item number of that record (the records a reader
   * passes on are items 1, 2, 3… in order, a record that continues one not counted). Its item
   * values are that record's. Set by the tall CSV reader, whose rows of one charge may be apart.
   */
  continues?: number;
}

/**
 * A record of what a modifier does rather than a charge: a JSON file's `modifier_information`,
 * or a CSV row with modifiers and no code ("Bilateral procedure", 50). Its payer entries describe
 * the modifier's effect on their rates; they are not rates of a service, and are counted apart.
 */
export function isModifierOnly(record: Pick<ChargeRecord, 'codes' | 'modifiers'>): boolean {
  return record.codes.length === 0 && record.modifiers.length > 0;
}

export type IssueSeverity = 'error' | 'warning';

/** One broken (error: the record is rejected) or bent (warning: normalised and kept) rule. */
export interface ValidationIssue {
  severity: IssueSeverity;
  /** Stable rule id, e.g. `required.payer_name`, `enum.title-case`, `date.mm-dd-yyyy`, `v3.count-required`. */
  rule: string;
  message: string;
  location: string;
}
