import { createHmac } from 'node:crypto';
import { buildPath, routes } from '@mrn/contracts';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo.ts';
import { startTestServer, TEST_ADMIN, type TestServer } from '../testing.ts';

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

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
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
  stripe = new Stripe('sk_test_mrn_local', { host: url.hostname, port: Number(url.port), protocol: 'http' });
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
    headers: { authorization: 'Bearer sk_test_mrn_local' },
  });
  await server.projections.waitFor(await server.store.headPosition(), undefined, 10_000);
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
        authorization: 'Bearer sk_test_mrn_local',
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
    expect((await post(sign('whsec_mrn_local_billing_test_server', now - 10 * 60))).status).toBe(400);
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

    // Every retry fails: Stripe gives up and the membership ends.
    await stripe.testHelpers.testClocks.advance(clock, { frozen_time: frozen + 60 * DAY });
    await webhooksSettled();
    view = await account();
    expect(view.membership_status).toBe('canceled');
    expect(view.payment_failed).toBe(false);
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
    expect(start.status).toBe(201);
    const cancel = await server.call({
      method: 'POST',
      url: buildPath(routes.cancelSubscription.path, { id: harbor }),
      token: priya,
    });
    expect(cancel.status).toBe(200);
    expect(cancel.body.data.membership_status).toBe('canceled');
    expect((await server.call({ method: 'GET', url: routes.autoLogin.path, token: priya })).status).toBe(401);
  });
});
