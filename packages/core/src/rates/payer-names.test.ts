import { describe, expect, it } from 'vitest';
import { canonicalPayer, normalisePayerText, payerDisplayName } from './payer-names.ts';

describe('canonicalPayer', () => {
  // Every payer_name of Martha's Vineyard Hospital's 2026-03-27 file (cp1252 tall CSV).
  it.each([
    ['AETNA [1001]', 'Aetna'],
    ['BLUE CROSS BLUE SHIELD [110001]', 'Blue Cross Blue Shield'],
    ['CIGNA ALTERNATE [1018]', 'Cigna'],
    ['CIGNA [1006]', 'Cigna'],
    ['COMMONWEALTH CARE ALLIANCE [1007]', 'Commonwealth Care Alliance'],
    ['GENERIC MEDICARE REPLACEMENT [1010]', 'Generic Medicare Replacement'],
    ['HARVARD PILGRIM ALTERNATE [120002]', 'Harvard Pilgrim Health Care'],
    ['HARVARD PILGRIM [120001]', 'Harvard Pilgrim Health Care'],
    ['HUMANA [1012]', 'Humana'],
    ['INTERNATIONAL COMMERCIAL [140001]', 'International Commercial'],
    ['MASSHEALTH [3001]', 'Medicaid'],
    ['MEDICARE ALTERNATE [2002]', 'Medicare'],
    ['MEDICARE [2001]', 'Medicare'],
    ['MGB HEALTH PLAN [150001]', 'Mass General Brigham Health Plan'],
    ['PHCS MULTIPLAN [1022]', 'MultiPlan'],
    ['TUFTS HEALTH PLAN [170001]', 'Tufts Health Plan'],
    ['UNITED HEALTHCARE ALTERNATE [1020]', 'UnitedHealthcare'],
    ['UNITED HEALTHCARE [1016]', 'UnitedHealthcare'],
    ['WELLSENSE [1003]', 'WellSense Health Plan'],
  ])("maps Martha's Vineyard payer %s to %s", (name, canonical) => {
    expect(canonicalPayer(name)).toBe(canonical);
  });

  // Every payer_name of AdventHealth Orlando's v3.0.0 JSON file.
  it.each([
    ['Adventhealth Castcare Disney', 'Adventhealth Castcare Disney'],
    ['Aetna', 'Aetna'],
    ['Allegiance', 'Allegiance'],
    ['Avmed', 'AvMed'],
    ['Bcbs', 'Blue Cross Blue Shield'],
    ['Carelon', 'Carelon'],
    ['Centene', 'Centene'],
    ['Cigna', 'Cigna'],
    ['Community Care Plan', 'Community Care Plan'],
    ['Devoted Health', 'Devoted Health'],
    ['First Health', 'First Health'],
    ['Freedom Health', 'Freedom Health'],
    ['Health First Health Plans', 'Health First Health Plans'],
    ['Humana', 'Humana'],
    ['Longevity Health Plan', 'Longevity Health Plan'],
    ['Magellan Health', 'Magellan Health'],
    ['Molina Healthcare', 'Molina Healthcare'],
    ['Optimum Healthcare', 'Optimum Healthcare'],
    ['Optum', 'Optum'],
    ['Oscar', 'Oscar Health'],
    ['Private Healthcare Systems Ppo', 'MultiPlan'],
    ['Simply Healthcare', 'Simply Healthcare'],
    ['Sunshine State Health Plan', 'Centene'],
    ['Unitedhealthcare', 'UnitedHealthcare'],
    ['Upmc For Life', 'UPMC Health Plan'],
    ['Upmc Health Plan', 'UPMC Health Plan'],
  ])('maps AdventHealth payer %s to %s', (name, canonical) => {
    expect(canonicalPayer(name)).toBe(canonical);
  });

  it.each([
    ['BCBS', 'Blue Cross Blue Shield'],
    ['Blue Cross Blue Shield of Florida', 'Blue Cross Blue Shield'],
    ['Florida Blue', 'Blue Cross Blue Shield'],
    ['Anthem Blue Cross', 'Blue Cross Blue Shield'],
    ['Highmark BCBS', 'Blue Cross Blue Shield'],
    ['UHC', 'UnitedHealthcare'],
    ['United Healthcare', 'UnitedHealthcare'],
    ['UMR', 'UnitedHealthcare'],
    ['Ambetter from Sunshine Health', 'Centene'],
    ['WellCare', 'Centene'],
    ['Staywell Health Plan', 'Centene'],
    ['Kaiser Foundation Health Plan', 'Kaiser Permanente'],
    ['TRICARE East', 'TRICARE'],
    ['Humana Military', 'TRICARE'],
    ['Medi-Cal', 'Medicaid'],
    ['Medicare Part B', 'Medicare'],
    ['VA', 'Veterans Affairs'],
    ['Department of Veterans Affairs', 'Veterans Affairs'],
    ['Veterans Health Administration', 'Veterans Affairs'],
    ['VA Community Care Network', 'Veterans Affairs'],
    ['Optum VA CCN', 'Veterans Affairs'],
    ['CHAMPVA', 'Veterans Affairs'],
    ['Optum', 'Optum'],
    ['Anthem HealthKeepers VA', 'Blue Cross Blue Shield'],
    ['Virginia Premier VA', 'Virginia Premier VA'],
    ['BlueMedicare HMO', 'Blue Cross Blue Shield'],
    ['BlueCare Tennessee', 'Blue Cross Blue Shield'],
    ['BlueChoice HealthPlan', 'Blue Cross Blue Shield'],
    ['Blue Advantage', 'Blue Cross Blue Shield'],
    ['Healthy Blue', 'Blue Cross Blue Shield'],
    ['IBX', 'Blue Cross Blue Shield'],
    ['AARP Medicare Advantage', 'UnitedHealthcare'],
    ['Golden Rule', 'UnitedHealthcare'],
    ['Oxford Health Plans', 'UnitedHealthcare'],
    ['Surest', 'UnitedHealthcare'],
    ['Coventry Health Care', 'Aetna'],
    ['Coventry Workers Comp', 'Coventry Workers Comp'],
    ['Health Net Federal Services', 'TRICARE'],
    ['Health Net of California', 'Centene'],
    ['MEDICARE PART A & B', 'Medicare'],
    ['MEDICARE A', 'Medicare'],
    ['Medicare B', 'Medicare'],
    ['Medicare Part A/B', 'Medicare'],
    ['Medicare (Novitas)', 'Medicare'],
    ['CMS', 'Cms'],
    ['Palmetto GBA', 'Medicare'],
    ['Noridian Healthcare Solutions', 'Medicare'],
    ['WPS', 'Wps'],
    ['Medicare Part C', 'Medicare Part C'],
    ['Florida Medicaid', 'Medicaid'],
    ['FL MEDICAID', 'Medicaid'],
    ['New York Medicaid', 'Medicaid'],
    ['State of Alabama Medicaid', 'Medicaid'],
    ['Medicaid of Texas', 'Medicaid'],
    ['Aetna Better Health Medicaid', 'Aetna'],
  ])('groups the common alias %s under %s', (name, canonical) => {
    expect(canonicalPayer(name)).toBe(canonical);
  });

  it('keeps a Medicare product of a company under the company', () => {
    expect(canonicalPayer('Aetna Medicare')).toBe('Aetna');
  });

  it('cleans an unknown name without inventing one', () => {
    expect(canonicalPayer('  ACME  health & wellness, inc. ')).toBe('Acme Health And Wellness Inc');
  });

  it('returns an empty name for an empty name', () => {
    expect(canonicalPayer('  ')).toBe('');
  });
});

describe('normalisePayerText', () => {
  it('drops bracketed ids and punctuation and lower-cases', () => {
    expect(normalisePayerText('UNITED HEALTHCARE [1016]')).toBe('united healthcare');
    expect(normalisePayerText("Medi-Cal (CA) St. Mary's")).toBe('medi cal ca st marys');
  });
});

describe('a payer name of many "[" and no "]"', () => {
  // The bracket pattern tried each "[" against the rest: 300,000 of them took minutes.
  it('is read at once', () => {
    const name = `Aetna ${'['.repeat(300_000)}`;
    expect(normalisePayerText(name)).toBe('aetna');
    expect(canonicalPayer(name)).toBe('Aetna');
    expect(payerDisplayName(name)).toBe(name);
  });

  it('still loses its bracketed ids before the last "]"', () => {
    expect(payerDisplayName('[1007] CIGNA [[x] [')).toBe('CIGNA [');
  });
});

describe('payerDisplayName', () => {
  it("leaves out the file's bracketed payer ids (Martha's Vineyard), and nothing else", () => {
    expect(payerDisplayName('BLUE CROSS BLUE SHIELD [110001]')).toBe('BLUE CROSS BLUE SHIELD');
    expect(payerDisplayName('CIGNA ALTERNATE [1018]')).toBe('CIGNA ALTERNATE');
    expect(payerDisplayName('[1007] COMMONWEALTH  CARE [x] ALLIANCE')).toBe(
      'COMMONWEALTH CARE ALLIANCE',
    );
    expect(payerDisplayName('Bcbs')).toBe('Bcbs');
    expect(payerDisplayName('Aetna (Medicare)')).toBe('Aetna (Medicare)');
  });

  it('keeps a name that is nothing but brackets, and an empty one empty', () => {
    expect(payerDisplayName(' [1001] ')).toBe('[1001]');
    expect(payerDisplayName('')).toBe('');
  });
});
