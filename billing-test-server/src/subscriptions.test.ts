import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockCustomer, DAY, type Harness, HOUR, JAN_1_2026, startHarness } from './testing.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const FEB_1_2026 = Date.UTC(2026, 1, 1) / 1000;
const email = () => `${Math.random().toString(36).slice(2)}@example.test`;

async function cardError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
  return error as Stripe.errors.StripeCardError;
}

describe('subscribing', () => {
  it('charges the first BASIC invoice at once with the customer card', async () => {
    const customer = await h.stripe.customers.create({ email: email(), source: 'tok_visa' });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.basic.id }],
      expand: ['latest_invoice'],
    });
    expect(sub.status).toBe('active');
    expect(sub.items.data[0]?.price.metadata).toEqual({ plan_level: 'BASIC' });
    const invoice = sub.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      status: 'paid',
      billing_reason: 'subscription_create',
      total: 69_500,
      amount_due: 69_500,
      amount_paid: 69_500,
      amount_remaining: 0,
      attempt_count: 1,
    });
    expect(invoice.parent?.subscription_details?.subscription).toBe(sub.id);
    expect(invoice.lines.data.map((l) => [l.description, l.amount])).toEqual([
      ['1 × BASIC (at $695.00 / month)', 69_500],
    ]);
    expect(invoice.number).toMatch(/^[A-Z0-9]{8}-0001$/);
  });

  it('refuses a declining card when it is saved, so no customer and no subscription exist', async () => {
    const address = email();
    const error = await cardError(
      h.stripe.customers.create({ email: address, source: 'tok_chargeDeclined' }),
    );
    expect(error).toMatchObject({
      statusCode: 402,
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
    });
    expect((await h.stripe.customers.list({ email: address })).data).toEqual([]);
  });

  it('refuses a card without funds as it is attached', async () => {
    const customer = await h.stripe.customers.create({ email: email() });
    const pm = await h.stripe.paymentMethods.create({
      type: 'card',
      card: { token: 'tok_chargeDeclinedInsufficientFunds' },
    });
    const error = await cardError(h.stripe.paymentMethods.attach(pm.id, { customer: customer.id }));
    expect(error).toMatchObject({
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    expect((await h.stripe.paymentMethods.retrieve(pm.id)).customer).toBeNull();
  });

  it('answers 402 for a card that fails its charge (error_if_incomplete) and keeps nothing', async () => {
    const customer = await h.stripe.customers.create({ email: email(), source: 'tok_chargeCustomerFail' });
    const error = await cardError(
      h.stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: h.prices.basic.id }],
        payment_behavior: 'error_if_incomplete',
      }),
    );
    expect(error).toMatchObject({ code: 'card_declined', decline_code: 'generic_decline' });
    expect((await h.stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).toEqual([]);
    expect((await h.stripe.invoices.list({ customer: customer.id })).data).toEqual([]);
  });

  it('leaves an incomplete subscription with an open invoice under allow_incomplete', async () => {
    const customer = await h.stripe.customers.create({ email: email(), source: 'tok_chargeCustomerFail' });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.basic.id }],
      expand: ['latest_invoice'],
    });
    expect(sub.status).toBe('incomplete');
    expect(sub.latest_invoice).toMatchObject({
      status: 'open',
      amount_due: 69_500,
      amount_paid: 0,
      attempt_count: 1,
    });
    expect((await h.stripe.subscriptions.list({ customer: customer.id })).data.map((s) => s.status)).toEqual([
      'incomplete',
    ]);

    // A working card then pays it: the subscription becomes active.
    const pm = await h.stripe.paymentMethods.create({ type: 'card', card: { token: 'tok_mastercard' } });
    await h.stripe.paymentMethods.attach(pm.id, { customer: customer.id });
    const paid = await h.stripe.invoices.pay((sub.latest_invoice as Stripe.Invoice).id, {
      payment_method: pm.id,
    });
    expect(paid.status).toBe('paid');
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
  });

  it('refuses to subscribe a customer with no way to pay', async () => {
    const customer = await h.stripe.customers.create({ email: email() });
    const error = await h.stripe.subscriptions
      .create({ customer: customer.id, items: [{ price: h.prices.basic.id }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((error as Error).message).toMatch(/no attached payment source or default payment method/);
  });

  it('uses a payment method given at customer creation as the invoice default', async () => {
    const pm = await h.stripe.paymentMethods.create({ type: 'card', card: { token: 'tok_mastercard' } });
    const customer = await h.stripe.customers.create({
      email: email(),
      payment_method: pm.id,
      invoice_settings: { default_payment_method: pm.id },
      expand: ['invoice_settings.default_payment_method'],
    });
    const defaultPm = customer.invoice_settings.default_payment_method as Stripe.PaymentMethod;
    expect(defaultPm.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.pro.id }],
    });
    expect(sub.status).toBe('active');
    const listed = await h.stripe.customers.listPaymentMethods(customer.id);
    expect(listed.data.map((p) => p.id)).toEqual([pm.id]);
  });
});

describe('changing plans', () => {
  it('previews and then bills the prorated upgrade BASIC → PRO halfway through the period', async () => {
    const { clock, customer } = await clockCustomer(h.stripe);
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.basic.id }],
    });
    const itemId = sub.items.data[0]!.id;
    expect(sub.items.data[0]).toMatchObject({
      current_period_start: JAN_1_2026,
      current_period_end: FEB_1_2026,
    });

    // 16 Jan 00:00: 16 of January's 31 days are left.
    // Unused BASIC: 69,500 × 16/31 = 35,870.97 → 35,871; remaining PRO: 94,500 × 16/31 = 48,774.19 → 48,774.
    const at = JAN_1_2026 + 15 * DAY;
    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: at });
    const change = { items: [{ id: itemId, price: h.prices.pro.id }], proration_date: at };

    const now = await h.stripe.invoices.createPreview({
      subscription: sub.id,
      subscription_details: { ...change, proration_behavior: 'always_invoice' },
    });
    expect(now.amount_due).toBe(48_774 - 35_871); // 12,903
    expect(
      now.lines.data.map((l) => [l.description, l.amount, l.parent?.subscription_item_details?.proration]),
    ).toEqual([
      ['Unused time on BASIC after 16 Jan 2026', -35_871, true],
      ['Remaining time on PRO after 16 Jan 2026', 48_774, true],
    ]);
    expect(now.parent?.subscription_details?.subscription_proration_date).toBe(at);

    const next = await h.stripe.invoices.createPreview({
      subscription: sub.id,
      subscription_details: change,
    });
    expect(next.amount_due).toBe(94_500 + 12_903);
    expect(next.lines.data.at(-1)).toMatchObject({
      description: '1 × PRO (at $945.00 / month)',
      amount: 94_500,
      period: { start: FEB_1_2026, end: Date.UTC(2026, 2, 1) / 1000 },
    });

    // Not at midnight: 15 Jan 06:56:07, 1,443,833 of 2,678,400 s left.
    // 69,500 × that share = 37,465.05 → 37,465; 94,500 × it = 50,941.69 → 50,942.
    const odd = await h.stripe.invoices.createPreview({
      subscription: sub.id,
      subscription_details: {
        items: [{ id: itemId, price: h.prices.pro.id }],
        proration_date: JAN_1_2026 + 1_234_567,
        proration_behavior: 'always_invoice',
      },
    });
    expect(odd.lines.data.map((l) => l.amount)).toEqual([-37_465, 50_942]);
    expect(odd.amount_due).toBe(13_477);

    // Upgrade with create_prorations: nothing is charged now; the next invoice carries the lines.
    const updated = await h.stripe.subscriptions.update(sub.id, {
      ...change,
      proration_behavior: 'create_prorations',
    });
    expect(updated.items.data[0]?.price.id).toBe(h.prices.pro.id);
    expect((await h.stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1);

    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: FEB_1_2026 + HOUR });
    const [renewal] = (await h.stripe.invoices.list({ customer: customer.id, limit: 1 })).data;
    expect(renewal).toMatchObject({
      billing_reason: 'subscription_cycle',
      status: 'paid',
      amount_paid: 107_403,
    });
    expect(
      renewal!.lines.data.map((l) => [l.amount, l.parent?.subscription_item_details?.proration]),
    ).toEqual([
      [-35_871, true],
      [48_774, true],
      [94_500, false],
    ]);
  });

  it('turns an immediately invoiced downgrade into credit that the next invoice uses', async () => {
    const { clock, customer } = await clockCustomer(h.stripe);
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.pro.id }],
    });
    const at = JAN_1_2026 + 15 * DAY;
    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: at });
    const updated = await h.stripe.subscriptions.update(sub.id, {
      items: [{ id: sub.items.data[0]!.id, price: h.prices.basic.id }],
      proration_behavior: 'always_invoice',
      expand: ['latest_invoice'],
    });
    // −48,774 for unused PRO + 35,871 for remaining BASIC = −12,903: nothing due, credit kept.
    expect(updated.latest_invoice).toMatchObject({
      billing_reason: 'subscription_update',
      total: -12_903,
      amount_due: 0,
      status: 'paid',
      ending_balance: -12_903,
    });
    expect((await h.stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({
      balance: -12_903,
    });

    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: FEB_1_2026 + HOUR });
    const [renewal] = (await h.stripe.invoices.list({ customer: customer.id, limit: 1 })).data;
    expect(renewal).toMatchObject({
      total: 69_500,
      starting_balance: -12_903,
      ending_balance: 0,
      amount_due: 69_500 - 12_903,
      amount_paid: 56_597,
      status: 'paid',
    });
    expect(((await h.stripe.customers.retrieve(customer.id)) as Stripe.Customer).balance).toBe(0);
  });

  it('puts a downgrade credit on the next invoice with create_prorations', async () => {
    const { clock, customer } = await clockCustomer(h.stripe);
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.pro.id }],
    });
    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN_1_2026 + 15 * DAY });
    await h.stripe.subscriptions.update(sub.id, {
      items: [{ id: sub.items.data[0]!.id, price: h.prices.basic.id }],
    });
    const preview = await h.stripe.invoices.createPreview({ subscription: sub.id });
    expect(preview.amount_due).toBe(69_500 - 12_903);
    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: FEB_1_2026 + HOUR });
    const [renewal] = (await h.stripe.invoices.list({ customer: customer.id, limit: 1 })).data;
    expect(renewal?.lines.data.map((l) => l.amount)).toEqual([-48_774, 35_871, 69_500]);
    expect(renewal).toMatchObject({ total: 56_597, amount_paid: 56_597 });
  });

  it('ends a subscription at the period end when asked to, and at once on cancel', async () => {
    const { clock, customer } = await clockCustomer(h.stripe);
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.basic.id }],
    });
    const pending = await h.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(pending).toMatchObject({ status: 'active', cancel_at_period_end: true, cancel_at: FEB_1_2026 });
    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: FEB_1_2026 + HOUR });
    expect(await h.stripe.subscriptions.retrieve(sub.id)).toMatchObject({
      status: 'canceled',
      ended_at: FEB_1_2026,
    });
    expect((await h.stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1);

    const other = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.pro.id }],
    });
    const canceled = await h.stripe.subscriptions.cancel(other.id);
    expect(canceled).toMatchObject({
      status: 'canceled',
      cancellation_details: { reason: 'cancellation_requested' },
    });
    expect((await h.stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
  });
});
