import type Stripe from 'stripe';
import { wallClock } from './calendar.ts';
import type { Ctx } from './context.ts';
import { invalidRequest, referenceMissing, resourceMissing } from './errors.ts';
import { applyMetadata, checkKnown, optionalRecord, optionalString, type Params } from './form.ts';
import { invoicePrefix, newId } from './ids.ts';
import { PAGE_PARAMS, paginate } from './lists.ts';
import {
  attachPaymentMethod,
  checkAttachable,
  checkTokenForSource,
  findPaymentMethod,
  saveSource,
} from './payment-methods.ts';
import type { State } from './state.ts';

export function getCustomer(state: State, id: string, param?: string): Stripe.Customer {
  const customer = state.customers.get(id);
  if (!customer)
    throw param ? referenceMissing('customer', id, param) : resourceMissing('customer', id, 'id');
  return customer;
}

/** The payment method a customer's invoices are charged with when the subscription names none. */
export function customerDefaultPaymentMethod(customer: Stripe.Customer): string | null {
  const pm = customer.invoice_settings.default_payment_method;
  if (typeof pm === 'string') return pm;
  return typeof customer.default_source === 'string' ? customer.default_source : null;
}

/** Stripe accepts as a default only a payment method (or card source) already on this customer. */
export function checkOwnPaymentMethod(state: State, customerId: string, pmId: string, param: string): void {
  const pm = findPaymentMethod(state, pmId);
  if (!pm || pm.customer !== customerId) {
    throw invalidRequest(
      `The customer does not have a payment method with the ID ${pmId}. The payment method must be attached to the customer.`,
      param,
      'resource_missing',
    );
  }
}

const CREATE_PARAMS = [
  'email',
  'name',
  'description',
  'phone',
  'metadata',
  'test_clock',
  'payment_method',
  'invoice_settings',
  'source',
  'expand',
] as const;

export function createCustomer(ctx: Ctx, params: Params): Stripe.Customer {
  const { state } = ctx;
  checkKnown(params, CREATE_PARAMS);
  const clockId = optionalString(params, 'test_clock') || null;
  if (clockId && !state.clocks.has(clockId)) throw referenceMissing('test_clock', clockId, 'test_clock');
  const invoiceSettings = optionalRecord(params, 'invoice_settings') ?? {};
  checkKnown(invoiceSettings, ['default_payment_method'], 'invoice_settings');
  const defaultPm = optionalString(
    invoiceSettings,
    'default_payment_method',
    'invoice_settings[default_payment_method]',
  );
  const pmId = optionalString(params, 'payment_method') || undefined;
  const sourceToken = optionalString(params, 'source') || undefined;
  const metadata = applyMetadata({}, params);

  // Everything that can refuse is checked before anything is kept: a refused create leaves nothing
  // (the token is spent last, since a declined card gives it back).
  if (defaultPm && defaultPm !== pmId) {
    throw invalidRequest(
      `The customer does not have a payment method with the ID ${defaultPm}. The payment method must be attached to the customer.`,
      'invoice_settings[default_payment_method]',
      'resource_missing',
    );
  }
  if (pmId) checkAttachable(state, pmId, '', 'payment_method');
  const spent = sourceToken ? checkTokenForSource(state, sourceToken, 'source') : undefined;

  const id = newId('cus');
  const customer: Stripe.Customer = {
    id,
    object: 'customer',
    address: null,
    balance: 0,
    created: clockId ? state.clocks.get(clockId)!.frozen_time : wallClock(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: optionalString(params, 'description') ?? null,
    discount: null,
    email: optionalString(params, 'email') ?? null,
    invoice_prefix: invoicePrefix(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata,
    name: optionalString(params, 'name') ?? null,
    next_invoice_sequence: 1,
    phone: optionalString(params, 'phone') ?? null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: clockId,
  };
  state.customers.set(id, customer);
  ctx.emit('customer.created', customer);
  if (spent) {
    const card = saveSource(ctx, id, spent);
    customer.default_source = card.id;
  }
  if (pmId) {
    const pm = attachPaymentMethod(ctx, pmId, id);
    if (defaultPm) customer.invoice_settings.default_payment_method = pm.id;
  }
  return customer;
}

const UPDATE_PARAMS = [
  'email',
  'name',
  'description',
  'phone',
  'metadata',
  'invoice_settings',
  'default_source',
  'source',
  'expand',
] as const;

export function updateCustomer(ctx: Ctx, id: string, params: Params): Stripe.Customer {
  const { state } = ctx;
  const customer = getCustomer(state, id);
  checkKnown(params, UPDATE_PARAMS);
  const invoiceSettings = optionalRecord(params, 'invoice_settings') ?? {};
  checkKnown(invoiceSettings, ['default_payment_method'], 'invoice_settings');
  const defaultPm = optionalString(
    invoiceSettings,
    'default_payment_method',
    'invoice_settings[default_payment_method]',
  );
  if (defaultPm) checkOwnPaymentMethod(state, id, defaultPm, 'invoice_settings[default_payment_method]');
  const defaultSource = optionalString(params, 'default_source') || undefined;
  if (defaultSource && state.sources.get(defaultSource)?.customer !== id) {
    throw invalidRequest(`No such source: '${defaultSource}'`, 'default_source', 'resource_missing');
  }
  const sourceToken = optionalString(params, 'source') || undefined;
  const spent = sourceToken ? checkTokenForSource(state, sourceToken, 'source') : undefined;
  const metadata = applyMetadata(customer.metadata, params);

  const before = structuredClone(customer);
  for (const field of ['email', 'name', 'description', 'phone'] as const) {
    const value = optionalString(params, field);
    if (value !== undefined) customer[field] = value === '' ? null : value;
  }
  customer.metadata = metadata;
  if (defaultPm !== undefined) customer.invoice_settings.default_payment_method = defaultPm || null;
  if (defaultSource) customer.default_source = defaultSource;
  if (spent) {
    // `source` replaces the default source, as Stripe does.
    const old = typeof customer.default_source === 'string' ? customer.default_source : null;
    if (old) state.sources.delete(old);
    const card = saveSource(ctx, id, spent);
    customer.default_source = card.id;
  }
  if (JSON.stringify(before) !== JSON.stringify(customer)) ctx.emit('customer.updated', customer, before);
  return customer;
}

export function listCustomers(state: State, params: Params) {
  checkKnown(params, ['email', 'test_clock', ...PAGE_PARAMS]);
  const email = optionalString(params, 'email');
  const clock = optionalString(params, 'test_clock');
  const customers = [...state.customers.values()].filter(
    (c) => (email === undefined || c.email === email) && (clock === undefined || c.test_clock === clock),
  );
  return paginate(customers, params, '/v1/customers');
}
