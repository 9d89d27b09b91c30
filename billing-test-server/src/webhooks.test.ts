import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startBillingTestServer } from './index.ts';
import { type Harness, type Receiver, startHarness, startReceiver } from './testing.ts';

let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  h = await startHarness({ webhookUrl: receiver.url, webhookSecret: 'whsec_test_webhooks_suite' });
});
afterAll(async () => {
  await h.close();
  await receiver.close();
});
beforeEach(async () => {
  await h.server.webhooksIdle();
  receiver.received.length = 0;
  h.server.configure({ webhookUrl: receiver.url });
});

const verify = (r: { body: string; headers: Record<string, unknown> }, secret: string) =>
  h.stripe.webhooks.constructEvent(r.body, String(r.headers['stripe-signature']), secret);

describe('webhooks', () => {
  it('signs each delivery so that the pinned SDK verifies it, and a wrong secret does not', async () => {
    const customer = await h.stripe.customers.create({ email: 'hook@example.test', source: 'tok_visa' });
    await h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: h.prices.basic.id }] });
    await h.server.webhooksIdle();

    const events = receiver.received.map((r) => verify(r, 'whsec_test_webhooks_suite'));
    expect(events.map((e) => e.type)).toEqual([
      'customer.created',
      'customer.source.created',
      'invoice.created',
      'customer.subscription.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
    ]);
    const created = events.find((e) => e.type === 'customer.subscription.created')!;
    expect(created).toMatchObject({ object: 'event', livemode: false, api_version: Stripe.API_VERSION });
    expect(created.id).toMatch(/^evt_/);
    expect((created.data.object as Stripe.Subscription).status).toBe('active');
    expect(receiver.received[0]?.headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    // The same event through the API.
    expect((await h.stripe.events.retrieve(created.id)).type).toBe('customer.subscription.created');
    const listed = await h.stripe.events.list({ type: 'invoice.paid', limit: 1 });
    expect(listed.data[0]?.id).toBe(events.find((e) => e.type === 'invoice.paid')?.id);

    expect(() => verify(receiver.received[0]!, 'whsec_not_the_secret')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it('gives the previous values of what an update changed', async () => {
    const customer = await h.stripe.customers.create({ email: 'before@example.test', metadata: { a: '1' } });
    await h.stripe.customers.update(customer.id, { email: 'after@example.test', metadata: { b: '2' } });
    await h.server.webhooksIdle();
    const updated = receiver.received
      .map((r) => verify(r, h.server.webhookSecret))
      .find((e) => e.type === 'customer.updated');
    expect(updated?.data.previous_attributes).toEqual({
      email: 'before@example.test',
      metadata: { b: null },
    });
    expect(updated?.data.object).toMatchObject({ email: 'after@example.test', metadata: { a: '1', b: '2' } });
  });

  it('resends an event with the same id (a duplicate) and delivers a chosen order', async () => {
    const customer = await h.stripe.customers.create({ email: 'dup@example.test' });
    await h.stripe.customers.update(customer.id, { name: 'Renamed' });
    await h.server.webhooksIdle();
    const [created, updated] = receiver.received.map((r) => verify(r, h.server.webhookSecret));
    expect([created?.type, updated?.type]).toEqual(['customer.created', 'customer.updated']);

    const resent = await h.testHelper('POST', `/_test/events/${created!.id}/resend`);
    expect(resent).toMatchObject({ status: 200, json: { event: created!.id, ok: true, reason: 'resend' } });
    expect(verify(receiver.received.at(-1)!, h.server.webhookSecret).id).toBe(created!.id);
    expect(
      receiver.received.map((r) => JSON.parse(r.body).id).filter((id) => id === created!.id),
    ).toHaveLength(2);

    receiver.received.length = 0;
    const ordered = await h.testHelper('POST', '/_test/deliver', { events: [updated!.id, created!.id] });
    expect(ordered.status).toBe(200);
    expect(receiver.received.map((r) => verify(r, h.server.webhookSecret).type)).toEqual([
      'customer.updated',
      'customer.created',
    ]);

    const deliveries = await h.testHelper('GET', `/_test/deliveries?event=${created!.id}`);
    expect((deliveries.json as { data: { reason: string }[] }).data.map((d) => d.reason)).toEqual([
      'event',
      'resend',
      'ordered',
    ]);
  });

  it('retries a delivery the receiver refused', async () => {
    receiver.failNext(500);
    const customer = await h.stripe.customers.create({ email: 'retry@example.test' });
    await h.server.webhooksIdle();
    const ids = receiver.received.map((r) => JSON.parse(r.body).id as string);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
    const deliveries = await h.testHelper('GET', `/_test/deliveries?event=${ids[0]}`);
    expect((deliveries.json as { data: unknown[] }).data).toMatchObject([
      { attempt: 1, status: 500, ok: false },
      { attempt: 2, status: 200, ok: true },
    ]);
    expect((await h.stripe.events.retrieve(ids[0]!)).data.object).toMatchObject({ id: customer.id });
  });

  it('sends nothing while no URL is configured; the events are still listed', async () => {
    h.server.configure({ webhookUrl: null });
    const customer = await h.stripe.customers.create({ email: 'quiet@example.test' });
    await h.server.webhooksIdle();
    expect(receiver.received).toEqual([]);
    const [event] = (await h.stripe.events.list({ type: 'customer.created', limit: 1 })).data;
    expect(event).toMatchObject({ pending_webhooks: 0, data: { object: { id: customer.id } } });
  });

  it('holds deliveries back on request and then sends them in the order they happened', async () => {
    expect((await h.testHelper('POST', '/_test/deliveries/hold', { held: true })).status).toBe(200);
    const customer = await h.stripe.customers.create({ email: 'held@example.test' });
    await h.stripe.customers.update(customer.id, { name: 'Held Back' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received).toEqual([]);
    expect((await h.testHelper('GET', '/_test/deliveries')).json).toMatchObject({ pending: 2 });
    expect((await h.testHelper('POST', '/_test/deliveries/hold', { held: false })).status).toBe(200);
    await h.server.webhooksIdle();
    expect(receiver.received.map((r) => verify(r, h.server.webhookSecret).type)).toEqual([
      'customer.created',
      'customer.updated',
    ]);
    expect((await h.testHelper('POST', '/_test/deliveries/hold', {})).status).toBe(400);
  });
});

describe('keys of a server started without any', () => {
  it('are random for each start, never the constants once in the repository, and sign its webhooks', async () => {
    const [a, b] = await Promise.all([startBillingTestServer(), startBillingTestServer()]);
    try {
      for (const s of [a, b]) {
        expect(s.secretKey).toMatch(/^sk_test_[0-9a-f]{48}$/);
        expect(s.publishableKey).toMatch(/^pk_test_[0-9a-f]{48}$/);
        expect(s.webhookSecret).toMatch(/^whsec_[0-9a-f]{48}$/);
        expect([s.secretKey, s.publishableKey, s.webhookSecret]).not.toContain('sk_test_mrn_local');
        expect(s.publishableKey).not.toBe('pk_test_mrn_local');
        expect(s.webhookSecret).not.toBe('whsec_mrn_local_billing_test_server');
      }
      expect(a.secretKey).not.toBe(b.secretKey);
      expect(a.publishableKey).not.toBe(b.publishableKey);
      expect(a.webhookSecret).not.toBe(b.webhookSecret);
      // One server's key is refused by the other.
      const other = await fetch(`${a.url}/v1/customers`, {
        headers: { authorization: `Bearer ${b.secretKey}` },
      });
      expect(other.status).toBe(401);
      // Its webhooks are signed with its own secret, and only verify with it.
      const hooks = await startReceiver();
      try {
        a.configure({ webhookUrl: hooks.url });
        const stripe = new Stripe(a.secretKey, { host: a.host, port: a.port, protocol: 'http' });
        await stripe.customers.create({ email: 'random-keys@example.test' });
        await a.webhooksIdle();
        expect(hooks.received).toHaveLength(1);
        expect(verify(hooks.received[0]!, a.webhookSecret).type).toBe('customer.created');
        expect(() => verify(hooks.received[0]!, b.webhookSecret)).toThrow(
          Stripe.errors.StripeSignatureVerificationError,
        );
      } finally {
        await hooks.close();
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
