import { randomUUID } from 'node:crypto';
import { platformMigrations, type RecordedEvent } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { applyBatch } from '../runner.ts';
import { merchantAddedAt, noteAddedAt, recorded } from '../testing/recorded-events.ts';
import { snapshotTables } from '../testing/replay-equality.ts';
import { contributionProjector, contributionSearchesProjector } from './contribution.ts';

// The contribution projectors fed events with chosen times, against hand-computed windows whose edges
// fall exactly on 7, 14, 30 and 90 days (DESIGN §4). Records come from the event log, searches from the
// search log (issue 31): each log's projector is fed its own, and the figures must not depend on which
// log is read first.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
});
afterAll(async () => {
  await db?.drop();
});
const TABLES = [...new Set([...contributionProjector.tables, ...contributionSearchesProjector.tables])];
beforeEach(async () => {
  await db.pool.query(`truncate ${TABLES.join(', ')}`);
  await db.pool.query('delete from subscription_checkpoints');
});

/**
 * Each log's events to its projector, as the runner's two groups read them: the event log's first (or
 * the search log's, with `searchesFirst`), each in its order.
 */
async function apply(events: RecordedEvent[], searchesFirst = false): Promise<void> {
  const searches = events.filter((e) => e.type === 'MerchantSearched');
  const others = events.filter((e) => e.type !== 'MerchantSearched');
  const steps: [typeof contributionProjector, RecordedEvent[]][] = [
    [contributionProjector, others],
    [contributionSearchesProjector, searches],
  ];
  if (searchesFirst) steps.reverse();
  for (const [p, mine] of steps) if (mine.length > 0) await applyBatch(db.pool, p, mine);
}

const snapshot = async () => ({
  ...(await snapshotTables(db.pool, contributionProjector)),
  ...(await snapshotTables(db.pool, contributionSearchesProjector)),
});

const T = new Date('2026-06-30T12:00:00Z');
const DAY = 86_400_000;
const before = (days: number, seconds = 0) => new Date(T.getTime() - days * DAY - seconds * 1000);

const A = randomUUID();
const B = randomUUID();
const user = randomUUID();

const merchantAdded = (accountId: string, at: Date) => merchantAddedAt(accountId, user, at);
const noteAdded = (accountId: string, at: Date) => noteAddedAt(accountId, user, at);
const searched = (accountId: string, at: Date, merchantIds: string[], einSearch = true) =>
  recorded(
    {
      type: 'MerchantSearched',
      data: {
        accountId,
        userId: user,
        source: 'web',
        term: einSearch ? '123456789' : 'bakery',
        einSearch,
        merchantIds,
        hit: merchantIds.length > 0,
      },
    },
    at,
  );
const dayStarted = (at: Date) =>
  recorded({ type: 'ContributionDayStarted', data: { day: at.toISOString().slice(0, 10) } }, at);

/** A's log: records and searches on both sides of every window's edge, in time order. */
function accountALog(): RecordedEvent[] {
  const m = () => randomUUID();
  const events = [
    merchantAdded(A, before(90, 1)), // outside every window
    searched(A, before(90, 1), [m()]), // outside every window
    merchantAdded(A, before(90)), // 90 only (exactly 90 days old)
    searched(A, before(90), [m()]), // 90 only
    searched(A, before(30, 1), [m()]), // 90 only
    noteAdded(A, before(30)), // 30, 90
    searched(A, before(14, 1), [m()]), // 30, 90
    noteAdded(A, before(14)), // 14, 30, 90
    merchantAdded(A, before(7, 1)), // 14, 30, 90
    searched(A, before(7, 1), [m()]), // 14, 30, 90
    merchantAdded(A, before(7)), // every window
    searched(A, before(7), [m()]), // every window
    searched(A, before(2), [m()], false), // a keyword that found one merchant: every window
    searched(A, before(1), [m(), m(), m()], false), // a keyword listing three: not a searched merchant
    searched(A, before(1), []), // a miss: nothing searched
    searched(A, before(1), [m()]), // every window
  ];
  return events;
}

async function figures(accountId: string) {
  const { rows } = await db.pool.query(
    `select ninety_day::float8 as ninety, month::float8 as month, two_week::float8 as two_week,
            week::float8 as week, computed_at from read.account_contribution where account_id = $1`,
    [accountId],
  );
  return rows[0];
}

describe('contribution figures', () => {
  it('counts records and distinct searched merchants inside each window, edges included', async () => {
    await apply([...accountALog(), dayStarted(T)]);
    // added / searched per window, by hand:
    //   7 days:  1 (merchant −7d)                  / 3 (EIN −7d, keyword with one −2d, EIN −1d)
    //   14 days: 3 (+ note −14d, merchant −7d−1s)  / 4 (+ EIN −7d−1s)
    //   30 days: 4 (+ note −30d)                   / 5 (+ EIN −14d−1s)
    //   90 days: 5 (+ merchant −90d)               / 7 (+ EIN −30d−1s, EIN −90d)
    expect(await figures(A)).toEqual({
      ninety: 71.43,
      month: 80,
      two_week: 75,
      week: 33.33,
      computed_at: T,
    });
  });

  it('shows 100 for an account that searched nothing, whatever it added', async () => {
    await apply([
      merchantAdded(B, before(3)),
      searched(B, before(2), [randomUUID(), randomUUID()], false),
      dayStarted(T),
    ]);
    expect(await figures(B)).toMatchObject({ ninety: 100, month: 100, two_week: 100, week: 100 });
  });

  it('counts a merchant searched twice once, inside the window of its latest search', async () => {
    const merchant = randomUUID();
    await apply([
      searched(A, before(20), [merchant]),
      searched(A, before(3), [merchant]),
      merchantAdded(A, before(1)),
      dayStarted(T),
    ]);
    expect(await figures(A)).toMatchObject({ ninety: 100, month: 100, two_week: 100, week: 100 });
  });

  it('slides with the days: a new day recomputes accounts with no event of their own', async () => {
    await apply([...accountALog(), dayStarted(T)]);
    const later = new Date(T.getTime() + 8 * DAY);
    await apply([dayStarted(later)]);
    // Eight days on, the week holds nothing (100); the fortnight (from −6d) holds no add but the
    // searches of −2d and −1d: 0 %.
    expect(await figures(A)).toMatchObject({ week: 100, two_week: 0, computed_at: later });
  });

  it('stays exact when a window moves back or a record older than its start arrives late', async () => {
    // Each window remembers its start and the records before it (migration 0017); these moves must
    // give what a full count gives.
    await apply([...accountALog(), dayStarted(T)]);
    // A time before the figures' (a log read late brings an older event): they stay as of the later
    // time, never move back (each log is read apart, so the later of their times holds).
    await apply([dayStarted(before(1))]);
    expect(await figures(A)).toMatchObject({ week: 33.33, computed_at: T });
    // A merchant added 10 days ago arrives after the recompute: it is inside the 14-, 30- and 90-day
    // windows (4/4, 5/5, 6/7), not the week's (1/3); one 95 days old is in none.
    await apply([dayStarted(T)]);
    await apply([merchantAdded(A, before(10)), merchantAdded(A, before(95)), dayStarted(T)]);
    expect(await figures(A)).toMatchObject({ ninety: 85.71, month: 100, two_week: 100, week: 33.33 });
  });

  it('stays exact when a merchant searched before a window is searched again inside it', async () => {
    const [m1, m2, m3] = [randomUUID(), randomUUID(), randomUUID()];
    await apply([
      merchantAdded(A, before(20)),
      searched(A, before(10), [m1]),
      searched(A, before(3), [m2]),
      merchantAdded(A, before(2)),
      dayStarted(T),
    ]);
    // week 1 add / m2; fortnight 1 / m1, m2; month and 90 days 2 / m1, m2.
    expect(await figures(A)).toMatchObject({ week: 100, two_week: 50, month: 100, ninety: 100 });
    // m1's last search moves from −10d into the week; m3 is first searched at −12d, before the
    // week's start: week 1 / m1, m2; fortnight 1 / m1, m2, m3; month and 90 days 2 / three.
    await apply([searched(A, before(1), [m1]), searched(A, before(12), [m3]), dayStarted(T)]);
    expect(await figures(A)).toMatchObject({ week: 50, two_week: 33.33, month: 66.67, ninety: 66.67 });
  });

  it('gives the same rows fed in small batches as in one, whichever log is read first (replay equality)', async () => {
    const log = [
      ...accountALog(),
      merchantAdded(B, before(3)),
      searched(B, before(3), [randomUUID()]),
      dayStarted(T),
      searched(A, new Date(T.getTime() + 3_600_000), [randomUUID()]),
      dayStarted(new Date(T.getTime() + DAY)),
      noteAdded(B, new Date(T.getTime() + DAY + 60_000)),
    ];
    const sizes = [1, 3, 2, 7];
    for (let i = 0, at = 0; at < log.length; i++) {
      const size = sizes[i % sizes.length]!;
      await apply(log.slice(at, at + size));
      at += size;
    }
    const incremental = await snapshot();
    for (const searchesFirst of [false, true]) {
      await db.pool.query(`truncate ${TABLES.join(', ')}`);
      await db.pool.query('delete from subscription_checkpoints');
      await apply(log, searchesFirst);
      expect(await snapshot()).toEqual(incremental);
    }
    expect(incremental['read.account_contribution']).toHaveLength(2);
  });
});
