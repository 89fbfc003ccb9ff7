import { describe, expect, it } from 'vitest';
import { OTHER_CATEGORY, codeCategory } from './code-category.ts';

describe('codeCategory for CPT', () => {
  it.each([
    ['99202', 'Evaluation and Management'],
    ['99213', 'Evaluation and Management'],
    ['99499', 'Evaluation and Management'],
    ['00100', 'Anesthesia'],
    ['01999', 'Anesthesia'],
    ['99100', 'Anesthesia'],
    ['99140', 'Anesthesia'],
    ['10004', 'Surgery'],
    ['27447', 'Surgery'],
    ['69990', 'Surgery'],
    ['70010', 'Radiology'],
    ['74177', 'Radiology'],
    ['80047', 'Pathology and Laboratory'],
    ['85025', 'Pathology and Laboratory'],
    ['0001U', 'Pathology and Laboratory'],
    ['0450U', 'Pathology and Laboratory'],
    ['90281', 'Medicine'],
    ['93000', 'Medicine'],
    ['99199', 'Medicine'],
    ['99500', 'Medicine'],
    ['99607', 'Medicine'],
    ['0001F', 'Category II (performance measures)'],
    ['0042T', 'Category III (emerging technology)'],
  ])('puts CPT %s in %s', (code, category) => {
    expect(codeCategory('CPT', code)).toBe(category);
  });

  it('treats numeric codes labelled HCPCS as CPT', () => {
    expect(codeCategory('HCPCS', '99285')).toBe('Evaluation and Management');
  });

  it('puts a CPT number outside every section in Other', () => {
    expect(codeCategory('CPT', '99700')).toBe(OTHER_CATEGORY);
    expect(codeCategory('CPT', 'ABC')).toBe(OTHER_CATEGORY);
  });
});

describe('codeCategory for HCPCS Level II', () => {
  it.each([
    ['A0428', 'HCPCS A: Transportation, medical and surgical supplies'],
    ['B4150', 'HCPCS B: Enteral and parenteral therapy'],
    ['C1713', 'HCPCS C: Outpatient PPS'],
    ['E0601', 'HCPCS E: Durable medical equipment'],
    ['G0008', 'HCPCS G: Procedures and professional services'],
    ['H0001', 'HCPCS H: Behavioral health and substance abuse treatment'],
    ['J1100', 'HCPCS J: Drugs administered other than oral method'],
    ['K0001', 'HCPCS K: Temporary codes for durable medical equipment'],
    ['L3000', 'HCPCS L: Orthotics and prosthetics'],
    ['M1000', 'HCPCS M: Other medical services'],
    ['P9016', 'HCPCS P: Pathology and laboratory services'],
    ['Q4100', 'HCPCS Q: Temporary codes'],
    ['R0070', 'HCPCS R: Diagnostic radiology services'],
    ['S0020', 'HCPCS S: Temporary national codes (non-Medicare)'],
    ['T1015', 'HCPCS T: State Medicaid agency codes'],
    ['U0003', 'HCPCS U: Coronavirus diagnostic panels'],
    ['V2020', 'HCPCS V: Vision, hearing and speech-language services'],
  ])('puts %s in its section', (code, category) => {
    expect(codeCategory('HCPCS', code)).toBe(category);
  });

  it('ignores case and spaces in type and code', () => {
    expect(codeCategory(' hcpcs ', 'j1100 ')).toBe(
      'HCPCS J: Drugs administered other than oral method',
    );
  });

  it('puts an unassigned letter in Other', () => {
    expect(codeCategory('HCPCS', 'X1234')).toBe(OTHER_CATEGORY);
  });
});

describe('codeCategory for revenue codes', () => {
  it.each([
    ['0110', 'Revenue code: Room and board'],
    ['0206', 'Revenue code: Room and board'],
    ['0250', 'Revenue code: Pharmacy'],
    ['0636', 'Revenue code: Pharmacy'],
    ['0300', 'Revenue code: Laboratory'],
    ['0311', 'Revenue code: Laboratory'],
    ['0320', 'Revenue code: Radiology and imaging'],
    ['0351', 'Revenue code: Radiology and imaging'],
    ['0610', 'Revenue code: Radiology and imaging'],
    ['0360', 'Revenue code: Operating room'],
    ['0450', 'Revenue code: Emergency room'],
    ['0762', 'Revenue code: Treatment and observation room'],
    ['0810', 'Revenue code: Organ acquisition'],
    ['0821', 'Revenue code: Dialysis'],
    ['0960', 'Revenue code: Professional fees'],
  ])('puts revenue code %s in %s', (code, category) => {
    expect(codeCategory('RC', code)).toBe(category);
  });

  it('puts 0001 alone in Total charge, not the rest of 001X', () => {
    expect(codeCategory('RC', '0001')).toBe('Revenue code: Total charge');
    expect(codeCategory('RC', '001')).toBe('Revenue code: Total charge');
    expect(codeCategory('RC', '0010')).toBe('Revenue code: Other facility services');
  });

  it('accepts a revenue code written without its leading zero', () => {
    expect(codeCategory('RC', '450')).toBe('Revenue code: Emergency room');
  });
});

describe('codeCategory for other code types', () => {
  it.each(['MS-DRG', 'APR-DRG', 'TRIS-DRG', 'DRG'])('puts %s codes in Inpatient DRG', (type) => {
    expect(codeCategory(type, '470')).toBe('Inpatient DRG');
  });

  it('puts NDC codes in Drugs', () => {
    expect(codeCategory('NDC', '00002-8215-01')).toBe('Drugs (NDC)');
  });

  it('puts APC codes in their own category', () => {
    expect(codeCategory('APC', '5072')).toBe('Ambulatory Payment Classification (APC)');
  });

  it.each(['CDM', 'LOCAL', 'EAPG'])('puts %s codes in Other / hospital-specific', (type) => {
    expect(codeCategory(type, '12345')).toBe('Other / hospital-specific');
  });
});
