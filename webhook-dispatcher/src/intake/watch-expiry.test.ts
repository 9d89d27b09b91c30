import { randomUUID } from 'node:crypto';
import { createLogger, ManualClock, type PostgresEventStore } from '@mrn/platform';
import type { TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../dispatcher.ts';
import {
  addMerchant,
  addNote,
  closeDispatcherDatabase,
  openAccount,
  openDispatcherDatabase,
  RecordingMailer,
  randomEin,
} from '../test-helpers.ts';

// Watches made by "watch merchants we search" end: an event after a watch's end notifies no one even
// before the daily pass removes the watch; a watch made longer, or made permanent by a person, notifies.

let db: TestDatabase;
let store: PostgresEventStore;
beforeAll(async () => {
  ({ db, store } = await openDispatcherDatabase());
});
afterAll(() => closeDispatcherDatabase({ db, store }));

const dispatcher = () =>
  new WebhookDispatcher({
    pool: db.pool,
    store,
    mailer: new RecordingMailer(),
    clock: new ManualClock(new Date()),
    logger: createLogger('silent'),
    publicUrl: 'https://mrn.example',
    allowLoopback: true,
    random: () => 0.5,
  });

const subscriptionEvent = (accountId: string, type: string, data: Record<string, unknown>) =>
  store.appendToStream(
    `subscriptions-${accountId}`,
    [{ id: randomUUID(), type, data: { accountId, ...data }, metadata: { source: 'system' } }],
    { expectedRevision: 'any' },
  );
const searchWatch = (accountId: string, fein: string, watchUntil: Date) =>
  subscriptionEvent(accountId, 'MerchantSubscriptionsAdded', {
    feins: [fein],
    source: 'search',
    watchUntil: watchUntil.toISOString(),
  });
const notified = async (accountId: string, fein: string) =>
  (
    await db.pool.query<{ n: number }>(
      `select count(*)::int as n from webhook_deliveries
        where account_id = $1 and payload #>> '{notification,data,merchant_ein}' = $2`,
      [accountId, fein],
    )
  ).rows[0]!.n;

describe('search watches in the dispatcher', () => {
  it('notifies on a watch before its end, not after it, and again once made longer or permanent', async () => {
    const watcher = await openAccount(store, 'Watching Funder', { email: 'alerts@watching.example' });
    const actor = await openAccount(store, 'Reporting Funder');
    const minute = 60_000;
    const [live, ended, extended, permanent, removed] = [1, 2, 3, 4, 5].map(() => randomEin());

    await searchWatch(watcher, live!, new Date(Date.now() + 30 * 86_400_000));
    await searchWatch(watcher, ended!, new Date(Date.now() - minute));
    await searchWatch(watcher, extended!, new Date(Date.now() - minute));
    await searchWatch(watcher, extended!, new Date(Date.now() + 30 * 86_400_000));
    await searchWatch(watcher, permanent!, new Date(Date.now() - minute));
    await subscriptionEvent(watcher, 'MerchantSubscriptionsAdded', { feins: [permanent], source: 'web' });
    await searchWatch(watcher, removed!, new Date(Date.now() + 30 * 86_400_000));
    await subscriptionEvent(watcher, 'MerchantSubscriptionsRemoved', { feins: [removed], reason: 'expired' });

    for (const fein of [live, ended, extended, permanent, removed]) {
      const merchantId = await addMerchant(store, actor, fein!);
      await addNote(store, actor, merchantId);
    }
    await dispatcher().pump();

    // The merchant and its note, by e-mail, for each watch still running at the event.
    expect(await notified(watcher, live!)).toBeGreaterThan(0);
    expect(await notified(watcher, extended!)).toBeGreaterThan(0);
    expect(await notified(watcher, permanent!)).toBeGreaterThan(0);
    expect(await notified(watcher, ended!)).toBe(0);
    expect(await notified(watcher, removed!)).toBe(0);
    const { rows } = await db.pool.query<{ fein: string; watch_until: Date | null }>(
      'select fein, watch_until from webhook_watches where account_id = $1 and fein = any($2::text[])',
      [watcher, [permanent, removed]],
    );
    expect(rows).toEqual([{ fein: permanent, watch_until: null }]);
  });
});
