import { expireSearchWatches } from '@mrn/command-api';
import { buildPath, routes, streams } from '@mrn/contracts';
import { createLogger, type Position, START } from '@mrn/platform';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { CHECKPOINT_NAME as DISPATCHER_CHECKPOINT } from '@mrn/webhook-dispatcher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// "Watch merchants we search" over HTTP, with the reactor, projections and dispatcher running: Summit
// (PRO, subscriptions enabled) turns the setting on, a member's EIN search subscribes the account until
// the search day plus the chosen months; off, or on a BASIC account, a search subscribes nothing; bad
// months are refused naming the field; a plain member may not change it; after the end the daily pass
// removes the watch and a new note on the merchant notifies no one.

let server: TestServer;
const tokens: Record<string, string> = {};
let summit = '';
let harbor = '';
let ein = 100;

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  tokens.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries({
    dana: 'dana.whitfield@summitcapital.example', // Summit (PRO) admin
    marco: 'marco.reyes@summitcapital.example', // Summit member
    priya: 'priya.natarajan@harboradvance.example', // Harbor (BASIC) admin
  })) {
    const res = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email, password: DEMO_PASSWORD } },
    });
    tokens[who] = res.body.data.jwt;
    if (who === 'dana') summit = res.body.data.user.account_resource_id;
    if (who === 'priya') harbor = res.body.data.user.account_resource_id;
  }
  const enabled = await server.setSubscriptionSettings(tokens.admin!, summit, {
    merchant_subscription_enabled: true,
    merchant_subscription_notification_email: 'alerts@summitcapital.example',
  });
  expect(enabled.status).toBe(200);
}, 60_000);
afterAll(async () => {
  await server.close();
});

const accountUrl = (id: string) => buildPath(routes.getAccount.path, { id });
/** PUT the account with its current details and these settings (the web form sends every field). */
async function putAccount(who: string, id: string, settings: Record<string, unknown>) {
  const current = (await server.call({ method: 'GET', url: accountUrl(id), token: tokens.admin })).body.data;
  return server.call({
    method: 'PUT',
    url: buildPath(routes.updateAccount.path, { id }),
    token: tokens[who],
    payload: {
      account: {
        name: current.name,
        website: current.website,
        primary_contact_email: current.primary_contact_email,
        merchant_subscription_enabled: current.merchant_subscription_enabled,
        merchant_subscription_notification_email: current.merchant_subscription_notification_email,
        merchant_subscription_notification_webhook: current.merchant_subscription_notification_webhook,
        ...settings,
      },
    },
  });
}
const eventsOf = async (streamId: string) =>
  (await server.db.pool.query('select 1 from events where stream_id = $1', [streamId])).rowCount ?? 0;

/** A merchant reported by Harbor, so that a later note by Harbor notifies Summit. */
async function reportedMerchant(): Promise<{ fein: string; id: string }> {
  const fein = `58-00${String(ein++).padStart(5, '0')}`;
  const res = await server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: tokens.priya,
    payload: {
      merchant: { fein, legal_name: `Searched Goods ${fein} LLC`, city: 'Tampa', state: 'FL' },
      note: { category: 'Slow Pay', note: 'Paid late.', submission_source: 'in-house' },
    },
  });
  expect(res.status).toBe(201);
  return { fein: fein.replace('-', ''), id: res.body.data.resource_id };
}

async function searchAs(who: string, term: string): Promise<Position> {
  const res = await server.call({
    method: 'GET',
    url: `${routes.searchMerchants.path}?search=${encodeURIComponent(term)}`,
    token: tokens[who],
  });
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(1);
  return res.body.position;
}

const checkpoint = async (name: string) =>
  (
    await server.db.pool.query<{ position: string }>(
      'select position from subscription_checkpoints where name = $1',
      [name],
    )
  ).rows[0]?.position ?? START;
/** Until a background process (reactor, dispatcher) has handled the log up to `position`. */
const passed = (name: string, position: Position) =>
  expect.poll(async () => (await checkpoint(name)) >= position, { timeout: 20_000 }).toBe(true);
const settle = async () => {
  expect(await server.projectedAll(undefined, 20_000)).toBe(true);
};

const subscriptionsOf = async (who: string, id: string) => {
  await settle();
  const res = await server.call({
    method: 'GET',
    url: `${buildPath(routes.listMerchantSubscriptions.path, { id })}?per_page=100`,
    token: tokens[who],
  });
  expect(res.status).toBe(200);
  return res.body.data as { fein: string; watch_until: string | null }[];
};

describe('the setting', () => {
  it('is off with 12 months until an account admin turns it on; the account view shows it', async () => {
    const before = (await server.call({ method: 'GET', url: accountUrl(summit), token: tokens.dana })).body
      .data;
    expect(before).toMatchObject({ watch_searched_merchants: false, watch_searched_months: 12 });
    const res = await putAccount('dana', summit, {
      watch_searched_merchants: true,
      watch_searched_months: 6,
    });
    expect(res.status).toBe(200);
    const after = (await server.call({ method: 'GET', url: accountUrl(summit), token: tokens.dana })).body
      .data;
    expect(after).toMatchObject({ watch_searched_merchants: true, watch_searched_months: 6 });
  });

  it('refuses months of 0, 25 or "x" naming the field, writing nothing', async () => {
    const before = await eventsOf(streams.account(summit));
    for (const months of [0, 25, 'x', 2.5]) {
      const res = await putAccount('dana', summit, {
        watch_searched_merchants: true,
        watch_searched_months: months,
      });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(
        'account.watch_searched_months',
      );
    }
    const notBoolean = await putAccount('dana', summit, { watch_searched_merchants: 'yes' });
    expect(notBoolean.status).toBe(400);
    expect(notBoolean.body.fields.map((f: { field: string }) => f.field)).toContain(
      'account.watch_searched_merchants',
    );
    expect(await eventsOf(streams.account(summit))).toBe(before);
  });

  it('may not be changed by a plain member', async () => {
    const before = await eventsOf(streams.account(summit));
    const res = await putAccount('marco', summit, { watch_searched_merchants: false });
    expect(res.status).toBe(403);
    expect(await eventsOf(streams.account(summit))).toBe(before);
  });
});

describe('searching with the setting', () => {
  it('subscribes the account to an EIN its member found, until the end of the day 6 months on', async () => {
    const merchant = await reportedMerchant();
    const position = await searchAs('marco', `${merchant.fein.slice(0, 2)}-${merchant.fein.slice(2)}`);
    await passed('search-watch', position);
    const watched = (await subscriptionsOf('dana', summit)).find((s) => s.fein === merchant.fein);
    expect(watched).toBeDefined();
    const end = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
    end.setUTCMonth(end.getUTCMonth() + 6);
    end.setUTCDate(end.getUTCDate() + 1);
    expect(Math.abs(Date.parse(watched!.watch_until!) - end.getTime())).toBeLessThanOrEqual(3 * 86_400_000);
  });

  it('leaves an EIN a person subscribed watched for good', async () => {
    const merchant = await reportedMerchant();
    const added = await server.call({
      method: 'POST',
      url: buildPath(routes.addMerchantSubscription.path, { id: summit }),
      token: tokens.dana,
      payload: { merchant_subscription: { fein: merchant.fein } },
    });
    expect(added.status).toBe(201);
    await passed('search-watch', await searchAs('marco', merchant.fein));
    const watched = (await subscriptionsOf('dana', summit)).find((s) => s.fein === merchant.fein);
    expect(watched?.watch_until).toBeNull();
  });

  it('subscribes nothing with the setting off', async () => {
    expect((await putAccount('dana', summit, { watch_searched_merchants: false })).status).toBe(200);
    const merchant = await reportedMerchant();
    await passed('search-watch', await searchAs('marco', merchant.fein));
    expect((await subscriptionsOf('dana', summit)).map((s) => s.fein)).not.toContain(merchant.fein);
    expect((await putAccount('dana', summit, { watch_searched_merchants: true })).status).toBe(200);
  });

  it('subscribes nothing for a BASIC account, even with the setting on', async () => {
    expect((await putAccount('priya', harbor, { watch_searched_merchants: true })).status).toBe(200);
    const merchant = await reportedMerchant();
    await passed('search-watch', await searchAs('priya', merchant.fein));
    expect(await eventsOf(streams.subscriptions(harbor))).toBe(0);
  });
});

describe('the end of a search watch', () => {
  it('is removed by the daily pass after its end, and a later note notifies no one', async () => {
    const expiring = await reportedMerchant();
    const manual = await reportedMerchant();
    await passed('search-watch', await searchAs('marco', expiring.fein));
    const watch = (await subscriptionsOf('dana', summit)).find((s) => s.fein === expiring.fein);
    expect(watch?.watch_until).toBeTruthy();
    expect(
      (
        await server.call({
          method: 'POST',
          url: buildPath(routes.addMerchantSubscription.path, { id: summit }),
          token: tokens.dana,
          payload: { merchant_subscription: { fein: manual.fein } },
        })
      ).status,
    ).toBe(201);

    const deps = { pool: server.db.pool, store: server.store, logger: createLogger('silent') };
    // The day before the end, nothing goes; the day it has ended, the watch goes.
    const dayBefore = new Date(Date.parse(watch!.watch_until!) - 86_400_000);
    await expireSearchWatches(deps, dayBefore);
    expect((await subscriptionsOf('dana', summit)).map((s) => s.fein)).toContain(expiring.fein);
    const result = await expireSearchWatches(deps, new Date(watch!.watch_until!));
    expect(result.removed).toBeGreaterThanOrEqual(1);
    const after = (await subscriptionsOf('dana', summit)).map((s) => s.fein);
    expect(after).not.toContain(expiring.fein);
    expect(after).toContain(manual.fein);

    const note = async (merchantId: string) => {
      const res = await server.call({
        method: 'POST',
        url: buildPath(routes.addNote.path, { id: merchantId }),
        token: tokens.priya,
        payload: { note: { category: 'Slow Pay', note: 'Late again.', submission_source: 'in-house' } },
      });
      expect(res.status).toBe(201);
      return res.body.position as Position;
    };
    await note(expiring.id);
    await passed(DISPATCHER_CHECKPOINT, await note(manual.id));
    const notified = async (fein: string) =>
      (
        await server.db.pool.query(
          `select 1 from webhook_deliveries d join events e on e.event_id = d.event_id
            where d.account_id = $1 and e.type = 'NoteAdded' and d.payload #>> '{notification,data,merchant_ein}' = $2`,
          [summit, fein],
        )
      ).rowCount;
    // The EIN still watched is notified (the dispatcher is running), the ended watch is not.
    expect(await notified(manual.fein)).toBeGreaterThan(0);
    expect(await notified(expiring.fein)).toBe(0);
  });
});
