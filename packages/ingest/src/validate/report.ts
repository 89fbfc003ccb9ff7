import type { IssueSeverity, ValidationIssue } from '../model.ts';
import { RULES, type RuleId } from './rules.ts';

/** How many examples each rule keeps: enough to find the problem, small whatever the file. */
export const EXAMPLES_PER_RULE = 5;

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

  /** Plain words, one line per rule, e.g. "12 rates had no payer name (rule required.payer_name), first at row 45". */
  toText(): string {
    const lines: string[] = [];
    if (this.fatal) lines.push(`The file could not be read: ${this.fatal.message}`);
    lines.push(
      `${this.recordsRead} charges with ${this.payersRead} payer rates read; ` +
        `${this.rejectedRecords} charges and ${this.rejectedPayers} rates rejected; ` +
        `${this.errorCount} errors, ${this.warningCount} warnings.`,
    );
    for (const r of this.rules()) {
      const definition = RULES[r.rule];
      const first = r.examples[0];
      const label = r.severity === 'error' ? 'Error' : 'Warning';
      lines.push(
        `${label}: ${r.count} ${r.count === 1 ? definition.one : definition.many} (rule ${r.rule})` +
          (first ? `, first at ${first.location}` : ''),
      );
    }
    return lines.join('\n');
  }
}
