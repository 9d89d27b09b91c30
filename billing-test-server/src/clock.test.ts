import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clockCustomer,
  DAY,
  type Harness,
  HOUR,
  JAN_1_2026,
  type Receiver,
  startHarness,
  startReceiver,
} from './testing.ts';

let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  h = await startHarness({ webhookUrl: receiver.url });
});
afterAll(async () => {
  await h.close();
  await receiver.close();
});

const FEB_1_2026 = Date.UTC(2026, 1, 1) / 1000;
const MAR_1_2026 = Date.UTC(2026, 2, 1) / 1000;

/** Events delivered about one subscription or its invoices, verified with the SDK, in arrival order. */
async function deliveredFor(subId: string): Promise<Stripe.Event[]> {
  await h.server.webhooksIdle();
  return receiver.received
    .filter((r) => r.method === 'POST')
    .map((r) =>
      h.stripe.webhooks.constructEvent(r.body, String(r.headers['stripe-signature']), h.server.webhookSecret),
    )
    .filter((e) => {
      const o = e.data.object as {
        id?: string;
        parent?: { subscription_details?: { subscription?: string } };
      };
      return o.id === subId || o.parent?.subscription_details?.subscription === subId;
    });
}

describe('test clocks', () => {
  it('renews a month later: the draft is finalized and charged an hour after the period ends', async () => {
    const { clock, customer } = await clockCustomer(h.stripe);
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.basic.id }],
    });

    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: FEB_1_2026 });
    const draft = (await h.stripe.invoices.list({ customer: customer.id, limit: 1 })).data[0]!;
    expect(draft).toMatchObject({
      status: 'draft',
      billing_reason: 'subscription_cycle',
      automatically_finalizes_at: FEB_1_2026 + HOUR,
    });

    const advanced = await h.stripe.testHelpers.testClocks.advance(clock.id, {
      frozen_time: FEB_1_2026 + HOUR,
    });
    expect(advanced).toMatchObject({ status: 'ready', frozen_time: FEB_1_2026 + HOUR });
    const renewal = await h.stripe.invoices.retrieve(draft.id);
    expect(renewal).toMatchObject({
      status: 'paid',
      amount_paid: 69_500,
      period_start: JAN_1_2026,
      period_end: FEB_1_2026,
    });
    expect(renewal.lines.data[0]?.period).toEqual({ start: FEB_1_2026, end: MAR_1_2026 });
    const renewed = await h.stripe.subscriptions.retrieve(sub.id);
    expect(renewed.status).toBe('active');
    expect(renewed.items.data[0]).toMatchObject({
      current_period_start: FEB_1_2026,
      current_period_end: MAR_1_2026,
    });
    expect(renewed.latest_invoice).toBe(draft.id);

    const types = (await deliveredFor(sub.id)).map((e) => e.type);
    expect(types).toEqual([
      'invoice.created',
      'customer.subscription.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'invoice.created',
      'customer.subscription.updated',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
    ]);
  });

  it('retries a failing renewal after 3, 5 and 7 days, past_due meanwhile, then cancels', async () => {
    const { clock, customer } = await clockCustomer(h.stripe);
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.pro.id }],
    });
    // The card that saves fine and fails every charge becomes the customer's default.
    const failing = await h.stripe.paymentMethods.create({
      type: 'card',
      card: { token: 'tok_chargeCustomerFail' },
    });
    await h.stripe.paymentMethods.attach(failing.id, { customer: customer.id });
    await h.stripe.customers.update(customer.id, {
      invoice_settings: { default_payment_method: failing.id },
    });

    const firstTry = FEB_1_2026 + HOUR;
    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: firstTry });
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('past_due');
    const invoice = (await h.stripe.invoices.list({ customer: customer.id, limit: 1 })).data[0]!;
    expect(invoice).toMatchObject({
      status: 'open',
      attempt_count: 1,
      next_payment_attempt: firstTry + 3 * DAY,
    });

    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: firstTry + 8 * DAY });
    expect(await h.stripe.invoices.retrieve(invoice.id)).toMatchObject({
      attempt_count: 3,
      next_payment_attempt: firstTry + 15 * DAY,
    });
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('past_due');

    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: firstTry + 15 * DAY });
    const ended = await h.stripe.subscriptions.retrieve(sub.id);
    expect(ended).toMatchObject({
      status: 'canceled',
      ended_at: firstTry + 15 * DAY,
      cancellation_details: { reason: 'payment_failed' },
    });
    expect(await h.stripe.invoices.retrieve(invoice.id)).toMatchObject({
      status: 'open',
      attempt_count: 4,
      next_payment_attempt: null,
    });

    const events = await deliveredFor(sub.id);
    const failures = events.filter((e) => e.type === 'invoice.payment_failed');
    expect(failures.map((e) => (e.data.object as Stripe.Invoice).attempt_count)).toEqual([1, 2, 3, 4]);
    expect(failures.map((e) => e.created)).toEqual([
      firstTry,
      firstTry + 3 * DAY,
      firstTry + 8 * DAY,
      firstTry + 15 * DAY,
    ]);
    const pastDue = events.find(
      (e) =>
        e.type === 'customer.subscription.updated' &&
        (e.data.object as Stripe.Subscription).status === 'past_due',
    );
    expect(pastDue?.data.previous_attributes).toMatchObject({ status: 'active' });
    expect(events.at(-1)).toMatchObject({
      type: 'customer.subscription.deleted',
      data: { object: { id: sub.id, status: 'canceled' } },
    });
  });

  it('expires an incomplete subscription after 23 hours', async () => {
    const { clock, customer } = await clockCustomer(h.stripe, 'tok_chargeCustomerFail');
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.basic.id }],
    });
    expect(sub.status).toBe('incomplete');
    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN_1_2026 + DAY });
    expect(await h.stripe.subscriptions.retrieve(sub.id)).toMatchObject({
      status: 'incomplete_expired',
      ended_at: JAN_1_2026 + 23 * HOUR,
    });
    expect((await h.stripe.invoices.retrieve(sub.latest_invoice as string)).status).toBe('void');
  });

  it('never charges a default_incomplete first invoice by itself', async () => {
    const { clock, customer } = await clockCustomer(h.stripe);
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.basic.id }],
      payment_behavior: 'default_incomplete',
    });
    expect(sub.status).toBe('incomplete');
    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: JAN_1_2026 + 2 * HOUR });
    expect(await h.stripe.invoices.retrieve(sub.latest_invoice as string)).toMatchObject({
      status: 'open',
      attempt_count: 0,
      next_payment_attempt: null,
    });
    await h.stripe.invoices.pay(sub.latest_invoice as string);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
  });

  it('only moves forward', async () => {
    const { clock } = await clockCustomer(h.stripe);
    const error = await h.stripe.testHelpers.testClocks
      .advance(clock.id, { frozen_time: JAN_1_2026 - 1 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 400, param: 'frozen_time' });
  });
});
