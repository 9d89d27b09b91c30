import { createHmac } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPath, routes } from '@mrn/contracts';
import {
  BILLING_TEST_KEYS_FILE,
  billingTestKeys,
  DEMO_PASSWORD,
  startTestServer,
  TEST_ADMIN,
  type TestServer,
} from '@mrn/server/testing';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Billing end to end over HTTP (accounts spec §4, §7; DESIGN §4): the product's real Stripe SDK calls
// against the Stripe-compatible test server `npm start` and the tests run, whose signed webhooks come
// back to the product over loopback. Pay, decline, proration on upgrade and downgrade, invoices and
// the card, the billing portal, a failed renewal played on the customer's test clock, duplicated and
// out-of-order webhooks, refused signatures.

const DAY = 86_400;
let server: TestServer;
let admin = '';
let funder = '';
let stripe: Stripe;
let billingUrl = '';
/** This installation's DATA_DIR, where billing test mode keeps its own keys. */
const dataDir = mkdtempSync(join(tmpdir(), 'mrn-billing-'));
const keys = () => billingTestKeys(dataDir);
const webhookSecret = () => keys().webhookSecret;
const secretKey = () => keys().secretKey;

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true, env: { DATA_DIR: dataDir } });
  admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const created = await server.call({
    method: 'POST',
    url: routes.createAccount.path,
    token: admin,
    payload: {
      account: {
        name: 'Billing Test Funding',
        website: 'billingtest.example',
        primary_contact_email: 'ops@billingtest.example',
      },
    },
  });
  funder = created.body.data.resource_id;
  const config = await server.call({ method: 'GET', url: routes.getBillingConfig.path, token: admin });
  billingUrl = new URL(config.body.data.token_url).origin;
  const url = new URL(billingUrl);
  stripe = new Stripe(secretKey(), { host: url.hostname, port: Number(url.port), protocol: 'http' });
});
afterAll(async () => {
  await server?.close();
});

const call = (
  route: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string },
  payload?: object,
  query = '',
) =>
  server.call({
    method: route.method,
    url: buildPath(route.path, { id: funder }) + query,
    token: admin,
    ...(payload ? { payload } : {}),
  });
const account = async () =>
  (await server.call({ method: 'GET', url: buildPath(routes.getAccount.path, { id: funder }), token: admin }))
    .body.data;
/** Until every webhook the test server has sent is answered and applied. */
async function webhooksSettled() {
  await fetch(`${billingUrl}/_test/deliveries/wait`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey()}` },
  });
  await server.projectedAll(undefined, 10_000);
}
const eventsOfType = async (type: string, stream = `account-${funder}`) =>
  Number(
    (
      await server.db.pool.query('select count(*) as n from events where stream_id = $1 and type = $2', [
        stream,
        type,
      ])
    ).rows[0].n,
  );
const subscribe = (token: string, plan: 'BASIC' | 'PRO' = 'BASIC') =>
  call(routes.createSubscription, {
    stripeToken: token,
    stripeEmail: 'billing@billingtest.example',
    stripePlanName: plan,
  });

describe('membership and billing', () => {
  it('refuses a declined card with Stripe’s message, 402, and changes nothing', async () => {
    const before = await server.db.pool.query('select count(*) as n from events where stream_id = $1', [
      `account-${funder}`,
    ]);
    const declined = await subscribe('tok_chargeDeclined');
    expect(declined.status).toBe(402);
    expect(declined.body.errors).toBe('Your card was declined.');
    const insufficient = await subscribe('tok_chargeDeclinedInsufficientFunds');
    expect(insufficient.status).toBe(402);
    expect(insufficient.body.errors).toMatch(/insufficient funds/);
    const after = await server.db.pool.query('select count(*) as n from events where stream_id = $1', [
      `account-${funder}`,
    ]);
    expect(after.rows[0].n).toBe(before.rows[0].n);
    expect((await account()).membership_status).toBe('none');
  });

  it('charges once when Start Membership is sent five times at once', async () => {
    const other = await server.call({
      method: 'POST',
      url: routes.createAccount.path,
      token: admin,
      payload: {
        account: {
          name: 'Double Click Capital',
          website: 'doubleclick.example',
          primary_contact_email: 'ops@doubleclick.example',
        },
      },
    });
    const id = other.body.data.resource_id;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        server.call({
          method: 'POST',
          url: buildPath(routes.createSubscription.path, { id }),
          token: admin,
          payload: {
            stripeToken: 'tok_visa',
            stripeEmail: 'ops@doubleclick.example',
            stripePlanName: 'BASIC',
          },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    // Every subscription Stripe made for it, cancelled ones included: one charge, not one kept of five.
    const subscriptions = (await stripe.subscriptions.list({ limit: 100, status: 'all' })).data.filter(
      (s) => s.metadata.account_id === id,
    );
    expect(subscriptions).toHaveLength(1);
    expect(await eventsOfType('AccountMembershipStarted', `account-${id}`)).toBe(1);
  });

  it('names the field of a bad request and writes nothing', async () => {
    const bad = await call(routes.createSubscription, {
      stripeToken: 'visa',
      stripeEmail: 'x',
      stripePlanName: 'GOLD',
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/stripeToken/);
    expect(JSON.stringify(bad.body)).toMatch(/stripePlanName/);
  });

  it('starts BASIC with a good card: active at once, the first invoice paid, the card on file', async () => {
    const paid = await subscribe('tok_visa');
    expect(paid.status).toBe(201);
    expect(paid.body.data).toMatchObject({ plan_level: 'BASIC', membership_status: 'active' });
    await webhooksSettled();
    const view = await account();
    expect(view).toMatchObject({ plan_level: 'BASIC', membership_status: 'active', payment_failed: false });
    expect(view.current_period_end).not.toBeNull();
    const invoices = await call(routes.listInvoices, undefined, '?page=1&per_page=10');
    expect(invoices.status).toBe(200);
    expect(invoices.body.data).toHaveLength(1);
    expect(invoices.body.data[0]).toMatchObject({ amount_due: 69_500, amount_paid: 69_500, paid: true });
    const pdf = await fetch(invoices.body.data[0].invoice_pdf);
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
    const card = await server.call({
      method: 'POST',
      url: routes.getPaymentMethod.path,
      token: admin,
      payload: { account_id: funder },
    });
    expect(card.body.data.card).toMatchObject({ brand: 'visa', last4: '4242' });
    // A second start while active is refused before any charge.
    expect((await subscribe('tok_visa')).status).toBe(409);
  });

  it('previews and charges an upgrade pro rata, credits a downgrade, and follows the plan at once', async () => {
    const preview = await call(routes.previewPlanChange, undefined, '?plan=PRO');
    expect(preview.status).toBe(200);
    // Almost the whole month left: nearly (94,500 − 69,500) cents, never more.
    expect(preview.body.data.proration_amount).toBeGreaterThan(24_000);
    expect(preview.body.data.proration_amount).toBeLessThanOrEqual(25_000);
    const up = await call(routes.upgradeSubscription);
    expect(up.status).toBe(200);
    expect(up.body.data.plan_level).toBe('PRO');
    await webhooksSettled();
    expect((await account()).plan_level).toBe('PRO');
    // Stripe's own customer.subscription.updated came back: the change is recorded once.
    expect(await eventsOfType('AccountPlanChanged')).toBe(1);
    expect((await call(routes.upgradeSubscription)).status).toBe(409);

    const downPreview = await call(routes.previewPlanChange, undefined, '?plan=BASIC');
    expect(downPreview.body.data.proration_amount).toBeLessThan(0);
    expect((await call(routes.downgradeSubscription)).status).toBe(200);
    await webhooksSettled();
    expect((await account()).plan_level).toBe('BASIC');
    expect(await eventsOfType('AccountPlanChanged')).toBe(2);
  });

  it('applies each Stripe event once, whatever is delivered twice or out of order', async () => {
    const { data: events } = await stripe.events.list({ limit: 100 });
    const before = await server.db.pool.query(`select count(*) as n from events where stream_id = $1`, [
      `account-${funder}`,
    ]);
    // Every event again, newest first.
    const ids = events.map((e) => e.id);
    await fetch(`${billingUrl}/_test/deliver`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secretKey()}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: ids.map((id, i) => `events[${i}]=${id}`).join('&'),
    });
    await webhooksSettled();
    const after = await server.db.pool.query(`select count(*) as n from events where stream_id = $1`, [
      `account-${funder}`,
    ]);
    expect(after.rows[0].n).toBe(before.rows[0].n);
    expect((await account()).plan_level).toBe('BASIC');
    const recorded = await server.db.pool.query(
      `select count(*) as n from events where type = 'StripeEventApplied'`,
    );
    expect(Number(recorded.rows[0].n)).toBeLessThanOrEqual(ids.length);
  });

  it('refuses unsigned, wrongly signed and stale webhooks', async () => {
    const body = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'customer.subscription.deleted',
      data: { object: {} },
    });
    const post = (signature?: string) =>
      fetch(`${server.url.replace('localhost', '127.0.0.1')}/api/stripe/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(signature ? { 'stripe-signature': signature } : {}),
        },
        body,
      });
    const sign = (secret: string, t: number) =>
      `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
    const now = Math.floor(Date.now() / 1000);
    expect((await post()).status).toBe(400);
    expect((await post(sign('whsec_wrong', now))).status).toBe(400);
    expect((await post(sign(webhookSecret(), now - 10 * 60))).status).toBe(400);
    expect(
      await server.db.pool.query(`select 1 from events where stream_id = 'stripe-event-evt_forged'`),
    ).toMatchObject({
      rowCount: 0,
    });
  });

  it('plays a failed renewal on the test clock: bar and e-mail for the admins, then the membership ends', async () => {
    // The card is changed in the billing portal to one that saves but fails when charged.
    const portal = await server.call({
      method: 'POST',
      url: routes.getBillingUpdateUrl.path,
      token: admin,
      payload: { account_id: funder, update_type: 'funder' },
    });
    expect(portal.status).toBe(200);
    const page = await fetch(portal.body.data.url);
    expect(page.status).toBe(200);
    const form = await page.text();
    const action = new URL(/action="([^"]+)"/.exec(form)![1]!.replace(/&amp;/g, '&'), portal.body.data.url);
    const changed = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'number=4000000000000341&exp_month=12&exp_year=2034&cvc=123',
      redirect: 'manual',
    });
    expect(changed.status).toBe(303);
    expect(changed.headers.get('location')).toMatch(new RegExp(`/funders/${funder}#billing_updated$`));

    const customers = await stripe.customers
      .search({ query: `metadata['account_id']:'${funder}'` })
      .catch(() => null);
    const customer =
      customers?.data[0] ??
      (await stripe.customers.list({ limit: 100 })).data.find((c) => c.metadata.account_id === funder)!;
    const clock = customer.test_clock as string;
    expect(clock).toBeTruthy();
    const frozen = (await stripe.testHelpers.testClocks.retrieve(clock)).frozen_time;
    await stripe.testHelpers.testClocks.advance(clock, { frozen_time: frozen + 31 * DAY });
    await webhooksSettled();
    let view = await account();
    expect(view.payment_failed).toBe(true);
    expect(view.next_payment_attempt).not.toBeNull();
    expect(view.membership_status).toBe('active');
    // The admins' e-mail goes out in the background, right after.
    await expect
      .poll(async () =>
        JSON.stringify(
          (await server.call({ method: 'GET', url: routes.listDevMailbox.path, token: admin })).body,
        ),
      )
      .toMatch(/membership payment failed/);

    // Every retry fails: Stripe stops retrying and keeps the subscription unpaid; the membership lapses.
    await stripe.testHelpers.testClocks.advance(clock, { frozen_time: frozen + 60 * DAY });
    await webhooksSettled();
    view = await account();
    expect(view.membership_status).toBe('canceled');
    expect(view.payment_failed).toBe(false);
    expect(view.membership_ended_reason).toBe('unpaid');
  });

  it("refuses billing to a plain member and answers another funder's admin as if the account did not exist", async () => {
    const tom = await server.login('tom.becker@harboradvance.example', DEMO_PASSWORD);
    const dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
    const harbor = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: tom })).body.data
      .user.account_resource_id;
    const asWho = (token: string) =>
      server.call({ method: 'GET', url: buildPath(routes.listInvoices.path, { id: harbor }), token });
    expect((await asWho(tom)).status).toBe(403);
    expect((await asWho(dana)).status).toBe(404);
  });

  it('ends the caller’s session on Cancel Membership', async () => {
    const priya = await server.login('priya.natarajan@harboradvance.example', DEMO_PASSWORD);
    const harbor = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: priya })).body.data
      .user.account_resource_id;
    // The demo's Harbor paid for its BASIC membership through Start Membership: already a member.
    const start = await server.call({
      method: 'POST',
      url: buildPath(routes.createSubscription.path, { id: harbor }),
      token: priya,
      payload: {
        stripeToken: 'tok_mastercard',
        stripeEmail: 'ops@harboradvance.example',
        stripePlanName: 'PRO',
      },
    });
    expect(start.status, JSON.stringify(start.body)).toBe(409);
    const cancel = await server.call({
      method: 'POST',
      url: buildPath(routes.cancelSubscription.path, { id: harbor }),
      token: priya,
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.data.membership_status).toBe('canceled');
    expect((await server.call({ method: 'GET', url: routes.autoLogin.path, token: priya })).status).toBe(401);
  });
});

// ---------------------------------------------------------------------------------------------------
// Issue 20: forged events, the platform admin's session, the plan-change log, the endpoint's answers,
// and the prorations on the invoices themselves.

/** A new funder with a paid membership started by the platform admin; its id and subscription. */
async function paidFunder(name: string, plan: 'BASIC' | 'PRO' = 'BASIC') {
  const created = await server.call({
    method: 'POST',
    url: routes.createAccount.path,
    token: admin,
    payload: {
      account: {
        name,
        website: `${name.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
        primary_contact_email: `ops@${name.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
      },
    },
  });
  const id: string = created.body.data.resource_id;
  const started = await server.call({
    method: 'POST',
    url: buildPath(routes.createSubscription.path, { id }),
    token: admin,
    payload: { stripeToken: 'tok_visa', stripeEmail: 'billing@paid.example', stripePlanName: plan },
  });
  expect(started.status).toBe(201);
  await webhooksSettled();
  const customer = (await stripe.customers.list({ limit: 100 })).data.find(
    (c) => c.metadata.account_id === id,
  )!;
  const subscription = (await stripe.subscriptions.list({ customer: customer.id })).data[0]!;
  return { id, customer, subscription, clock: customer.test_clock as string };
}
/** The billing test server's helper: hold its webhooks back (they queue), or let them go in order. */
const holdWebhooks = async (held: boolean) => {
  const answer = await fetch(`${billingUrl}/_test/deliveries/hold`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secretKey()}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `held=${held}`,
  });
  expect(answer.status).toBe(200);
};
const viewOf = async (id: string) =>
  (await server.call({ method: 'GET', url: buildPath(routes.getAccount.path, { id }), token: admin })).body
    .data;
const postWebhook = (body: string, signature?: string) =>
  fetch(`${server.url.replace('localhost', '127.0.0.1')}/api/stripe/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    body,
  });
const signed = (body: string, secret: string, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
const eventCount = async (stream: string) =>
  Number(
    (await server.db.pool.query('select count(*) as n from events where stream_id = $1', [stream])).rows[0].n,
  );

describe('Stripe webhooks: forged, malformed, unknown and mistimed events (issue 20 items 4, 9)', () => {
  it('refuses an event signed with the secret that used to be in the repository', async () => {
    const victim = await paidFunder('Forgery Target Funding');
    const body = JSON.stringify({
      id: 'evt_forged_with_old_constant',
      object: 'event',
      type: 'customer.subscription.deleted',
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...victim.subscription, status: 'canceled' } },
    });
    const answer = await postWebhook(body, signed(body, 'whsec_mrn_local_billing_test_server'));
    expect(answer.status).toBe(400);
    await webhooksSettled();
    expect((await viewOf(victim.id)).membership_status).toBe('active');
    expect(await eventCount('stripe-event-evt_forged_with_old_constant')).toBe(0);
  });

  it('answers a signed event without data 400 naming the problem, and writes nothing', async () => {
    const body = JSON.stringify({
      id: 'evt_empty_data',
      object: 'event',
      type: 'customer.subscription.deleted',
      created: Math.floor(Date.now() / 1000),
      data: {},
    });
    const answer = await postWebhook(body, signed(body, webhookSecret()));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      errors: 'The Stripe event cannot be applied: data.object: is missing or not an object.',
    });
    expect(await eventCount('stripe-event-evt_empty_data')).toBe(0);
    // A subscription event whose subscription has no items is refused the same way.
    const victim = await paidFunder('Malformed Event Funding');
    const noItems = JSON.stringify({
      id: 'evt_subscription_without_items',
      object: 'event',
      type: 'customer.subscription.deleted',
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...victim.subscription, status: 'canceled', items: undefined } },
    });
    const refused = await postWebhook(noItems, signed(noItems, webhookSecret()));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { errors: string }).errors).toMatch(
      /^The Stripe event cannot be applied: data\.object\.items: /,
    );
    expect(await eventCount('stripe-event-evt_subscription_without_items')).toBe(0);
    expect((await viewOf(victim.id)).membership_status).toBe('active');
  });

  it('acknowledges events for a customer or funder it does not know (200) and changes nothing', async () => {
    const before = await server.db.pool.query(
      `select count(*) as n from events where stream_id like 'account-%'`,
    );
    const body = JSON.stringify({
      id: 'evt_unknown_customer',
      object: 'event',
      type: 'invoice.payment_failed',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: 'in_unknown',
          object: 'invoice',
          customer: 'cus_nobody_we_know',
          created: Math.floor(Date.now() / 1000),
          next_payment_attempt: null,
          lines: { object: 'list', data: [] },
        },
      },
    });
    const answer = await postWebhook(body, signed(body, webhookSecret()));
    expect(answer.status).toBe(200);
    // Nor is a subscription naming a funder this installation never had.
    const elsewhere = JSON.stringify({
      id: 'evt_unknown_funder',
      object: 'event',
      type: 'customer.subscription.deleted',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: 'sub_of_another_installation',
          object: 'subscription',
          status: 'canceled',
          customer: 'cus_of_another_installation',
          metadata: { account_id: '4f1c3a2e-0000-4000-8000-000000000000' },
          items: { object: 'list', data: [] },
        },
      },
    });
    expect((await postWebhook(elsewhere, signed(elsewhere, webhookSecret()))).status).toBe(200);
    const after = await server.db.pool.query(
      `select count(*) as n from events where stream_id like 'account-%'`,
    );
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('refuses a signature dated more than five minutes ahead, and accepts one a minute off', async () => {
    const make = (id: string) =>
      JSON.stringify({
        id,
        object: 'event',
        type: 'customer.created',
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: 'cus_x', object: 'customer' } },
      });
    const now = Math.floor(Date.now() / 1000);
    const ahead = make('evt_from_the_future');
    expect((await postWebhook(ahead, signed(ahead, webhookSecret(), now + 3600))).status).toBe(400);
    const sixAhead = make('evt_six_minutes_ahead');
    expect((await postWebhook(sixAhead, signed(sixAhead, webhookSecret(), now + 6 * 60))).status).toBe(400);
    expect(await eventCount('stripe-event-evt_from_the_future')).toBe(0);
    const near = make('evt_a_minute_ahead');
    expect((await postWebhook(near, signed(near, webhookSecret(), now + 60))).status).toBe(200);
  });
});

describe("billing test mode's keys: one set per installation, none from the repository (issue 20 item 4)", () => {
  const signedPost = (target: TestServer, secret: string, id: string) => {
    const body = JSON.stringify({
      id,
      object: 'event',
      type: 'customer.created',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'cus_someone', object: 'customer' } },
    });
    return target.app.inject({
      method: 'POST',
      url: '/api/stripe/webhooks',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed(body, secret) },
      payload: body,
    });
  };
  const publishableKeyOf = async (target: TestServer) => {
    const token = await target.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const config = await target.call({ method: 'GET', url: routes.getBillingConfig.path, token });
    expect(config.body.data.mode).toBe('test');
    return config.body.data.publishable_key as string;
  };

  it('gives two installations different keys, kept in each DATA_DIR, and a restart keeps its own', async () => {
    const ours = keys();
    expect(statSync(join(dataDir, BILLING_TEST_KEYS_FILE)).mode & 0o777).toBe(0o600);
    expect(await publishableKeyOf(server)).toBe(ours.publishableKey);
    const otherDir = mkdtempSync(join(tmpdir(), 'mrn-billing-other-'));
    let other = await startTestServer({ env: { DATA_DIR: otherDir } });
    try {
      const theirs = billingTestKeys(otherDir);
      expect(theirs.secretKey).not.toBe(ours.secretKey);
      expect(theirs.publishableKey).not.toBe(ours.publishableKey);
      expect(theirs.webhookSecret).not.toBe(ours.webhookSecret);
      expect(await publishableKeyOf(other)).toBe(theirs.publishableKey);
      // Each accepts only events signed with its own secret.
      expect(
        (await signedPost(other, ours.webhookSecret, 'evt_signed_by_another_installation')).statusCode,
      ).toBe(400);
      expect(
        (await signedPost(other, theirs.webhookSecret, 'evt_signed_by_this_installation')).statusCode,
      ).toBe(200);

      await other.close();
      other = await startTestServer({ env: { DATA_DIR: otherDir } });
      expect(billingTestKeys(otherDir)).toEqual(theirs);
      expect(await publishableKeyOf(other)).toBe(theirs.publishableKey);
      expect((await signedPost(other, theirs.webhookSecret, 'evt_after_the_restart')).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('cancelling as a platform admin (issue 20 item 6)', () => {
  it("keeps the platform admin's session after cancelling another funder's membership", async () => {
    const other = await paidFunder('Staff Cancelled Capital');
    const cancel = await server.call({
      method: 'POST',
      url: buildPath(routes.cancelSubscription.path, { id: other.id }),
      token: admin,
    });
    expect(cancel.status).toBe(200);
    expect(cancel.body.data.membership_status).toBe('canceled');
    expect((await server.call({ method: 'GET', url: routes.autoLogin.path, token: admin })).status).toBe(200);
  });
});

describe('the plan-change log follows the provider (issue 20 item 8)', () => {
  it('records one AccountPlanChanged per plan change the provider made, for 5 upgrades and 5 downgrades at once', async () => {
    const f = await paidFunder('Concurrent Changes Funding');
    const tenAtOnce = () =>
      Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          server.call({
            method: 'PUT',
            url: buildPath((i % 2 === 0 ? routes.upgradeSubscription : routes.downgradeSubscription).path, {
              id: f.id,
            }),
            token: admin,
          }),
        ),
      );
    // Once with Stripe's webhooks held back until every request is answered (they then arrive late,
    // each older than the plan recorded), once as they come.
    await holdWebhooks(true);
    const held = await tenAtOnce();
    await holdWebhooks(false);
    await webhooksSettled();
    const free = await tenAtOnce();
    await webhooksSettled();
    const answers = [...held, ...free];
    for (const a of answers) expect([200, 409]).toContain(a.status);
    // The provider's history: every customer.subscription.updated whose price changed.
    const changes: string[] = [];
    for await (const event of stripe.events.list({ type: 'customer.subscription.updated', limit: 100 })) {
      const object = event.data.object as Stripe.Subscription;
      const before = (event.data.previous_attributes as Partial<Stripe.Subscription> | undefined)?.items;
      if (object.id !== f.subscription.id || !before) continue;
      if (before.data[0]?.price.id !== object.items.data[0]?.price.id)
        changes.push(object.items.data[0]!.price.lookup_key!);
    }
    expect(changes.length).toBeGreaterThan(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(changes.length);
    expect(await eventsOfType('AccountPlanChanged', `account-${f.id}`)).toBe(changes.length);
    const provider = await stripe.subscriptions.retrieve(f.subscription.id);
    const providerPlan = provider.items.data[0]!.price.lookup_key === 'pro_monthly' ? 'PRO' : 'BASIC';
    expect((await viewOf(f.id)).plan_level).toBe(providerPlan);
  });

  it('ignores a stale customer.subscription.updated that arrives after a newer one', async () => {
    const f = await paidFunder('Stale Webhook Partners');
    const up = await server.call({
      method: 'PUT',
      url: buildPath(routes.upgradeSubscription.path, { id: f.id }),
      token: admin,
    });
    expect(up.status).toBe(200);
    await webhooksSettled();
    const down = await server.call({
      method: 'PUT',
      url: buildPath(routes.downgradeSubscription.path, { id: f.id }),
      token: admin,
    });
    expect(down.status).toBe(200);
    await webhooksSettled();
    const changesBefore = await eventsOfType('AccountPlanChanged', `account-${f.id}`);
    expect(changesBefore).toBe(2);
    // The upgrade's event again, as a new delivery of an older state (a new id, so not a duplicate).
    const upgrade = (
      await stripe.events.list({ type: 'customer.subscription.updated', limit: 100 })
    ).data.find(
      (e) =>
        (e.data.object as Stripe.Subscription).id === f.subscription.id &&
        (e.data.object as Stripe.Subscription).items.data[0]!.price.lookup_key === 'pro_monthly',
    )!;
    const body = JSON.stringify({ ...upgrade, id: 'evt_stale_upgrade_again' });
    expect((await postWebhook(body, signed(body, webhookSecret()))).status).toBe(200);
    expect(await eventCount('stripe-event-evt_stale_upgrade_again')).toBe(1);
    expect(await eventsOfType('AccountPlanChanged', `account-${f.id}`)).toBe(2);
    expect((await viewOf(f.id)).plan_level).toBe('BASIC');
  });
});

describe('prorations on the invoices themselves (accounts spec §4)', () => {
  const BASIC_CENTS = 69_500; // $695 a month
  const PRO_CENTS = 94_500; // $945 a month
  /** Stripe's monthly period: the same day and time next month, the month's last day when it is shorter. */
  const oneMonthAfter = (unix: number) => {
    const d = new Date(unix * 1000);
    const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 2, 0)).getUTCDate();
    return (
      Date.UTC(
        d.getUTCFullYear(),
        d.getUTCMonth() + 1,
        Math.min(d.getUTCDate(), lastDay),
        d.getUTCHours(),
        d.getUTCMinutes(),
        d.getUTCSeconds(),
      ) / 1000
    );
  };
  const invoicesOf = async (id: string) => {
    const list = await server.call({
      method: 'GET',
      url: `${buildPath(routes.listInvoices.path, { id })}?page=1&per_page=10`,
      token: admin,
    });
    expect(list.status).toBe(200);
    return [...list.body.data].sort((a, b) => a.created_at.localeCompare(b.created_at)) as Array<{
      id: string;
      amount_due: number;
      amount_paid: number;
      paid: boolean;
    }>;
  };

  it('charges an upgrade pro rata on the next invoice and credits a downgrade on the one after', async () => {
    const f = await paidFunder('Proration Ledger Capital');
    const start = (await stripe.testHelpers.testClocks.retrieve(f.clock)).frozen_time;
    const end = oneMonthAfter(start);
    // Ten days into the first month: upgrade.
    const upAt = start + 10 * DAY;
    await stripe.testHelpers.testClocks.advance(f.clock, { frozen_time: upAt });
    await webhooksSettled();
    expect(
      (
        await server.call({
          method: 'PUT',
          url: buildPath(routes.upgradeSubscription.path, { id: f.id }),
          token: admin,
        })
      ).status,
    ).toBe(200);
    const upShare = (end - upAt) / (end - start);
    const upCredit = Math.round(BASIC_CENTS * upShare);
    const upCharge = Math.round(PRO_CENTS * upShare);

    // The renewal an hour after the period ends is finalized and paid.
    await stripe.testHelpers.testClocks.advance(f.clock, { frozen_time: end + 2 * 3600 });
    await webhooksSettled();
    let invoices = await invoicesOf(f.id);
    expect(invoices).toHaveLength(2);
    expect(invoices[0]).toMatchObject({ amount_due: BASIC_CENTS, paid: true });
    const renewal = invoices[1]!;
    expect(renewal).toMatchObject({ amount_due: PRO_CENTS + upCharge - upCredit, paid: true });
    expect(renewal.amount_paid).toBe(PRO_CENTS + upCharge - upCredit);
    const upLines = (await stripe.invoices.listLineItems(renewal.id, { limit: 10 })).data;
    expect(upLines.map((l) => l.amount).sort((a, b) => a - b)).toEqual(
      [-upCredit, upCharge, PRO_CENTS].sort((a, b) => a - b),
    );
    expect(upLines.find((l) => l.amount === upCharge)!.description).toMatch(/Remaining time on PRO/);
    expect(upLines.find((l) => l.amount === -upCredit)!.description).toMatch(/Unused time on BASIC/);

    // A week into the second month: downgrade, credited on the next invoice.
    const start2 = end;
    const end2 = oneMonthAfter(start2);
    const downAt = start2 + 7 * DAY;
    await stripe.testHelpers.testClocks.advance(f.clock, { frozen_time: downAt });
    await webhooksSettled();
    expect(
      (
        await server.call({
          method: 'PUT',
          url: buildPath(routes.downgradeSubscription.path, { id: f.id }),
          token: admin,
        })
      ).status,
    ).toBe(200);
    const downShare = (end2 - downAt) / (end2 - start2);
    const downCredit = Math.round(PRO_CENTS * downShare);
    const downCharge = Math.round(BASIC_CENTS * downShare);
    await stripe.testHelpers.testClocks.advance(f.clock, { frozen_time: end2 + 2 * 3600 });
    await webhooksSettled();
    invoices = await invoicesOf(f.id);
    expect(invoices).toHaveLength(3);
    const credited = invoices[2]!;
    expect(credited.amount_due).toBe(BASIC_CENTS - (downCredit - downCharge));
    expect(credited.amount_due).toBeLessThan(BASIC_CENTS);
    const downLines = (await stripe.invoices.listLineItems(credited.id, { limit: 10 })).data;
    expect(downLines.map((l) => l.amount).sort((a, b) => a - b)).toEqual(
      [-downCredit, downCharge, BASIC_CENTS].sort((a, b) => a - b),
    );
    expect(downLines.find((l) => l.amount === -downCredit)!.description).toMatch(/Unused time on PRO/);
    expect(downLines.find((l) => l.amount === downCharge)!.description).toMatch(/Remaining time on BASIC/);
  });
});

// ---------------------------------------------------------------------------------------------------
// Issue 21 item 2: one billing state. A renewal that fails is past due (retried, still a member); when
// every retry failed the provider keeps the subscription unpaid and the membership lapses, saying why;
// the open invoice is listed with the provider's hosted page, and paying it there brings it back.

/** The funder's card becomes one the provider saves but can never charge (4000 0000 0000 0341). */
async function cardThatFails(f: { customer: Stripe.Customer; subscription: Stripe.Subscription }) {
  const pm = await stripe.paymentMethods.attach('pm_card_chargeCustomerFail', { customer: f.customer.id });
  await stripe.customers.update(f.customer.id, { invoice_settings: { default_payment_method: pm.id } });
  await stripe.subscriptions.update(f.subscription.id, { default_payment_method: pm.id });
}
const openInvoices = async (id: string, token = admin) =>
  server.call({
    method: 'GET',
    url: `${buildPath(routes.listInvoices.path, { id })}?status=open`,
    token,
  });
/** Pays the invoice on the provider's hosted invoice page with a typed card, as the funder's admin would. */
async function payOnHostedPage(url: string, number: string) {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('Pay invoice');
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `number=${number}&exp_month=12&exp_year=2034&cvc=123`,
    redirect: 'manual',
  });
}
const revenue = async () =>
  (await server.call({ method: 'GET', url: routes.totalMonthlyRevenue.path, token: admin })).body.data
    .total_monthly_revenue as number;

describe('past due, lapsed and paid again (issue 21 item 2)', () => {
  it('a failed renewal is past due: still a member and revenue, the open invoice listed with its hosted page, paid there', async () => {
    const f = await paidFunder('Past Due Lending');
    await cardThatFails(f);
    const frozen = (await stripe.testHelpers.testClocks.retrieve(f.clock)).frozen_time;
    const before = await revenue();
    await stripe.testHelpers.testClocks.advance(f.clock, { frozen_time: frozen + 31 * DAY });
    await webhooksSettled();
    expect(await viewOf(f.id)).toMatchObject({
      membership_status: 'active',
      billed: true,
      payment_failed: true,
      membership_ended_reason: null,
    });
    expect((await viewOf(f.id)).next_payment_attempt).not.toBeNull();
    // A renewal still being retried counts.
    expect(await revenue()).toBe(before);

    const open = await openInvoices(f.id);
    expect(open.status).toBe(200);
    expect(open.body.data).toHaveLength(1);
    expect(open.body.data[0]).toMatchObject({ status: 'open', paid: false, amount_due: 69_500 });
    expect(open.body.data[0].hosted_invoice_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/invoice\//);

    // A card that fails again is refused on the page, and nothing changes.
    const refused = await payOnHostedPage(open.body.data[0].hosted_invoice_url, '4000000000000341');
    expect(refused.status).toBe(402);
    expect(await refused.text()).toMatch(/declined/);
    await webhooksSettled();
    expect((await viewOf(f.id)).payment_failed).toBe(true);

    const paid = await payOnHostedPage(open.body.data[0].hosted_invoice_url, '4242424242424242');
    expect(paid.status).toBe(303);
    await webhooksSettled();
    expect(await viewOf(f.id)).toMatchObject({ membership_status: 'active', payment_failed: false });
    expect((await openInvoices(f.id)).body.data).toHaveLength(0);
    // The card paid with is now the one on file, so the next renewal is charged to it.
    const card = await server.call({
      method: 'POST',
      url: routes.getPaymentMethod.path,
      token: admin,
      payload: { account_id: f.id },
    });
    expect(card.body.data.card.last4).toBe('4242');
  });

  it('every retry failed: the membership lapses as unpaid and leaves the revenue; paying the open invoice restores it', async () => {
    const f = await paidFunder('Lapsed Unpaid Capital');
    await cardThatFails(f);
    const frozen = (await stripe.testHelpers.testClocks.retrieve(f.clock)).frozen_time;
    const before = await revenue();
    await stripe.testHelpers.testClocks.advance(f.clock, { frozen_time: frozen + 60 * DAY });
    await webhooksSettled();
    const lapsed = await viewOf(f.id);
    expect(lapsed).toMatchObject({
      membership_status: 'canceled',
      billed: false,
      payment_failed: false,
      membership_ended_reason: 'unpaid',
    });
    // On the provider's clock: the last retry, well after today.
    expect(Date.parse(lapsed.membership_ended_at)).toBeGreaterThan(Date.now() + 40 * DAY * 1000);
    expect(await revenue()).toBe(before - 69_500);
    expect((await stripe.subscriptions.retrieve(f.subscription.id)).status).toBe('unpaid');

    const open = await openInvoices(f.id);
    expect(open.body.data).toHaveLength(1);
    const paid = await payOnHostedPage(open.body.data[0].hosted_invoice_url, '5555555555554444');
    expect(paid.status).toBe(303);
    await webhooksSettled();
    expect(await viewOf(f.id)).toMatchObject({
      membership_status: 'active',
      billed: true,
      payment_failed: false,
      membership_ended_reason: null,
      membership_ended_at: null,
    });
    expect(await revenue()).toBe(before);
    expect((await stripe.subscriptions.retrieve(f.subscription.id)).status).toBe('active');
    expect(await eventsOfType('AccountMembershipReinstated', `account-${f.id}`)).toBe(1);
  });

  it('a new membership after an unpaid lapse ends the unpaid subscription first: never billed twice', async () => {
    const f = await paidFunder('Fresh Start Funding');
    await cardThatFails(f);
    const frozen = (await stripe.testHelpers.testClocks.retrieve(f.clock)).frozen_time;
    await stripe.testHelpers.testClocks.advance(f.clock, { frozen_time: frozen + 60 * DAY });
    await webhooksSettled();
    expect((await viewOf(f.id)).membership_ended_reason).toBe('unpaid');
    const again = await server.call({
      method: 'POST',
      url: buildPath(routes.createSubscription.path, { id: f.id }),
      token: admin,
      payload: { stripeToken: 'tok_visa', stripeEmail: 'billing@paid.example', stripePlanName: 'PRO' },
    });
    expect(again.status).toBe(201);
    await webhooksSettled();
    expect((await stripe.subscriptions.retrieve(f.subscription.id)).status).toBe('canceled');
    const live = (await stripe.subscriptions.list({ customer: f.customer.id })).data;
    expect(live.map((s) => s.status)).toEqual(['active']);
    expect(await viewOf(f.id)).toMatchObject({
      membership_status: 'active',
      plan_level: 'PRO',
      billed: true,
    });
  });

  it('answers 400 naming the field for an invoice status it does not know', async () => {
    const f = await paidFunder('Status Filter Partners');
    const bad = await server.call({
      method: 'GET',
      url: `${buildPath(routes.listInvoices.path, { id: f.id })}?status=overdue`,
      token: admin,
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/status/);
  });
});

describe("the demo network's paying funders are paid through billing (issue 21 item 2)", () => {
  it('Summit (PRO) has the card it paid with, its paid invoice, a downgrade preview and counts as revenue', async () => {
    const dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
    const summit = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: dana })).body.data
      .user.account_resource_id as string;
    const view = (
      await server.call({
        method: 'GET',
        url: buildPath(routes.getAccount.path, { id: summit }),
        token: dana,
      })
    ).body.data;
    expect(view).toMatchObject({ plan_level: 'PRO', membership_status: 'active', billed: true });
    expect(view.current_period_end).not.toBeNull();
    const card = await server.call({
      method: 'POST',
      url: routes.getPaymentMethod.path,
      token: dana,
      payload: { account_id: summit },
    });
    expect(card.body.data.card).toMatchObject({ brand: 'visa', last4: '4242' });
    const invoices = await server.call({
      method: 'GET',
      url: `${buildPath(routes.listInvoices.path, { id: summit })}?page=1&per_page=10`,
      token: dana,
    });
    expect(invoices.body.data).toHaveLength(1);
    expect(invoices.body.data[0]).toMatchObject({ amount_due: 94_500, paid: true });
    const preview = await server.call({
      method: 'GET',
      url: `${buildPath(routes.previewPlanChange.path, { id: summit })}?plan=BASIC`,
      token: dana,
    });
    expect(preview.status).toBe(200);
    expect(preview.body.data.proration_amount).toBeLessThan(0);
  });
});
