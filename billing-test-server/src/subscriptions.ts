import type Stripe from 'stripe';
import { addMonths, intervalMonths, monthsBetween } from './calendar.ts';
import { getPrice, planOf, productOf } from './catalog.ts';
import { chargeFailure, collect, endSubscription, paymentMethodFor } from './collection.ts';
import { type Ctx, customerNow, list } from './context.ts';
import { checkOwnPaymentMethod, getCustomer } from './customers.ts';
import { invalidRequest, parameterMissing, resourceMissing } from './errors.ts';
import {
  applyMetadata,
  checkKnown,
  isRecord,
  optionalArray,
  optionalBoolean,
  optionalEnum,
  optionalInteger,
  optionalRecord,
  optionalString,
  type Params,
  requiredString,
} from './form.ts';
import { newId } from './ids.ts';
import { buildInvoice, finalizeInvoice, type LineSpec, lineFromPending, voidInvoice } from './invoices.ts';
import { PAGE_PARAMS, paginate } from './lists.ts';
import { formatUsd } from './money.ts';
import { type ItemState, prorationLines } from './proration.ts';
import type { PendingItem, State } from './state.ts';

export const PAYMENT_BEHAVIORS = ['allow_incomplete', 'error_if_incomplete', 'default_incomplete'] as const;
export const PRORATION_BEHAVIORS = ['create_prorations', 'always_invoice', 'none'] as const;
export type ProrationBehavior = (typeof PRORATION_BEHAVIORS)[number];

export function getSubscription(state: State, id: string): Stripe.Subscription {
  const sub = state.subscriptions.get(id);
  if (!sub) throw resourceMissing('subscription', id, 'id');
  return sub;
}

/** All items of a subscription share one billing period (same interval, same anchor). */
export function currentPeriod(sub: Stripe.Subscription): { start: number; end: number } {
  const item = sub.items.data[0]!;
  return { start: item.current_period_start, end: item.current_period_end };
}

export function periodMonths(price: Stripe.Price): number {
  return intervalMonths(price.recurring!.interval, price.recurring!.interval_count);
}

/** The period after one that ended at `end`, counted from the anchor so short months do not drift. */
export function nextPeriodEnd(sub: Stripe.Subscription, end: number): number {
  const months = periodMonths(sub.items.data[0]!.price);
  return addMonths(sub.billing_cycle_anchor, monthsBetween(sub.billing_cycle_anchor, end) + months);
}

export function pendingItemsOf(state: State, filter: (item: PendingItem) => boolean): PendingItem[] {
  return [...state.pendingItems.values()].filter(filter);
}

const itemState = (state: State, price: Stripe.Price, quantity: number): ItemState => ({
  price: { id: price.id, unitAmount: price.unit_amount ?? 0, productName: productOf(state, price).name },
  quantity,
});

/** `1 × PRO (at $945.00 / month)`, Stripe's text for a subscription line. */
function itemDescription(state: State, price: Stripe.Price, quantity: number): string {
  const { interval, interval_count: count } = price.recurring!;
  const per = count === 1 ? `/ ${interval}` : `every ${count} ${interval}s`;
  return `${quantity} × ${productOf(state, price).name} (at ${formatUsd(price.unit_amount ?? 0)} ${per})`;
}

export function itemLine(
  state: State,
  subId: string,
  itemId: string,
  price: Stripe.Price,
  quantity: number,
  period: { start: number; end: number },
): LineSpec {
  return {
    amount: (price.unit_amount ?? 0) * quantity,
    description: itemDescription(state, price, quantity),
    period,
    proration: false,
    price,
    quantity,
    subscription: subId,
    subscriptionItem: itemId,
    invoiceItem: null,
  };
}

function newItem(
  subId: string,
  price: Stripe.Price,
  quantity: number,
  period: { start: number; end: number },
  created: number,
  id = newId('si'),
): Stripe.SubscriptionItem {
  return {
    id,
    object: 'subscription_item',
    billing_thresholds: null,
    created,
    current_period_end: period.end,
    current_period_start: period.start,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(price),
    price,
    quantity,
    subscription: subId,
    tax_rates: [],
  };
}

function parseQuantity(item: Params, param: string): number | undefined {
  const quantity = optionalInteger(item, 'quantity', param);
  if (quantity !== undefined && quantity < 1) throw invalidRequest('Quantity must be at least 1.', param);
  return quantity;
}

/** What an `items[]` parameter asks for, item by item (unmentioned items stay as they are). */
export interface PlannedItem {
  id: string;
  existing: Stripe.SubscriptionItem | null;
  price: Stripe.Price;
  quantity: number;
  deleted: boolean;
}

export function planItems(
  state: State,
  sub: Stripe.Subscription | null,
  raw: unknown[],
  prefix: string,
): PlannedItem[] {
  const planned: PlannedItem[] = (sub?.items.data ?? []).map((item) => ({
    id: item.id,
    existing: item,
    price: item.price,
    quantity: item.quantity ?? 1,
    deleted: false,
  }));
  raw.forEach((entry, i) => {
    const p = `${prefix}[${i}]`;
    if (!isRecord(entry)) throw invalidRequest(`Invalid hash: ${p}`, p);
    checkKnown(entry, sub ? ['id', 'price', 'quantity', 'deleted'] : ['price', 'quantity'], p);
    const id = optionalString(entry, 'id', `${p}[id]`);
    const priceId = optionalString(entry, 'price', `${p}[price]`);
    const quantity = parseQuantity(entry, `${p}[quantity]`);
    const deleted = optionalBoolean(entry, 'deleted', `${p}[deleted]`) ?? false;
    if (id) {
      const target = planned.find((x) => x.id === id);
      if (!target) throw invalidRequest(`No such subscription item: '${id}'`, `${p}[id]`, 'resource_missing');
      if (priceId) target.price = getPrice(state, priceId, `${p}[price]`);
      if (quantity !== undefined) target.quantity = quantity;
      target.deleted = deleted;
      return;
    }
    if (!priceId) throw parameterMissing(`${p}[price]`);
    planned.push({
      id: newId('si'),
      existing: null,
      price: getPrice(state, priceId, `${p}[price]`),
      quantity: quantity ?? 1,
      deleted: false,
    });
  });
  const live = planned.filter((x) => !x.deleted);
  if (live.length === 0) throw invalidRequest('A subscription must have at least one active item.', prefix);
  const priceIds = live.map((x) => x.price.id);
  if (new Set(priceIds).size !== priceIds.length) {
    throw invalidRequest('Cannot add multiple subscription items with the same price.', prefix);
  }
  const months = new Set(live.map((x) => periodMonths(x.price)));
  if (months.size > 1)
    throw invalidRequest('All prices on a subscription must have the same recurring interval.', prefix);
  return planned;
}

/** The proration lines of a planned change at `at`, as pending-item-shaped lines. */
export function prorationsFor(
  state: State,
  sub: Stripe.Subscription,
  planned: PlannedItem[],
  at: number,
): LineSpec[] {
  const period = currentPeriod(sub);
  const lines: LineSpec[] = [];
  for (const item of planned) {
    const before = item.existing ? itemState(state, item.existing.price, item.existing.quantity ?? 1) : null;
    const after = item.deleted ? null : itemState(state, item.price, item.quantity);
    if (before && after && before.price.id === after.price.id && before.quantity === after.quantity) continue;
    for (const line of prorationLines(before, after, period, at)) {
      lines.push({
        amount: line.amount,
        description: line.description,
        period: line.period,
        proration: true,
        price: state.prices.get(line.priceId) ?? null,
        quantity: line.quantity,
        subscription: sub.id,
        subscriptionItem: item.id,
        invoiceItem: newId('ii'),
      });
    }
  }
  return lines;
}

function keepPending(state: State, customerId: string, lines: LineSpec[], at: number): void {
  for (const line of lines) {
    const item: PendingItem = {
      id: line.invoiceItem ?? newId('ii'),
      customer: customerId,
      subscription: line.subscription,
      subscriptionItem: line.subscriptionItem,
      price: line.price?.id ?? null,
      quantity: line.quantity,
      amount: line.amount,
      description: line.description,
      period: line.period,
      proration: line.proration,
      created: at,
    };
    state.pendingItems.set(item.id, item);
  }
}

const CREATE_PARAMS = [
  'customer',
  'items',
  'default_payment_method',
  'payment_behavior',
  'proration_behavior',
  'cancel_at_period_end',
  'collection_method',
  'description',
  'metadata',
  'off_session',
  'expand',
] as const;

export function createSubscription(ctx: Ctx, params: Params): Stripe.Subscription {
  const { state } = ctx;
  checkKnown(params, CREATE_PARAMS);
  const customer = getCustomer(state, requiredString(params, 'customer'), 'customer');
  const rawItems = optionalArray(params, 'items');
  if (!rawItems || rawItems.length === 0) throw parameterMissing('items');
  const planned = planItems(state, null, rawItems, 'items');
  const paymentBehavior = optionalEnum(params, 'payment_behavior', PAYMENT_BEHAVIORS) ?? 'allow_incomplete';
  optionalEnum(params, 'proration_behavior', PRORATION_BEHAVIORS);
  optionalEnum(params, 'collection_method', ['charge_automatically'] as const);
  optionalBoolean(params, 'off_session');
  const defaultPm = optionalString(params, 'default_payment_method') || null;
  if (defaultPm) checkOwnPaymentMethod(state, customer.id, defaultPm, 'default_payment_method');
  const cancelAtPeriodEnd = optionalBoolean(params, 'cancel_at_period_end') ?? false;
  const metadata = applyMetadata({}, params);

  const at = customerNow(state, customer.id);
  const period = { start: at, end: addMonths(at, periodMonths(planned[0]!.price)) };
  const subId = newId('sub');
  const lines: LineSpec[] = [
    ...pendingItemsOf(state, (p) => p.customer === customer.id && p.subscription === null).map((p) =>
      lineFromPending(state, p),
    ),
    ...planned.map((p) => itemLine(state, subId, p.id, p.price, p.quantity, period)),
  ];
  const amountDue = Math.max(0, lines.reduce((s, l) => s + l.amount, 0) + customer.balance);
  const pm = defaultPm ?? paymentMethodFor(state, customer.id, null);

  // A refused first payment under error_if_incomplete (or no way to pay at all) leaves nothing behind.
  let willPay = amountDue === 0;
  if (amountDue > 0 && paymentBehavior !== 'default_incomplete') {
    const failure = chargeFailure(state, pm);
    if (failure && (paymentBehavior === 'error_if_incomplete' || failure.status !== 402)) throw failure;
    willPay = failure === null;
  }

  const sub: Stripe.Subscription = {
    id: subId,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: at,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: { proration_discounts: 'included' }, type: 'flexible', updated_at: at },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: cancelAtPeriodEnd ? period.end : null,
    cancel_at_period_end: cancelAtPeriodEnd,
    canceled_at: cancelAtPeriodEnd ? at : null,
    cancellation_details: {
      comment: null,
      feedback: null,
      feedback_option: null,
      reason: cancelAtPeriodEnd ? 'cancellation_requested' : null,
    },
    collection_method: 'charge_automatically',
    created: at,
    currency: 'usd',
    customer: customer.id,
    customer_account: null,
    days_until_due: null,
    default_payment_method: defaultPm,
    default_source: null,
    default_tax_rates: [],
    description: optionalString(params, 'description') ?? null,
    discounts: [],
    ended_at: null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
    items: list(
      planned.map((p) => newItem(subId, p.price, p.quantity, period, at, p.id)),
      `/v1/subscription_items?subscription=${subId}`,
    ),
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: at,
    status: willPay ? 'active' : 'incomplete',
    test_clock: customer.test_clock ?? null,
    transfer_data: null,
    trial_end: null,
    trial_settings: {
      end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' },
    },
    trial_start: null,
  };
  state.subscriptions.set(subId, sub);
  const invoice = buildInvoice(ctx, {
    customer,
    subscription: sub,
    lines,
    billingReason: 'subscription_create',
    created: at,
    periodStart: at,
    periodEnd: at,
  });
  sub.latest_invoice = invoice.id;
  ctx.emit('customer.subscription.created', sub);
  // default_incomplete leaves the payment to the customer: nothing is charged automatically.
  if (paymentBehavior === 'default_incomplete') invoice.next_payment_attempt = null;
  finalizeInvoice(ctx, invoice, at);
  if (invoice.status === 'open' && paymentBehavior !== 'default_incomplete')
    collect(ctx, invoice, at, pm ?? undefined);
  return sub;
}

const UPDATE_PARAMS = [
  'items',
  'proration_behavior',
  'proration_date',
  'payment_behavior',
  'cancel_at_period_end',
  'default_payment_method',
  'description',
  'metadata',
  'off_session',
  'expand',
] as const;

export function updateSubscription(ctx: Ctx, id: string, params: Params): Stripe.Subscription {
  const { state } = ctx;
  const sub = getSubscription(state, id);
  checkKnown(params, UPDATE_PARAMS);
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
    const allowed = ['metadata', 'expand'];
    const other = Object.keys(params).find((k) => !allowed.includes(k));
    if (other)
      throw invalidRequest(
        'A canceled subscription can only update its cancellation_details and metadata.',
        other,
      );
  }
  const customer = getCustomer(state, sub.customer as string);
  const now = customerNow(state, customer.id);
  const period = currentPeriod(sub);
  const prorationBehavior =
    optionalEnum(params, 'proration_behavior', PRORATION_BEHAVIORS) ?? 'create_prorations';
  const paymentBehavior = optionalEnum(params, 'payment_behavior', PAYMENT_BEHAVIORS) ?? 'allow_incomplete';
  const prorationDate = optionalInteger(params, 'proration_date');
  if (prorationDate !== undefined && (prorationDate < period.start || prorationDate > period.end)) {
    throw invalidRequest('proration_date must be within the current billing period.', 'proration_date');
  }
  const at = prorationDate ?? now;
  const rawItems = optionalArray(params, 'items');
  const planned = rawItems ? planItems(state, sub, rawItems, 'items') : null;
  const cancelAtPeriodEnd = optionalBoolean(params, 'cancel_at_period_end');
  optionalBoolean(params, 'off_session');
  const defaultPm = optionalString(params, 'default_payment_method');
  if (defaultPm) checkOwnPaymentMethod(state, customer.id, defaultPm, 'default_payment_method');
  const metadata = applyMetadata(sub.metadata, params);
  const description = optionalString(params, 'description');

  const prorations = planned && prorationBehavior !== 'none' ? prorationsFor(state, sub, planned, at) : [];
  const invoiceNow = prorationBehavior === 'always_invoice' && prorations.length > 0;
  const invoiceLines = invoiceNow
    ? [
        ...pendingItemsOf(state, (p) => p.subscription === sub.id).map((p) => lineFromPending(state, p)),
        ...prorations,
      ]
    : [];
  const pm = defaultPm || paymentMethodFor(state, customer.id, sub);
  if (invoiceNow && paymentBehavior === 'error_if_incomplete') {
    const due = invoiceLines.reduce((s, l) => s + l.amount, 0) + customer.balance;
    const failure = due > 0 ? chargeFailure(state, pm) : null;
    if (failure) throw failure;
  }

  const before = structuredClone(sub);
  if (planned) {
    sub.items.data = planned
      .filter((p) => !p.deleted)
      .map((p) => {
        if (!p.existing) return newItem(sub.id, p.price, p.quantity, period, now, p.id);
        p.existing.price = p.price;
        p.existing.plan = planOf(p.price);
        p.existing.quantity = p.quantity;
        return p.existing;
      });
  }
  if (cancelAtPeriodEnd !== undefined) {
    sub.cancel_at_period_end = cancelAtPeriodEnd;
    sub.cancel_at = cancelAtPeriodEnd ? period.end : null;
    sub.canceled_at = cancelAtPeriodEnd ? now : null;
    sub.cancellation_details = {
      comment: null,
      feedback: null,
      feedback_option: null,
      reason: cancelAtPeriodEnd ? 'cancellation_requested' : null,
    };
  }
  if (defaultPm !== undefined) sub.default_payment_method = defaultPm || null;
  if (description !== undefined) sub.description = description || null;
  sub.metadata = metadata;

  if (prorationBehavior === 'create_prorations') keepPending(state, customer.id, prorations, at);
  const invoice = invoiceNow
    ? buildInvoice(ctx, {
        customer,
        subscription: sub,
        lines: invoiceLines,
        billingReason: 'subscription_update',
        created: now,
        periodStart: now,
        periodEnd: now,
        prorationDate: at,
      })
    : null;
  if (invoice) sub.latest_invoice = invoice.id;
  if (JSON.stringify(before) !== JSON.stringify(sub)) ctx.emit('customer.subscription.updated', sub, before);
  if (invoice) {
    if (paymentBehavior === 'default_incomplete') invoice.next_payment_attempt = null;
    finalizeInvoice(ctx, invoice, now);
    if (invoice.status === 'open' && paymentBehavior !== 'default_incomplete')
      collect(ctx, invoice, now, pm ?? undefined);
  }
  return sub;
}

export function cancelSubscription(ctx: Ctx, id: string, params: Params): Stripe.Subscription {
  const { state } = ctx;
  const sub = getSubscription(state, id);
  checkKnown(params, ['invoice_now', 'prorate', 'cancellation_details', 'expand']);
  const details = optionalRecord(params, 'cancellation_details') ?? {};
  checkKnown(details, ['comment'], 'cancellation_details');
  const comment = optionalString(details, 'comment', 'cancellation_details[comment]') || null;
  const invoiceNow = optionalBoolean(params, 'invoice_now') ?? false;
  const prorate = optionalBoolean(params, 'prorate') ?? false;
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
    throw invalidRequest(`This subscription has already been canceled: ${id}.`);
  }
  const customer = getCustomer(state, sub.customer as string);
  const at = customerNow(state, customer.id);
  if (prorate && sub.status !== 'incomplete') {
    const planned = sub.items.data.map((item) => ({
      id: item.id,
      existing: item,
      price: item.price,
      quantity: item.quantity ?? 1,
      deleted: true,
    }));
    keepPending(state, customer.id, prorationsFor(state, sub, planned, at), at);
  }
  if (sub.status === 'incomplete') {
    const first = typeof sub.latest_invoice === 'string' ? state.invoices.get(sub.latest_invoice) : undefined;
    if (first?.status === 'open') voidInvoice(ctx, first, at);
  }
  endSubscription(ctx, sub, at, 'cancellation_requested', comment);
  const pending = pendingItemsOf(state, (p) => p.subscription === sub.id);
  if (invoiceNow && pending.length > 0) {
    const invoice = buildInvoice(ctx, {
      customer,
      subscription: sub,
      lines: pending.map((p) => lineFromPending(state, p)),
      billingReason: 'subscription_update',
      created: at,
      periodStart: at,
      periodEnd: at,
    });
    sub.latest_invoice = invoice.id;
    finalizeInvoice(ctx, invoice, at);
    if (invoice.status === 'open') collect(ctx, invoice, at);
  }
  return sub;
}

export function listSubscriptions(state: State, params: Params) {
  checkKnown(params, ['customer', 'price', 'status', 'test_clock', ...PAGE_PARAMS]);
  const customer = optionalString(params, 'customer');
  const price = optionalString(params, 'price');
  const clock = optionalString(params, 'test_clock');
  const status = optionalString(params, 'status');
  const subs = [...state.subscriptions.values()].filter((s) => {
    if (customer !== undefined && s.customer !== customer) return false;
    if (clock !== undefined && s.test_clock !== clock) return false;
    if (price !== undefined && !s.items.data.some((i) => i.price.id === price)) return false;
    // Stripe lists subscriptions that have not ended unless a status is asked for.
    if (status === undefined) return s.status !== 'canceled' && s.status !== 'incomplete_expired';
    if (status === 'all') return true;
    if (status === 'ended') return s.status === 'canceled' || s.status === 'incomplete_expired';
    return s.status === status;
  });
  return paginate(subs, params, '/v1/subscriptions');
}

/**
 * The period ended at `end`: the next one starts, and its invoice (with the pending prorations) is
 * drafted; the test clock finalizes and charges it an hour later.
 */
export function renew(ctx: Ctx, sub: Stripe.Subscription, end: number): void {
  const { state } = ctx;
  const customer = getCustomer(state, sub.customer as string);
  const previous = currentPeriod(sub);
  const period = { start: end, end: nextPeriodEnd(sub, end) };
  const before = structuredClone(sub);
  for (const item of sub.items.data) {
    item.current_period_start = period.start;
    item.current_period_end = period.end;
  }
  const lines = [
    ...pendingItemsOf(state, (p) => p.subscription === sub.id).map((p) => lineFromPending(state, p)),
    ...sub.items.data.map((item) => itemLine(state, sub.id, item.id, item.price, item.quantity ?? 1, period)),
  ];
  // A renewal invoice's own period is the one that just ended (its lines carry the new one), as with Stripe.
  const invoice = buildInvoice(ctx, {
    customer,
    subscription: sub,
    lines,
    billingReason: 'subscription_cycle',
    created: end,
    periodStart: previous.start,
    periodEnd: previous.end,
  });
  sub.latest_invoice = invoice.id;
  ctx.emit('customer.subscription.updated', sub, before);
}

/**
 * Stripe ends an incomplete subscription whose first invoice is still unpaid after 23 hours; it
 * announces that as `customer.subscription.updated`, not `.deleted`.
 */
export function expireIncomplete(ctx: Ctx, sub: Stripe.Subscription, at: number): void {
  const first =
    typeof sub.latest_invoice === 'string' ? ctx.state.invoices.get(sub.latest_invoice) : undefined;
  if (first?.status === 'open') voidInvoice(ctx, first, at);
  const before = structuredClone(sub);
  sub.status = 'incomplete_expired';
  sub.canceled_at = at;
  sub.ended_at = at;
  ctx.emit('customer.subscription.updated', sub, before);
}
