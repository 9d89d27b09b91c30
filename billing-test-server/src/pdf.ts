import type Stripe from 'stripe';
import { formatLongDay } from './calendar.ts';
import { formatUsd } from './money.ts';

/**
 * A minimal valid PDF 1.4 (one page, the standard Helvetica fonts, an uncompressed content stream)
 * written by hand: enough for an invoice document and small enough not to need a PDF library.
 */

interface Text {
  x: number;
  y: number;
  size: number;
  bold?: boolean;
  text: string;
}

/** PDF string literal in WinAnsi: Latin-1 passes, parentheses and backslashes are escaped. */
function pdfString(text: string): string {
  let out = '';
  for (const ch of text.replace(/[\u2013\u2014]/g, '-')) {
    const code = ch.codePointAt(0)!;
    const c = code > 0xff || code < 0x20 ? '?' : ch;
    out += c === '(' || c === ')' || c === '\\' ? `\\${c}` : c;
  }
  return `(${out})`;
}

function pdfDate(unix: number): string {
  return `D:${new Date(unix * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

export function renderPdf(texts: Text[], info: { title: string; created: number }): Buffer {
  const content = texts
    .map((t) => `BT /${t.bold ? 'F2' : 'F1'} ${t.size} Tf ${t.x} ${t.y} Td ${pdfString(t.text)} Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Title ${pdfString(info.title)} /Producer (MRN billing test server) /CreationDate (${pdfDate(info.created)}) >>`,
  ];
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 7 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const STATUS_TEXT: Record<string, string> = { paid: 'Paid', open: 'Due', void: 'Void', draft: 'Draft' };

export function invoicePdf(invoice: Stripe.Invoice): Buffer {
  const texts: Text[] = [];
  let y = 740;
  const line = (text: string, opts: { x?: number; size?: number; bold?: boolean; gap?: number } = {}) => {
    texts.push({ x: opts.x ?? 50, y, size: opts.size ?? 10, bold: opts.bold ?? false, text });
  };
  line('Invoice', { size: 24, bold: true });
  line(invoice.account_name ?? '', { x: 360, size: 10, bold: true });
  y -= 36;
  const issued = invoice.status_transitions.finalized_at ?? invoice.created;
  for (const [label, value] of [
    ['Invoice number', invoice.number ?? '(draft)'],
    ['Date of issue', formatLongDay(issued)],
    ['Status', STATUS_TEXT[invoice.status ?? ''] ?? String(invoice.status)],
    ['Bill to', invoice.customer_email ?? invoice.customer_name ?? String(invoice.customer)],
  ] as const) {
    line(label, { bold: true });
    line(value, { x: 160 });
    y -= 16;
  }
  y -= 20;
  line('Description', { bold: true });
  line('Amount', { x: 480, bold: true });
  y -= 18;
  for (const item of invoice.lines.data) {
    const description = item.description ?? '';
    line(description.length > 80 ? `${description.slice(0, 77)}...` : description);
    line(formatUsd(item.amount), { x: 480 });
    y -= 13;
    line(`${formatLongDay(item.period.start)} - ${formatLongDay(item.period.end)}`, { size: 8 });
    y -= 18;
    if (y < 120) break;
  }
  y -= 10;
  const totals: Array<[string, number]> = [
    ['Subtotal', invoice.subtotal],
    ['Total', invoice.total],
  ];
  if (invoice.total > 0 && invoice.amount_due !== invoice.total) {
    totals.push(['Applied balance', invoice.amount_due - invoice.total]);
  }
  if (invoice.total < 0) totals.push(['Credited to balance', invoice.total]);
  totals.push(['Amount due', invoice.amount_due], ['Amount paid', invoice.amount_paid]);
  for (const [label, amount] of totals) {
    line(label, { x: 330, bold: label === 'Total' || label === 'Amount due' });
    line(formatUsd(amount), { x: 480, bold: label === 'Total' || label === 'Amount due' });
    y -= 16;
  }
  return renderPdf(texts, { title: `Invoice ${invoice.number ?? invoice.id}`, created: issued });
}
