import { describe, expect, it } from 'vitest';
import { isOriginalMedicare, lineOfBusiness } from './line-of-business.ts';

describe('lineOfBusiness', () => {
  // Every payer/plan pair of Martha's Vineyard Hospital's file.
  it.each([
    ['AETNA [1001]', 'HB MVH AETNA', 'commercial'],
    ['AETNA [1001]', 'HB MVH MEDICARE', 'medicare-advantage'],
    ['BLUE CROSS BLUE SHIELD [110001]', 'HB MVH BLUE CROSS HMO', 'commercial'],
    ['BLUE CROSS BLUE SHIELD [110001]', 'HB MVH BLUE CROSS INDEMNITY', 'commercial'],
    ['BLUE CROSS BLUE SHIELD [110001]', 'HB MVH BLUE CROSS PPO', 'commercial'],
    ['BLUE CROSS BLUE SHIELD [110001]', 'HB MVH MEDICARE', 'medicare-advantage'],
    ['CIGNA ALTERNATE [1018]', 'HB MVH CIGNA HMO / PPO', 'commercial'],
    ['CIGNA [1006]', 'HB MVH CIGNA HMO / PPO', 'commercial'],
    ['COMMONWEALTH CARE ALLIANCE [1007]', 'HB MVH MEDICARE', 'medicare-advantage'],
    ['GENERIC MEDICARE REPLACEMENT [1010]', 'HB MVH MEDICARE', 'medicare-advantage'],
    ['HARVARD PILGRIM ALTERNATE [120002]', 'HB MVH HPHC HMO / POS / PPO', 'commercial'],
    ['HARVARD PILGRIM [120001]', 'HB MVH HPHC HMO / POS / PPO', 'commercial'],
    ['HUMANA [1012]', 'HB MVH MEDICARE', 'medicare-advantage'],
    ['INTERNATIONAL COMMERCIAL [140001]', 'HB MVH CIGNA HMO / PPO', 'commercial'],
    ['INTERNATIONAL COMMERCIAL [140001]', 'HB MVH UNITED HMO / PPO / INDEMNITY', 'commercial'],
    // MassHealth itself pays the hospital: fee-for-service, as original Medicare.
    ['MASSHEALTH [3001]', 'HB MVH MEDICAID', 'other'],
    ['MEDICARE ALTERNATE [2002]', 'HB MVH MEDICARE', 'other'],
    ['MEDICARE [2001]', 'HB MVH MEDICARE', 'other'],
    // Not Martha's: dual-eligible managed plans written under Medicare itself.
    ['MEDICARE [2001]', 'HB MVH SCO', 'medicare-advantage'],
    ['Medicare', 'One Care', 'medicare-advantage'],
    ['MGB HEALTH PLAN [150001]', 'HB MVH MEDICAID', 'medicaid-managed-care'],
    ['MGB HEALTH PLAN [150001]', 'HB MVH MEDICARE', 'medicare-advantage'],
    ['MGB HEALTH PLAN [150001]', 'HB MVH MGBHP COMMERCIAL GIC', 'commercial'],
    ['MGB HEALTH PLAN [150001]', 'HB MVH MGBHP COMMERCIAL HMO', 'commercial'],
    ['MGB HEALTH PLAN [150001]', 'HB MVH MGBHP COMMERCIAL PPO', 'commercial'],
    ['PHCS MULTIPLAN [1022]', 'HB MVH CLARITEV', 'commercial'],
    ['TUFTS HEALTH PLAN [170001]', 'HB MVH MEDICARE', 'medicare-advantage'],
    ['UNITED HEALTHCARE ALTERNATE [1020]', 'HB MVH HPHC HMO / POS / PPO', 'commercial'],
    ['UNITED HEALTHCARE [1016]', 'HB MVH MEDICARE', 'medicare-advantage'],
    ['UNITED HEALTHCARE [1016]', 'HB MVH UNITED HMO / PPO / INDEMNITY', 'commercial'],
    ['WELLSENSE [1003]', 'HB MVH WELLSENSE MCO', 'medicaid-managed-care'],
  ])("classifies Martha's Vineyard %s / %s as %s", (payer, plan, line) => {
    expect(lineOfBusiness(payer, plan)).toBe(line);
  });

  // Every payer/plan pair of AdventHealth Orlando's file.
  it.each([
    ['Adventhealth Castcare Disney', 'Hmo', 'commercial'],
    ['Aetna', 'Better Health Medicaid Managed Care Plan', 'medicaid-managed-care'],
    ['Aetna', 'Exchange', 'exchange'],
    ['Aetna', 'Hmo/Ppo', 'commercial'],
    ['Aetna', 'Medicare Managed Care Plan', 'medicare-advantage'],
    ['Allegiance', 'Health First Employee', 'commercial'],
    ['Avmed', 'Hmo', 'commercial'],
    ['Bcbs', 'Blue Options/Network Blue Other Commercial Plan', 'commercial'],
    ['Bcbs', 'Blueselect Ppo', 'commercial'],
    ['Bcbs', 'Global Transplant Medicare Managed Care Plan', 'medicare-advantage'],
    ['Bcbs', 'Hmo', 'commercial'],
    ['Bcbs', 'Lucet Health Medicare Managed Care - Behavioral Health', 'medicare-advantage'],
    ['Bcbs', 'Medicare Managed Care - Hmo', 'medicare-advantage'],
    ['Bcbs', 'Medicare Managed Care - Ppo', 'medicare-advantage'],
    ['Bcbs', 'Myblue Hmo Exchange', 'exchange'],
    ['Bcbs', 'Phs Traditional', 'commercial'],
    ['Bcbs', 'Ppo', 'commercial'],
    ['Carelon', 'Medicaid Managed Care - Behavioral Health', 'medicaid-managed-care'],
    ['Carelon', 'Medicare Managed Care - Behavioral Health', 'medicare-advantage'],
    ['Centene', 'Wellcare Medicare Managed Care - Behavioral Health', 'medicare-advantage'],
    ['Centene', 'Wellcare Medicare Managed Care Plan', 'medicare-advantage'],
    ['Cigna', 'Evernorth Medicare Managed Care - Behavioral Health', 'medicare-advantage'],
    ['Cigna', 'Hmo/Ppo', 'commercial'],
    ['Cigna', 'Medicare Managed Care Plan', 'medicare-advantage'],
    ['Cigna', 'Surefit Epo', 'commercial'],
    ['Community Care Plan', 'Healthy Kids Medicaid Managed Care Plan', 'medicaid-managed-care'],
    ['Devoted Health', 'Global Transplant Medicare Managed Care Plan', 'medicare-advantage'],
    ['Devoted Health', 'Medicare Managed Care Plan', 'medicare-advantage'],
    ['First Health', 'All Commercial Plans', 'commercial'],
    ['Freedom Health', 'Medicare Managed Care Plan', 'medicare-advantage'],
    ['Health First Health Plans', 'Hmo', 'commercial'],
    ['Health First Health Plans', 'Medicare Managed Care Plan', 'medicare-advantage'],
    ['Humana', 'Careplus Medicare Managed Care - Hmo', 'medicare-advantage'],
    ['Humana', 'Gold Choice Pffs Medicare Managed Care Plan', 'medicare-advantage'],
    ['Humana', 'Medicare Managed Care - Behavioral Health', 'medicare-advantage'],
    ['Humana', 'Medicare Managed Care Plan', 'medicare-advantage'],
    ['Longevity Health Plan', 'Medicare Managed Care Plan', 'medicare-advantage'],
    ['Magellan Health', 'Medicare Managed Care - Behavioral Health', 'medicare-advantage'],
    ['Molina Healthcare', 'Medicaid Managed Care Plan', 'medicaid-managed-care'],
    ['Optimum Healthcare', 'Medicare Managed Care Plan', 'medicare-advantage'],
    ['Optum', 'Global Transplant Medicare Managed Care Plan', 'medicare-advantage'],
    ['Oscar', 'Individual Plan Exchange', 'exchange'],
    ['Private Healthcare Systems Ppo', 'Ppo', 'commercial'],
    ['Simply Healthcare', 'Global Transplant Medicaid Managed Care Plan', 'medicaid-managed-care'],
    ['Simply Healthcare', 'Medicaid Managed Care Plan', 'medicaid-managed-care'],
    ['Simply Healthcare', 'Medicare Managed Care Plan', 'medicare-advantage'],
    ['Sunshine State Health Plan', 'Ambetter Exchange', 'exchange'],
    ['Sunshine State Health Plan', 'Medicaid Managed Care Plan', 'medicaid-managed-care'],
    [
      'Sunshine State Health Plan',
      'Transplant Medicaid Managed Care Plan',
      'medicaid-managed-care',
    ],
    ['Unitedhealthcare', 'All Commercial Plans', 'commercial'],
    ['Unitedhealthcare', 'Community Plan Medicaid Managed Care Plan', 'medicaid-managed-care'],
    ['Unitedhealthcare', 'Exchange', 'exchange'],
    ['Unitedhealthcare', 'Global Transplant Medicaid Managed Care Plan', 'medicaid-managed-care'],
    ['Unitedhealthcare', 'Global Transplant Medicare Managed Care Plan', 'medicare-advantage'],
    ['Unitedhealthcare', 'Medicare Managed Care - Behavioral Health', 'medicare-advantage'],
    ['Unitedhealthcare', 'Medicare Managed Care Plan', 'medicare-advantage'],
    ['Unitedhealthcare', 'Neighborhood Health Partnership Other Commercial Plan', 'commercial'],
    ['Unitedhealthcare', 'Nexus Other Commercial Plan', 'commercial'],
    ['Upmc For Life', 'Medicare Managed Care Plan', 'medicare-advantage'],
    ['Upmc Health Plan', 'Hmo', 'commercial'],
  ])('classifies AdventHealth %s / %s as %s', (payer, plan, line) => {
    expect(lineOfBusiness(payer, plan)).toBe(line);
  });

  // The pairs AdventHealth Orlando's file names only in its modifier_information (the TC
  // modifier's payers), which are loaded as plans too.
  it.each([
    ['Aetna', 'ASA PPO', 'commercial'],
    ['Aetna', 'Better Health Healthy Kids Medicaid Managed Care Plan', 'medicaid-managed-care'],
    ['Aetna', 'International PPO', 'commercial'],
    [
      'Centene',
      'Childrens Medical Services Health Plan Medicaid Managed Care Plan',
      'medicaid-managed-care',
    ],
    ['Florida Community Care', 'Medicaid Managed Care Plan', 'medicaid-managed-care'],
    ['Global Benefits Group', 'International PPO', 'commercial'],
    ['Global Medical Management International', 'PPO', 'commercial'],
    ['Lucet Health', 'Behavioral Health Plan', 'commercial'],
    // myBlue is Florida Blue's individual-market plan: its behavioural health carve-out too.
    ['Lucet Health', 'MyBlue Behavioral Health Plan', 'exchange'],
    ['Multiplan', 'PPO', 'commercial'],
    ['National Healthcare Solutions', 'All Commercial Plans', 'commercial'],
    ['Plotkin Health', 'PPO', 'commercial'],
    ['Simply Healthcare', 'Healthy Kids Medicaid Managed Care Plan', 'medicaid-managed-care'],
    ['UnitedHealthCare', 'Medicaid Managed Care - Behavioral Health', 'medicaid-managed-care'],
  ])('classifies AdventHealth modifier payer %s / %s as %s', (payer, plan, line) => {
    expect(lineOfBusiness(payer, plan)).toBe(line);
  });

  it.each([
    ['Aetna', 'MA PPO', 'medicare-advantage'],
    ['Humana', 'Dual Eligible SNP', 'medicare-advantage'],
    ['Anthem', 'CHIP', 'medicaid-managed-care'],
    ['Ambetter', 'Silver', 'exchange'],
    ['Cigna', 'Marketplace', 'exchange'],
    ['Liberty Mutual', "Workers' Compensation", 'other'],
    ['Geico', 'Auto', 'other'],
    ['TRICARE', 'Prime', 'other'],
    ['Medicare', 'Medicare Advantage', 'medicare-advantage'],
    // Fee-for-service Medicaid is the state paying directly, not managed care.
    ['Alaska Medicaid', 'Fee for Service', 'other'],
    ['Medicaid', 'FFS', 'other'],
    ['Texas Medicaid Managed Care', 'STAR', 'medicaid-managed-care'],
    ['Molina', 'Medicaid Managed Care FFS Carve-out', 'medicaid-managed-care'],
    // The state's programme as the payer: its own plan is fee-for-service, a named one managed.
    ['Medicaid', 'Medicaid', 'other'],
    ['MassHealth', 'Medicaid ACO', 'medicaid-managed-care'],
    ['TennCare', 'BlueCare', 'medicaid-managed-care'],
    ['Medi-Cal', 'Medi-Cal HMO', 'medicaid-managed-care'],
  ])('classifies %s / %s as %s', (payer, plan, line) => {
    expect(lineOfBusiness(payer, plan)).toBe(line);
  });

  // Names an audit found classified as commercial.
  it.each([
    ['Tufts Health Plan', 'Tufts Health Plan SCO', 'medicare-advantage'],
    ['Commonwealth Care Alliance', 'One Care', 'medicare-advantage'],
    ['Tufts Health Direct', 'ConnectorCare', 'exchange'],
    ['Harvard Pilgrim', 'Health Connector HMO', 'exchange'],
    ['VA', 'HMO', 'other'],
    ['Department of Veterans Affairs', 'PPO', 'other'],
    ['Veterans Administration', 'PPO', 'other'],
    ['Veterans Health Administration', 'PPO', 'other'],
    ['Optum VA', 'Community Care Network', 'other'],
    ['TriWest Healthcare Alliance', 'VA CCN', 'other'],
    ['Staywell Health Plan', 'HMO', 'medicaid-managed-care'],
    ['Humana', 'Humana Gold Plus HMO', 'medicare-advantage'],
    ['Florida Blue', 'BlueMedicare HMO', 'medicare-advantage'],
  ])('classifies the audited %s / %s as %s', (payer, plan, line) => {
    expect(lineOfBusiness(payer, plan)).toBe(line);
  });

  // What the audit's rules must not catch: Virginia's "VA", and a glued "OneCare".
  it.each([
    ['Aetna', 'Better Health of VA Medicaid Managed Care Plan', 'medicaid-managed-care'],
    ['Anthem HealthKeepers VA', 'PPO', 'commercial'],
    ['OneCare Vermont', 'Commercial ACO', 'commercial'],
  ])('classifies %s / %s as %s, not by the VA or One Care', (payer, plan, line) => {
    expect(lineOfBusiness(payer, plan)).toBe(line);
  });

  // "Medicare" in a plan that is not Medicare Advantage.
  it.each([
    ['Aetna', 'Non-Medicare', 'commercial'],
    ['Cigna', 'NonMedicare HMO', 'commercial'],
    ['UnitedHealthcare', 'Non Medicare Advantage', 'commercial'],
    ['Aetna', 'Pre-Medicare Retiree PPO', 'commercial'],
    ['Non-Medicare Commercial', 'PPO', 'commercial'],
    ['Blue Cross Blue Shield', 'Non-Medicare Exchange', 'exchange'],
    ['Aetna', 'Medicare Supplement', 'other'],
    ['AARP', 'Medigap Plan G', 'other'],
    ['Humana', 'Gold Plus HMO', 'medicare-advantage'],
    ['Humana', 'Gold Plus H1036-200', 'medicare-advantage'],
    ['Humana', 'Medicaid Gold Plus', 'medicaid-managed-care'],
    ['Aetna', 'Gold Plus PPO', 'commercial'],
  ])('classifies %s / %s as %s', (payer, plan, line) => {
    expect(lineOfBusiness(payer, plan)).toBe(line);
  });

  // Original Medicare and a state's own Medicaid, however the payer column spells them.
  it.each([
    ['MEDICARE PART A & B', 'TRADITIONAL MEDICARE', 'other'],
    ['MEDICARE A', 'MEDICARE A', 'other'],
    ['Medicare B', 'Medicare B', 'other'],
    ['Medicare Part A/B', 'Medicare', 'other'],
    ['Medicare (Novitas)', 'Medicare', 'other'],
    ['Centers for Medicare & Medicaid Services', 'Medicare', 'other'],
    ['Novitas Solutions', 'Medicare Part B', 'other'],
    ['Medicare Part C', 'Medicare', 'medicare-advantage'],
    ['Aetna', 'Medicare Advantage PPO', 'medicare-advantage'],
    ['Florida Medicaid', 'Medicaid', 'other'],
    ['FL MEDICAID', 'MEDICAID', 'other'],
    ['Alabama Medicaid', 'Medicaid', 'other'],
    ['Texas Medicaid', 'Traditional Medicaid', 'other'],
    ['NY Medicaid', 'NY Medicaid', 'other'],
    ['Florida Medicaid', 'Medicaid Managed Care', 'medicaid-managed-care'],
    ['Sunshine Health', 'Medicaid', 'medicaid-managed-care'],
    // A managed product named in the payer column, or "Non-Traditional Medicare", is MA.
    ['Humana Gold Plus HMO', 'Medicare Part B', 'medicare-advantage'],
    ['Aetna Medicare Advantage', 'Traditional Medicare', 'medicare-advantage'],
    ['Humana', 'Gold Plus Medicare B', 'medicare-advantage'],
    ['Humana', 'Non-Traditional Medicare', 'medicare-advantage'],
    ['Medicare', 'Medicare Part C', 'medicare-advantage'],
    ['Humana', 'Medicare AB', 'other'],
    ['Palmetto GBA', 'Medicare', 'other'],
    ['CMS', 'CMS Health Plan', 'commercial'],
  ])('classifies %s / %s as %s', (payer, plan, line) => {
    expect(lineOfBusiness(payer, plan)).toBe(line);
  });

  it('tells original Medicare apart for the inventory, whatever its line of business says', () => {
    expect(isOriginalMedicare('Novitas Solutions', 'Medicare Part B')).toBe(true);
    expect(isOriginalMedicare('MEDICARE [2001]', 'HB MVH MEDICARE')).toBe(true);
    expect(isOriginalMedicare('Humana', 'Non-Traditional Medicare')).toBe(false);
    expect(isOriginalMedicare('AETNA [1001]', 'HB MVH MEDICARE')).toBe(false);
  });
});
