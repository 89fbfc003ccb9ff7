import { describe, expect, it } from 'vitest';
import { ValidationReport } from '../validate/report.ts';
import { checkStatement } from './header.ts';
import { parseHptTxt } from './hpt-txt.ts';
import { amount, confirmation, text } from './normalise.ts';

/**
 * Values that nearly match a reader's pattern, at a length a file can hold (a CSV value up to
 * 1 MiB, a JSON item up to 16 MiB). Where a pattern tries each character of a run against the
 * rest of the value, its time grows with the square of the length: at 300,000 characters a
 * minute or more, so each test here would run far past its time limit. Read at once, they take
 * milliseconds (found by an audit of every pattern that outside text reaches; ADR 0004, "Patterns").
 */
const LONG = 300_000;

describe('a value that nearly matches a pattern, however long, is read at once', () => {
  it('a run of blanks before the last character: trimmed at its edges only', () => {
    const raw = ` x${' '.repeat(LONG)}x`;
    expect(text(raw, new ValidationReport(), 'row 3', 'description')).toBe(raw.slice(1));
  });

  it('an amount of many digits that ends in a letter: refused as a number', () => {
    const report = new ValidationReport();
    const read = amount(`${'1'.repeat(LONG)}x`, report, 'row 3', 'standard_charge|gross');
    expect(read).toBeNaN();
    expect(report.count('number.invalid')).toBe(1);
  });

  it('an attestation of many stops that ends in a letter: an unknown word', () => {
    const report = new ValidationReport();
    expect(confirmation(`${'.'.repeat(LONG)}x`, report, 'attestation')).toBeNull();
    expect(report.count('attestation.unknown-word')).toBe(1);
  });

  it('an attestation statement with a long run of spaces: not the CMS wording', () => {
    const report = new ValidationReport();
    checkStatement(`a${' '.repeat(LONG)}x`, '3.0.0', report, 'attestation');
    expect(report.count('attestation.wording')).toBe(1);
  });

  it('a cms-hpt.txt contact e-mail of many dots: not an e-mail address', () => {
    const listing = parseHptTxt(
      [
        'location-name: Test Hospital',
        'mrf-url: https://www.testhospital.com/standardcharges.json',
        `contact-email: a@${'.'.repeat(LONG)}@`,
      ].join('\n'),
      'cms-hpt.txt',
    );
    expect(listing.problems).toEqual([
      expect.stringMatching(/^line 1: contact-email "a@\.+" is not an e-mail address$/),
    ]);
  });
});
