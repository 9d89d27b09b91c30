import type Stripe from 'stripe';
import { addMonths } from './calendar.ts';
import { type Ctx, customerNow } from './context.ts';
import { getCustomer } from './customers.ts';
import { invalidRequest, parameterMissing, referenceMissing, StripeApiError } from './errors.ts';
import {
  checkKnown,
  optionalArray,
  optionalEnum,
  optionalInteger,
  optionalRecord,
  optionalString,
  type Params,
} from './form.ts';
import { buildInvoice, lineFromPending } from './invoices.ts';
import {
  currentPeriod,
  itemLine,
  nextPeriodEnd,
  PRORATION_BEHAVIORS,
  pendingItemsOf,
  periodMonths,
  planItems,
  prorationsFor,
} from './subscriptions.ts';

function upcomingNone(customerId: string): StripeApiError {
  return new StripeApiError(404, {
    type: 'invalid_request_error',
    code: 'invoice_upcoming_none',
    message: `No upcoming invoices for customer: ${customerId}`,
  });
}

/**
 * POST /v1/invoices/create_preview: the invoice a change would produce, without keeping anything.
 * With `always_invoice` it is the invoice made at once; otherwise the next renewal invoice, which
 * carries the prorations (`subscription_details.proration_date` pins the second they are computed at).
 */
export function createPreview(ctx: Ctx, params: Params): Stripe.Invoice {
  const { state } = ctx;
  checkKnown(params, ['customer', 'subscription', 'subscription_details', 'expand']);
  const details = optionalRecord(params, 'subscription_details') ?? {};
  checkKnown(details, ['items', 'proration_behavior', 'proration_date'], 'subscription_details');
  const behavior =
    optionalEnum(
      details,
      'proration_behavior',
      PRORATION_BEHAVIORS,
      'subscription_details[proration_behavior]',
    ) ?? 'create_prorations';
  const prorationDate = optionalInteger(details, 'proration_date', 'subscription_details[proration_date]');
  const rawItems = optionalArray(details, 'items', 'subscription_details[items]');
  const subId = optionalString(params, 'subscription') || undefined;
  const customerId = optionalString(params, 'customer') || undefined;

  if (subId) {
    const sub = state.subscriptions.get(subId);
    if (!sub) throw referenceMissing('subscription', subId, 'subscription');
    if (customerId && customerId !== sub.customer) {
      throw invalidRequest(
        `The subscription ${subId} does not belong to customer ${customerId}.`,
        'customer',
      );
    }
    const customer = getCustomer(state, sub.customer as string);
    const now = customerNow(state, customer.id);
    const period = currentPeriod(sub);
    if (prorationDate !== undefined && (prorationDate < period.start || prorationDate > period.end)) {
      throw invalidRequest(
        'proration_date must be within the current billing period.',
        'subscription_details[proration_date]',
      );
    }
    const at = prorationDate ?? now;
    const planned = rawItems ? planItems(state, sub, rawItems, 'subscription_details[items]') : null;
    const prorations = planned && behavior !== 'none' ? prorationsFor(state, sub, planned, at) : [];
    const pending = pendingItemsOf(state, (p) => p.subscription === sub.id).map((p) =>
      lineFromPending(state, p),
    );
    const prorationDateShown = planned && behavior !== 'none' ? at : undefined;
    if (behavior === 'always_invoice' && prorations.length > 0) {
      return buildInvoice(
        ctx,
        {
          customer,
          subscription: sub,
          lines: [...pending, ...prorations],
          billingReason: 'subscription_update',
          created: now,
          periodStart: now,
          periodEnd: now,
          prorationDate: at,
        },
        true,
      );
    }
    const ended = sub.status === 'canceled' || sub.status === 'incomplete_expired';
    if (ended || sub.cancel_at_period_end) throw upcomingNone(customer.id);
    const next = { start: period.end, end: nextPeriodEnd(sub, period.end) };
    const items = planned
      ? planned.filter((p) => !p.deleted).map((p) => ({ id: p.id, price: p.price, quantity: p.quantity }))
      : sub.items.data.map((i) => ({ id: i.id, price: i.price, quantity: i.quantity ?? 1 }));
    return buildInvoice(
      ctx,
      {
        customer,
        subscription: sub,
        lines: [
          ...pending,
          ...(behavior === 'create_prorations' ? prorations : []),
          ...items.map((i) => itemLine(state, sub.id, i.id, i.price, i.quantity, next)),
        ],
        billingReason: 'upcoming',
        created: period.end,
        periodStart: period.start,
        periodEnd: period.end,
        ...(prorationDateShown !== undefined ? { prorationDate: prorationDateShown } : {}),
      },
      true,
    );
  }

  if (!customerId) throw parameterMissing('customer');
  const customer = getCustomer(state, customerId, 'customer');
  const now = customerNow(state, customer.id);
  const pending = pendingItemsOf(state, (p) => p.customer === customer.id && p.subscription === null).map(
    (p) => lineFromPending(state, p),
  );
  if (!rawItems) {
    if (pending.length === 0) throw upcomingNone(customer.id);
    return buildInvoice(
      ctx,
      {
        customer,
        subscription: null,
        lines: pending,
        billingReason: 'manual',
        created: now,
        periodStart: now,
        periodEnd: now,
      },
      true,
    );
  }
  // The first invoice of a subscription not made yet.
  const planned = planItems(state, null, rawItems, 'subscription_details[items]');
  const period = { start: now, end: addMonths(now, periodMonths(planned[0]!.price)) };
  return buildInvoice(
    ctx,
    {
      customer,
      subscription: null,
      lines: [
        ...pending,
        ...planned.map((p) => ({
          ...itemLine(state, '', p.id, p.price, p.quantity, period),
          subscription: null,
        })),
      ],
      billingReason: 'subscription_create',
      created: now,
      periodStart: now,
      periodEnd: now,
    },
    true,
  );
}
