import { Readable } from 'node:stream';
import { isEinDigits, normaliseEin } from '@mrn/contracts';
import { parse } from 'csv-parse';

// A CSV of EINs, as subscription imports and portfolio screenings read it.

/** One line of the file as read: its line number and its EIN, or why it is not one. */
export type ImportRow = { line: number; input: string } & ({ fein: string } | { error: string });

export const IMPORT_ERRORS = {
  notEin: 'error: must be 9 digits, as 12-3456789',
  onlyEins: 'error: must contain only an EIN',
} as const;

/**
 * Reads a CSV of EINs with the streaming parser: one EIN a row (dashes and spaces allowed), anything
 * else an error row with its line number. A first row with no digits at all is a header and is skipped.
 */
export async function readEinRows(bytes: Buffer): Promise<ImportRow[]> {
  const rows: ImportRow[] = [];
  const parser = Readable.from([bytes]).pipe(
    parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true }),
  );
  let first = true;
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number };
  }>) {
    const cells = record.map((c) => c.trim()).filter((c) => c !== '');
    const isFirst = first;
    first = false;
    if (cells.length === 0) continue;
    const input = record.join(',');
    if (isFirst && !/\d/.test(input)) continue;
    if (cells.length > 1) {
      rows.push({ line: info.lines, input, error: IMPORT_ERRORS.onlyEins });
      continue;
    }
    const fein = normaliseEin(cells[0]!);
    rows.push(
      isEinDigits(fein)
        ? { line: info.lines, input, fein }
        : { line: info.lines, input, error: IMPORT_ERRORS.notEin },
    );
  }
  return rows;
}
