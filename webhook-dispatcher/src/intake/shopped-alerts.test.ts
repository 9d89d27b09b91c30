import { createLogger, ManualClock, type PostgresEventStore } from '@mrn/platform';
import type { TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../dispatcher.ts';
import { webhookSecretOf } from '../signing/signing.ts';
import {
  addMerchant,
  clearOutbox,
  closeDispatcherDatabase,
  openAccount,
  openDispatcherDatabase,
  type Receiver,
  RecordingMailer,
  randomEin,
  searchedAt,
  startReceiver,
  verifyWith,
  watch,
} from '../test-helpers.ts';

// "Being shopped" alerts (issue 24): a watcher is told, by a signed webhook and an e-mail, when the
// distinct other funders looking a watched merchant up within 7 days reach its threshold: once per
// crossing, never for its own searches, and not at an endpoint that filtered the type out.

let db: TestDatabase;
let store: PostgresEventStore;
let receiver: Receiver;

beforeAll(async () => {
  ({ db, store } = await openDispatcherDatabase());
  receiver = await startReceiver();
});
afterAll(async () => {
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

/** A merchant another funder reported, watched by a new PRO account with these settings. */
async function scene(settings: {
  shoppedAlertThreshold?: number | null;
  webhookEventTypes?: string[] | null;
}) {
  const fein = randomEin();
  const watcher = await openAccount(store, 'Watching Funder', {
    webhook: receiver.url,
    email: 'alerts@watcher.example',
    ...settings,
  });
  const reporter = await openAccount(store, 'Reporting Funder');
  await watch(store, watcher, fein);
  const merchantId = await addMerchant(store, reporter, fein, 'Shopping Spree LLC');
  return { fein, watcher, merchantId };
}

/** New funders, each looking the merchant up once at `at`, in turn. */
async function lookUps(merchantId: string, names: string[], at: Date) {
  const funders = [];
  for (const name of names) {
    const funder = await openAccount(store, `Funder ${name}`);
    await searchedAt(db, funder, [merchantId], at);
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
    for (let i = 0; i < 3; i++) await searchedAt(db, watcher, [merchantId], daysAgo(0.5));
    // Five other funders, one of them twice, all at once.
    const others = await Promise.all([1, 2, 3, 4, 5].map((i) => openAccount(store, `Other Funder ${i}`)));
    await Promise.all([...others, others[0]!].map((a) => searchedAt(db, a, [merchantId], daysAgo(0.1))));
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
    await searchedAt(db, x!, [merchantId], daysAgo(20));
    await searchedAt(db, y!, [merchantId], daysAgo(19)); // x and y within 7 days: the first crossing
    await searchedAt(db, x!, [merchantId], daysAgo(18)); // still above: nothing
    await searchedAt(db, z!, [merchantId], daysAgo(5)); // x and y have aged out: 1, below
    await searchedAt(db, x!, [merchantId], daysAgo(4)); // z and x: the second crossing
    await searchedAt(db, y!, [merchantId], daysAgo(3)); // 3, still above: nothing
    await run();
    expect(shopped().map((a) => a.data.other_funders_last_7_days)).toEqual([2, 2]);
  });

  it('counts neither a platform administrator’s search nor a keyword list; a name that finds it alone counts', async () => {
    const { merchantId } = await scene({ shoppedAlertThreshold: 2 });
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((n) => openAccount(store, `Funder ${n}`)));
    await searchedAt(db, a!, [merchantId], daysAgo(1), { platformAdmin: true });
    await searchedAt(db, b!, [merchantId, crypto.randomUUID()], daysAgo(1), { einSearch: false });
    await searchedAt(db, c!, [merchantId], daysAgo(1), { einSearch: false });
    await run();
    expect(shopped()).toHaveLength(0);
    await searchedAt(db, b!, [merchantId], daysAgo(0.5));
    await run();
    expect(shopped()).toHaveLength(1);
  });

  it('sends nothing to an endpoint that filtered the type out (the e-mail still goes), nor when alerts are off', async () => {
    const filtered = await scene({ shoppedAlertThreshold: 1, webhookEventTypes: ['merchant.note_added'] });
    const off = await scene({ shoppedAlertThreshold: null });
    const other = await openAccount(store, 'Searching Funder');
    await searchedAt(db, other, [filtered.merchantId], daysAgo(0.1));
    await searchedAt(db, other, [off.merchantId], daysAgo(0.1));
    const mailer = await run();
    expect(shopped()).toHaveLength(0);
    const rows = await db.pool.query<{ account_id: string; kind: string }>(
      `select account_id, kind from webhook_deliveries where payload ->> 'type' = 'merchant.shopped'
          or payload -> 'notification' ->> 'type' = 'merchant.shopped'`,
    );
    expect(rows.rows).toEqual([{ account_id: filtered.watcher, kind: 'email' }]);
    expect(mailer.sent.filter((m) => m.subject.startsWith('Being shopped'))).toHaveLength(1);
  });

  it('never counts a funder already counted again: one funder searching twice does not reach a threshold of 2', async () => {
    const { merchantId } = await scene({ shoppedAlertThreshold: 2 });
    const [a] = await lookUps(merchantId, ['A'], daysAgo(2));
    await searchedAt(db, a!, [merchantId], daysAgo(1)); // the same batch
    await run();
    expect(shopped()).toHaveLength(0);
    await searchedAt(db, a!, [merchantId], daysAgo(0.5)); // a later batch
    await run();
    expect(shopped()).toHaveLength(0);

    await lookUps(merchantId, ['B'], daysAgo(0.4));
    await run();
    expect(shopped().map((x) => x.data.other_funders_last_7_days)).toEqual([2]);
  });
});
