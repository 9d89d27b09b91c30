export interface Column {
  header: string;
  align?: 'left' | 'right';
}

/** A row of cells, or a section heading spanning the table. */
export type Row = string[] | { section: string };

/** A heading over `span` adjacent columns, printed on a line above theirs. */
export interface ColumnGroup {
  header: string;
  span: number;
}

export function renderTable(columns: Column[], rows: Row[], groups: ColumnGroup[] = []): string {
  const widths = columns.map((c, i) =>
    Math.max(c.header.length, ...rows.map((r) => ('section' in r ? 0 : (r[i] ?? '').length))),
  );
  // A group's heading wider than its columns widens the last of them.
  const spans: { header: string; from: number; to: number }[] = [];
  for (const g of groups) {
    const from = spans.at(-1)?.to ?? 0;
    const to = Math.min(columns.length, from + g.span);
    spans.push({ header: g.header, from, to });
    const width = widths.slice(from, to).reduce((a, w) => a + w + 3, -3);
    if (to > from && width < g.header.length) widths[to - 1]! += g.header.length - width;
  }
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (columns[i]?.align === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-');
  const body = rows.map((r) => ('section' in r ? r.section : line(r)));
  const groupLine = spans
    .map(({ header, from, to }) => header.padEnd(widths.slice(from, to).reduce((a, w) => a + w + 3, -3)))
    .join(' | ')
    .trimEnd();
  return [
    ...(spans.length > 0 ? [groupLine] : []),
    line(columns.map((c) => c.header)),
    rule,
    ...body.map((b, i) => (i > 0 && 'section' in rows[i]! ? `${rule}\n${b}` : b)),
  ].join('\n');
}

export const formatCount = (n: number): string => Math.round(n).toLocaleString('en-US');

export const formatMs = (ms: number): string => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

// Truncated, not rounded, so a ratio printed as 0.80× has really reached 0.80.
export const formatRatio = (r: number): string => `${(Math.floor(r * 100) / 100).toFixed(2)}×`;

const LATENCY_COLUMNS: Column[] = [
  { header: 'per s', align: 'right' },
  { header: 'p50 ms', align: 'right' },
  { header: 'p99 ms', align: 'right' },
  { header: 'errors', align: 'right' },
  { header: 'target' },
];

/** The latency suites' report: their table (rate, p50, p99, errors, target), then checks and notes. */
export function printLatencyReport(rows: Row[], checks: string[], notes: string[]): void {
  console.log(renderTable([{ header: 'case' }, ...LATENCY_COLUMNS], rows));
  console.log(`\nchecks: ${checks.join('; ')}`);
  console.log(`notes:  ${notes.join('\n        ')}`);
}

/**
 * The latency report with the figures of several runs side by side, a group of the latency columns
 * (rate, p50, p99, errors, target) each, headed by its name; rows have a case and then every group's
 * cells. Checks one a line.
 */
export function printLatencyComparison(
  names: string[],
  rows: Row[],
  checks: string[],
  notes: string[],
): void {
  console.log(
    renderTable([{ header: 'case' }, ...names.flatMap(() => LATENCY_COLUMNS)], rows, [
      { header: '', span: 1 },
      ...names.map((header) => ({ header, span: LATENCY_COLUMNS.length })),
    ]),
  );
  console.log(`\nchecks: ${checks.join('\n        ')}`);
  console.log(`notes:  ${notes.join('\n        ')}`);
}
