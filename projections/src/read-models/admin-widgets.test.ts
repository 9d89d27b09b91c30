import { randomUUID } from 'node:crypto';
import type { NoteCategory } from '@mrn/contracts';
import { PostgresEventStore, platformMigrations, type RecordedEvent } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { applyBatch } from '../runner.ts';
import { recorded } from '../testing/recorded-events.ts';
import { expectRebuildEqualsIncremental, snapshotTables } from '../testing/replay-equality.ts';
import { adminWidgetsProjector } from './admin-widgets.ts';

// The admin widgets projector fed a log of adds, edits and archives, read back against counts worked
// out by hand; the same log cut into other batches gives exactly the same rows.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
});
afterAll(async () => {
  await db?.drop();
});
const reset = async () => {
  await db.pool.query(`truncate ${adminWidgetsProjector.tables.join(', ')}`);
  await db.pool.query('delete from subscription_checkpoints');
};
beforeEach(reset);

const A = randomUUID();
const B = randomUUID();
const user = randomUUID();
const [m1, m2, m3, m4] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
const [n1, n2, n3, n4, n5, n6] = [
  randomUUID(),
  randomUUID(),
  randomUUID(),
  randomUUID(),
  randomUUID(),
  randomUUID(),
];
const at = (minute: number) => new Date(Date.UTC(2026, 10, 2, 12, minute));

const merchantAdded = (merchantId: string, accountId: string, minute: number) =>
  recorded(
    {
      type: 'MerchantAdded',
      data: {
        merchantId,
        fein: '123456789',
        legalName: 'Any LLC',
        dba: null,
        street1: null,
        street2: null,
        city: 'Tampa',
        state: 'FL',
        businessPhone: null,
        businessStartdate: null,
        industry: null,
        accountId,
        userId: user,
      },
    },
    at(minute),
  );
const noteAdded = (
  merchantId: string,
  noteId: string,
  accountId: string,
  category: NoteCategory,
  minute: number,
) =>
  recorded(
    {
      type: 'NoteAdded',
      data: {
        merchantId,
        noteId,
        category,
        note: 'reported',
        submissionSource: null,
        brokerName: null,
        accountId,
        userId: user,
        proxiedCreator: null,
      },
    },
    at(minute),
  );
const noteUpdated = (merchantId: string, noteId: string, category: NoteCategory, minute: number) =>
  recorded(
    {
      type: 'NoteUpdated',
      data: { merchantId, noteId, category, note: 'edited', submissionSource: null, brokerName: null },
    },
    at(minute),
  );
const noteArchived = (merchantId: string, noteId: string, minute: number) =>
  recorded({ type: 'NoteArchived', data: { merchantId, noteId } }, at(minute));
const merchantArchived = (merchantId: string, minute: number) =>
  recorded(
    { type: 'MerchantArchived', data: { merchantId, fein: '123456789', reason: 'dispute' } },
    at(minute),
  );

function log(): RecordedEvent[] {
  return [
    merchantAdded(m1, A, 1),
    noteAdded(m1, n1, A, 'Slow Pay', 1),
    merchantAdded(m2, A, 2),
    noteAdded(m2, n2, A, 'Suspicious Activity', 2),
    noteAdded(m1, n3, B, 'Stacking History', 3), // B reports on A's merchant
    merchantAdded(m3, B, 4),
    noteAdded(m3, n4, B, 'Merchant Dispute', 4),
    noteAdded(m2, n5, B, 'Default', 5),
    noteUpdated(m2, n5, 'Other', 6), // m2's latest note changes category
    noteArchived(m1, n3, 7), // m1's latest note goes: n1 (Slow Pay) is latest again
    noteUpdated(m1, n1, 'Default Account', 8),
    merchantArchived(m3, 9), // m3 and its note n4 leave every figure
    merchantAdded(m4, B, 10),
    noteAdded(m4, n6, B, 'Slow Pay', 10),
    noteArchived(m4, n6, 11), // a live merchant with no live note: counted, not in Recently Reported
  ];
}

const rows = async (sql: string) => (await db.pool.query(sql)).rows;
const accountCounts = () =>
  rows('select account_id, merchants, notes from read.widget_account_counts order by merchants desc, notes');
const categoryCounts = () =>
  rows('select category, merchants from read.widget_category_counts order by category');
const recent = () =>
  rows(`select merchant_id, latest_category, latest_at from read.widget_merchants
         where not archived and latest_at is not null order by latest_at desc, merchant_id desc`);

describe('admin widgets projector', () => {
  it('counts live merchants and notes per account and per latest category, after edits and archives', async () => {
    await applyBatch(db.pool, adminWidgetsProjector, log());
    // A: m1, m2 and notes n1, n2 (n3 on m1 is B's, archived). B: m4 (m3 archived); n5 only (n3 and n6
    // archived, n4 with its merchant).
    expect(await accountCounts()).toEqual([
      { account_id: A, merchants: 2, notes: 2 },
      { account_id: B, merchants: 1, notes: 1 },
    ]);
    // m1's latest is n1, now Default Account; m2's is n5, now Other; m4 has none; m3 is archived.
    expect(await categoryCounts()).toEqual([
      { category: 'Default Account', merchants: 1 },
      { category: 'Other', merchants: 1 },
    ]);
    expect(await recent()).toEqual([
      { merchant_id: m2, latest_category: 'Other', latest_at: at(5) },
      { merchant_id: m1, latest_category: 'Default Account', latest_at: at(1) },
    ]);
  });

  it('follows the counts event by event: a note added and archived, a merchant archived', async () => {
    const events = log();
    const after = async (n: number) => {
      await reset();
      await applyBatch(db.pool, adminWidgetsProjector, events.slice(0, n));
      return { accounts: await accountCounts(), categories: await categoryCounts() };
    };
    // Through n3: m1's latest is B's Stacking History note.
    expect(await after(5)).toEqual({
      accounts: [
        { account_id: A, merchants: 2, notes: 2 },
        { account_id: B, merchants: 0, notes: 1 },
      ],
      categories: [
        { category: 'Stacking History', merchants: 1 },
        { category: 'Suspicious Activity', merchants: 1 },
      ],
    });
    // Through m3's Merchant Dispute note: it counts (platform admins see it).
    expect((await after(7)).categories).toContainEqual({ category: 'Merchant Dispute', merchants: 1 });
    // n3 archived: m1 is back under Slow Pay; B's note count drops.
    expect(await after(10)).toEqual({
      accounts: [
        { account_id: A, merchants: 2, notes: 2 },
        { account_id: B, merchants: 1, notes: 2 },
      ],
      categories: [
        { category: 'Merchant Dispute', merchants: 1 },
        { category: 'Other', merchants: 1 },
        { category: 'Slow Pay', merchants: 1 },
      ],
    });
    // m3 archived: its merchant and its note leave B's counts and Merchant Dispute's.
    expect(await after(12)).toEqual({
      accounts: [
        { account_id: A, merchants: 2, notes: 2 },
        { account_id: B, merchants: 0, notes: 1 },
      ],
      categories: [
        { category: 'Default Account', merchants: 1 },
        { category: 'Other', merchants: 1 },
      ],
    });
  });

  it('gives the same rows whatever the batches: one by one, in twos, threes, all at once', async () => {
    const events = log();
    await applyBatch(db.pool, adminWidgetsProjector, events);
    const once = await snapshotTables(db.pool, adminWidgetsProjector);
    for (const size of [1, 2, 3]) {
      await reset();
      for (let i = 0; i < events.length; i += size) {
        await applyBatch(db.pool, adminWidgetsProjector, events.slice(i, i + size));
      }
      expect(await snapshotTables(db.pool, adminWidgetsProjector)).toEqual(once);
    }
  });

  it('rebuilds from the event store exactly the rows incremental tailing made (deferred indexes rebuilt)', async () => {
    const store = new PostgresEventStore(db.pool);
    try {
      // Each merchant's events in its own stream, in log order.
      for (const e of log()) {
        const merchantId = (e.data as { merchantId: string }).merchantId;
        await store.appendToStream(
          `merchant-${merchantId}`,
          [{ id: randomUUID(), type: e.type, data: e.data }],
          {
            expectedRevision: 'any',
          },
        );
      }
      const rows = await expectRebuildEqualsIncremental({ pool: db.pool, store }, adminWidgetsProjector);
      expect(rows['read.widget_category_counts']).toHaveLength(2);
      const indexes = await db.pool.query(
        "select indexname from pg_indexes where schemaname = 'read' and tablename = 'widget_merchants' order by 1",
      );
      expect(indexes.rows.map((r) => r.indexname)).toEqual([
        'widget_merchants_pkey',
        'widget_merchants_recent',
        'widget_merchants_recent_category',
      ]);
    } finally {
      await store.close();
    }
  });

  it('takes several notes of one merchant edited and archived in one batch, and never revives an archived note', async () => {
    const [m, a, b, c] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await applyBatch(db.pool, adminWidgetsProjector, [
      merchantAdded(m, A, 1),
      noteAdded(m, a, A, 'Slow Pay', 1),
      noteAdded(m, b, B, 'Default', 2),
      noteAdded(m, c, B, 'Other', 3),
    ]);
    await applyBatch(db.pool, adminWidgetsProjector, [
      noteArchived(m, c, 4),
      noteUpdated(m, a, 'Stacking History', 5),
      noteUpdated(m, b, 'Criminal History', 5),
      noteUpdated(m, c, 'Default Account', 6), // archived already: no effect
    ]);
    // b is the newest live note, now Criminal History; c's edit changed nothing.
    expect(await recent()).toEqual([
      { merchant_id: m, latest_category: 'Criminal History', latest_at: at(2) },
    ]);
    expect(await accountCounts()).toEqual([
      { account_id: A, merchants: 1, notes: 1 },
      { account_id: B, merchants: 0, notes: 1 },
    ]);
    await applyBatch(db.pool, adminWidgetsProjector, [noteArchived(m, b, 7)]);
    expect(await categoryCounts()).toEqual([{ category: 'Stacking History', merchants: 1 }]);
  });
});
