import type {
  CodeOption,
  Entitlement,
  MsaItem,
  OopRateRow,
  PlanDesign,
  SummaryRow,
} from '@ratelens/core';

/** Answers of the search API for tests: a searchable consumer in Alaska. */

export const ENTITLED: Entitlement = {
  searching_Status: 1,
  next_Search_Date: null,
  individualSubscription: false,
  individualSubscriptionCount: 0,
  reportType: 'individual',
  employer_OCR: false,
  oCR_Access: false,
  replace_Email: null,
  actual_Email: 'ann@example.com',
  freeSearchesLeft: 2,
  subscriptionStatus: 'none',
  carryForwardSearches: 0,
};

export const ALASKA_MSAS: MsaItem[] = [
  { msaID: '11260', MSA: 'Anchorage, AK', TableName: '11260' },
  { msaID: '27940', MSA: 'Juneau, AK', TableName: '27940' },
];

export const MRI_CODES: CodeOption[] = [
  { procedureCode: '70551', codeDescription: 'MRI of the brain, no contrast ', codeType: 'CPT' },
  {
    procedureCode: ' 70553',
    codeDescription: 'MRI of the brain, before and after contrast',
    codeType: 'CPT',
  },
];

export const PLAN: PlanDesign = {
  deductible: { single: 1700, family: 3400 },
  outOfPocketMax: { single: 10_600, family: 21_200 },
  coinsurance: 0.2,
};

export function rateRow(overrides: Partial<OopRateRow> = {}): OopRateRow {
  return {
    medicalcode: '70551',
    CodeDescription: 'MRI of the brain, no contrast',
    msaname: 'Anchorage, AK',
    FacilityName: 'Demo Anchorage Hospital',
    HospitalType: null,
    planname: 'Aetna PPO',
    payername: 'Aetna',
    rates: 1000,
    notes: null,
    Category: 'Imaging',
    codetype: 'CPT',
    location: null,
    Statename: 'Alaska',
    LOB: 'Commercial',
    healthsystemType: null,
    npi: null,
    MemberOOP: 1000,
    rateOrigin: 'dollar',
    rateDerivation: null,
    cashRate: null,
    lineCashRate: null,
    cashIsCheaper: false,
    hospitalId: 'h-1',
    billingClass: 'outpatient',
    setting: 'outpatient',
    modifiers: [],
    ...overrides,
  };
}

export const SUMMARY: SummaryRow[] = [
  {
    hospitalId: 'h-1',
    FacilityName: 'Demo Anchorage Hospital',
    CASH_RATE: 800,
    LowAmt: 900,
    AvgAmt: 1000,
    HighAmt: 1100,
    rateCount: 2,
  },
];
