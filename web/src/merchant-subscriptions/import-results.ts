/**
 * The results of a merchant subscription import as the server writes them (command-api
 * imports/subscription-import.ts): a CSV of three columns, `row,input,outcome`, one line per row of the
 * uploaded file, quoted per RFC 4180 where a value holds a comma, a quote or a line break.
 *
 * Parsed here rather than with a library: the web app has no CSV parser among its dependencies, and
 * csv-parse's browser build (the server's parser) is 110 KB with a Buffer polyfill for a format this
 * small. One pass over the text with indexOf keeps 100,000 rows to a few tens of milliseconds.
 */

export type OutcomeKind = 'imported' | 'skipped' | 'error';

export interface ImportResultRow {
  /** The row's line in the uploaded file. */
  row: number;
  /** What the line held, as uploaded. */
  input: string;
  /** `imported`, `skipped: …` or `error: …`. */
  outcome: string;
  kind: OutcomeKind | 'other';
}

export interface ImportResults {
  rows: ImportResultRow[];
  counts: Record<OutcomeKind | 'all', number>;
}

export class ResultsFormatError extends Error {}

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;

/** Where a reading of a CSV text has got to: the next character and the line it is on. */
export interface CsvCursor {
  index: number;
  line: number;
}

/** A cursor at the start of `text`, past a byte order mark. */
export const csvCursor = (text: string): CsvCursor => ({
  index: text.charCodeAt(0) === 0xfeff ? 1 : 0,
  line: 1,
});

/**
 * Reads up to `maxRecords` records of an RFC 4180 text (LF or CRLF line ends) from the cursor, each as
 * its fields, and moves the cursor past them; true once the text is read to its end. A line without a
 * quote (nearly every line of a results file) is cut at its commas with indexOf; a record holding a
 * quoted value is read character by character, across line breaks inside quotes.
 */
export function readCsvRecords(
  text: string,
  cursor: CsvCursor,
  maxRecords: number,
  onRecord: (fields: string[], line: number) => void,
): boolean {
  const n = text.length;
  let { index: i, line } = cursor;
  let nextQuote = text.indexOf('"', i);
  if (nextQuote < 0) nextQuote = n;
  for (let read = 0; i < n && read < maxRecords; read++) {
    let eol = text.indexOf('\n', i);
    if (eol < 0) eol = n;
    if (nextQuote >= eol) {
      const end = eol > i && text.charCodeAt(eol - 1) === CR ? eol - 1 : eol;
      const fields: string[] = [];
      let from = i;
      for (let comma = text.indexOf(',', from); comma >= 0 && comma < end; comma = text.indexOf(',', from)) {
        fields.push(text.slice(from, comma));
        from = comma + 1;
      }
      fields.push(text.slice(from, end));
      onRecord(fields, line);
      i = eol + 1;
      line += 1;
      continue;
    }
    const record = readQuotedRecord(text, i, line);
    onRecord(record.fields, line);
    i = record.next;
    line = record.nextLine;
    nextQuote = text.indexOf('"', i);
    if (nextQuote < 0) nextQuote = n;
  }
  cursor.index = i;
  cursor.line = line;
  return i >= n;
}

/** Every record of an RFC 4180 text, each as its fields. */
export function parseCsv(text: string, onRecord: (fields: string[], line: number) => void): void {
  readCsvRecords(text, csvCursor(text), Number.POSITIVE_INFINITY, onRecord);
}

/** One record from `start` that holds a quoted value: its fields, where the next begins and its line. */
function readQuotedRecord(
  text: string,
  start: number,
  line: number,
): { fields: string[]; next: number; nextLine: number } {
  const n = text.length;
  const fields: string[] = [];
  let i = start;
  let lines = line;
  for (;;) {
    let value: string;
    if (text.charCodeAt(i) === QUOTE) {
      let from = i + 1;
      value = '';
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote < 0) throw new ResultsFormatError(`Line ${line}: a quoted value is not closed.`);
        const part = text.slice(from, quote);
        value += part;
        for (let k = part.indexOf('\n'); k >= 0; k = part.indexOf('\n', k + 1)) lines += 1;
        if (text.charCodeAt(quote + 1) === QUOTE) {
          value += '"';
          from = quote + 2;
          continue;
        }
        i = quote + 1;
        break;
      }
      const next = text.charCodeAt(i);
      if (i < n && next !== COMMA && next !== LF && next !== CR)
        throw new ResultsFormatError(`Line ${line}: text after a closing quote.`);
    } else {
      let end = i;
      for (; end < n; end++) {
        const c = text.charCodeAt(end);
        if (c === COMMA || c === LF || c === CR) break;
      }
      value = text.slice(i, end);
      i = end;
    }
    fields.push(value);
    if (text.charCodeAt(i) === COMMA) {
      i += 1;
      if (i === n) {
        fields.push('');
        return { fields, next: n, nextLine: lines + 1 };
      }
      continue;
    }
    if (text.charCodeAt(i) === CR) i += 1;
    if (text.charCodeAt(i) === LF) i += 1;
    return { fields, next: i, nextLine: lines + 1 };
  }
}

/** The server guards values a spreadsheet would run as a formula with a leading apostrophe (OWASP). */
const FORMULA_GUARD = /^'[=+\-@\t\r]/;

const I = 105;
const S = 115;
const E = 101;
const APOSTROPHE = 39;

const kindOf = (outcome: string): ImportResultRow['kind'] => {
  const first = outcome.charCodeAt(0);
  if (first === I && outcome.startsWith('imported')) return 'imported';
  if (first === S && outcome.startsWith('skipped')) return 'skipped';
  if (first === E && outcome.startsWith('error')) return 'error';
  return 'other';
};

/** Collects the rows of a results CSV record by record; its `row,input,outcome` header is skipped. */
function resultsCollector() {
  const rows: ImportResultRow[] = [];
  const counts = { all: 0, imported: 0, skipped: 0, error: 0 };
  let first = true;
  const add = (fields: string[], line: number) => {
    const isHeader = first && fields[0] === 'row';
    first = false;
    if (isHeader) return;
    if (fields.length === 1 && fields[0] === '') return;
    if (fields.length !== 3)
      throw new ResultsFormatError(`Line ${line}: expected 3 values, found ${fields.length}.`);
    const [rowText, rawInput, outcome] = fields as [string, string, string];
    const row = Number(rowText);
    if (!Number.isInteger(row))
      throw new ResultsFormatError(`Line ${line}: "${rowText}" is not a row number.`);
    const input =
      rawInput.charCodeAt(0) === APOSTROPHE && FORMULA_GUARD.test(rawInput) ? rawInput.slice(1) : rawInput;
    const kind = kindOf(outcome);
    rows.push({ row, input, outcome, kind });
    counts.all += 1;
    if (kind !== 'other') counts[kind] += 1;
  };
  return { add, results: (): ImportResults => ({ rows, counts }) };
}

/** The rows of a results CSV, with how many of each outcome. */
export function parseImportResults(text: string): ImportResults {
  const collector = resultsCollector();
  parseCsv(text, collector.add);
  return collector.results();
}

/** Rows read between two pauses: a few milliseconds of work, so the page keeps answering meanwhile. */
export const PARSE_SLICE = 10_000;

/**
 * parseImportResults in slices of PARSE_SLICE rows with a pause after each (a task of its own), so a
 * 100,000-row file never holds the main thread in one long task.
 */
export async function parseImportResultsInSlices(
  text: string,
  pause: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 0)),
): Promise<ImportResults> {
  const collector = resultsCollector();
  const cursor = csvCursor(text);
  while (!readCsvRecords(text, cursor, PARSE_SLICE, collector.add)) await pause();
  return collector.results();
}
