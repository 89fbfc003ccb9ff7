const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const longDate = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

/** $1,234.56. */
export function formatUsd(amount: number): string {
  return dollars.format(amount);
}

/**
 * 'November 21, 2026', in UTC: the server's messages, its reports and the screens name the same
 * day whatever the reader's time zone.
 */
export function formatLongDate(date: Date): string {
  return longDate.format(date);
}
