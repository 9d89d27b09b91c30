import { streams } from '@mrn/contracts';
import { PostgresEventStore, platformMigrations } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContributionDay, utcDay } from './contribution-clock.ts';

let db: TestDatabase;
let store: PostgresEventStore;
beforeAll(async () => {
  db = await createTestDatabase(platformMigrations());
  store = new PostgresEventStore(db.pool);
});
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

async function days(): Promise<string[]> {
  const out: string[] = [];
  for await (const e of store.readStream(streams.contributionClock()))
    out.push((e.data as { day: string }).day);
  return out;
}

describe('the contribution clock', () => {
  it('starts a UTC day once, however many processes try at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => startContributionDay(store, '2026-11-24')),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await startContributionDay(store, '2026-11-24')).toBe(false);
    expect(await startContributionDay(store, '2026-11-25')).toBe(true);
    // A day that already passed (a late process, a clock behind) is not started again.
    expect(await startContributionDay(store, '2026-11-23')).toBe(false);
    expect(await days()).toEqual(['2026-11-24', '2026-11-25']);
  });

  it('names the UTC day, not the local one', () => {
    expect(utcDay(new Date('2026-11-24T23:59:59.999Z'))).toBe('2026-11-24');
    expect(utcDay(new Date('2026-11-25T00:00:00.000Z'))).toBe('2026-11-25');
  });
});
