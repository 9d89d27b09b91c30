import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@mrn/contracts';
import { PostgresEventStore, platformMigrations } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { expectRebuildEqualsIncremental } from '../testing/replay-equality.ts';
import { accountsProjector } from './accounts.ts';
import { merchantSubscriptionsProjector } from './merchant-subscriptions.ts';

// "Watch merchants we search" in the read models: each watched EIN says how it came to be watched and
// until when a search watch lasts; the account row carries the setting (off and 12 months for events
// written before it existed). Both rebuild from the log to the rows they had when fed live.

let db: TestDatabase;
let store: PostgresEventStore;
beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
  store = new PostgresEventStore(db.pool);
});
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

const A = randomUUID();
const append = (streamId: string, events: DomainEvent[]) =>
  store.appendToStream(
    streamId,
    events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data })),
    { expectedRevision: 'any' },
  );
const JUNE = '2027-06-01T10:00:00.000Z';
const JULY = '2027-07-01T10:00:00.000Z';

describe('search watches in the subscriptions read model', () => {
  it('keeps source and end, makes a watch longer or permanent in place, and replays to the same rows', async () => {
    const sub = `subscriptions-${A}`;
    await append(sub, [
      { type: 'MerchantSubscriptionsAdded', data: { accountId: A, feins: ['111111111'], source: 'web' } },
      {
        type: 'MerchantSubscriptionsAdded',
        data: {
          accountId: A,
          feins: ['222222222', '333333333', '444444444'],
          source: 'search',
          watchUntil: JUNE,
        },
      },
    ]);
    await append(sub, [
      // A later search: longer. A person subscribing: permanent. The daily pass: gone.
      {
        type: 'MerchantSubscriptionsAdded',
        data: { accountId: A, feins: ['222222222'], source: 'search', watchUntil: JULY },
      },
      { type: 'MerchantSubscriptionsAdded', data: { accountId: A, feins: ['333333333'], source: 'web' } },
      {
        type: 'MerchantSubscriptionsRemoved',
        data: { accountId: A, feins: ['444444444'], reason: 'expired' },
      },
    ]);
    await expectRebuildEqualsIncremental({ pool: db.pool, store }, merchantSubscriptionsProjector);
    const { rows } = await db.pool.query<{
      fein: string;
      source: string;
      watch_until: Date | null;
      created_at: Date;
    }>(
      'select fein, source, watch_until, created_at from read.merchant_subscriptions where account_id = $1 order by fein',
      [A],
    );
    expect(rows.map((r) => [r.fein, r.source, r.watch_until?.toISOString() ?? null])).toEqual([
      ['111111111', 'web', null],
      ['222222222', 'search', JULY],
      ['333333333', 'web', null],
    ]);
    // Made longer or permanent, an EIN keeps the date it was first watched (the first search's).
    const searched = await db.pool.query<{ recorded_at: Date }>(
      'select recorded_at from events where stream_id = $1 and revision = 1',
      [sub],
    );
    expect(rows[1]!.created_at).toEqual(searched.rows[0]!.recorded_at);
    expect(rows[2]!.created_at).toEqual(searched.rows[0]!.recorded_at);
  });

  it('carries the setting on the account row; an old AccountUpdated reads as off, 12 months', async () => {
    const opened = (accountId: string): DomainEvent => ({
      type: 'AccountOpened',
      data: {
        accountId,
        name: 'Granite',
        website: null,
        primaryContactEmail: 'ops@granite.example',
        planLevel: 'PRO',
        membershipStatus: 'active',
        isPlatform: false,
      },
    });
    const details = (accountId: string) => ({
      accountId,
      name: 'Granite',
      website: null,
      primaryContactEmail: 'ops@granite.example',
      merchantSubscriptionEnabled: true,
      merchantSubscriptionNotificationEmail: null,
      merchantSubscriptionNotificationWebhook: null,
    });
    const [on, old] = [randomUUID(), randomUUID()];
    await append(`account-${on}`, [
      opened(on),
      {
        type: 'AccountUpdated',
        data: { ...details(on), watchSearchedMerchants: true, watchSearchedMonths: 6 },
      },
    ]);
    // Written before the setting existed, after the setting had been on.
    await append(`account-${old}`, [
      opened(old),
      {
        type: 'AccountUpdated',
        data: { ...details(old), watchSearchedMerchants: true, watchSearchedMonths: 6 },
      },
      { type: 'AccountUpdated', data: details(old) },
    ]);
    await expectRebuildEqualsIncremental({ pool: db.pool, store }, accountsProjector);
    const { rows } = await db.pool.query(
      'select id, watch_searched_merchants, watch_searched_months from read.accounts where id = any($1::uuid[])',
      [[on, old]],
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { id: on, watch_searched_merchants: true, watch_searched_months: 6 },
        { id: old, watch_searched_merchants: false, watch_searched_months: 12 },
      ]),
    );
  });
});
