import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../test-helpers.ts';

// Told when signals change (issue 32): a watcher of an EIN gets one signed merchant.signals_changed and
// one e-mail when another funder reports a category the merchant did not have, or is a funder more to
// report it; nothing when a funder already counted adds a note in a group already reported, and nothing
// for the watcher's own note.

let server: TestServer;
const tokens: Record<string, string> = {};
let summit = '';
let receiver: Receiver;
const signalWebhooks = () =>
  receiver.received
    .map((r) => ({ ...r, json: JSON.parse(r.body) }))
    .filter((r) => r.json.type === 'merchant.signals_changed');

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ demo: true, env: { WEBHOOK_ALLOW_LOOPBACK: 'true' } });
  tokens.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  tokens.dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
  tokens.priya = await server.login('priya.natarajan@harboradvance.example', DEMO_PASSWORD);
  tokens.alex = await server.login('alex.morgan@lakeside.example', DEMO_PASSWORD);
  summit = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: tokens.dana })).body.data
    .user.account_resource_id;
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

const FEIN = '563214790';
let merchant = '';

async function note(token: string, category: string) {
  const res = await server.call({
    method: 'POST',
    url: buildPath(routes.addNote.path, { id: merchant }),
    token,
    payload: { note: { category, note: `${category} reported.`, submission_source: 'in-house' } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}
/** Every delivery of every note so far has been tried: what is not in `received` now was never sent. */
async function settled() {
  expect(await server.projectedAll()).toBe(true);
  await expect
    .poll(
      async () =>
        (
          await server.db.pool.query(
            `select count(*)::int as n from webhook_deliveries where status = 'pending' and attempts = 0`,
          )
        ).rows[0].n,
      { timeout: 15_000 },
    )
    .toBe(0);
}

describe('merchant.signals_changed', () => {
  it('tells a watcher once, signed and by e-mail, when another funder reports a new category', async () => {
    const enabled = await server.setSubscriptionSettings(tokens.admin!, summit, {
      merchant_subscription_enabled: true,
      merchant_subscription_notification_email: 'alerts@summitcapital.example',
      merchant_subscription_notification_webhook: receiver.url,
    });
    expect(enabled.status).toBe(200);
    const added = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: tokens.priya,
      payload: {
        merchant: { fein: FEIN, legal_name: 'Signals Changed LLC', city: 'Tampa', state: 'FL' },
        note: { category: 'Slow Pay', note: 'Paid late.' },
      },
    });
    expect(added.status).toBe(201);
    merchant = added.body.data.resource_id;
    const watched = await server.call({
      method: 'POST',
      url: buildPath(routes.addMerchantSubscription.path, { id: summit }),
      token: tokens.dana,
      payload: { merchant_subscription: { fein: FEIN } },
    });
    expect(watched.status).toBe(201);
    await settled();

    // Harbor, already counted, reports a Default: a new category.
    await note(tokens.priya!, 'Default');
    await settled();
    await expect.poll(() => signalWebhooks().length, { timeout: 15_000 }).toBe(1);
    const hit = signalWebhooks()[0]!;
    const secret = (
      await server.call({
        method: 'GET',
        url: buildPath(routes.getAccount.path, { id: summit }),
        token: tokens.dana,
      })
    ).body.data.merchant_subscription_webhook_secret as string;
    const verified = new Webhook(secret).verify(hit.body, {
      'webhook-id': String(hit.headers['webhook-id']),
      'webhook-timestamp': String(hit.headers['webhook-timestamp']),
      'webhook-signature': String(hit.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({
      type: 'merchant.signals_changed',
      data: {
        merchant_ein: FEIN,
        action: 'Signals Changed',
        new_categories: ['Default / Default Account'],
        new_funder: false,
        before: { funders: 1, categories: [{ group: 'slow_pay', ever: 1 }], cured_at: null },
        after: {
          funders: 1,
          categories: [
            { group: 'default', ever: 1 },
            { group: 'slow_pay', ever: 1 },
          ],
        },
      },
    });
    expect(hit.body).not.toMatch(/Harbor|Lakeside|Summit/);
    const signalMails = async () =>
      (
        (await server.call({ method: 'GET', url: routes.listDevMailbox.path, token: tokens.admin })).body
          .data as {
          to: string;
          subject: string;
        }[]
      )
        .filter((m) => m.subject.startsWith('Risk signals changed: Signals Changed LLC'))
        .map((m) => m.to);
    await expect.poll(signalMails, { timeout: 15_000 }).toEqual(['alerts@summitcapital.example']);
  });

  it('tells a funder more, but not a further note of a group and funder already counted, nor the watcher its own', async () => {
    await note(tokens.priya!, 'Default');
    await note(tokens.dana!, 'Suspicious Activity');
    await settled();
    expect(signalWebhooks()).toHaveLength(1);
    await note(tokens.alex!, 'Slow Pay');
    await settled();
    await expect.poll(() => signalWebhooks().length, { timeout: 15_000 }).toBe(2);
    expect(signalWebhooks()[1]!.json.data).toMatchObject({ new_categories: [], new_funder: true });
    expect(signalWebhooks()[1]!.json.data.after.funders).toBe(3);
  });
});
