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
