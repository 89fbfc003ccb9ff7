import {
  isModifierOnly,
  type ChargeRecord,
  type CmsVersion,
  type CodeRef,
  type PayerCharge,
} from '../model.ts';
import { isPlaceholder } from '../read/normalise.ts';
import type { ValidationReport } from './report.ts';

/**
 * The conditional rules of the CMS schemas (the allOf / if-then blocks of
 * V2.1.0–V3.0.0_Hospital_price_transparency_schema.json), applied to normalised values: a value
 * the schema marks required is null here when it was missing or empty.
 */
export interface RuleContext {
  version: CmsVersion;
  report: ValidationReport;
}

const COUNT_PATTERN = /^(0|1 through 10|1[1-9]|[2-9]\d+|[1-9]\d{2,})$/;

export function validCount(count: string): boolean {
  return count === '0' || count === '1 through 10' || COUNT_PATTERN.test(count);
}

/** A count under 11 written as a bound, which is what "1 through 10" says: "<11", "≤ 10". */
const UNDER_ELEVEN = /^(?:(?:<|less than|fewer than|under) ?11|(?:<=|≤|up to) ?10)$/;

/**
 * A count in CMS's form ("0", "1 through 10", a whole number above 10) from the forms files use
 * for the same: "1 Through 10", "1-10", "1 to 10", "<11", "≤10", "1,200", "12.0", and 1 to 10
 * written as a number, which CMS has written as the range so that small counts are not told.
 * Null when it is no count (a fraction, a negative, words, "10+", which is no number of claims).
 */
export function cmsCount(text: string): string | null {
  if (validCount(text)) return text;
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (/^1 ?(through|thru|to|-|–) ?10$/.test(t) || UNDER_ELEVEN.test(t)) return '1 through 10';
  const digits = t.replace(/,(?=\d{3}(\D|$))/g, '').replace(/\.0+$/, '');
  if (!/^\d+$/.test(digits)) return null;
  const n = Number(digits);
  if (!Number.isSafeInteger(n)) return null;
  return n === 0 ? '0' : n <= 10 ? '1 through 10' : String(n);
}

/**
 * The plan of a rate whose file names its payer but no plan (CMS requires one): the rate is kept
 * as the payer's, under a name no file gives a plan, so every list shows that the file named none.
 */
export const NO_PLAN_NAMED = '(no plan named)';

/** The plan name to keep: the file's, or NO_PLAN_NAMED (said, as `required.plan_name`) for none. */
export function planNameOrNone(
  planName: string,
  report: ValidationReport,
  location: string,
): string {
  if (planName.length > 0) return planName;
  report.add('required.plan_name', location);
  return NO_PLAN_NAMED;
}

function atLeast(version: CmsVersion, minimum: '2.1.0' | '2.2.0' | '3.0.0'): boolean {
  return version >= minimum; // the five versions sort correctly as strings
}

/**
 * Checks one rate. `fallbackNotes` is the charge's generic notes: a tall CSV has only
 * additional_generic_notes, which carries the rate's notes. Puts a count written in another
 * form into CMS's. Reports what breaks a rule and returns the number of errors that reject the
 * rate (0: keep it; a `kept` rule's error does not count).
 *
 * An estimated or allowed amount written but unusable (unreadable, or nine 9s) arrives as NaN,
 * its own issue said (ALLOWED in read/normalise.ts): the rules below are decided from what was
 * written, as CMS's validator decides them, and the rate then holds none.
 */
export function checkPayer(
  p: PayerCharge,
  ctx: RuleContext,
  location: string,
  methodologyWritten: boolean,
  fallbackNotes: string | null,
  modifierOnly = false,
): number {
  const { report, version } = ctx;
  const before = report.rejectingErrors;
  if (p.payerName.length === 0) report.add('required.payer_name', location);
  p.planName = planNameOrNone(p.planName, report, location);
  // An algorithm written "N/A" is none written: kept, it made a rate of no amount a priced one.
  if (p.algorithm !== null && isPlaceholder(p.algorithm)) {
    report.add('value.placeholder', location, `algorithm ${JSON.stringify(p.algorithm)}`);
    p.algorithm = null;
  }
  const percentOrAlgorithm = p.percentage !== null || p.algorithm !== null;
  const notes = p.notes ?? fallbackNotes;
  const estimatedWritten = p.estimatedAmount !== null;
  const percentilesWritten = p.median !== null && p.p10 !== null && p.p90 !== null;
  leaveOutUnusable(p);
  if (p.dollar === null && !percentOrAlgorithm) {
    // A row that prices a modifier alone (no code) may be priced by its notes alone ("150% payment
    // adjustment"): CMS's validator asks one of notes, dollar, percentage or algorithm of it
    // (CsvValidator "extra info for modifier row", since 2.2.0).
    if (!modifierOnly) report.add('required.negotiated-value', location);
    else if (notes === null || isPlaceholder(notes))
      report.add('required.modifier-value', location);
  }
  // A count written is read in CMS's form, or left out, wherever it is written. "N/A" is none
  // written, as an empty cell is.
  let written = p.count;
  if (version === '3.0.0' && written !== null && isPlaceholder(written)) {
    report.add('value.placeholder', location, `count ${JSON.stringify(written)}`);
    written = p.count = null;
  }
  if (version === '3.0.0' && written !== null) {
    p.count = cmsCount(written);
    if (p.count === NINE_NINES_COUNT) {
      // CMS's alert "Nine 9s used for count": the old sign for no claims data, not a count.
      report.add('count.nine-nines', location, JSON.stringify(written));
      p.count = null;
    } else if (p.count !== written) {
      const rule = p.count === null ? 'v3.count-invalid' : 'count.other-form';
      report.add(rule, location, JSON.stringify(written));
    }
  }
  // A CSV row that prices a modifier alone (no code) needs only a description and a value
  // (CMS v3 CSV data dictionary); the methodology and count rules are for items and services.
  if (modifierOnly) return report.rejectingErrors - before;
  if (p.methodology === null && !methodologyWritten) report.add('required.methodology', location);
  if (p.methodology === 'other' && notes === null && atLeast(version, '2.1.0')) {
    report.add('other.notes-required', location);
  }
  if (version === '3.0.0') {
    if (percentOrAlgorithm && written === null) report.add('v3.count-required', location);
    // Whenever the count is not "0": missing or unreadable too, as CMS's schema and CSV validator
    // ask (v3.0.0.json, the if/then on count's const "0").
    if (percentOrAlgorithm && p.count !== '0' && !percentilesWritten) {
      report.add('v3.percentiles-required', location);
    }
    if (p.count === '0' && notes === null) report.add('v3.count-zero-notes', location);
    // CMS's alert: 3.0.0 has no estimated amount (the median, percentiles and count replace it).
    if (estimatedWritten) report.add('v3.estimated-amount', location);
  } else if (version === '2.2.0' || version === '2.2.1') {
    if (percentOrAlgorithm && p.dollar === null && !estimatedWritten) {
      report.add('v2.estimated-amount-required', location);
    }
  }
  return report.rejectingErrors - before;
}

/** A count of nine 9s as cmsCount reads it (a whole number above 10 is kept as written). */
const NINE_NINES_COUNT = '999999999';

/** A rate's estimated and allowed amounts written but unusable (NaN, see checkPayer) as none. */
function leaveOutUnusable(p: PayerCharge): void {
  if (Number.isNaN(p.estimatedAmount)) p.estimatedAmount = null;
  if (Number.isNaN(p.median)) p.median = null;
  if (Number.isNaN(p.p10)) p.p10 = null;
  if (Number.isNaN(p.p90)) p.p90 = null;
}

/**
 * Whether a charge must name its setting: every charge must, but a row that prices a modifier
 * alone since 2.2.0, when CMS's CSV rules gave such rows their place (they ask it no setting, as
 * the JSON's `modifier_information` never did).
 */
export function needsSetting(
  version: CmsVersion,
  record: Pick<ChargeRecord, 'codes' | 'modifiers'>,
): boolean {
  return !(atLeast(version, '2.2.0') && isModifierOnly(record));
}

/**
 * Says what a drug's unit and type leave out, since 2.2.0, as CMS's rules do: one of the two
 * without the other (required.drug-pair), or neither on a charge with an NDC code
 * (required.drug-information). Decided from what was written, readable or not: an unreadable unit
 * or type has its own error, and is not said missing as well (as in CMS's validator).
 */
export function checkDrugInformation(
  ctx: RuleContext,
  location: string,
  unitGiven: boolean,
  typeGiven: boolean,
  codes: readonly Pick<CodeRef, 'type'>[],
): void {
  if (!atLeast(ctx.version, '2.2.0')) return;
  if (unitGiven !== typeGiven)
    ctx.report.add('required.drug-pair', location, unitGiven ? 'no drug type' : 'no drug unit');
  else if (!unitGiven && codes.some((c) => c.type === 'NDC'))
    ctx.report.add('required.drug-information', location);
}

/** `unreadable` of checkRecord: the charge's minimum was written but could not be read. */
export const MIN_UNREADABLE = 1;
/** `unreadable` of checkRecord: the charge's maximum was written but could not be read. */
export const MAX_UNREADABLE = 2;

/** A charge's minimum and maximum that were written but not read (MIN_UNREADABLE, MAX_UNREADABLE). */
export function minMaxUnreadable(
  min: number | null,
  minWritten: boolean,
  max: number | null,
  maxWritten: boolean,
): number {
  return (
    (min === null && minWritten ? MIN_UNREADABLE : 0) |
    (max === null && maxWritten ? MAX_UNREADABLE : 0)
  );
}

/**
 * Checks a charge once its rates are known; returns the number of errors found. A minimum or
 * maximum written but unreadable (`unreadable`) has its own error, and is not said missing too.
 */
export function checkRecord(
  r: ChargeRecord,
  ctx: RuleContext,
  anyDollarRate: boolean,
  unreadable = 0,
): number {
  const { report, version } = ctx;
  const before = report.rejectingErrors;
  const location = r.location;
  if (r.description.length === 0) report.add('required.description', location);
  // Modifier-only rows (e.g. "Bilateral procedure", modifier 50) legitimately have no code.
  const modifierOnly = isModifierOnly(r);
  if (r.codes.length === 0 && !modifierOnly) report.add('required.code', location);
  if (modifierOnly && r.payers.length === 0 && r.genericNotes === null) {
    report.add('required.charge', location);
  }
  if (atLeast(version, '2.1.0') && !modifierOnly) {
    if (r.gross === null && r.discountedCash === null && r.payers.length === 0) {
      report.add('required.charge', location);
    }
    const noMin = r.min === null && (unreadable & MIN_UNREADABLE) === 0;
    const noMax = r.max === null && (unreadable & MAX_UNREADABLE) === 0;
    if (anyDollarRate && (noMin || noMax)) {
      report.add('required.min-max', location);
    }
  }
  checkPlausible(r, report);
  return report.rejectingErrors - before;
}

/**
 * Warns of figures that cannot all be right, each read as written (warnings only, nothing
 * rejected): a minimum above the maximum, else a dollar rate outside its charge's own minimum and
 * maximum (CMS defines them as the lowest and highest of its payers' rates), and a percentage of
 * billed charges over 100. A few comparisons a rate: it runs for every record.
 */
function checkPlausible(r: ChargeRecord, report: ValidationReport): void {
  const { min, max, location } = r;
  // One swapped pair would put every rate outside it: said once, as what it is.
  const swapped = min !== null && max !== null && min > max;
  if (swapped) report.add('plausible.min-above-max', location, `min ${min}, max ${max}`);
  for (const p of r.payers) {
    const { dollar, percentage } = p;
    if (
      !swapped &&
      dollar !== null &&
      ((min !== null && dollar < min - HALF_CENT) || (max !== null && dollar > max + HALF_CENT))
    ) {
      const range = `min ${min ?? 'none'}, max ${max ?? 'none'}`;
      report.add('plausible.outside-min-max', location, `${rateName(p)}: ${dollar} (${range})`);
    }
    const ofBilled = p.methodology === 'percent of total billed charges';
    if (percentage !== null && percentage > 100 && ofBilled) {
      report.add('plausible.percentage-over-100', location, `${rateName(p)}: ${percentage}`);
    }
  }
}

/** How far a rate may be from its minimum or maximum by rounding to the cent. */
const HALF_CENT = 0.005;

function rateName(p: PayerCharge): string {
  return `${p.payerName} | ${p.planName}`;
}
