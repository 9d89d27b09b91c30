import {
  formatEin,
  type ScreeningRowView,
  type ScreeningView,
  SIGNAL_GROUP_LABELS,
  SIGNAL_GROUPS,
} from '@mrn/contracts';
import PDFDocument from 'pdfkit';
import { toCsv } from '../csv.ts';
import { SIGNAL_CSV_COLUMNS, signalCsvCells } from '../signals-csv.ts';

// The screening report as files: CSV for a spreadsheet, PDF for a credit committee.

/** One row an EIN, worst first; a column per category group and window, so a spreadsheet filters them. */
export function screeningCsv(rows: readonly ScreeningRowView[]): string {
  const columns = [
    'row',
    'input',
    'ein',
    'outcome',
    'problem',
    'legal_name',
    'dba',
    'city',
    'state',
    ...SIGNAL_CSV_COLUMNS,
  ];
  return toCsv(
    columns,
    rows.map((r) => [
      r.row,
      r.input,
      r.fein ? formatEin(r.fein) : '',
      r.outcome,
      r.problem,
      r.merchant?.legal_name,
      r.merchant?.dba,
      r.merchant?.city,
      r.merchant?.state,
      ...signalCsvCells(r.signals),
    ]),
  );
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

/**
 * The report a credit committee reads: what was screened, the exposure by category, then every merchant
 * with something reported, worst first, each with its counts. Names no funder, as the network never does.
 */
export function screeningPdf(
  screening: ScreeningView,
  flagged: readonly ScreeningRowView[],
  meta: { productName: string; generatedAt: Date },
): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'LETTER', margin: 50, info: { Title: 'Portfolio screening report' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).text('Portfolio screening report');
  doc.moveDown(0.3);
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#444')
    .text(
      `${meta.productName} · screened ${day(screening.finished_at ?? screening.created_at)}` +
        `${screening.requested_by ? ` by ${screening.requested_by}` : ''}` +
        `${screening.file_name ? ` · file ${screening.file_name}` : ''}`,
    );
  doc.moveDown();
  doc.fillColor('#000').font('Helvetica-Bold').fontSize(12).text('Summary');
  doc.font('Helvetica').fontSize(10);
  const notFound = screening.screened - screening.found;
  for (const line of [
    `EINs screened: ${screening.screened} of ${screening.total}`,
    `Reported by at least one funder: ${screening.flagged}`,
    `Known to the network, nothing reported: ${screening.found - screening.flagged}`,
    `Not known to the network: ${notFound}`,
    `Rows of the file not screened: ${screening.rejected}`,
  ])
    doc.text(line);
  doc.moveDown();

  doc.font('Helvetica-Bold').fontSize(12).text('Exposure by category');
  doc.font('Helvetica').fontSize(9).fillColor('#444').text('Merchants with a live note in the category.');
  doc.fillColor('#000').moveDown(0.3);
  const table = (cells: string[], widths: number[], bold = false) => {
    const y = doc.y;
    let x = doc.page.margins.left;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    let height = 0;
    cells.forEach((cell, i) => {
      doc.text(cell, x, y, { width: widths[i]! - 6 });
      height = Math.max(height, doc.y - y);
      x += widths[i]!;
    });
    doc.x = doc.page.margins.left;
    doc.y = y + height + 3;
    if (doc.y > doc.page.height - doc.page.margins.bottom - 30) doc.addPage();
  };
  const exposureWidths = [200, 90, 90, 90];
  table(['Category', 'Last 90 days', 'Last 12 months', 'Ever'], exposureWidths, true);
  if (screening.exposure.length === 0) table(['No merchant screened has a reported category.'], [470]);
  for (const e of screening.exposure)
    table([e.label, String(e.last_90_days), String(e.last_12_months), String(e.ever)], exposureWidths);
  doc.moveDown();

  doc.font('Helvetica-Bold').fontSize(12).text('Merchants reported, worst first');
  doc.moveDown(0.3);
  const widths = [70, 150, 45, 247];
  table(['EIN', 'Merchant', 'Funders', 'Categories (90 days / 12 months / ever)'], widths, true);
  if (flagged.length === 0) table(['None of the merchants screened has a reported category.'], [512]);
  for (const r of flagged) {
    const s = r.signals!;
    const categories = s.categories
      .map((c) => `${c.label} ${c.last_90_days}/${c.last_12_months}/${c.ever}`)
      .concat(s.cured_at ? [`default cured ${day(s.cured_at)}`] : [])
      .concat(s.disputes.open > 0 ? [`${s.disputes.open} open dispute(s)`] : [])
      .join('; ');
    const name = r.merchant
      ? `${r.merchant.legal_name}${r.merchant.dba ? ` (DBA ${r.merchant.dba})` : ''}, ${r.merchant.city}, ${r.merchant.state}`
      : '';
    table([r.fein ? formatEin(r.fein) : r.input, name, String(s.funders), categories], widths);
  }
  doc.moveDown();
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor('#666')
    .text(
      `A record of what funders reported to the network, counted as of the screening; not a consumer report and not a score. Generated ${meta.generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. Categories: ${SIGNAL_GROUPS.map((g) => SIGNAL_GROUP_LABELS[g]).join(', ')}.`,
    );
  doc.end();
  return done;
}
