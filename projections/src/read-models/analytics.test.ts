import { randomUUID } from 'node:crypto';
import type { EventData } from '@mrn/contracts';
import { platformMigrations, type RecordedEvent } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { applyBatch } from '../runner.ts';
import { merchantAddedAt, noteAddedAt, recorded } from '../testing/recorded-events.ts';
import { snapshotTables } from '../testing/replay-equality.ts';
import { analyticsProjector, analyticsSearchesProjector } from './analytics.ts';

// The analytics projector fed events with chosen times, read back against hand-computed counts,
// with events on both sides of UTC midnight; the same log in other batch sizes gives the same rows.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
});
afterAll(async () => {
  await db?.drop();
});
const TABLES = [...analyticsProjector.tables, ...analyticsSearchesProjector.tables];
beforeEach(async () => {
  await db.pool.query(`truncate ${TABLES.join(', ')}`);
  await db.pool.query('delete from subscription_checkpoints');
});

/** Each log's events to its projector (issue 31: searches are the search log's). */
async function apply(events: RecordedEvent[]): Promise<void> {
  const searches = events.filter((e) => e.type === 'MerchantSearched');
  const others = events.filter((e) => e.type !== 'MerchantSearched');
  if (others.length > 0) await applyBatch(db.pool, analyticsProjector, others);
  if (searches.length > 0) await applyBatch(db.pool, analyticsSearchesProjector, searches);
}
const snapshot = async () => ({
  ...(await snapshotTables(db.pool, analyticsProjector)),
  ...(await snapshotTables(db.pool, analyticsSearchesProjector)),
});

const A = randomUUID();
const B = randomUUID();
const user = randomUUID();
/** Just before and at UTC midnight between 1 and 2 November 2026 (8 pm and 7 pm the evening before in New York). */
const LAST_MS = new Date('2026-11-01T23:59:59.999Z');
const MIDNIGHT = new Date('2026-11-02T00:00:00.000Z');

const searched = (
  accountId: string,
  at: Date,
  source: 'web' | 'api',
  categories: (string | null)[],
  extra: Partial<EventData<'MerchantSearched'>> = {},
) =>
  recorded(
    {
      type: 'MerchantSearched',
      data: {
        accountId,
        userId: user,
        source,
        term: '123456789',
        einSearch: true,
        merchantIds: categories.map(() => randomUUID()),
        hit: categories.length > 0,
        categories,
        ...extra,
      },
    },
    at,
  );
const merchantAdded = (accountId: string, at: Date) => merchantAddedAt(accountId, user, at);
const noteAdded = (accountId: string, at: Date) => noteAddedAt(accountId, user, at);

function log(): RecordedEvent[] {
  return [
    searched(A, LAST_MS, 'web', ['Slow Pay']),
    searched(A, LAST_MS, 'api', []),
    searched(A, MIDNIGHT, 'api', ['Slow Pay', 'Stacking History']),
    searched(A, MIDNIGHT, 'web', [null]),
    // Recorded before categories were kept: a hit, in no category.
    searched(A, MIDNIGHT, 'web', [], { merchantIds: [randomUUID()], hit: true, categories: undefined }),
    merchantAdded(A, LAST_MS),
    noteAdded(A, LAST_MS),
    noteAdded(A, MIDNIGHT),
    merchantAdded(B, MIDNIGHT),
    searched(B, MIDNIGHT, 'web', ['Default']),
  ];
}

const daily = async () =>
  (
    await db.pool.query(
      `select account_id, to_char(day, 'YYYY-MM-DD') as day,
              coalesce(s.web_searches, 0) as web_searches, coalesce(s.api_searches, 0) as api_searches,
              coalesce(s.hits, 0) as hits, coalesce(a.merchants_added, 0) as merchants_added,
              coalesce(a.notes_added, 0) as notes_added
         from read.analytics_daily a full join read.analytics_daily_searches s using (account_id, day)
        order by account_id = $1 desc, day`,
      [A],
    )
  ).rows;
const hits = async () =>
  (
    await db.pool.query(
      `select account_id, to_char(day, 'YYYY-MM-DD') as day, category, hits from read.analytics_daily_hits
        order by account_id = $1 desc, day, category`,
      [A],
    )
  ).rows;

describe('analytics projector', () => {
  it('counts searches by source, hits and additions per account and UTC day', async () => {
    await apply(log());
    expect(await daily()).toEqual([
      {
        account_id: A,
        day: '2026-11-01',
        web_searches: 1,
        api_searches: 1,
        hits: 1,
        merchants_added: 1,
        notes_added: 1,
      },
      {
        account_id: A,
        day: '2026-11-02',
        web_searches: 2,
        api_searches: 1,
        hits: 3,
        merchants_added: 0,
        notes_added: 1,
      },
      {
        account_id: B,
        day: '2026-11-02',
        web_searches: 1,
        api_searches: 0,
        hits: 1,
        merchants_added: 1,
        notes_added: 0,
      },
    ]);
    expect(await hits()).toEqual([
      { account_id: A, day: '2026-11-01', category: 'Slow Pay', hits: 1 },
      { account_id: A, day: '2026-11-02', category: 'Slow Pay', hits: 1 },
      { account_id: A, day: '2026-11-02', category: 'Stacking History', hits: 1 },
      { account_id: B, day: '2026-11-02', category: 'Default', hits: 1 },
    ]);
  });

  it('gives the same rows whatever the batches: one by one, in threes, all at once', async () => {
    const events = log();
    await apply(events);
    const once = await snapshot();
    for (const size of [1, 3]) {
      await db.pool.query(`truncate ${TABLES.join(', ')}`);
      await db.pool.query('delete from subscription_checkpoints');
      for (let i = 0; i < events.length; i += size) await apply(events.slice(i, i + size));
      expect(await snapshot()).toEqual(once);
    }
  });
});
