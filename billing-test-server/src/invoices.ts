import type Stripe from 'stripe';
import { HOUR } from './calendar.ts';
import { type Ctx, decimal, list } from './context.ts';
import { getCustomer } from './customers.ts';
import { resourceMissing } from './errors.ts';
import { checkKnown, optionalString, type Params } from './form.ts';
import { newId, randomText } from './ids.ts';
import { PAGE_PARAMS, paginate } from './lists.ts';
import type { PendingItem, State } from './state.ts';

/** One line as the billing logic sees it, before it becomes Stripe's `line_item`. */
export interface LineSpec {
  amount: number;
  description: string;
  period: { start: number; end: number };
  proration: boolean;
  price: Stripe.Price | null;
  quantity: number;
  subscription: string | null;
  subscriptionItem: string | null;
  /** Set for lines that come from a pending invoice item (prorations). */
  invoiceItem: string | null;
}

export function lineFromPending(state: State, item: PendingItem): LineSpec {
  return {
    amount: item.amount,
    description: item.description,
    period: item.period,
    proration: item.proration,
    price: item.price ? (state.prices.get(item.price) ?? null) : null,
    quantity: item.quantity,
    subscription: item.subscription,
    subscriptionItem: item.subscriptionItem,
    invoiceItem: item.id,
  };
}

function lineItem(invoiceId: string | null, spec: LineSpec): Stripe.InvoiceLineItem {
  const details = { proration_details: { credited_items: null }, proration: spec.proration };
  const parent: Stripe.InvoiceLineItem.Parent = spec.subscriptionItem
    ? {
        type: 'subscription_item_details',
        invoice_item_details: null,
        subscription_item_details: {
          ...details,
          invoice_item: spec.invoiceItem,
          subscription: spec.subscription,
          subscription_item: spec.subscriptionItem,
        },
      }
    : {
        type: 'invoice_item_details',
        invoice_item_details: {
          ...details,
          invoice_item: spec.invoiceItem ?? '',
          subscription: spec.subscription,
        },
        subscription_item_details: null,
      };
  return {
    id: newId('il'),
    object: 'line_item',
    amount: spec.amount,
    currency: 'usd',
    description: spec.description,
    discount_amounts: [],
    discountable: !spec.proration,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    parent,
    period: { ...spec.period },
    pretax_credit_amounts: [],
    pricing: spec.price
      ? {
          type: 'price_details',
          price_details: { price: spec.price.id, product: spec.price.product as string },
          unit_amount_decimal: decimal(spec.quantity ? spec.amount / spec.quantity : spec.amount),
        }
      : null,
    quantity: spec.quantity,
    quantity_decimal: decimal(spec.quantity),
    subscription: spec.subscription,
    subtotal: spec.amount,
    taxes: [],
  };
}

/**
 * Applies the customer's balance as Stripe does at finalization: a credit (negative balance) lowers
 * what is due, and a negative total becomes credit for the next invoice.
 */
function balanceOutcome(total: number, balance: number): { amountDue: number; endingBalance: number } {
  const sum = total + balance;
  return { amountDue: Math.max(0, sum), endingBalance: Math.min(0, sum) };
}

export interface InvoiceDraft {
  customer: Stripe.Customer;
  subscription: Stripe.Subscription | null;
  lines: LineSpec[];
  billingReason: Stripe.Invoice.BillingReason;
  created: number;
  periodStart: number;
  periodEnd: number;
  prorationDate?: number;
}

/** A draft invoice in Stripe's shape; `preview` ones are not kept (create_preview). */
export function buildInvoice(ctx: Ctx, draft: InvoiceDraft, preview = false): Stripe.Invoice {
  const id = preview ? `upcoming_${newId('in')}` : newId('in');
  const total = draft.lines.reduce((sum, l) => sum + l.amount, 0);
  const { amountDue } = balanceOutcome(total, draft.customer.balance);
  const sub = draft.subscription;
  const invoice: Stripe.Invoice = {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Merchant Risk Network (billing test mode)',
    account_tax_ids: null,
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amountDue,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: !preview,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    // Stripe keeps a renewal invoice in draft for about an hour before it finalizes and charges it.
    automatically_finalizes_at: preview ? null : draft.created + HOUR,
    billing_reason: draft.billingReason,
    collection_method: 'charge_automatically',
    created: draft.created,
    currency: 'usd',
    custom_fields: null,
    customer: draft.customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: draft.customer.email,
    customer_name: draft.customer.name ?? null,
    customer_phone: draft.customer.phone ?? null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: null,
    ending_balance: null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: list(
      draft.lines.map((l) => lineItem(preview ? null : id, l)),
      `/v1/invoices/${id}/lines`,
    ),
    livemode: false,
    metadata: {},
    // Charged when it finalizes: an hour after a renewal is drafted (or would be), at once otherwise.
    next_payment_attempt:
      draft.billingReason === 'subscription_cycle' || draft.billingReason === 'upcoming'
        ? draft.created + HOUR
        : draft.created,
    number: null,
    on_behalf_of: null,
    parent: sub
      ? {
          type: 'subscription_details',
          quote_details: null,
          subscription_details: {
            metadata: { ...sub.metadata },
            subscription: sub.id,
            ...(draft.prorationDate !== undefined
              ? { subscription_proration_date: draft.prorationDate }
              : {}),
          },
        }
      : null,
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: draft.periodEnd,
    period_start: draft.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: draft.customer.balance,
    statement_descriptor: null,
    status: 'draft',
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: draft.customer.test_clock ?? null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  };
  if (!preview) {
    ctx.state.invoices.set(id, invoice);
    for (const line of draft.lines) if (line.invoiceItem) ctx.state.pendingItems.delete(line.invoiceItem);
    if (!draft.customer.currency) draft.customer.currency = 'usd';
    ctx.emit('invoice.created', invoice);
  }
  return invoice;
}

export function subscriptionIdOf(invoice: Stripe.Invoice): string | null {
  const sub = invoice.parent?.subscription_details?.subscription;
  return typeof sub === 'string' ? sub : (sub?.id ?? null);
}

/**
 * Draft → open: number, links, balance applied. An invoice with nothing to pay is paid at once
 * without a charge, as with Stripe.
 */
export function finalizeInvoice(ctx: Ctx, invoice: Stripe.Invoice, at: number): void {
  const customer = getCustomer(ctx.state, invoice.customer as string);
  const { amountDue, endingBalance } = balanceOutcome(invoice.total, customer.balance);
  const sequence = customer.next_invoice_sequence ?? 1;
  customer.next_invoice_sequence = sequence + 1;
  const token = `test_${randomText(32)}`;
  ctx.state.invoiceLinks.set(token, invoice.id);
  invoice.number = `${customer.invoice_prefix}-${String(sequence).padStart(4, '0')}`;
  invoice.status = 'open';
  invoice.status_transitions.finalized_at = at;
  invoice.effective_at = at;
  invoice.automatically_finalizes_at = null;
  invoice.starting_balance = customer.balance;
  invoice.ending_balance = endingBalance;
  invoice.amount_due = amountDue;
  invoice.amount_remaining = amountDue;
  invoice.hosted_invoice_url = `${ctx.baseUrl()}/invoice/${token}`;
  invoice.invoice_pdf = `${ctx.baseUrl()}/invoice/${token}/pdf`;
  if (customer.balance !== endingBalance) {
    const before = structuredClone(customer);
    customer.balance = endingBalance;
    ctx.emit('customer.updated', customer, before);
  }
  ctx.emit('invoice.finalized', invoice);
  if (amountDue === 0) markPaid(ctx, invoice, at);
}

export function markPaid(ctx: Ctx, invoice: Stripe.Invoice, at: number): void {
  invoice.status = 'paid';
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.next_payment_attempt = null;
  invoice.status_transitions.paid_at = at;
  ctx.emit('invoice.paid', invoice);
  ctx.emit('invoice.payment_succeeded', invoice);
}

export function voidInvoice(ctx: Ctx, invoice: Stripe.Invoice, at: number): void {
  invoice.status = 'void';
  invoice.amount_remaining = 0;
  invoice.next_payment_attempt = null;
  invoice.status_transitions.voided_at = at;
  ctx.emit('invoice.voided', invoice);
}

export function getInvoice(state: State, id: string): Stripe.Invoice {
  const invoice = state.invoices.get(id);
  if (!invoice) throw resourceMissing('invoice', id, 'id');
  return invoice;
}

export function listInvoices(state: State, params: Params): Stripe.ApiList<Stripe.Invoice> {
  checkKnown(params, ['customer', 'subscription', 'status', ...PAGE_PARAMS]);
  const customer = optionalString(params, 'customer');
  const subscription = optionalString(params, 'subscription');
  const status = optionalString(params, 'status');
  const invoices = [...state.invoices.values()].filter(
    (i) =>
      (customer === undefined || i.customer === customer) &&
      (subscription === undefined || subscriptionIdOf(i) === subscription) &&
      (status === undefined || i.status === status),
  );
  return paginate(invoices, params, '/v1/invoices');
}

export function listInvoiceLines(
  state: State,
  id: string,
  params: Params,
): Stripe.ApiList<Stripe.InvoiceLineItem> {
  checkKnown(params, [...PAGE_PARAMS]);
  const invoice = getInvoice(state, id);
  // Lines keep their invoice order; paginate sorts by `created`, which lines lack, so index them.
  const lines = invoice.lines.data.map((line, i) => ({ ...line, created: -i }));
  const page = paginate(lines, params, `/v1/invoices/${id}/lines`);
  return { ...page, data: page.data.map(({ created: _, ...line }) => line) };
}
