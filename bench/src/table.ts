export interface Column {
  header: string;
  align?: 'left' | 'right';
}

/** A row of cells, or a section heading spanning the table. */
export type Row = string[] | { section: string };

export function renderTable(columns: Column[], rows: Row[]): string {
  const widths = columns.map((c, i) =>
    Math.max(c.header.length, ...rows.map((r) => ('section' in r ? 0 : (r[i] ?? '').length))),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (columns[i]?.align === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-');
  const body = rows.map((r) => ('section' in r ? r.section : line(r)));
  return [
    line(columns.map((c) => c.header)),
    rule,
    ...body.map((b, i) => (i > 0 && 'section' in rows[i]! ? `${rule}\n${b}` : b)),
  ].join('\n');
}

export const formatCount = (n: number): string => Math.round(n).toLocaleString('en-US');

export const formatMs = (ms: number): string => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

// Truncated, not rounded, so a ratio printed as 0.80× has really reached 0.80.
export const formatRatio = (r: number): string => `${(Math.floor(r * 100) / 100).toFixed(2)}×`;

/** The latency suites' report: their table (rate, p50, p99, errors, target), then checks and notes. */
export function printLatencyReport(rows: Row[], checks: string[], notes: string[]): void {
  console.log(
    renderTable(
      [
        { header: 'case' },
        { header: 'per s', align: 'right' },
        { header: 'p50 ms', align: 'right' },
        { header: 'p99 ms', align: 'right' },
        { header: 'errors', align: 'right' },
        { header: 'target' },
      ],
      rows,
    ),
  );
  console.log(`\nchecks: ${checks.join('; ')}`);
  console.log(`notes:  ${notes.join('\n        ')}`);
}
