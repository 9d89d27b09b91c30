import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@mrn/contracts';
import { PostgresEventStore, platformMigrations } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { expectRebuildEqualsIncremental } from '../testing/replay-equality.ts';
import { merchantSubscriptionsProjector } from './merchant-subscriptions.ts';

// The subscriptions read model fed real events through the store, read back, and rebuilt from the log
// with the same rows as when it was fed in small live batches.

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
const B = randomUUID();
const importId = randomUUID();

const append = (accountId: string, events: DomainEvent[]) =>
  store.appendToStream(
    `subscriptions-${accountId}`,
    events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data })),
    { expectedRevision: 'any' },
  );

describe('merchant subscriptions projector', () => {
  it('keeps each account’s watched EINs and its imports, and replays to the same rows', async () => {
    await append(A, [
      {
        type: 'MerchantSubscriptionsAdded',
        data: { accountId: A, feins: ['111111111', '222222222'], source: 'web' },
      },
    ]);
    await append(B, [
      { type: 'MerchantSubscriptionsAdded', data: { accountId: B, feins: ['111111111'], source: 'api' } },
    ]);
    await append(A, [
      { type: 'MerchantSubscriptionsRemoved', data: { accountId: A, feins: ['111111111'] } },
      {
        type: 'SubscriptionImportQueued',
        data: { accountId: A, importId, fileName: 'eins.csv', fileSize: 33 },
      },
      { type: 'SubscriptionImportStarted', data: { accountId: A, importId } },
      {
        type: 'MerchantSubscriptionsAdded',
        data: { accountId: A, feins: ['333333333', '111111111'], source: 'import' },
      },
      {
        type: 'SubscriptionImportFinished',
        data: { accountId: A, importId, processed: 3, imported: 2, skipped: 1, errors: 0 },
      },
    ]);
    const rows = await expectRebuildEqualsIncremental(
      { pool: db.pool, store },
      merchantSubscriptionsProjector,
    );
    expect(rows['read.merchant_subscriptions']).toHaveLength(4);
    const watched = await db.pool.query<{ account_id: string; fein: string }>(
      'select account_id, fein from read.merchant_subscriptions order by account_id = $1 desc, fein',
      [A],
    );
    expect(watched.rows.map((r) => [r.account_id === A ? 'A' : 'B', r.fein])).toEqual([
      ['A', '111111111'],
      ['A', '222222222'],
      ['A', '333333333'],
      ['B', '111111111'],
    ]);
    const imports = await db.pool.query(
      'select account_id, status, imported, skipped, errors, processed from read.merchant_subscription_imports',
    );
    expect(imports.rows).toEqual([
      { account_id: A, status: 'done', imported: 2, skipped: 1, errors: 0, processed: 3 },
    ]);
  });
});
