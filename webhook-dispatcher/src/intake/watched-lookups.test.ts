import {
  createLogger,
  ManualClock,
  PgNotifications,
  type PostgresEventStore,
  readCheckpoint,
  writeCheckpoint,
} from '@mrn/platform';
import type { TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CHECKPOINT_NAME,
  type DispatcherOptions,
  LOOKUPS_CHECKPOINT,
  WebhookDispatcher,
} from '../dispatcher.ts';
import {
  addMerchant,
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
  watch,
} from '../test-helpers.ts';

// The look-ups reader (issue 31): the dispatcher judges projections' feed of look-ups of watched
// merchants (read.watched_lookups) with a checkpoint of its own, exactly once; the intake's judgements
// (threshold changes, watch starts) count only the look-ups that reader has judged, so neither reader
// being ahead of the other alerts a crossing twice.

let db: TestDatabase;
let store: PostgresEventStore;
let receiver: Receiver;
let projections: TestProjections;

beforeAll(async () => {
  ({ db, store } = await openDispatcherDatabase({ live: true }));
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
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000);

const options = (extra: Partial<DispatcherOptions> = {}): DispatcherOptions => ({
  pool: db.pool,
  store,
  mailer: new RecordingMailer(),
  clock: new ManualClock(NOW),
  logger: createLogger('silent'),
  publicUrl: 'https://mrn.example',
  allowLoopback: true,
  random: () => 0.5,
  ...extra,
});

async function once<T>(work: (d: WebhookDispatcher) => Promise<T>): Promise<T> {
  const d = new WebhookDispatcher(options());
  try {
    return await work(d);
  } finally {
    await d.stop();
  }
}

/** A merchant watched by a new PRO account with this threshold, reported by another funder. */
async function scene(shoppedAlertThreshold: number) {
  const fein = randomEin();
  const watcher = await openAccount(store, 'Watching Funder', {
    webhook: receiver.url,
    email: 'alerts@watcher.example',
    shoppedAlertThreshold,
  });
  const reporter = await openAccount(store, 'Reporting Funder');
  await watch(store, watcher, fein);
  const merchantId = await addMerchant(store, reporter, fein, 'Shopping Spree LLC');
  return { fein, watcher, merchantId };
}

/** New funders, each looking the merchant up once at `at`. */
async function lookUps(merchantId: string, count: number, at: Date) {
  for (let i = 0; i < count; i++) {
    await searchedAt(projections, await openAccount(store, `Funder ${i}`), [merchantId], at);
  }
}

/** The being-shopped alerts in the outbox (webhook and e-mail rows), as [threshold, 7-day figure]. */
const alerted = async (merchantUrlEnd: string) =>
  (
    await db.pool.query<{ threshold: number; last_7: number }>(
      `select (payload #>> '{data,threshold}')::int as threshold,
              (payload #>> '{data,other_funders_last_7_days}')::int as last_7
         from webhook_deliveries
        where kind = 'webhook' and payload ->> 'type' = 'merchant.shopped'
          and payload #>> '{data,merchant_url}' like '%' || $1
        order by created_at, id`,
      [merchantUrlEnd],
    )
  ).rows.map((r) => [r.threshold, r.last_7]);

describe('the look-ups reader', () => {
  it('judges each look-up once when two dispatchers read the feed at once', async () => {
    const { merchantId } = await scene(2);
    await lookUps(merchantId, 3, hoursAgo(2));
    await once((d) => d.pump());
    const [a, b] = [new WebhookDispatcher(options()), new WebhookDispatcher(options())];
    try {
      const enqueued = await Promise.all([a.pumpLookups(), b.pumpLookups()]);
      // One webhook and one e-mail, written by whichever committed the batch (the other rolled back).
      expect(enqueued.reduce((x, y) => x + y, 0)).toBe(2);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(await alerted(merchantId)).toEqual([[2, 2]]);
  });

  it('never judges again a look-up the feed writes again (a rebuild of the feed)', async () => {
    const { merchantId } = await scene(2);
    await lookUps(merchantId, 2, hoursAgo(2));
    await once((d) => d.runOnce());
    expect(await alerted(merchantId)).toEqual([[2, 2]]);
    await clearOutbox(db);
    // The feed rebuilt: its rows gone and written again at the same positions.
    await db.pool.query(`with gone as (delete from read.watched_lookups returning *)
      insert into read.watched_lookups select * from gone`);
    await once((d) => d.runOnce());
    expect(await alerted(merchantId)).toEqual([]);
  });

  it('alerts once when a threshold is lowered while look-ups above it wait to be judged', async () => {
    const { watcher, merchantId } = await scene(20);
    await lookUps(merchantId, 3, hoursAgo(2));
    await once((d) => d.pump()); // the intake alone: the look-ups are not judged yet
    await saveAccountSettings(store, watcher, 'Watching Funder', {
      webhook: receiver.url,
      email: 'alerts@watcher.example',
      shoppedAlertThreshold: 2,
    });
    // The change counts none of them (the look-ups reader has not judged them): nothing yet.
    await once((d) => d.pump());
    expect(await alerted(merchantId)).toEqual([]);
    // Judged in the feed's order against the threshold as it is now: the second one crosses it.
    await once((d) => d.runOnce());
    expect(await alerted(merchantId)).toEqual([[2, 2]]);
  });

  it('alerts once when look-ups are judged before a threshold is lowered to them', async () => {
    const { watcher, merchantId } = await scene(20);
    await lookUps(merchantId, 3, hoursAgo(2));
    await once((d) => d.runOnce());
    await saveAccountSettings(store, watcher, 'Watching Funder', {
      webhook: receiver.url,
      email: 'alerts@watcher.example',
      shoppedAlertThreshold: 2,
    });
    await once((d) => d.runOnce());
    await lookUps(merchantId, 1, hoursAgo(1));
    await once((d) => d.runOnce());
    expect(await alerted(merchantId)).toEqual([[2, 3]]);
  });

  it('starts, the first time, where the intake is: look-ups it judged itself before are not judged again', async () => {
    const { merchantId } = await scene(3);
    await lookUps(merchantId, 2, hoursAgo(3));
    await once((d) => d.runOnce());
    // A network upgraded from the intake that read searches: the reader has no checkpoint yet, the
    // intake read the log past these look-ups.
    await lookUps(merchantId, 2, hoursAgo(2));
    const { rows } = await db.pool.query<{ position: string }>(
      'select max(position) as position from read.watched_lookups',
    );
    await db.pool.query('delete from subscription_checkpoints where name = $1', [LOOKUPS_CHECKPOINT]);
    await writeCheckpoint(db.pool, CHECKPOINT_NAME, rows[0]!.position);
    await once((d) => d.runOnce());
    expect(await alerted(merchantId)).toEqual([]);
    expect(await readCheckpoint(db.pool, LOOKUPS_CHECKPOINT)).toBe(rows[0]!.position);
    // They count all the same: the next look-up is judged with them.
    await lookUps(merchantId, 1, hoursAgo(1));
    await once((d) => d.runOnce());
    expect(await alerted(merchantId)).toEqual([[3, 5]]);
  });

  it('follows the feed live, woken by the projections’ progress notices', async () => {
    const { merchantId } = await scene(1);
    await once((d) => d.runOnce());
    const notifications = new PgNotifications(db.url);
    const live = new WebhookDispatcher(options({ notifications }));
    live.start();
    try {
      await lookUps(merchantId, 1, hoursAgo(1));
      await expect.poll(() => alerted(merchantId), { timeout: 10_000, interval: 50 }).toEqual([[1, 1]]);
    } finally {
      await live.stop();
      await notifications.close();
    }
  });
});
