import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './testing.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e as Stripe.errors.StripeError,
  );

describe('keys', () => {
  it('answers 401 for a wrong or missing key, and for a publishable key outside /v1/tokens', async () => {
    const wrong = new Stripe('sk_test_not_ours_1234', {
      host: h.server.host,
      port: h.server.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const error = await rejection(wrong.customers.list());
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error.statusCode).toBe(401);
    expect(error.message).toMatch(/^Invalid API Key provided: sk_test_\*+1234$/);

    const publishable = new Stripe(h.server.publishableKey, {
      host: h.server.host,
      port: h.server.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    expect(await rejection(publishable.customers.list())).toMatchObject({ statusCode: 401 });

    const missing = await fetch(`${h.server.url}/v1/customers`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('creates tokens from a browser page on another origin with the publishable key, as Stripe.js does', async () => {
    const origin = 'http://127.0.0.1:5173';
    const preflight = await fetch(`${h.server.url}/v1/tokens`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);

    const body = new URLSearchParams({
      'card[number]': '4242424242424242',
      'card[exp_month]': '12',
      'card[exp_year]': '2034',
      'card[cvc]': '123',
      key: h.server.publishableKey,
    });
    const response = await fetch(`${h.server.url}/v1/tokens`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    const token = (await response.json()) as Stripe.Token;
    expect(token).toMatchObject({
      object: 'token',
      type: 'card',
      used: false,
      card: { brand: 'Visa', last4: '4242' },
    });

    // The server side then uses it once.
    const customer = await h.stripe.customers.create({ source: token.id });
    const sourceId = customer.default_source as string;
    expect(sourceId).toBe(token.card?.id);
    expect((await h.stripe.paymentMethods.retrieve(sourceId)).card).toMatchObject({
      brand: 'visa',
      last4: '4242',
    });
    expect(await rejection(h.stripe.customers.create({ source: token.id }))).toMatchObject({
      statusCode: 400,
      code: 'token_already_used',
    });

    const bad = await fetch(`${h.server.url}/v1/tokens`, {
      method: 'POST',
      headers: {
        origin,
        authorization: `Bearer ${h.server.publishableKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        'card[number]': '4242424242424241',
        'card[exp_month]': '12',
        'card[exp_year]': '2034',
      }),
    });
    expect(bad.status).toBe(402);
    expect(bad.headers.get('access-control-allow-origin')).toBe(origin);
    expect(await bad.json()).toMatchObject({
      error: { type: 'card_error', code: 'incorrect_number', param: 'card[number]' },
    });
  });
});

describe('errors', () => {
  it('answers 404 resource_missing with param for an unknown id', async () => {
    const error = await rejection(h.stripe.customers.retrieve('cus_missing'));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param: 'id',
      message: "No such customer: 'cus_missing'",
    });
    expect(await rejection(h.stripe.subscriptions.retrieve('sub_missing'))).toMatchObject({
      statusCode: 404,
    });
    expect(await rejection(h.stripe.invoices.retrieve('in_missing'))).toMatchObject({ statusCode: 404 });
    // An unknown id inside a request body is a 400 naming the parameter.
    expect(
      await rejection(
        h.stripe.subscriptions.create({ customer: 'cus_missing', items: [{ price: h.prices.basic.id }] }),
      ),
    ).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer' });
  });

  it('answers 400 parameter_missing, parameter_unknown, and 404 for an unknown route', async () => {
    const customer = await h.stripe.customers.create({ source: 'tok_visa' });
    expect(
      await rejection(h.stripe.subscriptions.create({ items: [{ price: h.prices.basic.id }] })),
    ).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      code: 'parameter_missing',
      param: 'customer',
    });
    expect(
      await rejection(h.stripe.subscriptions.create({ customer: customer.id, items: [{ quantity: 2 }] })),
    ).toMatchObject({
      code: 'parameter_missing',
      param: 'items[0][price]',
    });
    expect(
      await rejection(
        h.stripe.subscriptions.create({
          customer: customer.id,
          items: [{ price: h.prices.basic.id }],
          trial_period_days: 7,
        }),
      ),
    ).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'trial_period_days' });

    const unknown = await fetch(`${h.server.url}/v1/charges`, {
      headers: { authorization: `Bearer ${h.server.secretKey}` },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message: expect.stringMatching(/^Unrecognized request URL \(GET: \/v1\/charges\)/),
      },
    });
  });

  it('replays a POST with the same Idempotency-Key and refuses the key with other parameters', async () => {
    const first = await h.stripe.customers.create(
      { email: 'once@example.test' },
      { idempotencyKey: 'key-1' },
    );
    const again = await h.stripe.customers.create(
      { email: 'once@example.test' },
      { idempotencyKey: 'key-1' },
    );
    expect(again.id).toBe(first.id);
    const other = await rejection(
      h.stripe.customers.create({ email: 'other@example.test' }, { idempotencyKey: 'key-1' }),
    );
    expect(other).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('finds the seeded prices by lookup key', async () => {
    const prices = await h.stripe.prices.list({ lookup_keys: ['pro_monthly'], expand: ['data.product'] });
    expect(prices.data).toHaveLength(1);
    expect(prices.data[0]).toMatchObject({
      unit_amount: 94_500,
      currency: 'usd',
      recurring: { interval: 'month', interval_count: 1 },
      metadata: { plan_level: 'PRO' },
      product: { object: 'product', name: 'PRO' },
    });
    expect((await h.stripe.prices.retrieve(h.prices.basic.id)).unit_amount).toBe(69_500);
  });
});
