import type { OopRateRow, SummaryRow } from '@ratelens/core';

/** A complete rate row for tests of the report writers; override what the test is about. */
export function sampleRateRow(overrides: Partial<OopRateRow> = {}): OopRateRow {
  return {
    medicalcode: '70551',
    CodeDescription: 'MRI brain without contrast',
    msaname: 'Anchorage, AK',
    FacilityName: 'Demo Northern Lights Medical Center',
    HospitalType: null,
    planname: 'PPO Gold',
    payername: 'Aetna',
    rates: 1234.5,
    notes: 'Per case; includes professional fee',
    Category: 'Radiology',
    codetype: 'CPT',
    location: 'Anchorage, AK 99508',
    Statename: 'Alaska',
    LOB: 'Commercial',
    healthsystemType: null,
    npi: '1234567890',
    MemberOOP: 1234.5,
    rateOrigin: 'dollar',
    rateDerivation: null,
    cashRate: 999.99,
    lineCashRate: 999.99,
    cashIsCheaper: true,
    hospitalId: '00000000-0000-4000-8000-000000000001',
    billingClass: 'outpatient',
    setting: 'outpatient',
    modifiers: [],
    ...overrides,
  };
}

export function sampleSummaryRow(overrides: Partial<SummaryRow> = {}): SummaryRow {
  return {
    hospitalId: '00000000-0000-4000-8000-000000000001',
    FacilityName: 'Demo Northern Lights Medical Center',
    CASH_RATE: 999.99,
    LowAmt: 800,
    AvgAmt: 1017.25,
    HighAmt: 1234.5,
    rateCount: 2,
    ...overrides,
  };
}
