import { buildPath, MESSAGES, routes, SUBSCRIPTION_TEXTS, streams } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 21 item 13: core spec §7 `GET /merchants/{id}/toggle_subscription` ("Toggles the merchant
// subscription."), as GET /api/merchants/:id/toggle_subscription: the merchant page's switch. It
// watches the merchant's EIN for the caller's account or stops, answering the new state; only admins of
// a PRO account with subscriptions enabled may.

let server: TestServer;
const tokens: Record<string, string> = {};
let summit = '';
let merchantId = '';
let merchantFein = '';

const PRO_ONLY = 'This feature is only available to PRO members.';

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  tokens.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries({
    dana: 'dana.whitfield@summitcapital.example', // Summit (PRO) admin
    marco: 'marco.reyes@summitcapital.example', // Summit member
    priya: 'priya.natarajan@harboradvance.example', // Harbor (BASIC) admin
  })) {
    tokens[who] = await server.login(email, DEMO_PASSWORD);
  }
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: tokens.dana });
  summit = me.body.data.user.account_resource_id;
  // Another funder (Harbor) reported the merchant Summit wants to watch.
  const added = await server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: tokens.priya,
    payload: {
      merchant: { fein: '56-7000001', legal_name: 'Toggle Tile Works LLC', city: 'Tampa', state: 'FL' },
      note: { category: 'Slow Pay', note: 'Paid late twice.', submission_source: 'in-house' },
    },
  });
  expect(added.status).toBe(201);
  merchantId = added.body.data.resource_id;
  merchantFein = '567000001';
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const toggle = (who: string | undefined, id = merchantId) =>
  server.call({
    method: 'GET',
    url: buildPath(routes.toggleMerchantSubscription.path, { id }),
    ...(who ? { token: tokens[who] } : {}),
  });
const subscriptionEvents = async () =>
  Number(
    (
      await server.db.pool.query('select count(*) as n from events where stream_id = $1', [
        streams.subscriptions(summit),
      ])
    ).rows[0].n,
  );
const watchedFeins = async () => {
  const res = await server.call({
    method: 'GET',
    url: buildPath(routes.listMerchantSubscriptions.path, { id: summit }),
    token: tokens.dana,
  });
  expect(res.status).toBe(200);
  return (res.body.data as { fein: string }[]).map((s) => s.fein);
};
const settle = async () => {
  expect(await server.projectedAll(undefined, 20_000)).toBe(true);
};
async function setSubscriptions(enabled: boolean) {
  const res = await server.setSubscriptionSettings(tokens.admin!, summit, {
    merchant_subscription_enabled: enabled,
  });
  expect(res.status).toBe(200);
  await settle();
}

describe('GET /api/merchants/:id/toggle_subscription', () => {
  it('refuses while the PRO account has subscriptions turned off, writing nothing', async () => {
    const before = await subscriptionEvents();
    const res = await toggle('dana');
    expect(res.status).toBe(403);
    expect(res.body.errors).toBe(SUBSCRIPTION_TEXTS.notEnabled);
    expect(await subscriptionEvents()).toBe(before);
  });

  it('watches a merchant another funder reported, then stops, answering the new state each time', async () => {
    await setSubscriptions(true);
    const on = await toggle('dana');
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({
      data: { resource_id: merchantId, fein: merchantFein, has_merchant_subscription: true },
      message: SUBSCRIPTION_TEXTS.added('Merchant Risk Network'),
    });
    expect(on.headers['cache-control']).toBe('no-store');
    await settle();
    expect(await watchedFeins()).toContain(merchantFein);
    const merchant = await server.call({
      method: 'GET',
      url: buildPath(routes.getMerchant.path, { id: merchantId }),
      token: tokens.dana,
    });
    expect(merchant.body.data.has_merchant_subscription).toBe(true);

    const off = await toggle('dana');
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({
      data: { fein: merchantFein, has_merchant_subscription: false },
      message: SUBSCRIPTION_TEXTS.deleted,
    });
    await settle();
    expect(await watchedFeins()).not.toContain(merchantFein);
  });

  it('decides each of two toggles sent at once on the state the other left: on then off', async () => {
    const answers = await Promise.all([toggle('dana'), toggle('dana')]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.body.data.has_merchant_subscription).sort()).toEqual([false, true]);
    await settle();
    expect(await watchedFeins()).not.toContain(merchantFein);
  });

  it('refuses the signed-out, members who are not admins, and BASIC accounts', async () => {
    const before = await subscriptionEvents();
    const anonymous = await toggle(undefined);
    expect(anonymous.status).toBe(401);
    const member = await toggle('marco');
    expect(member.status).toBe(403);
    expect(member.body.errors).toBe(MESSAGES.notAllowed);
    const basic = await toggle('priya');
    expect(basic.status).toBe(403);
    expect(basic.body.errors).toBe(PRO_ONLY);
    // A platform administrator's own account has no merchant subscriptions.
    const platform = await toggle('admin');
    expect(platform.status).toBe(403);
    expect(platform.body.errors).toBe(SUBSCRIPTION_TEXTS.notEnabled);
    expect(await subscriptionEvents()).toBe(before);
  });

  it('answers 404 for an unknown merchant, 410 for a deleted one and 400 for a malformed id', async () => {
    const unknown = await toggle('dana', '00000000-0000-4000-8000-0000000000ff');
    expect(unknown.status).toBe(404);
    const added = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: tokens.priya,
      payload: {
        merchant: { fein: '56-7000002', legal_name: 'Gone Glass LLC', city: 'Tampa', state: 'FL' },
        note: { category: 'Slow Pay', note: 'Late.', submission_source: 'in-house' },
      },
    });
    const gone = added.body.data.resource_id as string;
    const archived = await server.call({
      method: 'PUT',
      url: buildPath(routes.archiveMerchant.path, { id: gone }),
      token: tokens.admin,
      payload: { delete_merchant: { reason: 'Duplicate record.' } },
    });
    expect(archived.status).toBe(200);
    expect((await toggle('dana', gone)).status).toBe(410);
    const malformed = await toggle('dana', 'not-a-uuid');
    expect(malformed.status).toBe(400);
  });
});
