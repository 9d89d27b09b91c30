import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type Receiver, startHarness, startReceiver } from './testing.ts';

let h: Harness;
let app: Receiver;
beforeAll(async () => {
  app = await startReceiver();
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
  await app.close();
});

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

async function defaultCard(customerId: string) {
  const customer = (await h.stripe.customers.retrieve(customerId, {
    expand: ['invoice_settings.default_payment_method'],
  })) as Stripe.Customer;
  return (customer.invoice_settings.default_payment_method as Stripe.PaymentMethod | null)?.card;
}

describe('billing portal', () => {
  it('replaces the default card from a plain HTML form and returns to return_url', async () => {
    const customer = await h.stripe.customers.create({ email: 'portal@example.test', source: 'tok_visa' });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.basic.id }],
    });
    const returnUrl = `${app.url}/account/billing`;
    const session = await h.stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: returnUrl,
    });
    expect(session).toMatchObject({
      object: 'billing_portal.session',
      return_url: returnUrl,
      customer: customer.id,
    });
    expect(session.url.startsWith(`${h.server.url}/p/session/`)).toBe(true);

    const page = await fetch(session.url);
    const html = await page.text();
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toContain('Visa •••• 4242');
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/);

    // A declining card: the page says so and nothing changes.
    const declined = await fetch(
      session.url,
      form({ number: '4000 0000 0000 0002', exp_month: '12', exp_year: '2034', cvc: '123' }),
    );
    expect(await declined.text()).toContain('Your card was declined.');
    expect(await defaultCard(customer.id)).toBeUndefined();

    const saved = await fetch(
      session.url,
      form({ number: '5555 5555 5555 4444', exp_month: '12', exp_year: '2034', cvc: '123' }),
    );
    expect(saved.url).toBe(returnUrl);
    expect(app.received.at(-1)).toMatchObject({ method: 'GET', path: '/account/billing' });
    expect(await defaultCard(customer.id)).toMatchObject({
      brand: 'mastercard',
      last4: '4444',
      exp_month: 12,
      exp_year: 2034,
    });
    // The subscription named no card of its own, so it now charges the customer's new default.
    expect((await h.stripe.subscriptions.retrieve(sub.id)).default_payment_method).toBeNull();
  });

  it('moves a subscription that named its own card to the new one', async () => {
    const pm = await h.stripe.paymentMethods.create({ type: 'card', card: { token: 'tok_visa' } });
    const customer = await h.stripe.customers.create({
      email: 'portal2@example.test',
      payment_method: pm.id,
    });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.pro.id }],
      default_payment_method: pm.id,
    });
    const session = await h.stripe.billingPortal.sessions.create({ customer: customer.id });
    const saved = await fetch(
      session.url,
      form({ number: '4000056655665556', exp_month: '1', exp_year: '2033', cvc: '999' }),
    );
    expect(saved.status).toBe(200);
    const updated = await h.stripe.subscriptions.retrieve(sub.id, { expand: ['default_payment_method'] });
    expect((updated.default_payment_method as Stripe.PaymentMethod).card).toMatchObject({
      last4: '5556',
      funding: 'debit',
    });
  });

  it('shows typing mistakes on the page', async () => {
    const customer = await h.stripe.customers.create({ email: 'typo@example.test' });
    const session = await h.stripe.billingPortal.sessions.create({ customer: customer.id });
    const wrong = await fetch(
      session.url,
      form({ number: '4242424242424241', exp_month: '12', exp_year: '2034' }),
    );
    expect(wrong.status).toBe(402);
    expect(await wrong.text()).toContain('Your card number is incorrect.');
    expect((await fetch(`${h.server.url}/p/session/test_nothing`)).status).toBe(404);
  });
});
