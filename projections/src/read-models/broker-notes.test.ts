import { randomUUID } from 'node:crypto';
import { brokerKey, type DomainEvent } from '@mrn/contracts';
import { platformMigrations, type RecordedEvent } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { applyBatch } from '../runner.ts';
import { recorded } from '../testing/recorded-events.ts';
import { snapshotTables } from '../testing/replay-equality.ts';
import { brokerNotesProjector } from './broker-notes.ts';

// Broker records' projector (issue 24) fed notes naming brokers, read back by broker key: spellings
// of one broker meet (I.S.O. is ISO), each kept tidied, an edit moves a note to another broker or none,
// archived notes and merchants leave, and any batching of the log gives the same rows.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
});
afterAll(async () => {
  await db?.drop();
});
beforeEach(async () => {
  await db.pool.query('truncate read.broker_notes');
});

const T0 = new Date('2026-11-01T12:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const account = randomUUID();
const user = randomUUID();
const [m1, m2, m3] = [randomUUID(), randomUUID(), randomUUID()];
const [n1, n2, n3, n4, n5] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];

const note = (
  type: 'NoteAdded' | 'NoteUpdated',
  merchantId: string,
  noteId: string,
  brokerName: string | null,
  minutes: number,
  category: 'Default' | 'Slow Pay' | 'Merchant Dispute' = 'Default',
): RecordedEvent =>
  recorded(
    {
      type,
      data: {
        merchantId,
        noteId,
        category,
        note: 'text',
        submissionSource: brokerName ? 'broker' : 'in-house',
        brokerName,
        ...(type === 'NoteAdded' ? { accountId: account, userId: user, proxiedCreator: null } : {}),
      },
    } as DomainEvent,
    at(minutes),
  );

const log = (): RecordedEvent[] => [
  note('NoteAdded', m1, n1, 'Main Street Brokers, LLC.', 0),
  note('NoteAdded', m2, n2, '  main street   BROKERS llc', 1, 'Slow Pay'),
  note('NoteAdded', m3, n3, 'Gulf  Coast I.S.O. ', 2),
  // In-house, and a Merchant Dispute note (platform administrators' only): no broker record.
  note('NoteAdded', m3, n4, null, 3),
  note('NoteAdded', m2, n5, 'Gulf Coast ISO', 4, 'Merchant Dispute'),
  // m3's broker note edited to name Main Street: it moves, keeping its first report's time.
  note('NoteUpdated', m3, n3, 'MAIN STREET BROKERS LLC', 5),
];

const rows = async () =>
  (
    await db.pool.query(
      `select broker_key, broker_name, merchant_id, reported_at from read.broker_notes order by reported_at`,
    )
  ).rows;

describe('broker notes', () => {
  it('meets every spelling of one broker under one key, and follows an edit', async () => {
    await applyBatch(db.pool, brokerNotesProjector, log());
    const key = brokerKey('Main Street Brokers LLC');
    expect(key).toBe('main street brokers llc');
    expect(await rows()).toEqual([
      { broker_key: key, broker_name: 'Main Street Brokers, LLC.', merchant_id: m1, reported_at: at(0) },
      { broker_key: key, broker_name: 'main street BROKERS llc', merchant_id: m2, reported_at: at(1) },
      { broker_key: key, broker_name: 'MAIN STREET BROKERS LLC', merchant_id: m3, reported_at: at(2) },
    ]);
  });

  it('keys I.S.O. as ISO and keeps the name tidied', async () => {
    await applyBatch(db.pool, brokerNotesProjector, log().slice(0, 3));
    expect((await rows())[2]).toMatchObject({
      broker_key: 'gulf coast iso',
      broker_name: 'Gulf Coast I.S.O.',
    });
  });

  it('drops an archived note and every note of an archived merchant', async () => {
    await applyBatch(db.pool, brokerNotesProjector, [
      ...log(),
      recorded({ type: 'NoteArchived', data: { merchantId: m1, noteId: n1 } }, at(6)),
      recorded(
        { type: 'MerchantArchived', data: { merchantId: m2, fein: '123456789', reason: 'Duplicate' } },
        at(7),
      ),
    ]);
    expect((await rows()).map((r) => r.merchant_id)).toEqual([m3]);
  });

  it('gives the same rows whatever the batches', async () => {
    const events = log();
    await applyBatch(db.pool, brokerNotesProjector, events);
    const once = await snapshotTables(db.pool, brokerNotesProjector);
    for (const size of [1, 2]) {
      await db.pool.query('truncate read.broker_notes');
      for (let i = 0; i < events.length; i += size)
        await applyBatch(db.pool, brokerNotesProjector, events.slice(i, i + size));
      expect(await snapshotTables(db.pool, brokerNotesProjector)).toEqual(once);
    }
  });
});
