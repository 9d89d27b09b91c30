import { createServer, type IncomingHttpHeaders } from 'node:http';
import { buildPath, routes } from '@mrn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo.ts';
import { startTestServer, TEST_ADMIN, type TestServer } from '../testing.ts';

// The whole product, end to end (issue 11): Summit watches an EIN, Harbor adds a note on that merchant,
// the running dispatcher posts a signed webhook to Summit's receiver on loopback, and Summit's
// delivery log shows it.

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
  tokens.priya = await server.login('priya.natarajan@harboradvance.example', DEMO_PASSWORD);
  summit = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: tokens.dana })).body.data
    .user.account_resource_id;
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('webhook deliveries', () => {
  it('delivers a signed webhook when another funder notes a watched merchant, and logs it', async () => {
    const address = receiver.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const enabled = await server.setSubscriptionSettings(tokens.admin!, summit, {
      merchant_subscription_enabled: true,
      merchant_subscription_notification_webhook: `http://127.0.0.1:${port}/mrn-hook`,
    });
    expect(enabled.status).toBe(200);
    const watched = await server.call({
      method: 'POST',
      url: buildPath(routes.addMerchantSubscription.path, { id: summit }),
      token: tokens.dana,
      payload: { merchant_subscription: { fein: '45-6789012' } },
    });
    expect(watched.status).toBe(201);

    // Harbor reports the merchant: Summit, watching its EIN, hears of it.
    const added = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: tokens.priya,
      payload: {
        merchant: { fein: '45-6789012', legal_name: 'Watched Widgets LLC', city: 'Tampa', state: 'FL' },
        note: {
          category: 'Stacking History',
          note: 'Took a second advance the same week.',
          submission_source: 'in-house',
        },
      },
    });
    expect(added.status).toBe(201);

    await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const first = received[0]!;
    expect(first.headers['webhook-id']).toBeTruthy();
    expect(first.headers['webhook-signature']).toMatch(/^v1,/);
    const payload = JSON.parse(first.body);
    expect(payload.data).toMatchObject({
      merchant_ein: expect.stringMatching(/456789012/),
      action_performed_by: 'Harbor Business Advance',
    });
    // The funder, never the person, and never a secret.
    expect(first.body).not.toMatch(/priya|password|whsec_/i);

    await expect
      .poll(
        async () =>
          (
            await server.call({
              method: 'GET',
              url: buildPath(routes.listWebhookDeliveries.path, { id: summit }),
              token: tokens.dana,
            })
          ).body.data?.map((d: { status: string }) => d.status),
        { timeout: 10_000 },
      )
      .toContain('succeeded');
    const log = await server.call({
      method: 'GET',
      url: buildPath(routes.listWebhookDeliveries.path, { id: summit }),
      token: tokens.dana,
    });
    expect(log.body.data[0]).toMatchObject({ ein: '456789012', http_status: 204, attempts: 1 });

    // Harbor, the author, is told nothing; its (BASIC) admin is refused Summit's log.
    expect(
      (
        await server.call({
          method: 'GET',
          url: buildPath(routes.listWebhookDeliveries.path, { id: summit }),
          token: tokens.priya,
        })
      ).status,
    ).toBe(403);
  });
});
