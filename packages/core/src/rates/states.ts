/**
 * The 50 states, the District of Columbia and Puerto Rico: the jurisdictions that hospital
 * price-transparency files and the OMB CBSA delineation (List 1) cover. FIPS state codes are the
 * ANSI/FIPS 5-2 codes the Census Bureau uses (https://www.census.gov/library/reference/code-lists/ansi.html).
 * Sorted by name, so it can be listed as is.
 */
export interface UsState {
  /** USPS two-letter code. */
  code: string;
  name: string;
  /** Two-digit FIPS state code, zero-padded. */
  fips: string;
}

export const US_STATES: readonly UsState[] = [
  { code: 'AL', name: 'Alabama', fips: '01' },
  { code: 'AK', name: 'Alaska', fips: '02' },
  { code: 'AZ', name: 'Arizona', fips: '04' },
  { code: 'AR', name: 'Arkansas', fips: '05' },
  { code: 'CA', name: 'California', fips: '06' },
  { code: 'CO', name: 'Colorado', fips: '08' },
  { code: 'CT', name: 'Connecticut', fips: '09' },
  { code: 'DE', name: 'Delaware', fips: '10' },
  { code: 'DC', name: 'District of Columbia', fips: '11' },
  { code: 'FL', name: 'Florida', fips: '12' },
  { code: 'GA', name: 'Georgia', fips: '13' },
  { code: 'HI', name: 'Hawaii', fips: '15' },
  { code: 'ID', name: 'Idaho', fips: '16' },
  { code: 'IL', name: 'Illinois', fips: '17' },
  { code: 'IN', name: 'Indiana', fips: '18' },
  { code: 'IA', name: 'Iowa', fips: '19' },
  { code: 'KS', name: 'Kansas', fips: '20' },
  { code: 'KY', name: 'Kentucky', fips: '21' },
  { code: 'LA', name: 'Louisiana', fips: '22' },
  { code: 'ME', name: 'Maine', fips: '23' },
  { code: 'MD', name: 'Maryland', fips: '24' },
  { code: 'MA', name: 'Massachusetts', fips: '25' },
  { code: 'MI', name: 'Michigan', fips: '26' },
  { code: 'MN', name: 'Minnesota', fips: '27' },
  { code: 'MS', name: 'Mississippi', fips: '28' },
  { code: 'MO', name: 'Missouri', fips: '29' },
  { code: 'MT', name: 'Montana', fips: '30' },
  { code: 'NE', name: 'Nebraska', fips: '31' },
  { code: 'NV', name: 'Nevada', fips: '32' },
  { code: 'NH', name: 'New Hampshire', fips: '33' },
  { code: 'NJ', name: 'New Jersey', fips: '34' },
  { code: 'NM', name: 'New Mexico', fips: '35' },
  { code: 'NY', name: 'New York', fips: '36' },
  { code: 'NC', name: 'North Carolina', fips: '37' },
  { code: 'ND', name: 'North Dakota', fips: '38' },
  { code: 'OH', name: 'Ohio', fips: '39' },
  { code: 'OK', name: 'Oklahoma', fips: '40' },
  { code: 'OR', name: 'Oregon', fips: '41' },
  { code: 'PA', name: 'Pennsylvania', fips: '42' },
  { code: 'PR', name: 'Puerto Rico', fips: '72' },
  { code: 'RI', name: 'Rhode Island', fips: '44' },
  { code: 'SC', name: 'South Carolina', fips: '45' },
  { code: 'SD', name: 'South Dakota', fips: '46' },
  { code: 'TN', name: 'Tennessee', fips: '47' },
  { code: 'TX', name: 'Texas', fips: '48' },
  { code: 'UT', name: 'Utah', fips: '49' },
  { code: 'VT', name: 'Vermont', fips: '50' },
  { code: 'VA', name: 'Virginia', fips: '51' },
  { code: 'WA', name: 'Washington', fips: '53' },
  { code: 'WV', name: 'West Virginia', fips: '54' },
  { code: 'WI', name: 'Wisconsin', fips: '55' },
  { code: 'WY', name: 'Wyoming', fips: '56' },
];

const byCode = new Map(US_STATES.map((state) => [state.code, state]));
const byFips = new Map(US_STATES.map((state) => [state.fips, state]));
const byName = new Map(US_STATES.map((state) => [state.name.toLowerCase(), state]));

/** Case-insensitive; undefined for anything that is not one of the 52 (e.g. GU, VI, AS). */
export function stateByCode(code: string): UsState | undefined {
  return byCode.get(code.trim().toUpperCase());
}

export function stateByFips(fips: string): UsState | undefined {
  return byFips.get(fips.trim().padStart(2, '0'));
}

export function stateByName(name: string): UsState | undefined {
  return byName.get(name.trim().toLowerCase());
}

/**
 * Hospitals in a county outside every CBSA are grouped per state as that state's
 * non-metropolitan area. Its code has the 5 characters of a CBSA code so it fits the same column:
 * "99" + the three-digit zero-padded FIPS state code ("99002" for Alaska). CBSA codes are
 * 10000 to 49999 (the highest in List 1 2023 is 49820), so the two never collide.
 */
export function nonMetroAreaCode(stateCode: string): string {
  const state = stateByCode(stateCode);
  if (!state) throw new Error(`Unknown state code: ${stateCode}`);
  return `99${state.fips.padStart(3, '0')}`;
}

export function nonMetroAreaName(stateCode: string): string {
  const state = stateByCode(stateCode);
  if (!state) throw new Error(`Unknown state code: ${stateCode}`);
  return `${state.name} non-metropolitan area`;
}

/** True for a code made by {@link nonMetroAreaCode}. */
export function isNonMetroAreaCode(code: string): boolean {
  return /^99\d{3}$/.test(code);
}
