import { describe, expect, it } from 'vitest';
import { inTimeZone } from '../test/time-zone.ts';
import { formatDateAndTime, formatDateTime } from './format-date.ts';

describe('formatDateTime', () => {
  inTimeZone('America/Los_Angeles');

  it('writes month-day-year hour:minute:second in local time', () => {
    expect(formatDateTime('2026-11-21T15:45:03Z')).toBe('11-21-2026 07:45:03');
    // The day before in Los Angeles, still the 21st in UTC.
    expect(formatDateTime('2026-11-21T05:09:00Z')).toBe('11-20-2026 21:09:00');
  });

  it('shows a dash for an account that never signed in', () => {
    expect(formatDateTime(null)).toBe('—');
  });

  it('shows a dash for a value that is not a date', () => {
    expect(formatDateTime('yesterday')).toBe('—');
  });
});

describe('formatDateAndTime', () => {
  inTimeZone('America/Los_Angeles');

  it('writes the day in words and the hour and minute in local time', () => {
    expect(formatDateAndTime('2026-03-27T17:42:59Z')).toBe('March 27, 2026 at 10:42 AM');
    // Past midnight in UTC, still the day before in Los Angeles; then just past its midnight.
    expect(formatDateAndTime('2026-01-06T07:30:00Z')).toBe('January 5, 2026 at 11:30 PM');
    expect(formatDateAndTime('2026-01-06T08:07:00Z')).toBe('January 6, 2026 at 12:07 AM');
  });

  it('shows a value that is not a date as it came', () => {
    expect(formatDateAndTime('soon')).toBe('soon');
  });
});
