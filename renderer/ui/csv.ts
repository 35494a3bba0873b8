/**
 * CSV for a spreadsheet: RFC 4180 quoting, and a text cell starting with =, +, -, @, a tab or a
 * carriage return gets a leading apostrophe so a spreadsheet shows it instead of running it as a
 * formula (a panel's answer is not the operator's to trust). Plain numbers stay numbers.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

export function csvCell(text: string): string {
  const safe = FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) || safe !== safe.trim() ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows of cells as CSV text, lines ended by CRLF as RFC 4180 says. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** A value as one cell: text as it is, anything else as JSON (a table cell holds one line of it). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}
