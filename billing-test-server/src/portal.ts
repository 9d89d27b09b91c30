import type Stripe from 'stripe';
import { wallClock } from './calendar.ts';
import { validateTypedCard } from './cards.ts';
import type { Ctx } from './context.ts';
import { customerDefaultPaymentMethod, getCustomer } from './customers.ts';
import { invalidRequest, StripeApiError } from './errors.ts';
import { checkKnown, optionalString, type Params, requiredString } from './form.ts';
import { escapeHtml, page } from './html.ts';
import { newId, randomText } from './ids.ts';
import { attachPaymentMethod, findPaymentMethod, paymentMethodFromCard } from './payment-methods.ts';
import type { State } from './state.ts';

/**
 * The billing portal, reduced to what the product uses: a page where the customer replaces the card
 * their invoices are charged to. Stripe's portal does more (cancel, switch plans, invoice history).
 */

const SESSION_LIFETIME = 60 * 60;
const CONFIGURATION_ID = `bpc_${randomText(24)}`;

export function createPortalSession(ctx: Ctx, params: Params): Stripe.BillingPortal.Session {
  checkKnown(params, ['customer', 'return_url', 'expand']);
  const customer = getCustomer(ctx.state, requiredString(params, 'customer'), 'customer');
  const returnUrl = optionalString(params, 'return_url') || null;
  if (returnUrl !== null) {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(returnUrl).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw invalidRequest('Not a valid URL', 'return_url', 'url_invalid');
  }
  const token = `test_${randomText(40)}`;
  const created = wallClock();
  const session: Stripe.BillingPortal.Session = {
    id: newId('bps'),
    object: 'billing_portal.session',
    configuration: CONFIGURATION_ID,
    created,
    customer: customer.id,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: returnUrl,
    url: `${ctx.baseUrl()}/p/session/${token}`,
  };
  ctx.state.portalSessions.set(token, { session, token, expiresAt: created + SESSION_LIFETIME });
  ctx.emit('billing_portal.session.created', session);
  return session;
}

/**
 * The card becomes the customer's default payment method, and the default of each live subscription
 * that names its own (as Stripe's portal and hosted invoice page do).
 */
export function makeDefaultCard(ctx: Ctx, customer: Stripe.Customer, paymentMethodId: string): void {
  const before = structuredClone(customer);
  customer.invoice_settings.default_payment_method = paymentMethodId;
  ctx.emit('customer.updated', customer, before);
  for (const sub of ctx.state.subscriptions.values()) {
    const live = sub.status !== 'canceled' && sub.status !== 'incomplete_expired';
    if (sub.customer !== customer.id || !live || !sub.default_payment_method) continue;
    const subBefore = structuredClone(sub);
    sub.default_payment_method = paymentMethodId;
    ctx.emit('customer.subscription.updated', sub, subBefore);
  }
}

export interface PageResult {
  status: number;
  html?: string;
  redirect?: string;
}

function liveSession(state: State, token: string) {
  const record = state.portalSessions.get(token);
  if (!record) return { error: { status: 404, html: page('Not found', '<h1>This link is not valid.</h1>') } };
  if (wallClock() > record.expiresAt) {
    return { error: { status: 410, html: page('Expired', '<h1>This session has expired.</h1>') } };
  }
  return { record };
}

function describe(state: State, customer: Stripe.Customer): string {
  const pmId = customerDefaultPaymentMethod(customer);
  const card = pmId ? findPaymentMethod(state, pmId)?.card : undefined;
  if (!card) return 'No payment method on file.';
  const month = String(card.exp_month).padStart(2, '0');
  return `${card.brand[0]!.toUpperCase()}${card.brand.slice(1)} •••• ${card.last4}, expires ${month}/${card.exp_year}`;
}

function form(state: State, session: Stripe.BillingPortal.Session, token: string, error?: string): string {
  const customer = getCustomer(state, session.customer);
  const back = session.return_url
    ? `<p><a href="${escapeHtml(session.return_url)}">Return without changes</a></p>`
    : '';
  return page(
    'Payment method',
    `<h1>Payment method</h1>
<p>${escapeHtml(customer.email ?? customer.name ?? customer.id)}</p>
<p>Current: <strong id="current">${escapeHtml(describe(state, customer))}</strong></p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/p/session/${escapeHtml(token)}">
<label for="number">Card number</label>
<input id="number" name="number" inputmode="numeric" autocomplete="cc-number" required>
<div class="row">
<div><label for="exp_month">Expiry month</label><input id="exp_month" name="exp_month" inputmode="numeric" placeholder="MM" required></div>
<div><label for="exp_year">Expiry year</label><input id="exp_year" name="exp_year" inputmode="numeric" placeholder="YYYY" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc"></div>
</div>
<button type="submit">Save card</button>
</form>
${back}`,
  );
}

export function portalPage(state: State, token: string): PageResult {
  const { record, error } = liveSession(state, token);
  if (!record) return error;
  return { status: 200, html: form(state, record.session, token) };
}

/**
 * The form's POST: the new card becomes the customer's default payment method, and the default of
 * each live subscription that names its own (as the Stripe portal does), then back to `return_url`.
 */
export function portalSubmit(ctx: Ctx, token: string, body: Params): PageResult {
  const { state } = ctx;
  const { record, error } = liveSession(state, token);
  if (!record) return error;
  const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
  const customer = getCustomer(state, record.session.customer);
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
    const pm = paymentMethodFromCard(state, vc);
    attachPaymentMethod(ctx, pm.id, customer.id);
    makeDefaultCard(ctx, customer, pm.id);
  } catch (e) {
    if (!(e instanceof StripeApiError)) throw e;
    return { status: e.status, html: form(state, record.session, token, e.body.message) };
  }
  if (record.session.return_url) return { status: 303, redirect: record.session.return_url };
  return { status: 200, html: form(state, record.session, token) };
}
