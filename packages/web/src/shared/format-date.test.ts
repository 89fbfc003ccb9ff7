import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format-date.ts';

describe('formatDateTime', () => {
  it('writes month-day-year hour:minute:second in local time', () => {
    // A local-time instant, so the test holds in every time zone.
    const local = new Date(2026, 10, 21, 7, 45, 3);
    expect(formatDateTime(local.toISOString())).toBe('11-21-2026 07:45:03');
  });

  it('shows a dash for an account that never signed in', () => {
    expect(formatDateTime(null)).toBe('—');
  });

  it('shows a dash for a value that is not a date', () => {
    expect(formatDateTime('yesterday')).toBe('—');
  });
});
