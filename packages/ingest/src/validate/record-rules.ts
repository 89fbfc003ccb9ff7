import { isModifierOnly, type ChargeRecord, type CmsVersion, type PayerCharge } from '../model.ts';
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

function atLeast(version: CmsVersion, minimum: '2.1.0' | '2.2.0' | '3.0.0'): boolean {
  return version >= minimum; // the five versions sort correctly as strings
}

/**
 * Checks one rate. `fallbackNotes` is the charge's generic notes: a tall CSV has only
 * additional_generic_notes, which carries the rate's notes. Reports and returns the number of
 * errors found (0: keep the rate).
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
  const before = report.errorCount;
  if (p.payerName.length === 0) report.add('required.payer_name', location);
  if (p.planName.length === 0) report.add('required.plan_name', location);
  const percentOrAlgorithm = p.percentage !== null || p.algorithm !== null;
  if (p.dollar === null && !percentOrAlgorithm) report.add('required.negotiated-value', location);
  // A CSV row that prices a modifier alone (no code) needs only a description and a value
  // (CMS v3 CSV data dictionary); the methodology and count rules are for items and services.
  if (modifierOnly) return report.errorCount - before;
  if (p.methodology === null && !methodologyWritten) report.add('required.methodology', location);
  const notes = p.notes ?? fallbackNotes;
  if (p.methodology === 'other' && notes === null && atLeast(version, '2.1.0')) {
    report.add('other.notes-required', location);
  }
  if (version === '3.0.0') {
    if (p.count !== null && !validCount(p.count)) {
      report.add('v3.count-invalid', location, JSON.stringify(p.count));
    } else if (percentOrAlgorithm) {
      if (p.count === null) report.add('v3.count-required', location);
      else if (p.count !== '0' && (p.median === null || p.p10 === null || p.p90 === null)) {
        report.add('v3.percentiles-required', location);
      }
    }
    if (p.count === '0' && notes === null) report.add('v3.count-zero-notes', location);
  } else if (version === '2.2.0' || version === '2.2.1') {
    if (percentOrAlgorithm && p.dollar === null && p.estimatedAmount === null) {
      report.add('v2.estimated-amount-required', location);
    }
  }
  return report.errorCount - before;
}

/** Checks a charge once its rates are known; returns the number of errors found. */
export function checkRecord(r: ChargeRecord, ctx: RuleContext, anyDollarRate: boolean): number {
  const { report, version } = ctx;
  const before = report.errorCount;
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
    if (anyDollarRate && (r.min === null || r.max === null)) {
      report.add('required.min-max', location);
    }
  }
  if (atLeast(version, '2.2.0') && (r.drugUnit === null || r.drugType === null)) {
    for (const c of r.codes) {
      if (c.type === 'NDC') {
        report.add('required.drug-information', location);
        break;
      }
    }
  }
  return report.errorCount - before;
}
