/**
 * Service category of a billing code (the spec's "Category" column), from its code type and
 * range. Sources:
 * - CPT (HCPCS Level I) sections and ranges: AMA CPT code ranges as listed in the CMS/AMA CPT
 *   section index (Category I: E/M 99202–99499, Anesthesia 00100–01999 and 99100–99140,
 *   Surgery 10004–69990, Radiology 70010–79999, Pathology and Laboratory 80047–89398 plus PLA
 *   codes 0001U–9999U and MAAA codes xxxxM, Medicine 90281–99199 and 99500–99607; Category II
 *   xxxxF; Category III xxxxT). Only code numbers are used here, never AMA descriptions.
 * - HCPCS Level II sections by first letter: CMS HCPCS Level II code set read-me
 *   (https://www.cms.gov/medicare/coding-billing/healthcare-common-procedure-system).
 * - Revenue codes: NUBC UB-04 revenue code groups (first three digits, "025x" = 0250–0259),
 *   condensed into the groups a price search needs.
 */

export const OTHER_CATEGORY = 'Other / hospital-specific';

export const CPT_CATEGORIES = {
  evaluation: 'Evaluation and Management',
  anesthesia: 'Anesthesia',
  surgery: 'Surgery',
  radiology: 'Radiology',
  laboratory: 'Pathology and Laboratory',
  medicine: 'Medicine',
  categoryII: 'Category II (performance measures)',
  categoryIII: 'Category III (emerging technology)',
} as const;

/** HCPCS Level II sections, keyed by the code's first letter. */
export const HCPCS_LEVEL2_SECTIONS: Readonly<Record<string, string>> = {
  A: 'HCPCS A: Transportation, medical and surgical supplies',
  B: 'HCPCS B: Enteral and parenteral therapy',
  C: 'HCPCS C: Outpatient PPS',
  D: 'HCPCS D: Dental procedures',
  E: 'HCPCS E: Durable medical equipment',
  G: 'HCPCS G: Procedures and professional services',
  H: 'HCPCS H: Behavioral health and substance abuse treatment',
  J: 'HCPCS J: Drugs administered other than oral method',
  K: 'HCPCS K: Temporary codes for durable medical equipment',
  L: 'HCPCS L: Orthotics and prosthetics',
  M: 'HCPCS M: Other medical services',
  P: 'HCPCS P: Pathology and laboratory services',
  Q: 'HCPCS Q: Temporary codes',
  R: 'HCPCS R: Diagnostic radiology services',
  S: 'HCPCS S: Temporary national codes (non-Medicare)',
  T: 'HCPCS T: State Medicaid agency codes',
  U: 'HCPCS U: Coronavirus diagnostic panels',
  V: 'HCPCS V: Vision, hearing and speech-language services',
};

export const INPATIENT_DRG_CATEGORY = 'Inpatient DRG';
export const DRUG_CATEGORY = 'Drugs (NDC)';

/**
 * The categories of drug codes: an NDC, or a HCPCS J code (drugs given other than by mouth). An
 * item with one of them, or with drug details (unit or type), is a drug: for the Drugs billing
 * class of the search and the inventory's Drugs column.
 */
export const DRUG_CODE_CATEGORIES: readonly string[] = [
  DRUG_CATEGORY,
  HCPCS_LEVEL2_SECTIONS.J as string,
];
export const APC_CATEGORY = 'Ambulatory Payment Classification (APC)';

/**
 * NUBC revenue code groups as [first group, last group, label], groups being the first three
 * digits of the four-digit code. Gaps fall back to "other facility services".
 */
export const REVENUE_CODE_GROUPS: readonly (readonly [number, number, string])[] = [
  [10, 21, 'Revenue code: Room and board'],
  [22, 24, 'Revenue code: Other facility services'],
  [25, 25, 'Revenue code: Pharmacy'],
  [26, 26, 'Revenue code: IV therapy'],
  [27, 27, 'Revenue code: Medical and surgical supplies'],
  [28, 28, 'Revenue code: Oncology'],
  [29, 29, 'Revenue code: Durable medical equipment'],
  [30, 31, 'Revenue code: Laboratory'],
  [32, 35, 'Revenue code: Radiology and imaging'],
  [36, 36, 'Revenue code: Operating room'],
  [37, 37, 'Revenue code: Anesthesia'],
  [38, 39, 'Revenue code: Blood and blood products'],
  [40, 40, 'Revenue code: Radiology and imaging'],
  [41, 44, 'Revenue code: Therapy and rehabilitation'],
  [45, 45, 'Revenue code: Emergency room'],
  [46, 48, 'Revenue code: Diagnostic services'],
  [49, 49, 'Revenue code: Ambulatory surgical care'],
  [50, 53, 'Revenue code: Clinic and outpatient services'],
  [54, 54, 'Revenue code: Ambulance'],
  [55, 60, 'Revenue code: Home health and skilled nursing'],
  [61, 61, 'Revenue code: Radiology and imaging'],
  [62, 62, 'Revenue code: Medical and surgical supplies'],
  [63, 63, 'Revenue code: Pharmacy'],
  [64, 64, 'Revenue code: Home health and skilled nursing'],
  [65, 66, 'Revenue code: Hospice and respite care'],
  [67, 69, 'Revenue code: Other facility services'],
  [70, 70, 'Revenue code: Other facility services'],
  [71, 71, 'Revenue code: Recovery room'],
  [72, 72, 'Revenue code: Labor and delivery'],
  [73, 75, 'Revenue code: Diagnostic services'],
  [76, 76, 'Revenue code: Treatment and observation room'],
  [77, 77, 'Revenue code: Preventive care'],
  [78, 79, 'Revenue code: Other facility services'],
  [80, 85, 'Revenue code: Dialysis'],
  [81, 81, 'Revenue code: Organ acquisition'],
  [86, 89, 'Revenue code: Other facility services'],
  [90, 91, 'Revenue code: Behavioral health'],
  [92, 95, 'Revenue code: Other diagnostic and therapeutic services'],
  [96, 98, 'Revenue code: Professional fees'],
  [99, 99, 'Revenue code: Patient convenience items'],
  [100, 100, 'Revenue code: Behavioral health'],
  [210, 210, 'Revenue code: Alternative therapy'],
  [310, 310, 'Revenue code: Adult day care'],
];

const DRG_TYPES = new Set([
  'DRG',
  'MS-DRG',
  'APR-DRG',
  'AP-DRG',
  'TRIS-DRG',
  'S-DRG',
  'APS-DRG',
  'R-DRG',
  'MS-LTC-DRG',
  'CMG',
]);

function inRange(value: number, from: number, to: number): boolean {
  return value >= from && value <= to;
}

function cptCategory(code: string): string {
  if (/^\d{4}F$/.test(code)) return CPT_CATEGORIES.categoryII;
  if (/^\d{4}T$/.test(code)) return CPT_CATEGORIES.categoryIII;
  // Proprietary laboratory analyses and multianalyte assays are in the Pathology section.
  if (/^\d{4}[UM]$/.test(code)) return CPT_CATEGORIES.laboratory;
  // Vaccine product and administration codes (0001A…) are in the Medicine section.
  if (/^\d{4}A$/.test(code)) return CPT_CATEGORIES.medicine;
  if (!/^\d{5}$/.test(code)) return OTHER_CATEGORY;
  const n = Number(code);
  // 99100–99140 (anesthesia qualifying circumstances) sit inside the Medicine range: test first.
  if (inRange(n, 100, 1999) || inRange(n, 99100, 99140)) return CPT_CATEGORIES.anesthesia;
  if (inRange(n, 99202, 99499)) return CPT_CATEGORIES.evaluation;
  if (inRange(n, 10004, 69990)) return CPT_CATEGORIES.surgery;
  if (inRange(n, 70010, 79999)) return CPT_CATEGORIES.radiology;
  if (inRange(n, 80047, 89398)) return CPT_CATEGORIES.laboratory;
  if (inRange(n, 90281, 99199) || inRange(n, 99500, 99607)) return CPT_CATEGORIES.medicine;
  return OTHER_CATEGORY;
}

function hcpcsCategory(code: string): string {
  // MRFs label CPT codes "HCPCS" too: Level I (CPT) is part of HCPCS.
  if (/^\d{4}[0-9A-Z]$/.test(code)) return cptCategory(code);
  if (!/^[A-Z]\d{4}$/.test(code)) return OTHER_CATEGORY;
  return HCPCS_LEVEL2_SECTIONS[code.charAt(0)] ?? OTHER_CATEGORY;
}

function revenueCodeCategory(code: string): string {
  // Files write revenue codes with or without the leading zero ("450", "0450").
  if (!/^\d{3,4}$/.test(code)) return OTHER_CATEGORY;
  // 0001 alone is the claim's total; the rest of 001X is reserved.
  if (Number(code) === 1) return 'Revenue code: Total charge';
  const group = Math.floor(Number(code.padStart(4, '0')) / 10);
  // Later, narrower entries (organ acquisition inside dialysis) win over broader ones.
  let label: string | undefined;
  for (const [from, to, groupLabel] of REVENUE_CODE_GROUPS) {
    if (inRange(group, from, to)) label = groupLabel;
  }
  return label ?? 'Revenue code: Other facility services';
}

/**
 * The category of `code` of CMS code type `type` (CPT, HCPCS, RC, MS-DRG, NDC, APC, CDM, …).
 * Case and surrounding spaces are ignored. Unknown types and hospital-specific codes (CDM,
 * LOCAL) are {@link OTHER_CATEGORY}.
 */
export function codeCategory(type: string, code: string): string {
  const kind = type.trim().toUpperCase();
  const value = code.trim().toUpperCase();
  if (kind === 'CPT') return cptCategory(value);
  if (kind === 'HCPCS') return hcpcsCategory(value);
  if (kind === 'RC') return revenueCodeCategory(value);
  if (kind === 'NDC') return DRUG_CATEGORY;
  if (kind === 'APC') return APC_CATEGORY;
  if (DRG_TYPES.has(kind) || kind.endsWith('-DRG')) return INPATIENT_DRG_CATEGORY;
  return OTHER_CATEGORY;
}
