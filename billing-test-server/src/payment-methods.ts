import type Stripe from 'stripe';
import { wallClock } from './calendar.ts';
import { declineError, last4, magicCard, sourceBrand, type ValidCard, validateTypedCard } from './cards.ts';
import type { Ctx } from './context.ts';
import { invalidRequest, parameterMissing, referenceMissing, resourceMissing } from './errors.ts';
import {
  applyMetadata,
  checkKnown,
  optionalRecord,
  optionalString,
  type Params,
  requiredString,
} from './form.ts';
import { fingerprint, newId } from './ids.ts';
import { PAGE_PARAMS, paginate } from './lists.ts';
import type { State } from './state.ts';

/** Tokens, card sources and payment methods: the three ways Stripe keeps a card. */

const EMPTY_ADDRESS: Stripe.Address = {
  city: null,
  country: null,
  line1: null,
  line2: null,
  postal_code: null,
  state: null,
};

function magicValid(id: string): ValidCard | undefined {
  const card = magicCard(id);
  if (!card) return undefined;
  const now = new Date();
  return { card, expMonth: now.getUTCMonth() + 1, expYear: now.getUTCFullYear() + 1, cvcProvided: true };
}

/** A `card` object as tokens and customer sources carry it. */
export function sourceCard(id: string, vc: ValidCard, customer: string | null): Stripe.Card {
  return {
    id,
    object: 'card',
    address_city: null,
    address_country: null,
    address_line1: null,
    address_line1_check: null,
    address_line2: null,
    address_state: null,
    address_zip: null,
    address_zip_check: null,
    allow_redisplay: 'unspecified',
    brand: sourceBrand(vc.card.brand),
    country: 'US',
    customer,
    cvc_check: vc.cvcProvided ? 'pass' : null,
    dynamic_last4: null,
    exp_month: vc.expMonth,
    exp_year: vc.expYear,
    fingerprint: fingerprint(vc.card.number),
    funding: vc.card.funding,
    last4: last4(vc.card),
    metadata: {},
    name: null,
    regulated_status: 'unregulated',
    tokenization_method: null,
  };
}

function paymentMethodCard(vc: ValidCard): Stripe.PaymentMethod.Card {
  return {
    brand: vc.card.brand,
    checks: {
      address_line1_check: null,
      address_postal_code_check: null,
      cvc_check: vc.cvcProvided ? 'pass' : null,
    },
    country: 'US',
    display_brand: vc.card.brand,
    exp_month: vc.expMonth,
    exp_year: vc.expYear,
    fingerprint: fingerprint(vc.card.number),
    funding: vc.card.funding,
    generated_from: null,
    last4: last4(vc.card),
    networks: { available: [vc.card.brand], preferred: null },
    regulated_status: 'unregulated',
    three_d_secure_usage: { supported: true },
    wallet: null,
  };
}

function newPaymentMethod(state: State, vc: ValidCard, id = newId('pm')): Stripe.PaymentMethod {
  const pm: Stripe.PaymentMethod = {
    id,
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: { ...EMPTY_ADDRESS }, email: null, name: null, phone: null, tax_id: null },
    card: paymentMethodCard(vc),
    created: wallClock(),
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
  state.paymentMethods.set(pm.id, pm);
  state.cards.set(pm.id, vc);
  return pm;
}

/** A payment method for a card typed on one of this server's pages. */
export function paymentMethodFromCard(state: State, vc: ValidCard): Stripe.PaymentMethod {
  return newPaymentMethod(state, vc);
}

/** Stripe shows a customer's card source through the Payment Methods API as a `card_…` payment method. */
function sourceAsPaymentMethod(state: State, card: Stripe.Card): Stripe.PaymentMethod {
  const vc = state.cards.get(card.id)!;
  return {
    id: card.id,
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: { ...EMPTY_ADDRESS }, email: null, name: null, phone: null, tax_id: null },
    card: paymentMethodCard(vc),
    created: state.sourceCreated.get(card.id) ?? wallClock(),
    customer: typeof card.customer === 'string' ? card.customer : null,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}

export function createToken(ctx: Ctx, params: Params, clientIp: string | null): Stripe.Token {
  checkKnown(params, ['card', 'expand', 'key']);
  const card = optionalRecord(params, 'card');
  if (!card) throw parameterMissing('card');
  checkKnown(
    card,
    [
      'number',
      'exp_month',
      'exp_year',
      'cvc',
      'name',
      'address_zip',
      'address_line1',
      'address_country',
      'currency',
    ],
    'card',
  );
  const vc = validateTypedCard(
    {
      number: requiredString(card, 'number', 'card[number]'),
      expMonth: requiredString(card, 'exp_month', 'card[exp_month]'),
      expYear: requiredString(card, 'exp_year', 'card[exp_year]'),
      cvc: optionalString(card, 'cvc', 'card[cvc]'),
    },
    'card',
  );
  const token: Stripe.Token = {
    id: newId('tok'),
    object: 'token',
    card: sourceCard(newId('card'), vc, null),
    client_ip: clientIp,
    created: wallClock(),
    livemode: false,
    type: 'card',
    used: false,
  };
  ctx.state.tokens.set(token.id, token);
  ctx.state.cards.set(token.id, vc);
  return token;
}

export function getToken(state: State, id: string): Stripe.Token {
  const token = state.tokens.get(id);
  if (!token) throw resourceMissing('token', id, 'token');
  return token;
}

/** Uses a token once (ready-made `tok_visa` and friends any number of times) and gives its card. */
function spendToken(state: State, id: string, param: string): { vc: ValidCard; cardId: string } {
  const magic = magicValid(id);
  if (magic) return { vc: magic, cardId: newId('card') };
  const token = state.tokens.get(id);
  if (!token) throw referenceMissing('token', id, param);
  if (token.used) {
    throw invalidRequest(`You cannot use a Stripe token more than once: ${id}.`, param, 'token_already_used');
  }
  token.used = true;
  return { vc: state.cards.get(id)!, cardId: token.card!.id };
}

/**
 * Saves a token's card on a customer as its source. Stripe checks a card as it saves it, so the
 * declining test cards fail here with 402 (before anything is written).
 */
export function checkTokenForSource(
  state: State,
  tokenId: string,
  param: string,
): { vc: ValidCard; cardId: string } {
  const spent = spendToken(state, tokenId, param);
  if (spent.vc.card.onAttach) {
    const token = state.tokens.get(tokenId);
    if (token) token.used = false;
    throw declineError(spent.vc.card.onAttach);
  }
  return spent;
}

export function saveSource(
  ctx: Ctx,
  customerId: string,
  spent: { vc: ValidCard; cardId: string },
): Stripe.Card {
  const card = sourceCard(spent.cardId, spent.vc, customerId);
  ctx.state.sources.set(card.id, card);
  ctx.state.sourceCreated.set(card.id, wallClock());
  ctx.state.cards.set(card.id, spent.vc);
  ctx.emit('customer.source.created', card);
  return card;
}

export function createPaymentMethod(ctx: Ctx, params: Params): Stripe.PaymentMethod {
  checkKnown(params, ['type', 'card', 'metadata', 'billing_details', 'expand']);
  const type = requiredString(params, 'type');
  if (type !== 'card')
    throw invalidRequest(`The billing test server implements only type=card, not ${type}.`, 'type');
  const card = optionalRecord(params, 'card');
  if (!card) throw parameterMissing('card');
  if (card.number !== undefined) {
    throw invalidRequest(
      'Sending credit card numbers directly to the Stripe API is generally unsafe. Use a token (card[token]) from POST /v1/tokens or a test token such as tok_visa.',
      'card[number]',
    );
  }
  checkKnown(card, ['token'], 'card');
  const tokenId = requiredString(card, 'token', 'card[token]');
  const { vc } = spendToken(ctx.state, tokenId, 'card[token]');
  const pm = newPaymentMethod(ctx.state, vc);
  pm.metadata = applyMetadata({}, params);
  const billing = optionalRecord(params, 'billing_details');
  if (billing) {
    checkKnown(billing, ['name', 'email', 'phone'], 'billing_details');
    pm.billing_details.name = optionalString(billing, 'name', 'billing_details[name]') ?? null;
    pm.billing_details.email = optionalString(billing, 'email', 'billing_details[email]') ?? null;
    pm.billing_details.phone = optionalString(billing, 'phone', 'billing_details[phone]') ?? null;
  }
  return pm;
}

/** A payment method by id, including a customer's `card_…` source seen as one. */
export function findPaymentMethod(state: State, id: string): Stripe.PaymentMethod | undefined {
  const pm = state.paymentMethods.get(id);
  if (pm) return pm;
  const source = state.sources.get(id);
  return source ? sourceAsPaymentMethod(state, source) : undefined;
}

export function getPaymentMethod(state: State, id: string): Stripe.PaymentMethod {
  const pm = findPaymentMethod(state, id);
  if (!pm) throw resourceMissing('PaymentMethod', id, 'payment_method');
  return pm;
}

/** Refuses what attaching would refuse, without changing anything. */
export function checkAttachable(
  state: State,
  id: string,
  customerId: string,
  param = 'payment_method',
): ValidCard {
  const magic = id.startsWith('pm_card_') ? magicValid(id) : undefined;
  const pm = magic ? undefined : state.paymentMethods.get(id);
  if (!magic && !pm) throw referenceMissing('PaymentMethod', id, param);
  if (pm?.customer && pm.customer !== customerId) {
    throw invalidRequest(
      'The payment method you provided has already been attached to a customer.',
      param,
      'payment_method_unexpected_state',
    );
  }
  const vc = magic ?? state.cards.get(id)!;
  if (vc.card.onAttach) throw declineError(vc.card.onAttach, pm?.id);
  return vc;
}

/** Attaches (a ready-made `pm_card_visa` becomes a new payment method first, as with Stripe). */
export function attachPaymentMethod(ctx: Ctx, id: string, customerId: string, param = 'payment_method') {
  const { state } = ctx;
  const vc = checkAttachable(state, id, customerId, param);
  const target = state.paymentMethods.get(id) ?? newPaymentMethod(state, vc);
  if (target.customer === customerId) return target;
  target.customer = customerId;
  ctx.emit('payment_method.attached', target);
  return target;
}

export function detachPaymentMethod(ctx: Ctx, id: string): Stripe.PaymentMethod {
  const pm = ctx.state.paymentMethods.get(id);
  if (!pm) throw resourceMissing('PaymentMethod', id, 'payment_method');
  if (!pm.customer) {
    throw invalidRequest(
      'The payment method you provided is not attached to a customer so detachment is impossible.',
    );
  }
  const customer = ctx.state.customers.get(pm.customer as string);
  const before = customer ? structuredClone(customer) : undefined;
  pm.customer = null;
  ctx.emit('payment_method.detached', pm);
  if (customer && before && customer.invoice_settings.default_payment_method === id) {
    customer.invoice_settings.default_payment_method = null;
    ctx.emit('customer.updated', customer, before);
  }
  return pm;
}

export function customerPaymentMethods(state: State, customerId: string): Stripe.PaymentMethod[] {
  const attached = [...state.paymentMethods.values()].filter((pm) => pm.customer === customerId);
  const sources = [...state.sources.values()]
    .filter((c) => c.customer === customerId)
    .map((c) => sourceAsPaymentMethod(state, c));
  return [...sources, ...attached];
}

export function listPaymentMethods(state: State, customerId: string, params: Params, url: string) {
  checkKnown(params, ['type', 'customer', ...PAGE_PARAMS]);
  const type = optionalString(params, 'type');
  if (type !== undefined && type !== 'card') return paginate([], params, url);
  return paginate(customerPaymentMethods(state, customerId), params, url);
}

/** The card a charge would use, for a payment method or source id. */
export function chargeableCard(state: State, id: string): ValidCard | undefined {
  return state.cards.get(id);
}
