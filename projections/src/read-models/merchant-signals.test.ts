import { randomUUID } from 'node:crypto';
import type { DomainEvent, NoteCategory } from '@mrn/contracts';
import { platformMigrations, type RecordedEvent } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { REPLAYING } from '../projector.ts';
import { applyBatch } from '../runner.ts';
import { recorded } from '../testing/recorded-events.ts';
import { snapshotTables } from '../testing/replay-equality.ts';
import { merchantSignalsProjector } from './merchant-signals.ts';

// The risk signals' projector (issue 32) fed notes and disputes, read back per merchant: each group's
// report times, distinct funders, an edit moving a note between groups, an archived note leaving, and
// the same rows whatever the batching, and from a replay (which builds the summaries once at the end).

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
});
afterAll(async () => {
  await db?.drop();
});
const empty = () => db.pool.query('truncate read.signal_notes, read.merchant_signals, read.signal_disputes');
beforeEach(empty);

const T0 = new Date('2026-11-01T12:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const [summit, harbor] = [randomUUID(), randomUUID()];
const user = randomUUID();
const [m1, m2] = [randomUUID(), randomUUID()];
const ids = Array.from({ length: 8 }, () => randomUUID());

const added = (
  merchantId: string,
  noteId: string,
  category: NoteCategory,
  accountId: string,
  minutes: number,
) =>
  recorded(
    {
      type: 'NoteAdded',
      data: {
        merchantId,
        noteId,
        category,
        note: 'text',
        submissionSource: 'in-house',
        brokerName: null,
        accountId,
        userId: user,
        proxiedCreator: null,
      },
    } as DomainEvent,
    at(minutes),
  );
const updated = (merchantId: string, noteId: string, category: NoteCategory, minutes: number) =>
  recorded(
    {
      type: 'NoteUpdated',
      data: { merchantId, noteId, category, note: 'edited', submissionSource: 'in-house', brokerName: null },
    } as DomainEvent,
    at(minutes),
  );
const dispute = randomUUID();

const log = (): RecordedEvent[] => [
  added(m1, ids[0]!, 'Default', summit, 0),
  added(m1, ids[1]!, 'Default Account', harbor, 1),
  added(m1, ids[2]!, 'Stacking History', harbor, 2),
  added(m1, ids[3]!, 'Default Satisfied', summit, 3),
  // A Merchant Dispute note counts nowhere.
  added(m1, ids[4]!, 'Merchant Dispute', summit, 4),
  added(m2, ids[5]!, 'Slow Pay', summit, 5),
  // m2's note edited into Suspicious Activity: it moves group, keeping its time.
  updated(m2, ids[5]!, 'Suspicious Activity', 6),
  added(m2, ids[6]!, 'Other', harbor, 7),
  recorded({ type: 'NoteArchived', data: { merchantId: m2, noteId: ids[6]! } }, at(8)),
  recorded(
    {
      type: 'DisputeSubmitted',
      data: {
        disputeId: dispute,
        firstName: 'Ann',
        lastName: 'Owner',
        email: 'ann@example.com',
        fein: '12-3456789',
        legalName: 'Acme LLC',
        dba: null,
        city: 'Austin',
        state: 'TX',
        reason: 'Not us',
      },
    } as DomainEvent,
    at(9),
  ),
  recorded(
    {
      type: 'DisputeSubmitted',
      data: {
        disputeId: randomUUID(),
        firstName: 'Ann',
        lastName: 'Owner',
        email: 'ann@example.com',
        fein: '123456789',
        legalName: 'Acme LLC',
        dba: null,
        city: 'Austin',
        state: 'TX',
        reason: 'Still not us',
      },
    } as DomainEvent,
    at(10),
  ),
  recorded(
    {
      type: 'DisputeResolved',
      data: {
        disputeId: dispute,
        resolution: 'rejected',
        explanation: 'Reported correctly.',
        merchantId: null,
        noteId: null,
        resolvedByUserId: user,
      },
    } as DomainEvent,
    at(11),
  ),
];

const summaries = async () =>
  Object.fromEntries(
    (
      await db.pool.query<{ merchant_id: string; funders: number; reports: unknown }>(
        'select merchant_id, funders, reports from read.merchant_signals',
      )
    ).rows.map((r) => [r.merchant_id, { funders: r.funders, reports: r.reports }]),
  );

describe('merchant signals', () => {
  it("keeps each merchant's report times by group and its distinct funders", async () => {
    await applyBatch(db.pool, merchantSignalsProjector, log());
    expect(await summaries()).toEqual({
      [m1]: {
        funders: 2,
        reports: {
          default: [at(0).getTime(), at(1).getTime()],
          stacking_history: [at(2).getTime()],
          satisfied: [at(3).getTime()],
        },
      },
      [m2]: { funders: 1, reports: { suspicious_activity: [at(5).getTime()] } },
    });
    const disputes = await db.pool.query('select fein, resolved from read.signal_disputes order by resolved');
    expect(disputes.rows).toEqual([
      { fein: '123456789', resolved: false },
      { fein: '123456789', resolved: true },
    ]);
  });

  it('drops the summary of a merchant left with no note that counts', async () => {
    await applyBatch(db.pool, merchantSignalsProjector, [
      added(m2, ids[7]!, 'Slow Pay', summit, 0),
      recorded({ type: 'NoteArchived', data: { merchantId: m2, noteId: ids[7]! } }, at(1)),
    ]);
    expect(await summaries()).toEqual({});
  });

  it('gives the same rows whatever the batches, and from a replay', async () => {
    const events = log();
    await applyBatch(db.pool, merchantSignalsProjector, events);
    const once = await snapshotTables(db.pool, merchantSignalsProjector);
    for (const size of [1, 2, 5]) {
      await empty();
      for (let i = 0; i < events.length; i += size)
        await applyBatch(db.pool, merchantSignalsProjector, events.slice(i, i + size));
      expect(await snapshotTables(db.pool, merchantSignalsProjector)).toEqual(once);
    }
    // A replay keeps no summary while it reads the log, then builds them all once.
    await empty();
    await applyBatch(db.pool, merchantSignalsProjector, events, REPLAYING);
    expect(await summaries()).toEqual({});
    const client = await db.pool.connect();
    try {
      for (const build of merchantSignalsProjector.derived!.builds) await build(client);
    } finally {
      client.release();
    }
    expect(await snapshotTables(db.pool, merchantSignalsProjector)).toEqual(once);
  });
});
