import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PARSE_SLICE,
  parseCsv,
  parseImportResults,
  parseImportResultsInSlices,
  ResultsFormatError,
} from './import-results.ts';

/**
 * The server's results cell (command-api imports/subscription-import.ts): formula guard, then RFC 4180
 * quoting.
 */
const guard = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
const cell = (value: string | number) => {
  const safe = guard(String(value));
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
const write = (rows: [number, string, string][]) =>
  `${['row,input,outcome', ...rows.map(([r, i, o]) => [r, cell(i), cell(o)].join(','))].join('\n')}\n`;

describe('parseImportResults', () => {
  it('reads the server’s results: quoted errors, the formula guard removed, outcomes counted', () => {
    const text = [
      'row,input,outcome',
      '2,12-3456789,imported',
      '3,123456789,skipped: duplicate in file',
      '4,98 7654321,imported',
      '5,bad-ein,"error: must be 9 digits, as 12-3456789"',
      '6,55-5555555,skipped: already subscribed',
      `7,'=cmd(),"error: must be 9 digits, as 12-3456789"`,
      '8,"a,b","error: must contain only an EIN"',
      '',
    ].join('\n');
    const { rows, counts } = parseImportResults(text);
    expect(counts).toEqual({ all: 7, imported: 2, skipped: 2, error: 3 });
    expect(rows[0]).toEqual({ row: 2, input: '12-3456789', outcome: 'imported', kind: 'imported' });
    expect(rows[3]).toEqual({
      row: 5,
      input: 'bad-ein',
      outcome: 'error: must be 9 digits, as 12-3456789',
      kind: 'error',
    });
    expect(rows[5]?.input).toBe('=cmd()');
    expect(rows[6]?.input).toBe('a,b');
  });

  it('reads CRLF line ends, a missing last line end and an empty file', () => {
    expect(parseImportResults('row,input,outcome\r\n2,1,imported\r\n3,"x""y",error: z').rows).toEqual([
      { row: 2, input: '1', outcome: 'imported', kind: 'imported' },
      { row: 3, input: 'x"y', outcome: 'error: z', kind: 'error' },
    ]);
    expect(parseImportResults('row,input,outcome\n').counts.all).toBe(0);
    expect(parseImportResults('').rows).toEqual([]);
  });

  it('says where a file is not a results file', () => {
    expect(() => parseImportResults('row,input,outcome\n2,"open,imported\n')).toThrow(ResultsFormatError);
    expect(() => parseImportResults('row,input,outcome\n2,a\n')).toThrow(/Line 2: expected 3 values/);
    expect(() => parseImportResults('row,input,outcome\nx,a,imported\n')).toThrow(/not a row number/);
    expect(() => parseImportResults('row,input,outcome\n2,"a"b,imported\n')).toThrow(/after a closing quote/);
  });

  it('gives back every value the server writes, line breaks and quotes included', () => {
    const value = fc.string({
      unit: fc.constantFrom('a', '1', '-', ',', '"', '\n', '\r\n', ' ', 'é', '=', '+', '@'),
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), value, value), { maxLength: 20 }), (rows) => {
        const parsed = parseImportResults(write(rows)).rows;
        expect(parsed.map((r) => [r.row, r.outcome])).toEqual(rows.map(([r, , o]) => [r, guard(o)]));
        // The input comes back as uploaded: the guard apostrophe the server added is taken off again.
        expect(parsed.map((r) => r.input)).toEqual(rows.map(([, i]) => i));
      }),
    );
  });

  it('parses 100,000 rows quickly', () => {
    const rows: [number, string, string][] = [];
    for (let i = 0; i < 100_000; i++)
      rows.push([
        i + 2,
        `60-${String(i).padStart(7, '0')}`,
        i % 100 === 0 ? 'error: must be 9 digits, as 12-3456789' : 'imported',
      ]);
    const text = write(rows);
    const started = performance.now();
    const { counts } = parseImportResults(text);
    const ms = performance.now() - started;
    expect(counts).toEqual({ all: 100_000, imported: 99_000, skipped: 0, error: 1_000 });
    expect(ms).toBeLessThan(500);
  });
});

describe('parseImportResultsInSlices', () => {
  it('gives what parseImportResults gives, pausing between slices of rows', async () => {
    const rows: [number, string, string][] = [];
    for (let i = 0; i < 3 * PARSE_SLICE + 7; i++)
      rows.push([
        i + 2,
        i % 7 === 0 ? `a,"${i}"\nb` : String(i),
        i % 5 === 0 ? 'skipped: duplicate in file' : 'imported',
      ]);
    const text = write(rows);
    let pauses = 0;
    const sliced = await parseImportResultsInSlices(text, async () => {
      pauses += 1;
    });
    expect(pauses).toBe(3);
    expect(sliced).toEqual(parseImportResults(text));
    expect(sliced.rows[7]?.input).toBe('a,"7"\nb');
  });
});

describe('parseCsv', () => {
  it('keeps empty fields, a trailing comma and a byte order mark out of the values', () => {
    const records: string[][] = [];
    parseCsv('\ufeffa,,c\n,\n"",x,', (fields) => records.push(fields));
    expect(records).toEqual([
      ['a', '', 'c'],
      ['', ''],
      ['', 'x', ''],
    ]);
  });
});
