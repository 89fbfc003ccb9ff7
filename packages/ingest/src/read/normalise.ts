import {
  CMS_CODE_TYPES_V2,
  CMS_CODE_TYPES_V3,
  type CmsVersion,
  type Methodology,
  type Setting,
} from '../model.ts';
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

/** CMS code types by version. */
export const CODE_TYPES_V2_SET: ReadonlySet<string> = new Set(CMS_CODE_TYPES_V2);
export const CODE_TYPES_V3_SET: ReadonlySet<string> = new Set(CMS_CODE_TYPES_V3);

export const STATE_CODES: ReadonlySet<string> = new Set(
  (
    'AL AK AS AZ AR CA CO CT DE DC FM FL GA GU HI ID IL IN IA KS KY LA ME MH MD MA MI MN MS MO MT ' +
    'NE NV NH NJ NM NY NC ND MP OH OK OR PW PA PR RI SC SD TN TX UT VT VI VA WA WV WI WY'
  ).split(' '),
);

/**
 * The blanks around a value, with the ones JavaScript's `trim()` and `\s` leave in, which files
 * still carry: a zero-width space or joiner (pasted from web pages and word processors), a word
 * joiner, a Mongolian vowel separator. The no-break space, the byte-order mark and the other
 * Unicode spaces are `\s` already.
 */
const LEADING_BLANKS = /^[\s\u180e\u200b-\u200d\u2060]+/;
/**
 * The blanks at a value's end, from the first of their run only: tried from every blank of a run
 * that something other than the end follows (" x", many spaces, "x"), time grew with the square of
 * the run's length (ADR 0004, "Patterns").
 */
const TRAILING_BLANKS = /(?<![\s\u180e\u200b-\u200d\u2060])[\s\u180e\u200b-\u200d\u2060]+$/;
/** Spaces no reader of an example would see: shown escaped (`"70551\u00a0"`). */
const UNSEEN = /[\u00a0\u1680\u180e\u2000-\u200d\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]/g;

/**
 * Whether a character at a value's edge is blank: an ASCII space or control, or a Unicode space
 * (a no-break space, a zero-width space, a byte-order mark left by joined files).
 */
function blankEdge(c: number): boolean {
  if (c <= 32) return true;
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    c === 0x180e ||
    (c >= 0x2000 && c <= 0x200d) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x2060 ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** `raw` without the blanks at its edges, the zero-width ones included. */
function trimBlanks(raw: string): string {
  return raw.replace(LEADING_BLANKS, '').replace(TRAILING_BLANKS, '');
}

/** A value as a report's example shows it: quoted, its invisible spaces escaped. */
function shown(raw: string): string {
  const quoted = JSON.stringify(raw);
  return quoted.replace(UNSEEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Counts a value read with its stray spaces trimmed, naming its field: `description " X "`. */
function countTrimmed(
  report: ValidationReport | undefined,
  location: string,
  field: string,
  raw: string,
): void {
  report?.add('whitespace.trimmed', location, `${field} ${shown(raw)}`);
}

/**
 * Trims a text value; empty becomes null. Given a report, stray spaces around a value that is not
 * empty are counted there (`whitespace.trimmed`, at `location`, naming `field`); without one (a
 * value checked twice, or not the file's), they are not. Positional, not an object: it runs for
 * every value of every rate.
 */
export function text(
  raw: string,
  report?: ValidationReport,
  location = '',
  field = '',
): string | null {
  if (raw.length === 0) return null;
  const first = raw.charCodeAt(0);
  const last = raw.charCodeAt(raw.length - 1);
  if (!blankEdge(first) && !blankEdge(last)) return raw;
  const trimmed = trimBlanks(raw);
  if (trimmed.length === 0) return null;
  if (trimmed.length !== raw.length) countTrimmed(report, location, field, raw);
  return trimmed;
}

const WHITESPACE_RUN = /\s{2,}|[\t\r\n\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]/;
const WHITESPACE_RUNS = /\s+/g;

/**
 * Payer and plan names: trimmed and inner whitespace collapsed, so that "Aetna  PPO ", "Aetna PPO"
 * and "Aetna PPO" with a no-break space are one plan, and written as first seen in the file
 * whatever their letter case, so that AdventHealth's "Bcbs", "Hmo" of its items and "BCBS", "HMO"
 * of its modifiers are one plan too. Names repeat on every row, so results are cached.
 */
export class NameNormaliser {
  private readonly cache = new Map<string, { value: string | null; changed: boolean }>();
  /** The first spelling of each name, by its lower case. */
  private readonly spellings = new Map<string, string>();

  constructor(private readonly report: ValidationReport) {}

  /** `raw` as the file's first spelling of it; changed, said at `location` naming `field`. */
  name(raw: string, location: string, field: string): string | null {
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
    if (hit.changed) countTrimmed(this.report, location, field, raw);
    return hit.value;
  }
}

/** Whether a value is one of the placeholders some files write in empty cells. */
export function isPlaceholder(raw: string): boolean {
  return PLACEHOLDERS.has(raw.trim().toLowerCase());
}

/** What some files write in empty cells: by hand, pandas (`nan`) or a spreadsheet (`#N/A`). */
const PLACEHOLDERS: ReadonlySet<string> = new Set([
  'n/a',
  'na',
  'n.a.',
  '-',
  '--',
  '---',
  '–',
  '—',
  'null',
  'none',
  'nan',
  '#n/a',
  'not applicable',
  'not available',
]);

/** Accounting's negative, "(80.00)", or the trailing minus SAP and COBOL reports write, "80.00-". */
const ACCOUNTING_NEGATIVE = /^(?:\((?:\d+(?:\.\d*)?|\.\d+)\)|(?:\d+(?:\.\d*)?|\.\d+)-)$/;

/**
 * How an amount is read: `percent` for a percentage field, `zeroIsNone` for a charge's own
 * amounts (gross, cash, min, max), where a 0 is read as no value (`number.zero`, an error that
 * keeps the charge and its rates): a chargemaster's 0 is no price, and the rates beside it are.
 */
export interface AmountKind {
  percent?: boolean;
  zeroIsNone?: boolean;
  /**
   * For a value that supports a charge or rate rather than prices it (a drug's unit, an estimated
   * or allowed amount): an unreadable, zero or negative one is reported under this kept rule and
   * left out, not refused: none (null), or NaN until the rules have seen it for an estimated or
   * allowed amount (see ALLOWED).
   */
  keptAs?: 'drug.unit-invalid' | 'allowed.invalid' | 'charge.amount-invalid';
}

/** A percentage field's amounts. */
export const PERCENT: AmountKind = { percent: true };
/**
 * A charge's own amounts: gross, discounted cash, minimum, maximum. One that cannot be read, or
 * is negative, is left out and the charge kept with its rates, which are prices (as a 0 is).
 */
export const CHARGE: AmountKind = { zeroIsNone: true, keptAs: 'charge.amount-invalid' };
/** A drug's unit of measurement: one that cannot be read is left out, and the charge kept. */
export const DRUG_UNIT: AmountKind = { keptAs: 'drug.unit-invalid' };
/**
 * A rate's estimated or allowed amount (median, percentiles): left out, the rate kept. One written
 * but unusable reads as NaN, not null, so that checkPayer (validate/record-rules.ts) can tell it
 * from one not written: its own error is said, not also the rule that asks for it (as in CMS's
 * validator). checkPayer leaves it out then; the rate never holds NaN.
 */
export const ALLOWED: AmountKind = { keptAs: 'allowed.invalid' };

type RefusedRule = 'number.invalid' | 'number.not-positive' | NonNullable<AmountKind['keptAs']>;

/**
 * An amount that cannot be read, or is zero or negative, reported: NaN (refused; or written but
 * unusable, see ALLOWED), or none (null) under another `keptAs` rule.
 */
function refused(
  report: ValidationReport,
  rule: RefusedRule,
  location: string,
  field: string,
  raw: string,
): number | null {
  report.add(rule, location, `${field} ${JSON.stringify(raw)}`);
  return refusedValue(rule);
}

function refusedValue(rule: RefusedRule): number | null {
  return rule === 'drug.unit-invalid' || rule === 'charge.amount-invalid' ? null : Number.NaN;
}

/**
 * The number a text writes in decimal, as Number() reads it, or NaN: Number() also reads
 * hexadecimal, binary and octal ("0x1F" is 31), which no amount is written in.
 */
function decimal(text: string): number {
  const second = text.charCodeAt(1) | 0x20;
  const radix =
    second === 0x78 || second === 0x62 || second === 0x6f || blankEdge(text.charCodeAt(0));
  return radix && /^\s*0[xbo]/i.test(text) ? Number.NaN : Number(text);
}

/**
 * Whether the commas or spaces between the digits of an amount, if any, separate thousands
 * ("$1,200.50", "(1,200)", "1 200"). One that does not ("1200,50", a decimal comma; "1 234,56";
 * "12,34"; "125 00", a space for the point) would be read as a number 100 times or more too large
 * with them taken out, so it is not read.
 */
function thousandsGrouped(body: string): boolean {
  const digits = body.replace(/\$/g, '').trim();
  if (/\d\s+\d/.test(digits) && !SPACED_THOUSANDS.test(digits)) return false;
  return !body.includes(',') || THOUSANDS.test(body.replace(/[$\s]/g, ''));
}
/** The currency written as a word before or after an amount: "USD 400", "400 USD", "US$400". */
const CURRENCY_WORD = /^US(?:D\s*|(?=\$))|\s*USD$/i;
/** "1.23E+05": how a spreadsheet shows a long number, and may have written it, rounded. */
const EXPONENT = /\de/i;
// A first group of 0 ("0,123") groups no thousands: a decimal comma, or a slip.
const THOUSANDS = /^[-+(]?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d*)?\)?$/;
const SPACED_THOUSANDS = /^[-+(]?\s*[1-9]\d{0,2}(?:\s+\d{3})+(?:\.\d*)?\s*\)?$/;

/**
 * A CSV or JSON-string amount. Returns null for empty, NaN for unreadable (reported; null for a
 * `keptAs` kind but ALLOWED), and accepts "$1,234.50", and "45%" for a `percent` field, with a
 * warning ("$45" there is unreadable). Zero and negative
 * amounts are errors (the schemas' exclusiveMinimum 0). A percentage under 1 is kept as written,
 * with a warning: the templates write 45% as 45, so 0.45 is likely a fraction meant as 45%.
 */
export function amount(
  raw: string,
  report: ValidationReport,
  location: string,
  field: string,
  { percent = false, zeroIsNone = false, keptAs }: AmountKind = {},
): number | null {
  if (raw.length === 0) return null;
  let n = decimal(raw);
  let sign = false;
  if (Number.isNaN(n) || (n === 0 && raw.trim().length === 0)) {
    const trimmed = trimBlanks(raw);
    if (trimmed.length === 0) return null;
    sign = percent && trimmed.endsWith('%');
    const body = sign ? trimmed.slice(0, -1).trimEnd() : trimmed;
    n = body.length > 0 ? decimal(body) : Number.NaN;
    // A zero-width space beside the number, which Number() does not take for a space.
    if (Number.isFinite(n) && !sign && trimmed.length !== raw.length)
      countTrimmed(report, location, field, raw);
    if (!Number.isFinite(n)) {
      // "$45" in a percentage field: a dollar amount or a percentage, no reader can tell.
      if (percent && body.includes('$'))
        return refused(report, keptAs ?? 'number.invalid', location, field, raw);
      // "USD 400", "400 USD", "US$400": the currency named as a word, as a dollar sign is.
      const dollars = percent ? body : body.replace(CURRENCY_WORD, '');
      const cleaned = dollars.replace(/[$,\s]/g, '');
      n = cleaned.length > 0 && thousandsGrouped(dollars) ? decimal(cleaned) : Number.NaN;
      // "$ -", a spreadsheet's accounting format for 0: zero, and judged as zero below.
      if (cleaned === '-' && body.includes('$')) n = 0;
      if (!Number.isFinite(n) && isPlaceholder(trimmed)) {
        report.add('value.placeholder', location, `${field} ${JSON.stringify(raw)}`);
        return null;
      }
      // Accounting's negative, "(80.00)", "$(1,200)" or "80.00-": refused as negative, not as
      // unreadable.
      if (!Number.isFinite(n) && ACCOUNTING_NEGATIVE.test(cleaned))
        return refused(report, keptAs ?? 'number.not-positive', location, field, raw);
      if (!Number.isFinite(n))
        return refused(report, keptAs ?? 'number.invalid', location, field, raw);
      report.add('number.formatted', location, `${field} ${JSON.stringify(raw)}`);
    }
  } else if (!Number.isFinite(n)) {
    return refused(report, keptAs ?? 'number.invalid', location, field, raw);
  } else if (blankEdge(raw.charCodeAt(0)) || blankEdge(raw.charCodeAt(raw.length - 1))) {
    // Number() reads " 120 " as 120 by itself; the spaces are still the file's to hear about.
    countTrimmed(report, location, field, raw);
  }
  if (EXPONENT.test(raw)) report.add('number.scientific', location, `${field} ${raw.trim()}`);
  if (n === 0 && zeroIsNone) {
    report.add('number.zero', location, `${field} ${raw.trim()}`);
    return null;
  }
  if (n <= 0) {
    if (keptAs) return refused(report, keptAs, location, field, raw);
    report.add('number.not-positive', location, `${field} ${raw}`);
    return Number.NaN;
  }
  if (sign) report.add('number.percent-sign', location, `${field} ${JSON.stringify(raw)}`);
  if (percent && n < 1) report.add('number.percentage-under-one', location, `${field} ${raw}`);
  return n;
}

/**
 * Nine 9s, which CMS's data dictionary recommended in `estimated_amount` where a hospital had no
 * claims to estimate from until May 2025 (CMSgov/hospital-price-transparency#164), and which its
 * validator now alerts on there and in the v3 allowed amounts ("Nine 9s used"): no amount, not
 * $999,999,999.
 */
export const NINE_NINES = 999_999_999;

/**
 * An estimated or allowed amount (median, percentiles) as read: nine 9s is none, and said (NaN
 * until checkPayer has seen it, as an unreadable one; see ALLOWED).
 */
export function allowedAmount(
  n: number | null,
  report: ValidationReport,
  location: string,
  field: string,
): number | null {
  if (n !== NINE_NINES) return n;
  report.add('number.nine-nines', location, field);
  // Written, though no amount: NaN until checkPayer has seen it (see ALLOWED).
  return Number.NaN;
}

/** A JSON value where the schema wants a number: numbers pass, numeric strings are warned. */
export function jsonAmount(
  value: unknown,
  report: ValidationReport,
  location: string,
  field: string,
  kind: AmountKind = {},
): number | null {
  if (typeof value === 'number') {
    // JSON.parse reads a number too large for a double (1e999) as Infinity, which is no amount.
    if (value === Infinity) {
      report.add(
        kind.keptAs ?? 'number.invalid',
        location,
        `${field} too large (read as Infinity)`,
      );
      return refusedValue(kind.keptAs ?? 'number.invalid');
    }
    if (value > 0) {
      if (kind.percent && value < 1) {
        report.add('number.percentage-under-one', location, `${field} ${value}`);
      }
      return value;
    }
    if (value === 0 && kind.zeroIsNone) {
      report.add('number.zero', location, `${field} 0`);
      return null;
    }
    report.add(kind.keptAs ?? 'number.not-positive', location, `${field} ${value}`);
    return refusedValue(kind.keptAs ?? 'number.not-positive');
  }
  if (value === undefined) return null;
  if (value === null) {
    report.add('json.empty-value', location, `${field} null`);
    return null;
  }
  if (typeof value === 'string') {
    const n = amount(value, report, location, field, kind);
    if (n !== null && !Number.isNaN(n))
      report.add('number.as-string', location, `${field} "${value}"`);
    else if (n === null && value.trim().length === 0)
      report.add('json.empty-value', location, `${field} ${JSON.stringify(value)}`);
    return n;
  }
  report.add(kind.keptAs ?? 'json.wrong-type', location, `${field} should be a number`);
  return kind.keptAs ? refusedValue(kind.keptAs) : Number.NaN;
}

/**
 * A JSON value where the schema wants a string; numbers are accepted as their text. An empty one
 * is said (`json.empty-value`) unless `emptyAllowed`: the v2 schemas let a few free-text fields be
 * empty (notes, the algorithm, an address or location name).
 */
export function jsonText(
  value: unknown,
  report: ValidationReport,
  location: string,
  field: string,
  emptyAllowed = false,
): string | null {
  if (typeof value === 'string') {
    const read = text(value, report, location, field);
    if (read === null && !emptyAllowed)
      report.add('json.empty-value', location, `${field} ${JSON.stringify(value)}`);
    return read;
  }
  if (value === undefined) return null;
  if (value === null) {
    report.add('json.empty-value', location, `${field} null`);
    return null;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    report.add('json.number-as-text', location, `${field} ${String(value)}`);
    return String(value);
  }
  report.add('json.wrong-type', location, `${field} should be a string`);
  return null;
}

/**
 * A CMS value's spelling with letter case, spaces, hyphens, underscores, slashes, points and the
 * marks that join two values (| , ;) taken out: "Fee-Schedule", "fee_schedule" and "FEE
 * SCHEDULE" are all "feeschedule"; "Inpatient|Outpatient" and "IP, OP" are "inpatientoutpatient"
 * and "ipop"; "C.P.T." is "cpt".
 */
function compact(raw: string): string {
  return raw.toLowerCase().replace(/[\s_/|,;.-]+/g, '');
}

/** Each CMS value by its compact spelling, plus the other spellings real files use for it. */
function spellings(
  values: ReadonlySet<string>,
  others: Record<string, string>,
): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const value of values) map.set(compact(value), value);
  for (const [other, value] of Object.entries(others)) map.set(other, value);
  return map;
}

const SETTING_SPELLINGS = spellings(SETTINGS, {
  ip: 'inpatient',
  op: 'outpatient',
  inpt: 'inpatient',
  outpt: 'outpatient',
  // Both settings named together: "Inpatient/Outpatient", "IP/OP", "Inpatient and Outpatient",
  // "Inpatient|Outpatient", "Both Inpatient and Outpatient", "Inpatient and/or Outpatient".
  inpatientoutpatient: 'both',
  outpatientinpatient: 'both',
  inpatientandoutpatient: 'both',
  outpatientandinpatient: 'both',
  'inpatient&outpatient': 'both',
  ipop: 'both',
  opip: 'both',
  'ip&op': 'both',
  bothinpatientandoutpatient: 'both',
  bothinpatientoutpatient: 'both',
  inpatientandoroutpatient: 'both',
  inpatientoroutpatient: 'both',
  outpatientandorinpatient: 'both',
  outpatientorinpatient: 'both',
  ipandop: 'both',
  iporop: 'both',
});
const PERCENT_OF_CHARGES = 'percent of total billed charges';
const METHODOLOGY_SPELLINGS = spellings(METHODOLOGIES, {
  percentoftotalbilledcharge: PERCENT_OF_CHARGES,
  percentageoftotalbilledcharges: PERCENT_OF_CHARGES,
  percentageoftotalbilledcharge: PERCENT_OF_CHARGES,
  percentofbilledcharges: PERCENT_OF_CHARGES,
  percentoftotalcharges: PERCENT_OF_CHARGES,
  percentageoftotalcharges: PERCENT_OF_CHARGES,
  percentofcharges: PERCENT_OF_CHARGES,
  percentageofcharges: PERCENT_OF_CHARGES,
  percentageofbilledcharges: PERCENT_OF_CHARGES,
  '%oftotalbilledcharges': PERCENT_OF_CHARGES,
  '%ofbilledcharges': PERCENT_OF_CHARGES,
  '%oftotalcharges': PERCENT_OF_CHARGES,
  '%ofcharges': PERCENT_OF_CHARGES,
  percentofbilled: PERCENT_OF_CHARGES,
  percentageofbilled: PERCENT_OF_CHARGES,
  percentofgrosscharges: PERCENT_OF_CHARGES,
  percentageofgrosscharges: PERCENT_OF_CHARGES,
  '%ofgrosscharges': PERCENT_OF_CHARGES,
  pctofcharges: PERCENT_OF_CHARGES,
  pctofbilledcharges: PERCENT_OF_CHARGES,
  pctoftotalbilledcharges: PERCENT_OF_CHARGES,
  caserates: 'case rate',
  percase: 'case rate',
  feeschedules: 'fee schedule',
  perdiems: 'per diem',
  perdiemrate: 'per diem',
  perday: 'per diem',
});

function enumValue(
  raw: string,
  allowed: ReadonlySet<string>,
  spelled: ReadonlyMap<string, string>,
  report: ValidationReport,
  location: string,
): string | undefined {
  if (allowed.has(raw)) return raw;
  const lower = raw.trim().replace(WHITESPACE_RUNS, ' ').toLowerCase();
  if (allowed.has(lower)) {
    if (lower === raw.toLowerCase()) report.add('enum.title-case', location, JSON.stringify(raw));
    else report.add('whitespace.trimmed', location, JSON.stringify(raw));
    return lower;
  }
  const value = spelled.get(compact(raw));
  if (value !== undefined) report.add('enum.spelling', location, JSON.stringify(raw));
  return value;
}

/** Setting: null when empty, undefined when unknown (the caller reports it). */
export function setting(
  raw: string,
  report: ValidationReport,
  location: string,
): Setting | null | undefined {
  if (raw.length === 0) return null;
  if (raw.trim().length === 0) return null;
  return enumValue(raw, SETTINGS, SETTING_SPELLINGS, report, location) as Setting | undefined;
}

export function methodology(
  raw: string,
  report: ValidationReport,
  location: string,
): Methodology | null | undefined {
  if (raw.length === 0) return null;
  if (raw.trim().length === 0) return null;
  return enumValue(raw, METHODOLOGIES, METHODOLOGY_SPELLINGS, report, location) as
    Methodology | undefined;
}

/**
 * Splits "a | b|c" on pipes, trimming each part and dropping empty ones. Given a report, a value
 * with stray spaces around it or around its pipes is counted once, as `text` counts one.
 */
export function splitPipes(
  raw: string,
  report?: ValidationReport,
  location = '',
  field = '',
): string[] {
  if (raw.length === 0) return [];
  if (raw.indexOf('|') === -1) {
    const t = text(raw, report, location, field);
    return t === null ? [] : [t];
  }
  const out: string[] = [];
  let trimmed = false;
  for (const part of raw.split('|')) {
    const t = text(part);
    if (t === null) continue;
    out.push(t);
    if (t.length !== part.length) trimmed = true;
  }
  if (trimmed) countTrimmed(report, location, field, raw);
  return out;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** 1–12 for a month's name or its abbreviation ("Apr", "Sept", "April"), else 0. */
function monthNumber(name = ''): number {
  const lower = name.toLowerCase();
  if (lower.length < 3) return 0;
  return MONTHS.findIndex((month) => month.startsWith(lower)) + 1;
}

/** A year of two digits is this century's: files under these rules date from 2021 on. */
function fullYear(digits = ''): number {
  return digits.length === 2 ? 2000 + Number(digits) : Number(digits);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/;
/** M/D/YYYY, as US spreadsheets write it, with the time some exports add ("4/1/2026 0:00"). */
const US_DATE = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})(?:\s+\d{1,2}:\d{2}.*)?$/;
/** Other unambiguous forms seen in files, each as [pattern, its year, month and day]. */
const OTHER_DATES: readonly [RegExp, (m: RegExpExecArray) => [number, number, number]][] = [
  // 2026/04/01, 2026-4-1, 2026.04.01
  [
    /^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})(?:[T ].*)?$/,
    (m) => [Number(m[1]), Number(m[2]), Number(m[3])],
  ],
  // 20260401
  [/^(\d{4})(\d{2})(\d{2})$/, (m) => [Number(m[1]), Number(m[2]), Number(m[3])]],
  // 4/1/26
  [/^(\d{1,2})[/-](\d{1,2})[/-](\d{2})$/, (m) => [fullYear(m[3]), Number(m[1]), Number(m[2])]],
  // 1-Apr-2026, 01 APR 26, as Excel writes dates
  [
    /^(\d{1,2})[\s-]([a-z]{3,9})\.?[\s-](\d{4}|\d{2})$/i,
    (m) => [fullYear(m[3]), monthNumber(m[2]), Number(m[1])],
  ],
  // April 1, 2026; Apr. 1 2026; Wednesday, April 1, 2026; Apr 1, 2026 12:00 AM
  [
    /^(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\.?,?\s+)?([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?:,?\s+\d{1,2}:\d{2}.*)?$/i,
    (m) => [Number(m[3]), monthNumber(m[1]), Number(m[2])],
  ],
];

/**
 * A spreadsheet's day number (days since 1899-12-30) of a day in 2000–2099: 45662 is 2025-01-05;
 * pandas writes it 45662.0.
 */
const DAY_NUMBER = /^\d{5}(?:\.0+)?$/;
const FIRST_DAY_NUMBER = 36_526;
const LAST_DAY_NUMBER = 73_050;

/**
 * An ISO date from YYYY-MM-DD (as CMS asks), the MM/DD/YYYY and M/D/YYYY most files use instead,
 * or another form that can only mean one day (ISO_DATE, US_DATE, OTHER_DATES, a spreadsheet's
 * day number), each warned. 01.05.2025 is not read: Europe writes the day first.
 */
export function isoDate(raw: string, report: ValidationReport, location: string): string | null {
  const value = raw.trim();
  if (value.length === 0) return null;
  const iso = ISO_DATE.exec(value);
  if (iso && validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]))) {
    // A time after the date ("2026-04-01T00:00:00Z"): the date is read, the time left out.
    if (value.length > 10) report.add('date.other-form', location, JSON.stringify(raw));
    return `${iso[1]}-${iso[2]}-${iso[3]}`;
  }
  const us = US_DATE.exec(value);
  if (us && validDate(Number(us[3]), Number(us[1]), Number(us[2]))) {
    report.add('date.mm-dd-yyyy', location, JSON.stringify(raw));
    return dateText(Number(us[3]), Number(us[1]), Number(us[2]));
  }
  for (const [pattern, parts] of OTHER_DATES) {
    const match = pattern.exec(value);
    if (match === null) continue;
    const [year, month, day] = parts(match);
    if (!validDate(year, month, day)) break;
    report.add('date.other-form', location, JSON.stringify(raw));
    return dateText(year, month, day);
  }
  if (DAY_NUMBER.test(value)) {
    const days = Number(value);
    if (days >= FIRST_DAY_NUMBER && days <= LAST_DAY_NUMBER) {
      const date = new Date(Date.UTC(1899, 11, 30 + days)).toISOString().slice(0, 10);
      report.add(
        'date.other-form',
        location,
        `${JSON.stringify(raw)}, a spreadsheet's day number: ${date}`,
      );
      return date;
    }
  }
  report.add('date.invalid', location, JSON.stringify(raw));
  return null;
}

/** How files confirm the attestation besides true: a tick, a 1, a yes. */
const CONFIRMING = new Set([
  'yes',
  'y',
  '1',
  'x',
  '✓',
  '✔',
  'checked',
  'agree',
  'agreed',
  'confirmed',
]);
const DENYING = new Set(['no', 'n', '0']);

/**
 * The attestation's confirmation: true or false as CMS writes it, or a word that means one of
 * them (a warning, `attestation.other-word`); null for none, or for a word that means neither
 * (said, `attestation.unknown-word`, beside the error for no confirmed attestation).
 */
export function confirmation(
  raw: string,
  report: ValidationReport,
  location: string,
): boolean | null {
  const word = raw
    .trim()
    .toLowerCase()
    .replace(/(?<![.!])[.!]+$/, '');
  if (word.length === 0) return null;
  if (word === 'true') return true;
  if (word === 'false') return false;
  const value = CONFIRMING.has(word) ? true : DENYING.has(word) ? false : null;
  const rule = value === null ? 'attestation.unknown-word' : 'attestation.other-word';
  report.add(rule, location, JSON.stringify(raw));
  return value;
}

function dateText(year: number, month: number, day: number): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The CMS version a declared value means: "3.0.0", "V3.0", "3" → 3.0.0; "2.2" → 2.2.0; the
 * version written in words, as some files do, too: "Version 2.2.0", "CMS Template v2.0",
 * "ver. 3.0.0". Returns null when it names no version this reader knows.
 */
export function cmsVersion(raw: string): CmsVersion | null {
  const m = VERSION.exec(raw.trim());
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

const VERSION =
  /^(?:cms\s*)?(?:template\s*)?(?:(?:version|ver\.?|v\.?)\s*[:#]?\s*)?(\d+)(?:\.(\d+))?(?:\.(\d+))?\.?$/i;

/** An EIN ("12-3456789") where a state licence number belongs is a common mistake. */
export function looksLikeEin(license: string): boolean {
  return /^\d{2}-\d{7}$/.test(license) || /^\d{9}$/.test(license);
}

/** Joins free text values of the header that may be strings or arrays of provisions. */
export function provisionsText(value: unknown, report?: ValidationReport): string | null {
  const field = 'general_contract_provisions';
  if (typeof value === 'string') return text(value, report, field, field);
  if (!Array.isArray(value)) return null;
  const parts: string[] = [];
  for (const v of value) {
    if (typeof v === 'string') {
      const t = text(v, report, field, field);
      if (t) parts.push(t);
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const provisions =
        typeof o.provisions === 'string' ? text(o.provisions, report, field, 'provisions') : null;
      if (!provisions) continue;
      const who = [o.payer_name, o.plan_name].filter((x): x is string => typeof x === 'string');
      parts.push(who.length ? `${who.join(' / ')}: ${provisions}` : provisions);
    }
  }
  return parts.length ? parts.join('\n') : null;
}

const CODE_TYPE_SPELLINGS = spellings(CODE_TYPES_V3_SET, {
  cpt4: 'CPT',
  'cpt®': 'CPT',
  hcpc: 'HCPCS',
  rev: 'RC',
  revcode: 'RC',
  revenue: 'RC',
  revenuecode: 'RC',
  // HCPCS by its level, NDCs by their digits, ICD by its revision, a chargemaster's own codes.
  hcpcsleveli: 'HCPCS',
  hcpcslevelii: 'HCPCS',
  hcpcslevel1: 'HCPCS',
  hcpcslevel2: 'HCPCS',
  hcpcsii: 'HCPCS',
  hcpcs2: 'HCPCS',
  ndc10: 'NDC',
  ndc11: 'NDC',
  nationaldrugcode: 'NDC',
  icd9: 'ICD',
  icd10: 'ICD',
  icd9cm: 'ICD',
  icd10cm: 'ICD',
  icd10pcs: 'ICD',
  chargecode: 'CDM',
  chargemaster: 'CDM',
  cdmcode: 'CDM',
  // Both names of the one code set: CPT codes are HCPCS Level I, and the search takes CPT and
  // HCPCS codes together, telling them apart by their shape.
  cpthcpcs: 'HCPCS',
  hcpcscpt: 'HCPCS',
});
/** A type written with "code" after it: "CPT Code", "RC Code", "Rev Cd". */
const CODE_WORD_AFTER = /(?:codes?|cd)$/;

/**
 * A code type, upper-cased, or the CMS type another spelling means ("MS DRG", "CPT4", "HCPC",
 * "Rev Code", "CPT Code", "C.P.T.", "CPT/HCPCS"); a type outside the CMS list is kept and warned.
 */
export function codeType(
  allowed: ReadonlySet<string>,
  report: ValidationReport,
  raw: string,
  location: string,
): string {
  if (allowed.has(raw)) return raw;
  const upper = raw.toUpperCase();
  if (allowed.has(upper)) {
    report.add('enum.title-case', location, JSON.stringify(raw));
    return upper;
  }
  const key = compact(raw);
  const spelled =
    CODE_TYPE_SPELLINGS.get(key) ?? CODE_TYPE_SPELLINGS.get(key.replace(CODE_WORD_AFTER, ''));
  if (spelled !== undefined && allowed.has(spelled)) {
    report.add('enum.spelling', location, JSON.stringify(raw));
    return spelled;
  }
  report.add('enum.code-type', location, JSON.stringify(raw));
  return upper;
}

/**
 * How many digits a numeric code of a type has, and the fewest a code of it written without its
 * leading zeros can keep. A spreadsheet reads revenue code 0450 as the number 450, MS-DRG 065 as
 * 65, and anesthesia CPT code 00100 as 100: AdventHealth Orlando's file writes both 636 and 0636.
 * CPT and HCPCS Level I codes of one or two digits do not exist, so those are left as written.
 */
const CODE_WIDTHS: ReadonlyMap<string, { width: number; fewest: number }> = new Map([
  ['RC', { width: 4, fewest: 1 }],
  ['CPT', { width: 5, fewest: 3 }],
  ['HCPCS', { width: 5, fewest: 3 }],
  ...['DRG', 'MS-DRG', 'MS-LTC-DRG', 'APR-DRG', 'AP-DRG'].map(
    (type) => [type, { width: 3, fewest: 1 }] as const,
  ),
]);
const DIGITS = /^[0-9]+$/;
const LOWER_CASE = /[a-z]/;

/** A number in scientific notation, as spreadsheets show long numbers: `5.04E+10`. */
const SCIENTIFIC = /^\d(\.\d+)?[eE]\+\d+$/;
/**
 * A whole number written as a decimal, `450.0`. ICD codes are left as written: an ICD-9 code
 * such as 250.0 has its point.
 */
const DECIMAL_ZERO = /^\d+\.0+$/;
const APOSTROPHE = 39;
const ZERO = 48;

/**
 * A code or modifier with a spreadsheet's mark for "text, not a number" ('0450, which some
 * exports write out) dropped (`code.apostrophe`) and, when `decimals`, a whole number written as
 * a decimal (pandas writes a column of numbers with empty cells so: revenue code 450 as 450.0)
 * read without its decimals (`code.decimal`); each said with `label` and the value as written.
 */
function spreadsheetUndone(
  report: ValidationReport,
  label: string,
  written: string,
  location: string,
  decimals = true,
): string {
  let value = written;
  if (value.charCodeAt(0) === APOSTROPHE && value.length > 1) {
    report.add('code.apostrophe', location, `${label} ${written}`);
    value = value.slice(1);
  }
  if (decimals && value.charCodeAt(value.length - 1) === ZERO && DECIMAL_ZERO.test(value)) {
    report.add('code.decimal', location, `${label} ${written}`);
    value = value.slice(0, value.indexOf('.'));
  }
  return value;
}

/**
 * A code as the code list and the search know it, so that one code is one code whatever the
 * hospital's spreadsheet did to it: a code written with a spreadsheet's text apostrophe ('0450)
 * loses it (`code.apostrophe`), a code written as a decimal (450.0) its decimals
 * (`code.decimal`), a revenue code, DRG or CPT code that lost its leading zeros gets them back
 * (`code.leading-zeros`), and a CPT or HCPCS code in lower case is upper-cased
 * (`code.lower-case`). A placeholder ("N/A", "-", "NULL", "0") is no code: it is said
 * (`code.placeholder`) and returned empty, which checkRecord leaves out (so that a charge with no
 * other code is `required.code`). Any other code is kept as written.
 */
export function codeValue(
  report: ValidationReport,
  type: string,
  written: string,
  location: string,
): string {
  const code = spreadsheetUndone(report, type, written, location, type !== 'ICD');
  if (placeholderCode(code)) {
    report.add('code.placeholder', location, `${type} ${JSON.stringify(written)}`);
    return '';
  }
  if ((code.includes('E+') || code.includes('e+')) && SCIENTIFIC.test(code)) {
    // A spreadsheet's display of a long number (an NDC as 5.04E+10): its digits are gone.
    report.add('code.scientific', location, `${type} ${code}`);
    return code;
  }
  const shape = CODE_WIDTHS.get(type);
  if (shape === undefined) return code;
  if (code.length < shape.width && code.length >= shape.fewest && DIGITS.test(code)) {
    report.add('code.leading-zeros', location, `${type} ${code}`);
    return code.padStart(shape.width, '0');
  }
  if ((type === 'CPT' || type === 'HCPCS') && LOWER_CASE.test(code)) {
    report.add('code.lower-case', location, `${type} ${code}`);
    return code.toUpperCase();
  }
  return code;
}

/**
 * Whether a code is a placeholder for none: one of PLACEHOLDERS, or zeros alone, which no code
 * type has. Codes are read for every row, so only a code whose first character a placeholder can
 * start with (n, N, -, a dash, #, 0) is looked up.
 */
function placeholderCode(code: string): boolean {
  const first = code.charCodeAt(0);
  if (first === ZERO) return ZEROS.test(code);
  if (
    (first | 0x20) === 0x6e ||
    first === 0x2d ||
    first === 0x23 ||
    first === 0x2013 ||
    first === 0x2014
  )
    return isPlaceholder(code);
  return false;
}
const ZEROS = /^0+$/;

/** A modifier as CMS lists them: two upper-case letters or digits (25, 59, TC, LT). */
const MODIFIER = /^[0-9A-Z]{2}$/;
const MODIFIER_ANY_CASE = /^[0-9A-Za-z]{2}$/;

/** Two modifiers or more separated by a comma, semicolon, slash or space: "26, TC", "GA GY". */
const SEPARATED_MODIFIERS =
  /^[0-9A-Za-z]{2}(?:\s*[,;/]\s*|\s+)[0-9A-Za-z]{2}(?:(?:\s*[,;/]\s*|\s+)[0-9A-Za-z]{2})*$/;
const MODIFIER_SEPARATOR = /\s*[,;/]\s*|\s+/;

/**
 * Modifiers as the search knows them, so that one modifier is one modifier whatever the
 * hospital's spreadsheet did to it: `'59` loses its apostrophe (`code.apostrophe`), `59.0` its
 * decimals (`code.decimal`, as pandas writes a column of numbers with empty cells), and `tc` is
 * upper-cased (`code.lower-case`); modifiers separated by another mark than CMS's `|` ("26, TC")
 * are read as the modifiers they are (`modifier.separator`). A placeholder ("N/A", "-", "00") is
 * no modifier: left out and said (`value.placeholder`), since a charge with a modifier is priced
 * apart from the same code without one, and the search counts a hospital's rates without
 * modifiers. Anything else is kept as written. Changes `list` in place and returns it.
 */
export function modifierCodes(
  list: string[],
  report: ValidationReport,
  location: string,
): string[] {
  for (let i = 0; i < list.length; i++) {
    const written = list[i] ?? '';
    if (placeholderCode(written)) {
      report.add('value.placeholder', location, `modifier ${JSON.stringify(written)}`);
      list.splice(i, 1);
      i--;
      continue;
    }
    if (MODIFIER.test(written)) continue;
    if (SEPARATED_MODIFIERS.test(written)) {
      report.add('modifier.separator', location, `modifiers ${JSON.stringify(written)}`);
      list.splice(i, 1, ...written.split(MODIFIER_SEPARATOR));
      i--; // each part read in turn, as written on its own
      continue;
    }
    let modifier = spreadsheetUndone(report, 'modifier', written, location);
    if (LOWER_CASE.test(modifier) && MODIFIER_ANY_CASE.test(modifier)) {
      report.add('code.lower-case', location, `modifier ${modifier}`);
      modifier = modifier.toUpperCase();
    }
    list[i] = modifier;
  }
  return list;
}

/**
 * A drug unit type (GR, ML, ME, UN, F2, GM, EA); a placeholder ("N/A") is none, said as such;
 * anything else is an error.
 */
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
  // "N/A" on every row that is no drug, as a drug's unit there is: no type, not a wrong one.
  if (isPlaceholder(raw)) {
    report.add('value.placeholder', location, `drug type ${JSON.stringify(raw)}`);
    return null;
  }
  report.add('enum.drug-type', location, JSON.stringify(raw));
  return null;
}

/** Unreadable amounts travel as NaN until the rules have seen them; records hold null. */
export function numberOrNull(n: number | null): number | null {
  return n === null || Number.isNaN(n) ? null : n;
}
