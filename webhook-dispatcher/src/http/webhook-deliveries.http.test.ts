import { createServer, type IncomingHttpHeaders } from 'node:http';
import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
  tokens.marco = await server.login('marco.reyes@summitcapital.example', DEMO_PASSWORD);
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
    // The merchant and its first note are one report: one Merchant Added carrying the note.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(received).toHaveLength(1);
    expect(JSON.parse(first.body).data).toMatchObject({
      action: 'Merchant Added',
      note_category: 'Stacking History',
      note: 'Took a second advance the same week.',
    });
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

  const call = (method: 'GET' | 'POST', url: string, token: string | undefined) =>
    server.call({ method, url, ...(token ? { token } : {}) });
  const secretOf = async () =>
    (await call('GET', buildPath(routes.getAccount.path, { id: summit }), tokens.dana)).body.data
      .merchant_subscription_webhook_secret as string;
  const verify = (secret: string, r: { headers: IncomingHttpHeaders; body: string }) =>
    new Webhook(secret).verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    });

  it("shows the signing secret to the account's admins only; every webhook verifies with it", async () => {
    const secret = await secretOf();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(verify(secret, received[0]!)).toMatchObject({ type: 'merchant.added' });
    // A plain member is refused the account; another funder's admin is told it does not exist.
    expect((await call('GET', buildPath(routes.getAccount.path, { id: summit }), tokens.marco)).status).toBe(
      403,
    );
    expect((await call('GET', buildPath(routes.getAccount.path, { id: summit }), tokens.priya)).status).toBe(
      404,
    );
    // The platform admin sees it too; no other view carries it.
    const asAdmin = await call('GET', buildPath(routes.getAccount.path, { id: summit }), tokens.admin);
    expect(asAdmin.body.data.merchant_subscription_webhook_secret).toBe(secret);
    const list = await call('GET', `${routes.listAccounts.path}?per_page=100`, tokens.admin);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
  });

  it('redelivers a logged webhook once, with the same webhook-id, however many clicks arrive at once', async () => {
    const log = await call('GET', buildPath(routes.listWebhookDeliveries.path, { id: summit }), tokens.dana);
    const delivery = log.body.data[0];
    const url = buildPath(routes.redeliverWebhook.path, { id: summit, delivery_id: delivery.id });
    const before = received.length;
    const answers = await Promise.all([1, 2, 3].map(() => call('POST', url, tokens.dana)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const ok = answers.find((a) => a.status === 200)!;
    expect(ok.body).toMatchObject({
      data: { id: delivery.id, status: 'pending' },
      message: 'The webhook will be delivered again in a moment.',
    });
    expect(answers.find((a) => a.status === 409)!.body.errors).toBe(
      'This webhook is already waiting to be delivered.',
    );
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(before + 1);
    expect(received[before]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
    await expect
      .poll(
        async () =>
          (await call('GET', buildPath(routes.listWebhookDeliveries.path, { id: summit }), tokens.dana)).body
            .data[0],
        { timeout: 10_000 },
      )
      .toMatchObject({ id: delivery.id, status: 'succeeded', attempts: 2 });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(received).toHaveLength(before + 1);

    // Its details: both attempts, each with its HTTP code and time taken.
    const details = await call(
      'GET',
      buildPath(routes.getWebhookDelivery.path, { id: summit, delivery_id: delivery.id }),
      tokens.dana,
    );
    expect(details.status).toBe(200);
    expect(details.body.data.attempts_log).toHaveLength(2);
    for (const a of details.body.data.attempts_log) {
      expect(a).toMatchObject({ succeeded: true, http_status: 204, error: null });
      expect(a.duration_ms).toBeGreaterThanOrEqual(0);
    }
    expect(
      (
        await call(
          'GET',
          buildPath(routes.getWebhookDelivery.path, { id: summit, delivery_id: delivery.id }),
          tokens.marco,
        )
      ).status,
    ).toBe(403);

    // Refusals: a plain member, another funder's admin, a made-up delivery, a malformed id.
    expect((await call('POST', url, tokens.marco)).status).toBe(403);
    expect((await call('POST', url, tokens.priya)).status).toBe(403);
    const missing = await call(
      'POST',
      buildPath(routes.redeliverWebhook.path, {
        id: summit,
        delivery_id: '00000000-0000-4000-8000-000000000001',
      }),
      tokens.dana,
    );
    expect(missing).toMatchObject({ status: 404, body: { errors: 'Webhook delivery not found.' } });
    const malformed = await call(
      'POST',
      buildPath(routes.redeliverWebhook.path, { id: summit, delivery_id: 'not-a-uuid' }),
      tokens.dana,
    );
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body)).toContain('delivery_id');
  });

  it('rotates the secret once at a time; both secrets sign for 24 hours', async () => {
    const old = await secretOf();
    const url = buildPath(routes.rotateWebhookSigningSecret.path, { id: summit });
    expect((await call('POST', url, tokens.marco)).status).toBe(403);
    expect(await secretOf()).toBe(old);
    const answers = await Promise.all([call('POST', url, tokens.dana), call('POST', url, tokens.dana)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const rotated = answers.find((a) => a.status === 200)!.body.data;
    expect(rotated.merchant_subscription_webhook_secret).not.toBe(old);
    expect(await secretOf()).toBe(rotated.merchant_subscription_webhook_secret);
    expect(answers.find((a) => a.status === 409)!.body.errors).toMatch(
      /^The previous webhook secret still signs until/,
    );

    // The next webhook verifies with either secret.
    const before = received.length;
    const merchant = await call('GET', `${routes.searchMerchants.path}?search=456789012`, tokens.priya);
    const merchantId = merchant.body.data[0].resource_id as string;
    const noted = await server.call({
      method: 'POST',
      url: buildPath(routes.addNote.path, { id: merchantId }),
      token: tokens.priya,
      payload: { note: { category: 'Slow Pay', note: 'Paid late again.', submission_source: 'in-house' } },
    });
    expect(noted.status).toBe(201);
    // The note's own webhook (a note in a new group also sends merchant.signals_changed beside it).
    const noteWebhook = () =>
      received.slice(before).find((r) => JSON.parse(r.body).type === 'merchant.note_added');
    await expect.poll(noteWebhook, { timeout: 10_000 }).toBeDefined();
    const next = noteWebhook()!;
    expect(String(next.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(rotated.merchant_subscription_webhook_secret, next)).toMatchObject({
      type: 'merchant.note_added',
    });
    expect(verify(old, next)).toBeTruthy();
  });
});
