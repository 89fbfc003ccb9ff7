import { describe, expect, it } from 'vitest';
import { examplesLabel, fileCounts, fileFormatWords, fileStatusWords } from './inventory-format.ts';
import { formatCalendarDate } from '../../shared/format-date.ts';

// The known words and the time-zone-proof date are checked on the detail view
// (routes/hospital-detail.test.tsx); these are the edges it does not reach.
describe('inventory file words', () => {
  it('shows a value that is not a calendar date as it came', () => {
    expect(formatCalendarDate('2026-02-30')).toBe('2026-02-30');
    expect(formatCalendarDate('soon')).toBe('soon');
  });

  it('passes an unknown status or format through unchanged', () => {
    expect(fileStatusWords('queued')).toBe('queued');
    expect(fileFormatWords('xml')).toBe('xml');
  });

  it("labels a rule's examples with how many there are", () => {
    expect(examplesLabel(1)).toBe('Where in the file (1 example)');
    expect(examplesLabel(5)).toBe('Where in the file (5 examples)');
  });

  it('writes singular nouns for a count of one', () => {
    expect(fileCounts({ items: 1, rates: 1, rejected: 0 })).toBe('1 item, 1 rate, 0 rejected');
  });
});
