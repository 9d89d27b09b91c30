import type Stripe from 'stripe';
import { formatLongDay } from './calendar.ts';
import { escapeHtml, page } from './html.ts';
import { formatUsd } from './money.ts';

/** The hosted invoice page (`hosted_invoice_url`): the invoice as text with a link to its PDF. */
export function invoicePage(invoice: Stripe.Invoice): string {
  const rows = invoice.lines.data
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.description ?? '')}<br><small>${formatLongDay(l.period.start)} – ${formatLongDay(
          l.period.end,
        )}</small></td><td class="amount">${formatUsd(l.amount)}</td></tr>`,
    )
    .join('\n');
  const body = `<h1>Invoice ${escapeHtml(invoice.number ?? '')}</h1>
<p>${escapeHtml(invoice.account_name ?? '')}</p>
<p>Status: <strong>${escapeHtml(String(invoice.status))}</strong> · Issued ${formatLongDay(
    invoice.status_transitions.finalized_at ?? invoice.created,
  )}</p>
<table>
<tr><th>Description</th><th class="amount">Amount</th></tr>
${rows}
<tr><th>Total</th><th class="amount">${formatUsd(invoice.total)}</th></tr>
<tr><td>Amount due</td><td class="amount">${formatUsd(invoice.amount_due)}</td></tr>
<tr><td>Amount paid</td><td class="amount">${formatUsd(invoice.amount_paid)}</td></tr>
</table>
${invoice.invoice_pdf ? `<p><a href="${escapeHtml(invoice.invoice_pdf)}">Download PDF</a></p>` : ''}`;
  return page(`Invoice ${invoice.number ?? invoice.id}`, body);
}
