/**
 * PostgreSQL COPY text format: one line per row, columns separated by tabs, `\N` for NULL, and
 * backslash escapes for backslash, tab, newline and carriage return.
 * https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.2
 */
export type CopyValue = string | number | boolean | null | undefined | readonly string[];

const NEEDS_ESCAPE = /[\\\t\n\r]/;

/** One text column: escaped, NULL for null. */
export function copyText(value: string | null): string {
  return value === null ? '\\N' : escapeText(value);
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));

/**
 * One numeric column: NULL for null and for what is not a finite number. Most amounts are whole
 * cents, which are written from integers: the same text as String(value) (the decimal that reads
 * back as the same double, and no shorter one exists at this size), at about half the cost.
 */
export function copyNumber(value: number | null): string {
  if (value === null) return '\\N';
  const cents = Math.round(value * 100);
  if (cents / 100 === value && cents >= 0 && cents <= 0x3fffffff) {
    const whole = Math.trunc(cents / 100);
    const fraction = cents - whole * 100;
    if (fraction === 0) return String(whole);
    return fraction % 10 === 0
      ? `${whole}.${fraction / 10}`
      : `${whole}.${TWO_DIGITS[fraction] as string}`;
  }
  return Number.isFinite(value) ? String(value) : '\\N';
}

function escapeText(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

/** A text[] literal: every element double-quoted, with `"` and `\` escaped inside. */
export function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

export function copyLine(values: readonly CopyValue[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += '\t';
    const value = values[i];
    if (value === null || value === undefined) line += '\\N';
    else if (typeof value === 'string') line += escapeText(value);
    else if (typeof value === 'number') line += Number.isFinite(value) ? String(value) : '\\N';
    else if (typeof value === 'boolean') line += value ? 't' : 'f';
    else line += escapeText(arrayLiteral(value));
  }
  return `${line}\n`;
}
