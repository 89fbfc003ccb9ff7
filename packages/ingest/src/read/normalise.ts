import type { CmsVersion, Methodology, Setting } from '../model.ts';
import type { ValidationReport } from '../validate/report.ts';

/**
 * Value normalisers shared by the JSON and CSV readers. They run once per value of millions of
 * rows, so they take the common case (already clean) first and allocate only when they must.
 */

const SETTINGS: ReadonlySet<string> = new Set<Setting>(['inpatient', 'outpatient', 'both']);
const METHODOLOGIES: ReadonlySet<string> = new Set<Methodology>([
  'case rate',
  'fee schedule',
  'percent of total billed charges',
  'per diem',
  'other',
]);
const DRUG_TYPES: ReadonlySet<string> = new Set(['GR', 'ML', 'ME', 'UN', 'F2', 'GM', 'EA']);

const CODE_TYPES_V2 = [
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
];
/** CMS code types by version (v3.0 added CMG and MS-LTC-DRG). */
export const CODE_TYPES_V2_SET: ReadonlySet<string> = new Set(CODE_TYPES_V2);
export const CODE_TYPES_V3_SET: ReadonlySet<string> = new Set([
  ...CODE_TYPES_V2,
  'CMG',
  'MS-LTC-DRG',
]);

export const STATE_CODES: ReadonlySet<string> = new Set(
  (
    'AL AK AS AZ AR CA CO CT DE DC FM FL GA GU HI ID IL IN IA KS KY LA ME MH MD MA MI MN MS MO MT ' +
    'NE NV NH NJ NM NY NC ND MP OH OK OR PW PA PR RI SC SD TN TX UT VT VI VA WA WV WI WY'
  ).split(' '),
);

/** Trims a free-text value; empty becomes null. Reports stray spaces only when asked. */
export function text(raw: string): string | null {
  if (raw.length === 0) return null;
  const first = raw.charCodeAt(0);
  const last = raw.charCodeAt(raw.length - 1);
  if (first > 32 && last > 32) return raw;
  const trimmed = raw.trim();
  return trimmed.length === 0 ? null : trimmed;
}

const WHITESPACE_RUN = /\s{2,}|[\t\r\n]/;
const WHITESPACE_RUNS = /\s+/g;

/**
 * Payer and plan names: trimmed and inner whitespace collapsed, so that "Aetna  PPO " and
 * "Aetna PPO" are one plan, and written as first seen in the file whatever their letter case, so
 * that AdventHealth's "Bcbs", "Hmo" of its items and "BCBS", "HMO" of its modifiers are one plan
 * too. Names repeat on every row, so results are cached.
 */
export class NameNormaliser {
  private readonly cache = new Map<string, { value: string | null; changed: boolean }>();
  /** The first spelling of each name, by its lower case. */
  private readonly spellings = new Map<string, string>();

  constructor(private readonly report: ValidationReport) {}

  name(raw: string, location: string): string | null {
    let hit = this.cache.get(raw);
    if (hit === undefined) {
      let value = text(raw);
      if (value !== null && WHITESPACE_RUN.test(value)) value = value.replace(WHITESPACE_RUNS, ' ');
      const changed = value !== null && value !== raw;
      if (value !== null) {
        const key = value.toLowerCase();
        const first = this.spellings.get(key);
        if (first === undefined) this.spellings.set(key, value);
        else value = first;
      }
      hit = { value, changed };
      if (this.cache.size > 50_000) {
        this.cache.clear();
        this.spellings.clear();
      }
      this.cache.set(raw, hit);
    }
    if (hit.changed) this.report.add('whitespace.trimmed', location, JSON.stringify(raw));
    return hit.value;
  }
}

/** What some files write in empty cells. */
const PLACEHOLDERS: ReadonlySet<string> = new Set(['n/a', 'na', '-', 'null', 'none']);

/**
 * A CSV or JSON-string amount. Returns null for empty, NaN for unreadable (reported), and
 * accepts "$1,234.50" with a warning. `positive` applies the schemas' exclusiveMinimum 0.
 */
export function amount(
  raw: string,
  report: ValidationReport,
  location: string,
  field: string,
): number | null {
  if (raw.length === 0) return null;
  let n = Number(raw);
  if (Number.isNaN(n) || (n === 0 && raw.trim().length === 0)) {
    const trimmed = raw.trim();
    if (trimmed.length === 0) return null;
    const cleaned = trimmed.replace(/[$,\s]/g, '');
    n = cleaned.length > 0 ? Number(cleaned) : Number.NaN;
    if (!Number.isFinite(n) && PLACEHOLDERS.has(trimmed.toLowerCase())) {
      report.add('value.placeholder', location, `${field} ${JSON.stringify(raw)}`);
      return null;
    }
    if (!Number.isFinite(n)) {
      report.add('number.invalid', location, `${field} ${JSON.stringify(raw)}`);
      return Number.NaN;
    }
    report.add('number.formatted', location, `${field} ${JSON.stringify(raw)}`);
  } else if (!Number.isFinite(n)) {
    report.add('number.invalid', location, `${field} ${JSON.stringify(raw)}`);
    return Number.NaN;
  }
  if (n <= 0) {
    report.add('number.not-positive', location, `${field} ${raw}`);
    return Number.NaN;
  }
  return n;
}

/** A JSON value where the schema wants a number: numbers pass, numeric strings are warned. */
export function jsonAmount(
  value: unknown,
  report: ValidationReport,
  location: string,
  field: string,
): number | null {
  if (typeof value === 'number') {
    if (value > 0) return value;
    report.add('number.not-positive', location, `${field} ${value}`);
    return Number.NaN;
  }
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    const n = amount(value, report, location, field);
    if (n !== null && !Number.isNaN(n))
      report.add('number.as-string', location, `${field} "${value}"`);
    return n;
  }
  report.add('json.wrong-type', location, `${field} should be a number`);
  return Number.NaN;
}

/** A JSON value where the schema wants a string; numbers are accepted as their text. */
export function jsonText(
  value: unknown,
  report: ValidationReport,
  location: string,
  field: string,
): string | null {
  if (typeof value === 'string') return text(value);
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  report.add('json.wrong-type', location, `${field} should be a string`);
  return null;
}

function enumValue(
  raw: string,
  allowed: ReadonlySet<string>,
  report: ValidationReport,
  location: string,
): string | undefined {
  if (allowed.has(raw)) return raw;
  const lower = raw.trim().replace(WHITESPACE_RUNS, ' ').toLowerCase();
  if (!allowed.has(lower)) return undefined;
  if (lower === raw.toLowerCase()) report.add('enum.title-case', location, JSON.stringify(raw));
  else report.add('whitespace.trimmed', location, JSON.stringify(raw));
  return lower;
}

/** Setting: null when empty, undefined when unknown (the caller reports it). */
export function setting(
  raw: string,
  report: ValidationReport,
  location: string,
): Setting | null | undefined {
  if (raw.length === 0) return null;
  if (raw.trim().length === 0) return null;
  return enumValue(raw, SETTINGS, report, location) as Setting | undefined;
}

export function methodology(
  raw: string,
  report: ValidationReport,
  location: string,
): Methodology | null | undefined {
  if (raw.length === 0) return null;
  if (raw.trim().length === 0) return null;
  return enumValue(raw, METHODOLOGIES, report, location) as Methodology | undefined;
}

/** Splits "a | b|c" on pipes, trimming each part and dropping empty ones. */
export function splitPipes(raw: string): string[] {
  if (raw.length === 0) return [];
  if (raw.indexOf('|') === -1) {
    const t = text(raw);
    return t === null ? [] : [t];
  }
  const out: string[] = [];
  for (const part of raw.split('|')) {
    const t = text(part);
    if (t !== null) out.push(t);
  }
  return out;
}

/** An ISO date from YYYY-MM-DD (as CMS asks) or the MM/DD/YYYY and M/D/YYYY seen in real files. */
export function isoDate(raw: string, report: ValidationReport, location: string): string | null {
  const value = raw.trim();
  if (value.length === 0) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(value);
  if (iso && validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]))) {
    return `${iso[1]}-${iso[2]}-${iso[3]}`;
  }
  const us = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(value);
  if (us) {
    const [month, day, year] = [Number(us[1]), Number(us[2]), Number(us[3])];
    if (validDate(year, month, day)) {
      report.add('date.mm-dd-yyyy', location, JSON.stringify(raw));
      return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    }
  }
  report.add('date.invalid', location, JSON.stringify(raw));
  return null;
}

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The CMS version a declared value means: "3.0.0", "V3.0", "3" → 3.0.0; "2.2" → 2.2.0. Returns
 * null when it names no version this reader knows.
 */
export function cmsVersion(raw: string): CmsVersion | null {
  const m = /^v?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/i.exec(raw.trim());
  if (!m) return null;
  const major = Number(m[1]);
  const minor = Number(m[2] ?? '0');
  const patch = Number(m[3] ?? '0');
  if (major === 3 && minor === 0) return '3.0.0';
  if (major !== 2) return null;
  if (minor === 0) return '2.0.0';
  if (minor === 1) return '2.1.0';
  if (minor === 2) return patch >= 1 ? '2.2.1' : '2.2.0';
  return null;
}

/** An EIN ("12-3456789") where a state licence number belongs is a common mistake. */
export function looksLikeEin(license: string): boolean {
  return /^\d{2}-\d{7}$/.test(license) || /^\d{9}$/.test(license);
}

/** Joins free text values of the header that may be strings or arrays of provisions. */
export function provisionsText(value: unknown): string | null {
  if (typeof value === 'string') return text(value);
  if (!Array.isArray(value)) return null;
  const parts: string[] = [];
  for (const v of value) {
    if (typeof v === 'string') {
      const t = text(v);
      if (t) parts.push(t);
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const provisions = typeof o.provisions === 'string' ? text(o.provisions) : null;
      if (!provisions) continue;
      const who = [o.payer_name, o.plan_name].filter((x): x is string => typeof x === 'string');
      parts.push(who.length ? `${who.join(' / ')}: ${provisions}` : provisions);
    }
  }
  return parts.length ? parts.join('\n') : null;
}

/** A code type, upper-cased; a type outside the CMS list is kept and warned. */
export function codeType(
  allowed: ReadonlySet<string>,
  report: ValidationReport,
  raw: string,
  location: string,
): string {
  if (allowed.has(raw)) return raw;
  const upper = raw.toUpperCase();
  if (allowed.has(upper)) report.add('enum.title-case', location, JSON.stringify(raw));
  else report.add('enum.code-type', location, JSON.stringify(raw));
  return upper;
}

/** A drug unit type (GR, ML, ME, UN, F2, GM, EA); anything else is an error. */
export function drugType(
  report: ValidationReport,
  raw: string | null,
  location: string,
): string | null {
  if (raw === null) return null;
  if (DRUG_TYPES.has(raw)) return raw;
  const upper = raw.toUpperCase();
  if (DRUG_TYPES.has(upper)) {
    report.add('enum.title-case', location, JSON.stringify(raw));
    return upper;
  }
  report.add('enum.drug-type', location, JSON.stringify(raw));
  return null;
}

/** Unreadable amounts travel as NaN until the rules have seen them; records hold null. */
export function numberOrNull(n: number | null): number | null {
  return n === null || Number.isNaN(n) ? null : n;
}
