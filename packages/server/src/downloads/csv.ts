/**
 * What a spreadsheet may read as the start of a formula: OWASP's list, and the full-width forms
 * of = + - @ that some East Asian Excel set-ups turn into them.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** RFC 4180 quoting, plus a guard against spreadsheet formulas in text cells (OWASP CSV injection). */
export function csvText(value: string | null | undefined): string {
  const text = value ?? '';
  return csvCell(FORMULA_START.test(text) ? `'${text}` : text);
}

/** A cell as written: quoted when it holds a comma, quote, line break or edge spaces. */
export function csvCell(value: string | null | undefined): string {
  const text = value ?? '';
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: string[]): string {
  return `${cells.join(',')}\r\n`;
}
