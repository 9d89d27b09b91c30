import type Stripe from 'stripe';
import { DAY } from './calendar.ts';
import { declineError } from './cards.ts';
import { type Ctx, customerNow } from './context.ts';
import { checkOwnPaymentMethod, customerDefaultPaymentMethod, getCustomer } from './customers.ts';
import { invalidRequest, type StripeApiError } from './errors.ts';
import { checkKnown, optionalBoolean, optionalString, type Params } from './form.ts';
import { finalizeInvoice, getInvoice, markPaid, subscriptionIdOf } from './invoices.ts';
import type { State } from './state.ts';

/**
 * Charging invoices and what follows for their subscription: paid → active; failed → past_due
 * with retries, and after the last one cancellation (Stripe's default "cancel the subscription") or,
 * with `afterFinalRetry: 'unpaid'`, `unpaid` until the open invoice is paid.
 */

/** Days after the previous failed attempt at which a renewal invoice is tried again. */
export const RETRY_DAYS = [3, 5, 7] as const;

const NO_PAYMENT_METHOD =
  'This customer has no attached payment source or default payment method. Please consider adding a default payment method. For more information, visit https://stripe.com/docs/billing/subscriptions/payment-methods-setting#payment-method-priority.';

export function noPaymentMethodError(): StripeApiError {
  return invalidRequest(NO_PAYMENT_METHOD);
}

/** Stripe's order: the invoice's own, the subscription's, then the customer's default. */
export function paymentMethodFor(
  state: State,
  customerId: string,
  sub: Stripe.Subscription | null,
): string | null {
  if (typeof sub?.default_payment_method === 'string') return sub.default_payment_method;
  if (typeof sub?.default_source === 'string') return sub.default_source;
  return customerDefaultPaymentMethod(getCustomer(state, customerId));
}

/** What charging this payment method would give: null when it would succeed. */
export function chargeFailure(state: State, paymentMethod: string | null): StripeApiError | null {
  if (!paymentMethod) return noPaymentMethodError();
  const vc = state.cards.get(paymentMethod);
  if (!vc) return noPaymentMethodError();
  const decline = vc.card.onCharge ?? vc.card.onAttach;
  return decline ? declineError(decline, paymentMethod) : null;
}

function setStatus(ctx: Ctx, sub: Stripe.Subscription, status: Stripe.Subscription.Status): void {
  if (sub.status === status) return;
  const before = structuredClone(sub);
  sub.status = status;
  ctx.emit('customer.subscription.updated', sub, before);
}

export function endSubscription(
  ctx: Ctx,
  sub: Stripe.Subscription,
  at: number,
  reason: Stripe.Subscription.CancellationDetails.Reason,
  comment: string | null = null,
): void {
  sub.status = 'canceled';
  sub.canceled_at = sub.canceled_at ?? at;
  sub.ended_at = at;
  sub.cancel_at_period_end = false;
  sub.cancel_at = null;
  sub.cancellation_details = { comment, feedback: null, feedback_option: null, reason };
  ctx.emit('customer.subscription.deleted', sub);
}

/**
 * One payment attempt on an open invoice. Returns the card error when it failed, so callers that
 * answer an API request (pay, error_if_incomplete) can send it as Stripe does.
 */
export function collect(
  ctx: Ctx,
  invoice: Stripe.Invoice,
  at: number,
  paymentMethod?: string,
  manual = false,
): StripeApiError | null {
  const { state } = ctx;
  const subId = subscriptionIdOf(invoice);
  const sub = subId ? (state.subscriptions.get(subId) ?? null) : null;
  const customer = getCustomer(state, invoice.customer as string);
  const pm = paymentMethod ?? paymentMethodFor(state, customer.id, sub);
  const failure = chargeFailure(state, pm);
  invoice.attempted = true;
  invoice.attempt_count += 1;

  if (!failure) {
    markPaid(ctx, invoice, at);
    if (customer.delinquent) {
      const before = structuredClone(customer);
      customer.delinquent = false;
      ctx.emit('customer.updated', customer, before);
    }
    // Paying the open invoice of a past-due or unpaid subscription makes it active again (Stripe's rule
    // for `unpaid`: paying the most recent invoice reactivates it).
    if (sub && (sub.status === 'incomplete' || sub.status === 'past_due' || sub.status === 'unpaid'))
      setStatus(ctx, sub, 'active');
    return null;
  }

  if (manual) {
    // A payment asked for through the API leaves the automatic retry plan as it was.
    ctx.emit('invoice.payment_failed', invoice);
    return failure;
  }
  // A first invoice of an incomplete subscription is not retried: it expires after 23 hours.
  const retrying = sub !== null && sub.status !== 'incomplete' && sub.status !== 'canceled';
  const nextDelay = retrying ? RETRY_DAYS[invoice.attempt_count - 1] : undefined;
  invoice.next_payment_attempt = nextDelay === undefined ? null : at + nextDelay * DAY;
  ctx.emit('invoice.payment_failed', invoice);
  if (!customer.delinquent) {
    const before = structuredClone(customer);
    customer.delinquent = true;
    ctx.emit('customer.updated', customer, before);
  }
  if (sub && retrying) {
    if (nextDelay !== undefined) setStatus(ctx, sub, 'past_due');
    else if (state.afterFinalRetry === 'unpaid') setStatus(ctx, sub, 'unpaid');
    else endSubscription(ctx, sub, at, 'payment_failed');
  }
  return failure;
}

/** A draft that has waited its hour: finalize and charge. */
export function finalizeAndCollect(ctx: Ctx, invoice: Stripe.Invoice, at: number): StripeApiError | null {
  finalizeInvoice(ctx, invoice, at);
  return invoice.status === 'open' ? collect(ctx, invoice, at) : null;
}

/** POST /v1/invoices/:id/pay: finalizes a draft if need be and charges it now; a decline answers 402. */
export function payInvoice(ctx: Ctx, id: string, params: Params): Stripe.Invoice {
  const { state } = ctx;
  const invoice = getInvoice(state, id);
  checkKnown(params, ['payment_method', 'off_session', 'expand']);
  optionalBoolean(params, 'off_session');
  const pm = optionalString(params, 'payment_method') || undefined;
  if (pm) checkOwnPaymentMethod(state, invoice.customer as string, pm, 'payment_method');
  if (invoice.status === 'paid')
    throw invalidRequest('Invoice is already paid', undefined, 'invoice_already_paid');
  if (invoice.status === 'void')
    throw invalidRequest('This invoice is void and cannot be paid.', undefined, 'invoice_not_editable');
  const at = customerNow(state, invoice.customer as string);
  if (invoice.status === 'draft') finalizeInvoice(ctx, invoice, at);
  if (invoice.status !== 'open') return invoice;
  const failure = collect(ctx, invoice, at, pm, true);
  if (failure) throw failure;
  return invoice;
}
