import type { ValidationLine } from '@ratelens/core';
import { CMS_CODE_TYPES_V3, type IssueSeverity, type ValidationIssue } from '../model.ts';
import { isKept, RULES, type RuleDefinition, type RuleId } from './rules.ts';

const counting = new Intl.NumberFormat('en-US');

/** How many examples each rule keeps: enough to find the problem, small whatever the file. */
export const EXAMPLES_PER_RULE = 5;

/** How much of an example's value a text report shows (an attestation runs to 900 characters). */
const MAX_DETAIL = 120;

export interface RuleSummary {
  rule: RuleId;
  severity: IssueSeverity;
  count: number;
  examples: ValidationIssue[];
}

export interface FatalSummary {
  code: string;
  message: string;
}

export interface ValidationSummary {
  errorCount: number;
  warningCount: number;
  recordsRead: number;
  recordsRejected: number;
  payersRead: number;
  payersRejected: number;
  modifiersRead: number;
  modifiersRejected: number;
  modifierEntriesRead: number;
  modifierEntriesRejected: number;
  fatal: FatalSummary | null;
  rules: RuleSummary[];
}

/**
 * The validation report of one file: counts per rule and the first examples of each. It stays
 * small whatever the file size (a count and five examples per rule).
 */
export class ValidationReport {
  errorCount = 0;
  warningCount = 0;
  /**
   * The errors that reject what they name: all but the `kept` rules'. The readers compare it
   * before and after checking a rate or charge to know whether to keep it.
   */
  rejectingErrors = 0;
  /** Charge records emitted (after rejection) and rejected. */
  recordsRead = 0;
  rejectedRecords = 0;
  /** Payer entries (rates) emitted and rejected. */
  payersRead = 0;
  rejectedPayers = 0;
  /** Records of what a modifier does (isModifierOnly) and their payer entries: not charges. */
  modifiersRead = 0;
  rejectedModifiers = 0;
  modifierEntriesRead = 0;
  rejectedModifierEntries = 0;
  /** The file-level error that ended the read, if any. */
  fatal: FatalSummary | null = null;

  private readonly byRule = new Map<RuleId, RuleSummary>();

  add(rule: RuleId, location: string, detail?: string): void {
    const definition = RULES[rule];
    let summary = this.byRule.get(rule);
    if (summary === undefined) {
      summary = { rule, severity: definition.severity, count: 0, examples: [] };
      this.byRule.set(rule, summary);
    }
    summary.count++;
    if (definition.severity === 'error') {
      this.errorCount++;
      if (!isKept(definition)) this.rejectingErrors++;
    } else this.warningCount++;
    if (summary.examples.length < EXAMPLES_PER_RULE) {
      summary.examples.push({
        severity: definition.severity,
        rule,
        message: detail === undefined ? definition.one : `${definition.one}: ${detail}`,
        location,
      });
    }
  }

  /** `times` more of a rule whose examples were given (or cannot be told apart). */
  addCount(rule: RuleId, times: number, location: string): void {
    if (times <= 0) return;
    this.add(rule, location);
    const summary = this.byRule.get(rule) as RuleSummary;
    summary.count += times - 1;
    if (summary.severity === 'error') {
      this.errorCount += times - 1;
      if (!isKept(RULES[rule])) this.rejectingErrors += times - 1;
    } else this.warningCount += times - 1;
  }

  /** Everything rejected: charges, rates, modifiers' records and their payer entries. */
  rejected(): number {
    return (
      this.rejectedRecords +
      this.rejectedPayers +
      this.rejectedModifiers +
      this.rejectedModifierEntries
    );
  }

  count(rule: RuleId): number {
    return this.byRule.get(rule)?.count ?? 0;
  }

  examples(rule: RuleId): ValidationIssue[] {
    return this.byRule.get(rule)?.examples ?? [];
  }

  /** Rules in the order errors first, then by how often they broke. */
  rules(): RuleSummary[] {
    return [...this.byRule.values()].sort(
      (a, b) =>
        (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) || b.count - a.count,
    );
  }

  toJSON(): ValidationSummary {
    return {
      errorCount: this.errorCount,
      warningCount: this.warningCount,
      recordsRead: this.recordsRead,
      recordsRejected: this.rejectedRecords,
      payersRead: this.payersRead,
      payersRejected: this.rejectedPayers,
      modifiersRead: this.modifiersRead,
      modifiersRejected: this.rejectedModifiers,
      modifierEntriesRead: this.modifierEntriesRead,
      modifierEntriesRejected: this.rejectedModifierEntries,
      fatal: this.fatal,
      rules: this.rules().map((r) => ({ ...r, examples: [...r.examples] })),
    };
  }

  /**
   * Plain words, one line per rule, e.g. "12 rates had no payer name (rule required.payer_name),
   * first at row 45"; with `examples`, each rule's examples follow it, indented, one per line.
   * `fatal: false` leaves out the error that ended the read, as `lines` does.
   */
  toText({ examples = false, fatal = true }: { examples?: boolean; fatal?: boolean } = {}): string {
    return this.lines({ firstAt: !examples, fatal })
      .flatMap((line) =>
        examples ? [line.sentence, ...line.examples.map((e) => `  ${e}`)] : [line.sentence],
      )
      .join('\n');
  }

  /**
   * The report's lines: the totals (after the error that ended the read, if one did), then one
   * per rule with its examples (`summaryLines`).
   */
  lines(options: LineOptions = {}): ValidationLine[] {
    return summaryLines(this.toJSON(), options);
  }
}

/** How `summaryLines` words a report (see there). */
export interface LineOptions {
  firstAt?: boolean;
  fatal?: boolean;
  plain?: boolean;
}

/**
 * "23,864 charges with 136,292 payer rates read, and 1 modifier with 74 payer entries; 0 charges
 * and 0 rates rejected; 0 errors, 2,100 warnings." Modifiers are named only when a file has them.
 */
function totals(s: ValidationSummary): string {
  const modifiers = (records: number, entries: number, joiner: string) =>
    records + entries === 0
      ? ''
      : `, and ${plural(records, 'modifier')} ${joiner} ` +
        plural(entries, 'payer entry', 'payer entries');
  return (
    `${plural(s.recordsRead, 'charge')} with ${plural(s.payersRead, 'payer rate')} read` +
    `${modifiers(s.modifiersRead, s.modifierEntriesRead, 'with')}; ` +
    `${plural(s.recordsRejected, 'charge')} and ${plural(s.payersRejected, 'rate')} rejected` +
    `${modifiers(s.modifiersRejected, s.modifierEntriesRejected, 'and')}; ` +
    `${plural(s.errorCount, 'error')}, ${plural(s.warningCount, 'warning')}.`
  );
}

/**
 * A report's lines: the totals (after the error that ended the read, if one did), then one per
 * rule with its examples ('row 9: gross "abc"'). `firstAt` adds where each rule first broke to
 * its sentence, for when the examples are not shown; `fatal: false` leaves out the error that
 * ended the read, for when it is shown apart. `plain` words them for the inventory's readers
 * rather than for whoever mends the file: no rule ids, places as "item 59, payer rate 3" instead
 * of JSON paths (`plainLocation`), fields and values in words in the examples (`plainDetail`),
 * and a few rules' sentences reworded (`PLAIN_SENTENCES`).
 */
export function summaryLines(
  summary: ValidationSummary,
  { firstAt = true, fatal = true, plain = false }: LineOptions = {},
): ValidationLine[] {
  const lines: ValidationLine[] = [];
  if (summary.fatal && fatal)
    lines.push({ sentence: `The file could not be read: ${summary.fatal.message}`, examples: [] });
  lines.push({ sentence: totals(summary), examples: [] });
  const place = plain ? plainLocation : (location: string) => location;
  for (const r of summary.rules) {
    const definition = RULES[r.rule];
    const details = r.examples.map((example) => writtenDetail(example, definition.one));
    const wording = plain ? (PLAIN_SENTENCES[r.rule]?.(details) ?? definition) : definition;
    const first = r.examples[0];
    const label = r.severity === 'error' ? 'Error' : 'Warning';
    // A header field's place only repeats what the sentence names ("no hospital name").
    const findable =
      first !== undefined && !isWholeFile(first.location) && !(plain && isHeader(first.location));
    lines.push({
      sentence:
        `${label}: ${counting.format(r.count)} ${r.count === 1 ? wording.one : wording.many}` +
        (isKept(definition) ? ', kept all the same' : '') +
        (plain ? '' : ` (rule ${r.rule})`) +
        (first && firstAt && findable ? `, first at ${place(first.location)}` : ''),
      examples: r.examples.flatMap((example, at) => {
        const written = details[at] ?? '';
        const detail = plain ? plainDetail(r.rule, written, example.location) : written;
        return exampleText(example.location, detail, place) ?? [];
      }),
    });
  }
  return lines;
}

/**
 * A report as a run stored it (`ValidationReport.toJSON`), if it can be worded again today: the
 * inventory then shows today's words for runs read before they changed. Null when it cannot be
 * told what the report meant in today's terms: a rule since renamed or removed, one that has
 * changed severity (the totals counted it as it was), or an example whose sentence was worded
 * otherwise then (its detail cannot be told from its sentence). Counts of modifiers, missing
 * from reports stored before they were counted apart, are none.
 */
export function storedSummary(stored: unknown): ValidationSummary | null {
  if (!isRecord(stored) || !Array.isArray(stored.rules)) return null;
  const count = (name: string, absent?: number) => {
    const value = stored[name] ?? absent;
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
  };
  const counts = {
    errorCount: count('errorCount'),
    warningCount: count('warningCount'),
    recordsRead: count('recordsRead'),
    recordsRejected: count('recordsRejected'),
    payersRead: count('payersRead'),
    payersRejected: count('payersRejected'),
    modifiersRead: count('modifiersRead', 0),
    modifiersRejected: count('modifiersRejected', 0),
    modifierEntriesRead: count('modifierEntriesRead', 0),
    modifierEntriesRejected: count('modifierEntriesRejected', 0),
  };
  const { fatal } = stored;
  const fatalRead =
    isRecord(fatal) && typeof fatal.code === 'string' && typeof fatal.message === 'string'
      ? { code: fatal.code, message: fatal.message }
      : null;
  const rules = stored.rules.map(storedRule);
  if (fatal != null && fatalRead === null) return null;
  if (Object.values(counts).includes(null) || rules.includes(null)) return null;
  return {
    ...(counts as { [K in keyof typeof counts]: number }),
    fatal: fatalRead,
    rules: rules as RuleSummary[],
  };
}

/** One rule of a stored report, if today's rule of that id says the same (see storedSummary). */
function storedRule(stored: unknown): RuleSummary | null {
  if (!isRecord(stored) || typeof stored.rule !== 'string') return null;
  if (!Object.hasOwn(RULES, stored.rule)) return null;
  const rule = stored.rule as RuleId;
  const { severity, one } = RULES[rule];
  const { count, examples } = stored;
  if (stored.severity !== severity || typeof count !== 'number' || !Array.isArray(examples))
    return null;
  const worded = (example: unknown): ValidationIssue | null =>
    isRecord(example) &&
    typeof example.location === 'string' &&
    typeof example.message === 'string' &&
    (example.message === one || example.message.startsWith(`${one}: `))
      ? { severity, rule, message: example.message, location: example.location }
      : null;
  const read = examples.map(worded);
  if (read.includes(null)) return null;
  return { rule, severity, count, examples: read as ValidationIssue[] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** 'file', 'file (UTF-16LE)': a problem of the whole file, which "first at" would not help find. */
function isWholeFile(location: string): boolean {
  return location === 'file' || location.startsWith('file (');
}

/** The fields of a file's header (a JSON file's, a CSV's row 2) as the inventory names them. */
const HEADER_FIELDS: Record<string, string> = {
  version: 'the version',
  hospital_name: 'the hospital name',
  last_updated_on: 'the last updated date',
  location_name: 'the location name',
  hospital_location: 'the location name',
  hospital_address: 'the hospital address',
  license_information: 'the licence information',
  license_number: 'the licence number',
  type_2_npi: 'the type 2 NPIs',
  attestation: 'the attestation',
  affirmation: 'the affirmation',
  standard_charge_information: 'the list of items',
  modifier_information: 'the list of modifiers',
};

const isHeader = (location: string) => Object.hasOwn(HEADER_FIELDS, location);

/** The steps of a JSON path into the items and modifiers, and their names in words. */
const PATH_STEPS: readonly (readonly [RegExp, string])[] = [
  [/^standard_charge_information\[(\d+)\]/, 'item'],
  [/^modifier_information\[(\d+)\]/, 'modifier'],
  [/^\.standard_charges\[(\d+)\]/, 'standard charge'],
  [/^\.payers_information\[(\d+)\]/, 'payer rate'],
  [/^\.modifier_payer_information\[(\d+)\]/, 'payer'],
  [/^\.code_information\[(\d+)\]/, 'code'],
  [/^\.drug_information/, 'drug information'],
];

/** A header field's name in words; undefined for any other text ("constructor" included). */
function headerField(name: string): string | undefined {
  return Object.hasOwn(HEADER_FIELDS, name) ? HEADER_FIELDS[name] : undefined;
}

/**
 * A place in a file in words, counted from 1: `standard_charge_information[58].standard_charges[0]`
 * is "item 59, standard charge 1"; a header field is "the attestation", in a CSV "row 2, the
 * attestation"; "row 1635" is "row 1,635". The whole file reads well already, and a place it does
 * not know is given as it is.
 */
export function plainLocation(location: string): string {
  const header = headerField(location);
  if (header !== undefined) return header;
  // A CSV's row or column, counted as items and bytes are ("row 1,635"), and a header field on
  // its row of values: "row 2, last_updated_on" is "row 2, the last updated date".
  const csv = /^(row|column) (\d{1,3}(?:,\d{3})+|\d+)(?=, |$)/.exec(location);
  if (csv) {
    const at = `${csv[1]} ${counting.format(Number((csv[2] ?? '').replaceAll(',', '')))}`;
    const rest = location.slice(csv[0].length);
    const field = /^, (\w+)$/.exec(rest);
    const name = field ? headerField(field[1] ?? '') : undefined;
    return name === undefined ? at + rest : `${at}, ${name}`;
  }
  const words: string[] = [];
  let rest = location;
  while (rest.length > 0) {
    const step = PATH_STEPS.find(([pattern]) => pattern.test(rest));
    if (step === undefined) return location;
    const [pattern, name] = step;
    const match = pattern.exec(rest) as RegExpExecArray;
    words.push(match[1] === undefined ? name : `${name} ${counting.format(Number(match[1]) + 1)}`);
    rest = rest.slice(match[0].length);
  }
  return words.join(', ');
}

/** What an example says besides its rule's sentence, which the line above says: 'gross "abc"'. */
function writtenDetail(example: ValidationIssue, sentence: string): string {
  if (example.message.startsWith(`${sentence}: `))
    return example.message.slice(sentence.length + 2);
  return example.message === sentence ? '' : example.message;
}

/**
 * An example as a line under its rule: 'row 9: gross "abc"', the detail cut when long; null when
 * nothing is left to say. `place` words its location.
 */
function exampleText(
  location: string,
  detail: string,
  place: (location: string) => string,
): string | null {
  const shown = detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL - 1)}…` : detail;
  if (shown) return `${place(location)}: ${shown}`;
  // "file" alone adds nothing to the rule's line.
  return isWholeFile(location) ? null : place(location);
}

/**
 * An example's detail worded for the inventory's readers: the rule's own wording
 * (`PLAIN_DETAILS`), else the field or code type it starts with in words and its value in curly
 * quotes (`namedValue`). A column rule's detail is the column's name as the file wrote it, which
 * is what it shows, so it is left as written.
 */
function plainDetail(rule: RuleId, detail: string, location: string): string {
  const own = PLAIN_DETAILS[rule];
  if (own !== undefined) return own(detail);
  return rule.startsWith('column.') ? detail : namedValue(detail, location);
}

/**
 * The fields of an item, its standard charges and payer rates (JSON's names and the CSV
 * templates'), and of the attestation, as the inventory names them in examples. The CSV's numbered
 * code columns are worded apart (`detailName`).
 */
const ITEM_FIELDS: Record<string, string> = {
  description: 'the description',
  setting: 'the setting',
  code: 'the code',
  'code type': 'the code type',
  modifier: 'the modifier',
  modifiers: 'the modifiers',
  modifier_code: 'the modifiers',
  drug_information: 'the drug information',
  'drug_information.unit': 'the drug unit',
  drug_unit_of_measurement: 'the drug unit',
  'drug_information.type': 'the drug unit type',
  drug_type_of_measurement: 'the drug unit type',
  gross_charge: 'the gross charge',
  'standard_charge|gross': 'the gross charge',
  discounted_cash: 'the discounted cash price',
  'standard_charge|discounted_cash': 'the discounted cash price',
  minimum: 'the minimum',
  'standard_charge|min': 'the minimum',
  maximum: 'the maximum',
  'standard_charge|max': 'the maximum',
  additional_generic_notes: 'the notes',
  payer_name: 'the payer name',
  plan_name: 'the plan name',
  standard_charge_dollar: 'the negotiated dollar amount',
  negotiated_dollar: 'the negotiated dollar amount',
  standard_charge_percentage: 'the negotiated percentage',
  negotiated_percentage: 'the negotiated percentage',
  standard_charge_algorithm: 'the negotiated algorithm',
  negotiated_algorithm: 'the negotiated algorithm',
  algorithm: 'the negotiated algorithm',
  methodology: 'the methodology',
  estimated_amount: 'the estimated amount',
  median_amount: 'the median amount',
  '10th_percentile': 'the 10th percentile',
  '90th_percentile': 'the 90th percentile',
  count: 'the count',
  additional_payer_notes: "the payer's notes",
  standard_charges: 'the list of standard charges',
  payers_information: 'the list of payer rates',
  code_information: 'the list of codes',
  modifier_payer_information: "the list of the modifier's payers",
  attester_name: "the attester's name",
  confirm_attestation: 'the confirmation of the attestation',
  general_contract_provisions: 'the general contract provisions',
  provisions: 'the provisions',
};

/**
 * CMS's code types as a reader of the page knows them ("RC 250" is "revenue code 250"); those
 * known by their letters (MS-DRG, APC) keep them, their values quoted as any other's.
 */
const CODE_TYPE_WORDS: Partial<Record<string, string>> = {
  CPT: 'CPT code',
  HCPCS: 'HCPCS code',
  RC: 'revenue code',
  CDM: 'chargemaster code',
  NDC: 'national drug code',
  ICD: 'ICD code',
  HIPPS: 'HIPPS code',
  CDT: 'dental code (CDT)',
  LOCAL: 'local code',
};
const CODE_TYPES: Record<string, string> = Object.fromEntries(
  CMS_CODE_TYPES_V3.map((type) => [type, CODE_TYPE_WORDS[type] ?? type]),
);

/**
 * A field's name or a code's type, as a detail starts with it, in words; undefined for any other
 * text. A CSV's `code|2` is "code 2" and `code|2|type` "the type of code 2"; its licence number
 * column names the state (`license_number|MA`).
 */
function detailName(name: string): string | undefined {
  const header = headerField(name);
  if (header !== undefined) return header;
  if (Object.hasOwn(ITEM_FIELDS, name)) return ITEM_FIELDS[name];
  if (Object.hasOwn(CODE_TYPES, name)) return CODE_TYPES[name];
  const code = /^code\|(\d+)(\|type)?$/.exec(name);
  if (code) return code[2] === undefined ? `code ${code[1]}` : `the type of code ${code[1]}`;
  return /^license_number\|\S+$/.test(name) ? headerField('license_number') : undefined;
}

/**
 * A detail that starts with a field's name or a code's type, in words: `attester_name "Tim
 * Reiner "` is `the attester's name “Tim Reiner ”`, `RC 250` is `revenue code 250`. The name is
 * left out where it is the place already (a JSON file's `hospital_name: hospital_name " X"` is
 * `the hospital name: “ X”`). A detail that starts with no name it knows is left as written, but
 * for a quoted value (`"Facility"` is `“Facility”`).
 */
function namedValue(detail: string, location: string): string {
  // A name of two words ("code type") is tried before its first word.
  const first = detail.indexOf(' ');
  const second = first === -1 ? -1 : detail.indexOf(' ', first + 1);
  for (const end of [second, first, detail.length]) {
    if (end === -1) continue;
    const name = detail.slice(0, end);
    const words = detailName(name);
    if (words === undefined) continue;
    const value = plainValue(detail.slice(end + 1));
    if (name === location) return value;
    return value === '' ? words : `${words} ${value}`;
  }
  return plainValue(detail);
}

/**
 * A value as the page shows it: a JSON string, whole or cut ("…"), in curly quotes with its
 * escapes read (`"Tim Reiner "` is `“Tim Reiner ”`); anything else (a number, null, a list's
 * size) as written.
 */
function plainValue(value: string): string {
  const quoted = /^"((?:[^"\\]|\\.)*)("|…)$/.exec(value);
  // A value cut inside an escape ("\u00…") is no string: as written.
  const text = quoted ? jsonString(`"${quoted[1] ?? ''}"`) : null;
  return text === null ? value : `“${text}${quoted?.[2] === '…' ? '…' : ''}”`;
}

/**
 * The text of a JSON string, or null when it is none. The report is worded as a file is loaded:
 * a detail it cannot read is shown as written rather than failing the load.
 */
function jsonString(literal: string): string | null {
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** What json-fields counts a field's objects as, in the page's words ("payer rate", as places). */
function plainObjects(many: string): string {
  if (many === 'payer entries') return 'payer rates';
  return many === 'drug_information objects' ? "items' drug information" : many;
}

/** "(in 23,864 standard charges)" after a field's detail: how many objects it was in. */
const IN_OBJECTS = / \(in ([\d,]+) ([^()]+)\)$/;

/**
 * `"Gross_Charge" for gross_charge (in 12 standard charges)` as `“Gross_Charge” for the gross
 * charge, in 12 standard charges`: a field or list read under the CMS name it stands for.
 */
function plainRespelling(detail: string): string {
  const times = IN_OBJECTS.exec(detail);
  const field = times ? detail.slice(0, times.index) : detail;
  const match = /^("(?:[^"\\]|\\.)*") for (\S+)$/.exec(field);
  if (!match) return detail;
  const cms = match[2] ?? '';
  return (
    `${plainValue(match[1] ?? '')} for ${detailName(cms) ?? cms}` +
    (times ? `, in ${times[1]} ${plainObjects(times[2] ?? '')}` : '')
  );
}

/** Keys as a file wrote them, `payer_name, Standard_Charge_Dollar`, with spaces for `_`. */
function plainKeys(detail: string): string {
  return detail.replaceAll('_', ' ');
}

/**
 * Details worded for the inventory's readers where the command line's are for whoever mends the
 * file: a byte read as Windows-1252, `0x92 at byte 571,477, read as "’": "…Add’L Seq…"`, is
 * `’ in “…Add’L Seq…”` (the byte and its offset are of no use to a reader of the page). A field
 * the file has and CMS does not, `"billing_class": "facility" (in 23,864 standard charges)`, is
 * `billing class, written in 23,864 standard charges (first “facility”)`: its sentence counts
 * field names (`PLAIN_SENTENCES`), so the example says what the 23,864 count. A licence with no
 * state, `""`, is "no state".
 */
const PLAIN_DETAILS: Partial<Record<RuleId, (detail: string) => string>> = {
  'encoding.cp1252': (detail) => {
    const match =
      /^0x[0-9A-F]+ at byte [\d,]+, read as ("(?:[^"\\]|\\.)*"): ("(?:[^"\\]|\\.)*")$/.exec(detail);
    if (!match) return detail;
    const [char, around] = [match[1], match[2]].map(
      (quoted) => JSON.parse(quoted ?? '""') as string,
    );
    return `${char} in “${around}”`;
  },
  'json.unknown-field': (detail) => {
    const times = IN_OBJECTS.exec(detail);
    const field = times ? detail.slice(0, times.index) : detail;
    const match = /^("(?:[^"\\]|\\.)*"): (.*)$/.exec(field);
    const key = match ? jsonString(match[1] ?? '') : null;
    if (match === null || key === null) return detail;
    // The file's own name, not a CMS field's: its words as written.
    const name = key.replaceAll('_', ' ');
    const value = plainValue(match[2] ?? '');
    return times
      ? `${name}, written in ${times[1]} ${plainObjects(times[2] ?? '')} (first ${value})`
      : `${name} ${value}`;
  },
  'json.field-spelling': plainRespelling,
  // The file's own names, `Payer_Name, standard_charge_dollar`, in its words.
  'json.rate-in-charge': plainKeys,
  'json.code-in-item': plainKeys,
  'json.field-other-name': plainRespelling,
  // The detail is the state as read, `""` when the licence names none.
  'required.license_state': (detail) =>
    detail === '""' ? 'no state' : `state ${plainValue(detail)}`,
};

/** A | between values with a space beside it: what the `whitespace.trimmed` sentence names. */
const SPACED_SEPARATOR = /\s\||\|\s/;

/**
 * Sentences worded for the inventory's readers, given the rule's examples' details. The JSON
 * field rules count field names, once each however many objects have them; "1 field" beside
 * "(in 23,864 standard charges)" read as if the count were wrong. Stray spaces around | separators
 * are named only where an example shows them: a JSON file's values have none but a modifier's.
 */
const PLAIN_SENTENCES: Partial<
  Record<RuleId, (details: readonly string[]) => Pick<RuleDefinition, 'one' | 'many'>>
> = {
  'json.unknown-field': () => ({
    one: 'field name is not a CMS field name, and its values were ignored',
    many: 'field names are not CMS field names, and their values were ignored',
  }),
  'json.field-spelling': () => ({
    one: 'field name was written another way (letter case, plural, spaces) and read as the CMS field',
    many: 'field names were written other ways (letter case, plural, spaces) and read as the CMS fields',
  }),
  'json.rate-in-charge': () => ({
    one: "standard charge had a payer's rate written in its own fields rather than in its list of payer rates (read as one of its rates)",
    many: "standard charges had a payer's rate written in their own fields rather than in their lists of payer rates (each read as one of their rates)",
  }),
  'json.code-in-item': () => ({
    one: "item had its code written in its own fields rather than in its list of codes (read as the item's code)",
    many: 'items had their codes written in their own fields rather than in their lists of codes (each read as its code)',
  }),
  'json.payers-by-name': () => ({
    one: "standard charge's payer rates were written under payer names rather than as a list (each read, under the payer its name gives when it names none)",
    many: "standard charges' payer rates were written under payer names rather than as lists (each read, under the payer its name gives when it names none)",
  }),
  'json.field-other-name': () => ({
    one: 'list name was not the one CMS gives the list but could mean only it, and was read as that list',
    many: 'list names were not the ones CMS gives the lists but could mean only them, and were read as those lists',
  }),
  'whitespace.trimmed': (details) =>
    details.some((detail) => SPACED_SEPARATOR.test(detail))
      ? RULES['whitespace.trimmed']
      : {
          one: 'value had stray spaces around it (trimmed)',
          many: 'values had stray spaces around them (trimmed)',
        },
};

/** "1 charge", "23,864 charges"; "1 payer entry", "74 payer entries". */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${counting.format(n)} ${n === 1 ? noun : nouns}`;
}
