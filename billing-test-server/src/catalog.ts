import { PLAN_LEVELS, PLANS } from '@mrn/contracts';
import type Stripe from 'stripe';
import { wallClock } from './calendar.ts';
import { decimal } from './context.ts';
import { referenceMissing, resourceMissing } from './errors.ts';
import { checkKnown, optionalArray, type Params } from './form.ts';
import { newId } from './ids.ts';
import { PAGE_PARAMS, paginate } from './lists.ts';
import type { State } from './state.ts';

/** The product's two plans as Stripe products with monthly USD prices, found by lookup key. */
export function seedCatalog(state: State): void {
  const created = wallClock();
  for (const level of PLAN_LEVELS) {
    const productId = newId('prod');
    const priceId = newId('price');
    const metadata = { plan_level: level };
    const product: Stripe.Product = {
      id: productId,
      object: 'product',
      active: true,
      created,
      default_price: priceId,
      description: null,
      images: [],
      livemode: false,
      marketing_features: [],
      metadata,
      name: level,
      package_dimensions: null,
      shippable: null,
      statement_descriptor: null,
      tax_code: null,
      tax_details: null,
      type: 'service',
      unit_label: null,
      updated: created,
      url: null,
    };
    const price: Stripe.Price = {
      id: priceId,
      object: 'price',
      active: true,
      billing_scheme: 'per_unit',
      created,
      currency: 'usd',
      custom_unit_amount: null,
      livemode: false,
      lookup_key: `${level.toLowerCase()}_monthly`,
      metadata: { ...metadata },
      nickname: `${level} monthly`,
      product: productId,
      recurring: {
        interval: 'month',
        interval_count: 1,
        meter: null,
        trial_period_days: null,
        usage_type: 'licensed',
      },
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: 'recurring',
      unit_amount: PLANS[level].priceCents,
      unit_amount_decimal: decimal(PLANS[level].priceCents),
    };
    state.products.set(productId, product);
    state.prices.set(priceId, price);
  }
}

export function getPrice(state: State, id: string, param?: string): Stripe.Price {
  const price = state.prices.get(id);
  if (!price) throw param ? referenceMissing('price', id, param) : resourceMissing('price', id, 'id');
  return price;
}

export function productOf(state: State, price: Stripe.Price): Stripe.Product {
  return state.products.get(price.product as string)!;
}

/** Subscription items still carry the legacy `plan`, which Stripe derives from the price. */
export function planOf(price: Stripe.Price): Stripe.Plan {
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: price.recurring!.interval,
    interval_count: price.recurring!.interval_count,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export function listPrices(state: State, params: Params): Stripe.ApiList<Stripe.Price> {
  checkKnown(params, ['lookup_keys', 'active', 'product', 'type', ...PAGE_PARAMS]);
  const lookupKeys = optionalArray(params, 'lookup_keys');
  const prices = [...state.prices.values()].filter(
    (p) =>
      (!lookupKeys || lookupKeys.includes(p.lookup_key)) &&
      (params.active === undefined || String(p.active) === params.active) &&
      (params.product === undefined || p.product === params.product) &&
      (params.type === undefined || p.type === params.type),
  );
  return paginate(prices, params, '/v1/prices');
}
