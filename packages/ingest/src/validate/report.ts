import type { ValidationLine } from '@ratelens/core';
import type { IssueSeverity, ValidationIssue } from '../model.ts';
import { isKept, RULES, type RuleId } from './rules.ts';

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
   * "23,864 charges with 136,292 payer rates read, and 1 modifier with 74 payer entries; 0 charges
   * and 0 rates rejected; 0 errors, 2,100 warnings." Modifiers are named only when a file has them.
   */
  private totals(): string {
    const modifiers = (records: number, entries: number, joiner: string) =>
      records + entries === 0
        ? ''
        : `, and ${plural(records, 'modifier')} ${joiner} ` +
          plural(entries, 'payer entry', 'payer entries');
    return (
      `${plural(this.recordsRead, 'charge')} with ${plural(this.payersRead, 'payer rate')} read` +
      `${modifiers(this.modifiersRead, this.modifierEntriesRead, 'with')}; ` +
      `${plural(this.rejectedRecords, 'charge')} and ${plural(this.rejectedPayers, 'rate')} rejected` +
      `${modifiers(this.rejectedModifiers, this.rejectedModifierEntries, 'and')}; ` +
      `${plural(this.errorCount, 'error')}, ${plural(this.warningCount, 'warning')}.`
    );
  }

  /**
   * The report's lines: the totals (after the error that ended the read, if one did), then one
   * per rule with its examples ('row 9: gross "abc"'). `firstAt` adds where each rule first broke
   * to its sentence, for when the examples are not shown; `fatal: false` leaves out the error that
   * ended the read, for when it is shown apart. `plain` words them for the inventory's readers
   * rather than for whoever mends the file: no rule ids, and places as "item 59, payer rate 3"
   * instead of JSON paths (`plainLocation`).
   */
  lines({
    firstAt = true,
    fatal = true,
    plain = false,
  }: { firstAt?: boolean; fatal?: boolean; plain?: boolean } = {}): ValidationLine[] {
    const lines: ValidationLine[] = [];
    if (this.fatal && fatal)
      lines.push({ sentence: `The file could not be read: ${this.fatal.message}`, examples: [] });
    lines.push({ sentence: this.totals(), examples: [] });
    const place = plain ? plainLocation : (location: string) => location;
    for (const r of this.rules()) {
      const definition = RULES[r.rule];
      const first = r.examples[0];
      const label = r.severity === 'error' ? 'Error' : 'Warning';
      // A header field's place only repeats what the sentence names ("no hospital name").
      const findable =
        first !== undefined && !isWholeFile(first.location) && !(plain && isHeader(first.location));
      lines.push({
        sentence:
          `${label}: ${counting.format(r.count)} ${r.count === 1 ? definition.one : definition.many}` +
          (isKept(definition) ? ', kept all the same' : '') +
          (plain ? '' : ` (rule ${r.rule})`) +
          (first && firstAt && findable ? `, first at ${place(first.location)}` : ''),
        examples: r.examples.flatMap(
          (example) =>
            exampleText(
              example,
              definition.one,
              place,
              plain ? PLAIN_DETAILS[r.rule] : undefined,
            ) ?? [],
        ),
      });
    }
    return lines;
  }
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

/**
 * An example without its rule's sentence, which the line above says: 'row 9: gross "abc"';
 * null when nothing is left to say. `place` words its location.
 */
function exampleText(
  example: ValidationIssue,
  sentence: string,
  place: (location: string) => string,
  plainDetail?: (detail: string) => string,
): string | null {
  const written = example.message.startsWith(`${sentence}: `)
    ? example.message.slice(sentence.length + 2)
    : example.message === sentence
      ? ''
      : example.message;
  const detail = plainDetail ? plainDetail(written) : written;
  const shown = detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL - 1)}…` : detail;
  if (shown) return `${place(example.location)}: ${shown}`;
  // "file" alone adds nothing to the rule's line.
  return isWholeFile(example.location) ? null : place(example.location);
}

/**
 * Details worded for the inventory's readers where the command line's are for whoever mends the
 * file: a byte read as Windows-1252, `0x92 at byte 571,477, read as "’": "…Add’L Seq…"`, is
 * `’ in “…Add’L Seq…”` (the byte and its offset are of no use to a reader of the page).
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
};

/** "1 charge", "23,864 charges"; "1 payer entry", "74 payer entries". */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${counting.format(n)} ${n === 1 ? noun : nouns}`;
}
