import type { ValidationLine } from '@ratelens/core';
import type { IssueSeverity, ValidationIssue } from '../model.ts';
import { RULES, type RuleId } from './rules.ts';

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
  /** Charge records emitted (after rejection) and rejected. */
  recordsRead = 0;
  rejectedRecords = 0;
  /** Payer entries (rates) emitted and rejected. */
  payersRead = 0;
  rejectedPayers = 0;
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
    if (definition.severity === 'error') this.errorCount++;
    else this.warningCount++;
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
    if (summary.severity === 'error') this.errorCount += times - 1;
    else this.warningCount += times - 1;
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
      fatal: this.fatal,
      rules: this.rules().map((r) => ({ ...r, examples: [...r.examples] })),
    };
  }

  /**
   * Plain words, one line per rule, e.g. "12 rates had no payer name (rule required.payer_name),
   * first at row 45"; with `examples`, each rule's examples follow it, indented, one per line.
   */
  toText({ examples = false }: { examples?: boolean } = {}): string {
    return this.lines({ firstAt: !examples })
      .flatMap((line) =>
        examples ? [line.sentence, ...line.examples.map((e) => `  ${e}`)] : [line.sentence],
      )
      .join('\n');
  }

  /**
   * The report's lines: the totals (after the error that ended the read, if one did), then one
   * per rule with its examples ('row 9: gross "abc"'). `firstAt` adds where each rule first broke
   * to its sentence, for when the examples are not shown; `fatal: false` leaves out the error that
   * ended the read, for when it is shown apart.
   */
  lines({
    firstAt = true,
    fatal = true,
  }: { firstAt?: boolean; fatal?: boolean } = {}): ValidationLine[] {
    const lines: ValidationLine[] = [];
    if (this.fatal && fatal)
      lines.push({ sentence: `The file could not be read: ${this.fatal.message}`, examples: [] });
    lines.push({
      sentence:
        `${plural(this.recordsRead, 'charge')} with ${plural(this.payersRead, 'payer rate')} ` +
        `read; ${plural(this.rejectedRecords, 'charge')} and ` +
        `${plural(this.rejectedPayers, 'rate')} rejected; ` +
        `${plural(this.errorCount, 'error')}, ${plural(this.warningCount, 'warning')}.`,
      examples: [],
    });
    for (const r of this.rules()) {
      const definition = RULES[r.rule];
      const first = r.examples[0];
      const label = r.severity === 'error' ? 'Error' : 'Warning';
      lines.push({
        sentence:
          `${label}: ${counting.format(r.count)} ${r.count === 1 ? definition.one : definition.many} (rule ${r.rule})` +
          (first && firstAt && !isWholeFile(first.location) ? `, first at ${first.location}` : ''),
        examples: r.examples.flatMap((example) => exampleText(example, definition.one) ?? []),
      });
    }
    return lines;
  }
}

/** 'file', 'file (UTF-16LE)': a problem of the whole file, which "first at" would not help find. */
function isWholeFile(location: string): boolean {
  return location === 'file' || location.startsWith('file (');
}

/**
 * An example without its rule's sentence, which the line above says: 'row 9: gross "abc"';
 * null when nothing is left to say.
 */
function exampleText(example: ValidationIssue, sentence: string): string | null {
  const detail = example.message.startsWith(`${sentence}: `)
    ? example.message.slice(sentence.length + 2)
    : example.message === sentence
      ? ''
      : example.message;
  const shown = detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL - 1)}…` : detail;
  if (shown) return `${example.location}: ${shown}`;
  // "file" alone adds nothing to the rule's line.
  return isWholeFile(example.location) ? null : example.location;
}

/** "1 charge", "23,865 charges". */
export function plural(n: number, noun: string): string {
  return `${counting.format(n)} ${noun}${n === 1 ? '' : 's'}`;
}
