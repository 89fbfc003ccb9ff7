const pad = (value: number) => String(value).padStart(2, '0');

/**
 * A timestamp as month-day-year hour:minute:second in local time, e.g. 11-21-2026 07:45:03
 * (subscriptions-and-payments §2 "User list"); '—' for no value or one that does not parse.
 */
export function formatDateTime(iso: string | null): string {
  if (iso === null) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return (
    `${pad(date.getMonth() + 1)}-${pad(date.getDate())}-${date.getFullYear()} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

const calendarDate = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

/**
 * A calendar date such as the CMS `last_updated_on` ('2026-03-27') as 'March 27, 2026'. It is a
 * day, not an instant: read and written in UTC so no time zone moves it to the day before.
 * Anything that is not a YYYY-MM-DD date is shown as it came.
 */
export function formatCalendarDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const [, year, month, day] = match.map(Number);
  if (year === undefined || month === undefined || day === undefined) return value;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return value;
  return calendarDate.format(date);
}

/**
 * An instant as its day and minute in local time, for telling apart runs minutes apart:
 * 'March 27, 2026 at 10:42 AM'. Anything that does not parse is shown as it came.
 */
export function formatDateAndTime(iso: string): string {
  const parts = dayAndTime(iso);
  return parts ? `${parts.day} at ${parts.time}` : iso;
}

/**
 * An instant's day ('March 27, 2026') and minute ('10:42 AM', on the 12-hour clock US readers
 * use) in local time; null if it does not parse.
 */
export function dayAndTime(iso: string): { day: string; time: string } | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  // Not one formatter made at load, like calendarDate: it would keep the zone of that moment.
  const day = date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
  // Written out, not toLocaleTimeString: ICU versions put a narrow no-break space before "PM".
  const hours = date.getHours();
  const time = `${hours % 12 || 12}:${pad(date.getMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
  return { day, time };
}
