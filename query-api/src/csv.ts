import { stringify } from 'csv-stringify/sync';

/**
 * A cell a spreadsheet would run as a formula (OWASP CSV injection: `=`, `+`, `-`, `@`, tab, carriage
 * return) gets a leading single quote, so it is shown as the text it is. Funder and member names are
 * typed by other companies' users; an export must never execute them on a staff member's machine.
 */
export function neutraliseCell(value: string | number | boolean | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** Every CSV export goes through here: a header row, then each row with every cell neutralised. */
export function toCsv(columns: string[], rows: (string | number | boolean | null | undefined)[][]): string {
  return stringify(
    rows.map((row) => row.map(neutraliseCell)),
    { header: true, columns },
  );
}
