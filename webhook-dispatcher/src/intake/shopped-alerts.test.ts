import { createLogger, ManualClock, type PostgresEventStore } from '@mrn/platform';
import type { TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../dispatcher.ts';
import { webhookSecretOf } from '../signing/signing.ts';
import {
  addMerchant,
  append,
  clearOutbox,
  closeDispatcherDatabase,
  openAccount,
  openDispatcherDatabase,
  type Receiver,
  RecordingMailer,
  randomEin,
  saveAccountSettings,
  searchedAt,
  startProjections,
  startReceiver,
  type TestProjections,
  verifyWith,
  watch,
} from '../test-helpers.ts';

// "Being shopped" alerts (issue 24): a watcher is told, by a signed webhook and an e-mail, when the
// distinct other funders looking a watched merchant up within 7 days reach its threshold: once per
// crossing, never for its own searches, and not at an endpoint that filtered the type out. Searches are
// recorded in the search log and projected (issue 31): the dispatcher judges projections' feed of
// look-ups of watched merchants and counts from their read.merchant_searches.

let db: TestDatabase;
let store: PostgresEventStore;
let receiver: Receiver;
let projections: TestProjections;

beforeAll(async () => {
  ({ db, store } = await openDispatcherDatabase());
  receiver = await startReceiver();
  projections = await startProjections(db, store);
});
afterAll(async () => {
  await projections?.stop();
  await receiver?.close();
  await closeDispatcherDatabase({ db, store });
});
beforeEach(async () => {
  await clearOutbox(db);
  receiver.received.length = 0;
});

const NOW = new Date();
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

async function run(mailer = new RecordingMailer()) {
  const d = new WebhookDispatcher({
    pool: db.pool,
    store,
    mailer,
    clock: new ManualClock(NOW),
    logger: createLogger('silent'),
    publicUrl: 'https://mrn.example',
    allowLoopback: true,
    random: () => 0.5,
  });
  try {
    await d.runOnce();
  } finally {
    await d.stop();
  }
  return mailer;
}

/**
 * A merchant another funder reported, watched by a new PRO account with these settings (`watching:
 * false`: the account does not watch it yet).
 */
async function scene(settings: {
  shoppedAlertThreshold?: number | null;
  webhookEventTypes?: string[] | null;
  watching?: boolean;
}) {
  const { watching = true, ...alertSettings } = settings;
  const fein = randomEin();
  const watcher = await openAccount(store, 'Watching Funder', {
    webhook: receiver.url,
    email: 'alerts@watcher.example',
    ...alertSettings,
  });
  const reporter = await openAccount(store, 'Reporting Funder');
  if (watching) await watch(store, watcher, fein);
  const merchantId = await addMerchant(store, reporter, fein, 'Shopping Spree LLC');
  return { fein, watcher, merchantId };
}

/** The watcher's admins save the account form with this threshold (null: alerts off). */
const setThreshold = (watcher: string, shoppedAlertThreshold: number | null) =>
  saveAccountSettings(store, watcher, 'Watching Funder', {
    webhook: receiver.url,
    email: 'alerts@watcher.example',
    shoppedAlertThreshold,
  });

/** A watch made by "watch merchants we search", until `until` (recorded again: made longer). */
const searchWatch = (accountId: string, fein: string, until: Date) =>
  append(store, `subscriptions-${accountId}`, 'MerchantSubscriptionsAdded', {
    accountId,
    feins: [fein],
    source: 'search',
    watchUntil: until.toISOString(),
  });

/** New funders, each looking the merchant up once at `at`, in turn. */
async function lookUps(merchantId: string, names: string[], at: Date) {
  const funders = [];
  for (const name of names) {
    const funder = await openAccount(store, `Funder ${name}`);
    await searchedAt(projections, funder, [merchantId], at);
    funders.push(funder);
  }
  return funders;
}

const shopped = () =>
  receiver.received
    .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> })
    .filter((p) => p.type === 'merchant.shopped');

describe('being shopped', () => {
  it('alerts once when searches from several funders arrive at once, never counting the watcher’s own', async () => {
    const { fein, watcher, merchantId } = await scene({ shoppedAlertThreshold: 3 });
    // The watcher searches it three times itself: nothing.
    for (let i = 0; i < 3; i++) await searchedAt(projections, watcher, [merchantId], daysAgo(0.5));
    // Five other funders, one of them twice, all at once.
    const others = await Promise.all([1, 2, 3, 4, 5].map((i) => openAccount(store, `Other Funder ${i}`)));
    await Promise.all(
      [...others, others[0]!].map((a) => searchedAt(projections, a, [merchantId], daysAgo(0.1))),
    );
    const mailer = await run();

    const alerts = shopped();
    expect(alerts).toHaveLength(1);
    const secret = await webhookSecretOf(db.pool, watcher);
    expect(
      verifyWith(secret, receiver.received.find((r) => r.body.includes('merchant.shopped'))!),
    ).toMatchObject({
      type: 'merchant.shopped',
      data: {
        merchant_ein: fein,
        merchant_name: 'Shopping Spree LLC',
        action: 'Being Shopped',
        threshold: 3,
        other_funders_last_7_days: 3,
        other_funders_last_30_days: 3,
        other_funders_last_90_days: 3,
        merchant_url: `https://mrn.example/merchants/${merchantId}`,
      },
    });
    const mails = mailer.sent.filter((m) => m.subject.startsWith('Being shopped'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe('alerts@watcher.example');
    expect(mails[0]!.subject).toBe(
      `Being shopped: Shopping Spree LLC (EIN ${fein.slice(0, 2)}-${fein.slice(2)})`,
    );
    expect(mails[0]!.text).toContain('Other funders, last 7 days: 3 (your alert threshold: 3)');
  });

  it('alerts again only after the figure has fallen below the threshold', async () => {
    const { merchantId } = await scene({ shoppedAlertThreshold: 2 });
    const [x, y, z] = await Promise.all(['X', 'Y', 'Z'].map((n) => openAccount(store, `Funder ${n}`)));
    await searchedAt(projections, x!, [merchantId], daysAgo(20));
    await searchedAt(projections, y!, [merchantId], daysAgo(19)); // x and y within 7 days: the first crossing
    await searchedAt(projections, x!, [merchantId], daysAgo(18)); // still above: nothing
    await searchedAt(projections, z!, [merchantId], daysAgo(5)); // x and y have aged out: 1, below
    await searchedAt(projections, x!, [merchantId], daysAgo(4)); // z and x: the second crossing
    await searchedAt(projections, y!, [merchantId], daysAgo(3)); // 3, still above: nothing
    await run();
    expect(shopped().map((a) => a.data.other_funders_last_7_days)).toEqual([2, 2]);
  });

  it('counts neither a platform administrator’s search nor a keyword list; a name that finds it alone counts', async () => {
    const { merchantId } = await scene({ shoppedAlertThreshold: 2 });
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((n) => openAccount(store, `Funder ${n}`)));
    await searchedAt(projections, a!, [merchantId], daysAgo(1), { platformAdmin: true });
    await searchedAt(projections, b!, [merchantId, crypto.randomUUID()], daysAgo(1), { einSearch: false });
    await searchedAt(projections, c!, [merchantId], daysAgo(1), { einSearch: false });
    await run();
    expect(shopped()).toHaveLength(0);
    await searchedAt(projections, b!, [merchantId], daysAgo(0.5));
    await run();
    expect(shopped()).toHaveLength(1);
  });

  it('sends nothing to an endpoint that filtered the type out (the e-mail still goes), nor when alerts are off', async () => {
    const filtered = await scene({ shoppedAlertThreshold: 1, webhookEventTypes: ['merchant.note_added'] });
    const off = await scene({ shoppedAlertThreshold: null });
    const other = await openAccount(store, 'Searching Funder');
    await searchedAt(projections, other, [filtered.merchantId], daysAgo(0.1));
    await searchedAt(projections, other, [off.merchantId], daysAgo(0.1));
    const mailer = await run();
    expect(shopped()).toHaveLength(0);
    const rows = await db.pool.query<{ account_id: string; kind: string }>(
      `select account_id, kind from webhook_deliveries where payload ->> 'type' = 'merchant.shopped'
          or payload -> 'notification' ->> 'type' = 'merchant.shopped'`,
    );
    expect(rows.rows).toEqual([{ account_id: filtered.watcher, kind: 'email' }]);
    expect(mailer.sent.filter((m) => m.subject.startsWith('Being shopped'))).toHaveLength(1);
  });

  it('alerts a watcher that lowers its threshold below the figure once, at the change, and not again as it rises', async () => {
    const { fein, watcher, merchantId } = await scene({ shoppedAlertThreshold: 20 });
    await lookUps(merchantId, ['A', 'B', 'C'], daysAgo(1));
    await run();
    expect(shopped()).toHaveLength(0);

    await setThreshold(watcher, 2);
    const mailer = await run();
    expect(shopped().map((a) => a.data)).toEqual([
      expect.objectContaining({
        merchant_ein: fein,
        threshold: 2,
        other_funders_last_7_days: 3,
        merchant_url: `https://mrn.example/merchants/${merchantId}`,
      }),
    ]);
    const mails = mailer.sent.filter((m) => m.subject.startsWith('Being shopped'));
    expect(mails.map((m) => m.to)).toEqual(['alerts@watcher.example']);
    expect(mails[0]!.text).toContain('Other funders, last 7 days: 3 (your alert threshold: 2)');

    // 4, then 5: the same episode.
    await lookUps(merchantId, ['D', 'E'], daysAgo(0.5));
    await run();
    expect(shopped()).toHaveLength(1);
  });

  it('alerts a watcher that starts watching a merchant already at its threshold once, however often the watch is recorded again', async () => {
    const { fein, watcher, merchantId } = await scene({ shoppedAlertThreshold: 2, watching: false });
    await lookUps(merchantId, ['A', 'B', 'C'], daysAgo(1));
    await run();
    expect(shopped()).toHaveLength(0);

    await searchWatch(watcher, fein, new Date(NOW.getTime() + 30 * DAY));
    await run();
    expect(shopped().map((a) => a.data)).toEqual([
      expect.objectContaining({ merchant_ein: fein, threshold: 2, other_funders_last_7_days: 3 }),
    ]);

    // The watch made longer, then made permanent by a person, while more funders look it up: nothing.
    await searchWatch(watcher, fein, new Date(NOW.getTime() + 60 * DAY));
    await lookUps(merchantId, ['D'], daysAgo(0.5));
    await watch(store, watcher, fein);
    await lookUps(merchantId, ['E'], daysAgo(0.4));
    await run();
    expect(shopped()).toHaveLength(1);
  });

  it('never counts a funder already counted again: one funder searching twice does not reach a threshold of 2', async () => {
    const { merchantId } = await scene({ shoppedAlertThreshold: 2 });
    const [a] = await lookUps(merchantId, ['A'], daysAgo(2));
    await searchedAt(projections, a!, [merchantId], daysAgo(1)); // the same batch
    await run();
    expect(shopped()).toHaveLength(0);
    await searchedAt(projections, a!, [merchantId], daysAgo(0.5)); // a later batch
    await run();
    expect(shopped()).toHaveLength(0);

    await lookUps(merchantId, ['B'], daysAgo(0.4));
    await run();
    expect(shopped().map((x) => x.data.other_funders_last_7_days)).toEqual([2]);
  });

  it('ends an episode when the threshold is raised above the figure, and alerts again when it is lowered to it', async () => {
    const { merchantId, watcher } = await scene({ shoppedAlertThreshold: 2 });
    await lookUps(merchantId, ['A', 'B', 'C'], daysAgo(1));
    await run();
    expect(shopped().map((a) => [a.data.threshold, a.data.other_funders_last_7_days])).toEqual([[2, 2]]);

    await setThreshold(watcher, 3); // 3 of 3: still reached, the same episode
    await run();
    await setThreshold(watcher, 5); // 3 of 5: below, the episode is over
    await run();
    expect(shopped()).toHaveLength(1);

    await setThreshold(watcher, 2);
    await run();
    expect(shopped().map((a) => [a.data.threshold, a.data.other_funders_last_7_days])).toEqual([
      [2, 2],
      [2, 3],
    ]);
  });

  it('ends an episode when alerts are turned off, and alerts once when they are turned on above the threshold', async () => {
    const { merchantId, watcher } = await scene({ shoppedAlertThreshold: 2 });
    await lookUps(merchantId, ['A', 'B'], daysAgo(1));
    await run();
    expect(shopped()).toHaveLength(1);

    await setThreshold(watcher, null);
    await run();
    await lookUps(merchantId, ['C'], daysAgo(0.5));
    await run();
    expect(shopped()).toHaveLength(1);

    await setThreshold(watcher, 2);
    await run();
    await lookUps(merchantId, ['D'], daysAgo(0.4));
    await run();
    expect(shopped().map((a) => [a.data.threshold, a.data.other_funders_last_7_days])).toEqual([
      [2, 2],
      [2, 3],
    ]);
  });

  it('sends no alert again when the log is read again from the start', async () => {
    const lowered = await scene({ shoppedAlertThreshold: 20 });
    await lookUps(lowered.merchantId, ['A', 'B', 'C'], daysAgo(1));
    const late = await scene({ shoppedAlertThreshold: 2, watching: false });
    await lookUps(late.merchantId, ['D', 'E', 'F'], daysAgo(1));
    await run();
    await setThreshold(lowered.watcher, 2);
    await searchWatch(late.watcher, late.fein, new Date(NOW.getTime() + 30 * DAY));
    await run();
    expect(shopped()).toHaveLength(2);

    // An operator moves the checkpoint back to the start (as a migration that rebuilds does), with the
    // outbox emptied: nothing of the file's being-shopped history may be judged again.
    await clearOutbox(db);
    await db.pool.query(`delete from subscription_checkpoints where name = 'webhook-dispatcher'`);
    await run();
    const { rows } = await db.pool.query<{ n: number }>(
      `select count(*)::int as n from webhook_deliveries where payload ->> 'type' = 'merchant.shopped'
          or payload -> 'notification' ->> 'type' = 'merchant.shopped'`,
    );
    expect(rows[0]!.n).toBe(0);
    expect(shopped()).toHaveLength(2);
  });

  it('does not judge again what the old rule judged: a threshold change recorded before the migration that adopted this one', async () => {
    const { watcher, merchantId } = await scene({ shoppedAlertThreshold: 20 });
    await lookUps(merchantId, ['A', 'B', 'C'], daysAgo(1));
    await run();
    await setThreshold(watcher, 2);
    // Migration 0007 ran after the change was recorded and before the dispatcher read it.
    await db.pool.query('update webhook_accounts set shopped_judged_from = now() where account_id = $1', [
      watcher,
    ]);
    await run();
    expect(shopped()).toHaveLength(0);
  });
});
