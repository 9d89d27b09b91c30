import type Stripe from 'stripe';
import { formatLongDay } from './calendar.ts';
import { validateTypedCard } from './cards.ts';
import { collect } from './collection.ts';
import { type Ctx, customerNow } from './context.ts';
import { getCustomer } from './customers.ts';
import { StripeApiError } from './errors.ts';
import type { Params } from './form.ts';
import { escapeHtml, page } from './html.ts';
import { formatUsd } from './money.ts';
import { attachPaymentMethod, paymentMethodFromCard } from './payment-methods.ts';
import { makeDefaultCard, type PageResult } from './portal.ts';

/**
 * The hosted invoice page (`hosted_invoice_url`): the invoice as text with a link to its PDF and, while
 * it is open, a card form that pays it (as Stripe's hosted invoice page does).
 */
export function invoicePage(invoice: Stripe.Invoice, token: string, error?: string): string {
  const rows = invoice.lines.data
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.description ?? '')}<br><small>${formatLongDay(l.period.start)} – ${formatLongDay(
          l.period.end,
        )}</small></td><td class="amount">${formatUsd(l.amount)}</td></tr>`,
    )
    .join('\n');
  const payForm =
    invoice.status === 'open'
      ? `<h2>Pay ${formatUsd(invoice.amount_remaining)}</h2>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/invoice/${escapeHtml(token)}">
<label for="number">Card number</label>
<input id="number" name="number" inputmode="numeric" autocomplete="cc-number" required>
<div class="row">
<div><label for="exp_month">Expiry month</label><input id="exp_month" name="exp_month" inputmode="numeric" placeholder="MM" required></div>
<div><label for="exp_year">Expiry year</label><input id="exp_year" name="exp_year" inputmode="numeric" placeholder="YYYY" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc"></div>
</div>
<button type="submit">Pay invoice</button>
</form>`
      : '';
  const body = `<h1>Invoice ${escapeHtml(invoice.number ?? '')}</h1>
<p>${escapeHtml(invoice.account_name ?? '')}</p>
<p>Status: <strong id="status">${escapeHtml(String(invoice.status))}</strong> · Issued ${formatLongDay(
    invoice.status_transitions.finalized_at ?? invoice.created,
  )}</p>
<table>
<tr><th>Description</th><th class="amount">Amount</th></tr>
${rows}
<tr><th>Total</th><th class="amount">${formatUsd(invoice.total)}</th></tr>
<tr><td>Amount due</td><td class="amount">${formatUsd(invoice.amount_due)}</td></tr>
<tr><td>Amount paid</td><td class="amount">${formatUsd(invoice.amount_paid)}</td></tr>
</table>
${payForm}
${invoice.invoice_pdf ? `<p><a href="${escapeHtml(invoice.invoice_pdf)}">Download PDF</a></p>` : ''}`;
  return page(`Invoice ${invoice.number ?? invoice.id}`, body);
}

/**
 * The page's card form: the card is saved to the customer and charged for the invoice now. Paid, it
 * becomes the customer's default card (and the subscription's, when it names one), and the invoice's
 * subscription, past due or unpaid, is active again (`invoice.paid`, `customer.subscription.updated`);
 * refused, the page says why and nothing is paid. Then back to the page, which shows the new status.
 */
export function payInvoiceFromPage(
  ctx: Ctx,
  invoice: Stripe.Invoice,
  token: string,
  body: Params,
): PageResult {
  if (invoice.status !== 'open') return { status: 303, redirect: `/invoice/${token}` };
  const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
  const customer = getCustomer(ctx.state, invoice.customer as string);
  try {
    const vc = validateTypedCard(
      {
        number: field('number'),
        expMonth: field('exp_month'),
        expYear: field('exp_year'),
        cvc: field('cvc'),
      },
      'card',
    );
    const pm = paymentMethodFromCard(ctx.state, vc);
    attachPaymentMethod(ctx, pm.id, customer.id);
    // A payment asked for: a refusal leaves the automatic retries as they were.
    const failure = collect(ctx, invoice, customerNow(ctx.state, customer.id), pm.id, true);
    if (failure) throw failure;
    makeDefaultCard(ctx, customer, pm.id);
  } catch (e) {
    if (!(e instanceof StripeApiError)) throw e;
    return { status: e.status, html: invoicePage(invoice, token, e.body.message) };
  }
  return { status: 303, redirect: `/invoice/${token}` };
}
