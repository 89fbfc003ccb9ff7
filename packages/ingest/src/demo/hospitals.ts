import { npiCheckDigit } from '@ratelens/core';
import type { MrfFormat } from '../model.ts';

/**
 * The fictional demo hospitals. Names always contain "Demo" so that nobody mistakes their prices
 * for real ones; cities and ZIP codes are real so that geocoding places each one in the intended
 * county and CBSA (OMB Bulletin 23-01, checked against census-cbsa/list1_2023). Identity (name,
 * EIN, NPI, address) does not depend on the seed: only prices and payer mixes do.
 *
 * To add a hospital: append an entry with a new `id` (it derives the EIN, NPI and licence), a
 * real city and ZIP, the county FIPS and CBSA that ZIP should geocode to (null outside any CBSA),
 * and the file format it should be written in.
 */
export interface DemoHospital {
  /** Stable small number: derives EIN, NPIs and licence number. */
  id: number;
  name: string;
  street: string;
  city: string;
  state: string;
  stateName: string;
  zip: string;
  countyFips: string;
  /** Intended CBSA code, null for a county outside any metro or micro area. */
  cbsa: string | null;
  format: MrfFormat;
  /** Name of a second, outpatient location at the same address, if any. */
  outpatientCenter: string | null;
  /**
   * The spec's HospitalType and healthsystemType, which CMS files do not carry: set on the loaded
   * hospital after its file is ingested (CMS Hospital General Information's type names).
   */
  hospitalType: string;
  healthSystemType: string;
}

export const DEMO_HOSPITALS: readonly DemoHospital[] = [
  {
    id: 1,
    name: 'Demo Northern Lights Medical Center',
    street: '4100 Lake Otis Pkwy',
    city: 'Anchorage',
    state: 'AK',
    stateName: 'Alaska',
    zip: '99508',
    countyFips: '02020',
    cbsa: '11260',
    format: 'json',
    outpatientCenter: 'Demo Northern Lights Outpatient Surgery Center',
    hospitalType: 'Acute Care Hospitals',
    healthSystemType: 'Part of a health system',
  },
  {
    id: 2,
    name: 'Demo Mat-Su Valley Hospital',
    street: '950 E Bogard Rd',
    city: 'Wasilla',
    state: 'AK',
    stateName: 'Alaska',
    zip: '99654',
    countyFips: '02170',
    cbsa: '11260',
    format: 'json',
    outpatientCenter: null,
    hospitalType: 'Acute Care Hospitals',
    healthSystemType: 'Part of a health system',
  },
  {
    id: 3,
    name: 'Demo Tanana Valley Medical Center',
    street: '1200 Airport Way',
    city: 'Fairbanks',
    state: 'AK',
    stateName: 'Alaska',
    zip: '99701',
    countyFips: '02090',
    cbsa: '21820',
    format: 'json',
    outpatientCenter: null,
    hospitalType: 'Acute Care Hospitals',
    healthSystemType: 'Independent',
  },
  {
    id: 4,
    name: 'Demo Gastineau Channel Hospital',
    street: '1500 Glacier Ave',
    city: 'Juneau',
    state: 'AK',
    stateName: 'Alaska',
    zip: '99801',
    countyFips: '02110',
    cbsa: '27940',
    format: 'csv-tall',
    outpatientCenter: null,
    hospitalType: 'Acute Care Hospitals',
    healthSystemType: 'Independent',
  },
  {
    id: 5,
    name: 'Demo Tongass Community Hospital',
    street: '700 Stedman St',
    city: 'Ketchikan',
    state: 'AK',
    stateName: 'Alaska',
    zip: '99901',
    countyFips: '02130',
    cbsa: '28540',
    format: 'json',
    outpatientCenter: null,
    hospitalType: 'Critical Access Hospitals',
    healthSystemType: 'Independent',
  },
  {
    id: 6,
    name: 'Demo Kuskokwim Delta Hospital',
    street: '450 Ridgecrest Dr',
    city: 'Bethel',
    state: 'AK',
    stateName: 'Alaska',
    zip: '99559',
    countyFips: '02050',
    cbsa: null,
    format: 'csv-wide',
    outpatientCenter: null,
    hospitalType: 'Critical Access Hospitals',
    healthSystemType: 'Independent',
  },
  {
    id: 7,
    name: 'Demo Norton Sound Community Hospital',
    street: '300 Front St',
    city: 'Nome',
    state: 'AK',
    stateName: 'Alaska',
    zip: '99762',
    countyFips: '02180',
    cbsa: null,
    format: 'json',
    outpatientCenter: null,
    hospitalType: 'Critical Access Hospitals',
    healthSystemType: 'Independent',
  },
  {
    id: 8,
    name: 'Demo Central Florida Medical Center',
    street: '1800 E Colonial Dr',
    city: 'Orlando',
    state: 'FL',
    stateName: 'Florida',
    zip: '32803',
    countyFips: '12095',
    cbsa: '36740',
    format: 'json',
    outpatientCenter: 'Demo Central Florida Imaging Center',
    hospitalType: 'Acute Care Hospitals',
    healthSystemType: 'Part of a health system',
  },
  {
    id: 9,
    name: 'Demo Bayshore Hospital',
    street: '2100 Bayshore Blvd',
    city: 'Tampa',
    state: 'FL',
    stateName: 'Florida',
    zip: '33606',
    countyFips: '12057',
    cbsa: '45300',
    format: 'json',
    outpatientCenter: null,
    hospitalType: 'Acute Care Hospitals',
    healthSystemType: 'Part of a health system',
  },
  {
    id: 10,
    name: 'Demo Beacon Hill General Hospital',
    street: '120 Cambridge St',
    city: 'Boston',
    state: 'MA',
    stateName: 'Massachusetts',
    zip: '02114',
    countyFips: '25025',
    cbsa: '14460',
    format: 'json',
    outpatientCenter: 'Demo Beacon Hill Ambulatory Care Center',
    hospitalType: 'Acute Care Hospitals',
    healthSystemType: 'Part of a health system',
  },
  {
    id: 11,
    name: 'Demo Island Community Hospital',
    street: '60 Circuit Ave',
    city: 'Oak Bluffs',
    state: 'MA',
    stateName: 'Massachusetts',
    zip: '02557',
    countyFips: '25007',
    cbsa: '47240',
    format: 'csv-tall',
    outpatientCenter: null,
    hospitalType: 'Critical Access Hospitals',
    healthSystemType: 'Independent',
  },
  {
    id: 12,
    name: 'Demo Magic City Medical Center',
    street: '1400 7th Ave S',
    city: 'Birmingham',
    state: 'AL',
    stateName: 'Alabama',
    zip: '35233',
    countyFips: '01073',
    cbsa: '13820',
    format: 'json',
    outpatientCenter: null,
    hospitalType: 'Acute Care Hospitals',
    healthSystemType: 'Part of a health system',
  },
  {
    id: 13,
    name: 'Demo Bayou City Medical Center',
    street: '6900 Almeda Rd',
    city: 'Houston',
    state: 'TX',
    stateName: 'Texas',
    zip: '77030',
    countyFips: '48201',
    cbsa: '26420',
    format: 'json',
    outpatientCenter: 'Demo Bayou City Surgery Center',
    hospitalType: 'Acute Care Hospitals',
    healthSystemType: 'Independent',
  },
  {
    id: 14,
    name: 'Demo Three Rivers Hospital',
    street: '3800 Centre Ave',
    city: 'Pittsburgh',
    state: 'PA',
    stateName: 'Pennsylvania',
    zip: '15213',
    countyFips: '42003',
    cbsa: '38300',
    format: 'csv-wide',
    outpatientCenter: null,
    hospitalType: 'Acute Care Hospitals',
    healthSystemType: 'Independent',
  },
];

/** Fake EIN: IRS campus prefix "00" is never assigned, so the number cannot be a real employer. */
export function demoEin(hospital: DemoHospital): string {
  return `00${String(9_000_000 + hospital.id)}`;
}

/**
 * Fake type-2 NPIs: real NPIs start with 1 or 2, so a leading 0 can never match one. Each ends
 * in its check digit, as a real one does, so a demo file passes the readers' NPI check.
 */
export function demoNpis(hospital: DemoHospital): string[] {
  const first = `0${String(99_000_000 + hospital.id * 10)}`;
  const nines = hospital.outpatientCenter === null ? [first] : [first, first.slice(0, -1) + '1'];
  return nines.map((nine) => `${nine}${npiCheckDigit(nine)}`);
}

export function demoLicenseNumber(hospital: DemoHospital): string {
  return `DEMO-${hospital.state}-${String(hospital.id).padStart(4, '0')}`;
}

export function demoAddress(hospital: DemoHospital): string {
  return `${hospital.street}, ${hospital.city}, ${hospital.state} ${hospital.zip}`;
}

/** File name per the CMS convention `<ein>_<hospital-name>_standardcharges.<ext>`. */
export function demoFileName(hospital: DemoHospital, format: MrfFormat): string {
  const slug = hospital.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${demoEin(hospital)}_${slug}_standardcharges.${format === 'json' ? 'json' : 'csv'}`;
}
