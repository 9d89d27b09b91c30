import { createServer, type IncomingHttpHeaders } from 'node:http';
import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// "Being shopped" alerts through the whole product (issue 24): the account settings over HTTP (who may
// set them, what is refused, nothing written then), and searches sent at once by two other funders
// reaching a real loopback receiver as one signed merchant.shopped webhook, shown in the delivery log.

let server: TestServer;
const tokens: Record<string, string> = {};
let summit = '';
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.writeHead(204).end();
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  server = await startTestServer({ demo: true, env: { WEBHOOK_ALLOW_LOOPBACK: 'true' } });
  tokens.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  tokens.dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
  tokens.marco = await server.login('marco.reyes@summitcapital.example', DEMO_PASSWORD);
  tokens.priya = await server.login('priya.natarajan@harboradvance.example', DEMO_PASSWORD);
  tokens.alex = await server.login('alex.morgan@lakeside.example', DEMO_PASSWORD);
  summit = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: tokens.dana })).body.data
    .user.account_resource_id;
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const accountOf = async () =>
  (
    await server.call({
      method: 'GET',
      url: buildPath(routes.getAccount.path, { id: summit }),
      token: tokens.dana,
    })
  ).body.data;
/** The account form's save: every field as it stands (the form sends them all), with these changed. */
const save = async (token: string, settings: Record<string, unknown>) => {
  const a = await accountOf();
  return server.call({
    method: 'PUT',
    url: buildPath(routes.updateAccount.path, { id: summit }),
    token,
    payload: {
      account: {
        name: a.name,
        website: a.website,
        primary_contact_email: a.primary_contact_email,
        merchant_subscription_enabled: a.merchant_subscription_enabled,
        merchant_subscription_notification_email: a.merchant_subscription_notification_email,
        merchant_subscription_notification_webhook: a.merchant_subscription_notification_webhook,
        ...settings,
      },
    },
  });
};

describe('being-shopped alert settings', () => {
  it('are 3 funders and every type until an admin changes them', async () => {
    const account = await accountOf();
    expect(account.shopped_alert_threshold).toBe(3);
    expect(account.webhook_event_types).toBeNull();
    const saved = await save(tokens.dana!, {
      shopped_alert_threshold: 5,
      webhook_event_types: ['merchant.shopped'],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await accountOf()).toMatchObject({
      shopped_alert_threshold: 5,
      webhook_event_types: ['merchant.shopped'],
    });
    // Every type ticked is stored as "all".
    await save(tokens.dana!, {
      shopped_alert_threshold: null,
      webhook_event_types: [
        'merchant.added',
        'merchant.updated',
        'merchant.note_added',
        'merchant.note_updated',
        'merchant.shopped',
        'merchant.signals_changed',
      ],
    });
    expect(await accountOf()).toMatchObject({ shopped_alert_threshold: null, webhook_event_types: null });
  });

  it('refuses a member who is not an admin, and bad values by field, writing nothing', async () => {
    const before = await accountOf();
    const member = await save(tokens.marco!, { shopped_alert_threshold: 7 });
    expect(member.status).toBe(403);
    for (const [settings, field] of [
      [{ shopped_alert_threshold: 0 }, 'shopped_alert_threshold'],
      [{ shopped_alert_threshold: 21 }, 'shopped_alert_threshold'],
      [{ shopped_alert_threshold: 2.5 }, 'shopped_alert_threshold'],
      [{ webhook_event_types: [] }, 'webhook_event_types'],
      [{ webhook_event_types: ['merchant.deleted'] }, 'webhook_event_types'],
      [{ webhook_event_types: 'merchant.shopped' }, 'webhook_event_types'],
    ] as const) {
      const res = await save(tokens.dana!, settings);
      expect(res.status, JSON.stringify(settings)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(settings)).toContain(field);
    }
    const after = await accountOf();
    expect([after.shopped_alert_threshold, after.webhook_event_types]).toEqual([
      before.shopped_alert_threshold,
      before.webhook_event_types,
    ]);
  });
});

describe('a watched merchant being shopped', () => {
  it('reaches the receiver once, signed, when two other funders search at once, and is in the delivery log', async () => {
    const address = receiver.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const enabled = await server.setSubscriptionSettings(tokens.admin!, summit, {
      merchant_subscription_enabled: true,
      merchant_subscription_notification_webhook: `http://127.0.0.1:${port}/mrn-hook`,
    });
    expect(enabled.status).toBe(200);
    expect((await save(tokens.dana!, { shopped_alert_threshold: 2 })).status).toBe(200);
    const fein = '563214789';
    const added = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: tokens.priya,
      payload: {
        merchant: { fein, legal_name: 'Shopped Around LLC', city: 'Tampa', state: 'FL' },
        note: { category: 'Slow Pay', note: 'Paid late.' },
      },
    });
    expect(added.status).toBe(201);
    const watched = await server.call({
      method: 'POST',
      url: buildPath(routes.addMerchantSubscription.path, { id: summit }),
      token: tokens.dana,
      payload: { merchant_subscription: { fein } },
    });
    expect(watched.status).toBe(201);
    expect(await server.projectedAll()).toBe(true);

    // Summit's own search first (never counted), then Harbor and Lakeside at once.
    const search = (token: string) =>
      server.call({ method: 'GET', url: `${routes.searchMerchants.path}?search=${fein}`, token });
    expect((await search(tokens.marco!)).status).toBe(200);
    const both = await Promise.all([search(tokens.priya!), search(tokens.alex!)]);
    for (const r of both) expect(r.status).toBe(200);

    const shopped = () => received.filter((r) => JSON.parse(r.body).type === 'merchant.shopped');
    await expect.poll(() => shopped().length, { timeout: 15_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(shopped()).toHaveLength(1);
    const secret = (await accountOf()).merchant_subscription_webhook_secret as string;
    const hit = shopped()[0]!;
    const verified = new Webhook(secret).verify(hit.body, {
      'webhook-id': String(hit.headers['webhook-id']),
      'webhook-timestamp': String(hit.headers['webhook-timestamp']),
      'webhook-signature': String(hit.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({
      type: 'merchant.shopped',
      data: { merchant_ein: fein, threshold: 2, other_funders_last_7_days: 2, action: 'Being Shopped' },
    });
    // Counts only: no funder is named.
    expect(hit.body).not.toMatch(/Harbor|Lakeside|Summit/);

    await expect
      .poll(
        async () =>
          (
            await server.call({
              method: 'GET',
              url: buildPath(routes.listWebhookDeliveries.path, { id: summit }),
              token: tokens.dana,
            })
          ).body.data?.find((d: { type: string }) => d.type === 'merchant.shopped')?.status,
        { timeout: 10_000 },
      )
      .toBe('succeeded');
  });
});
