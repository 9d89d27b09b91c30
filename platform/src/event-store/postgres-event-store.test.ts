import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { FeedLog } from '../consumer/feed-log.ts';
import { createTestDatabase } from '../testing.ts';
import { eventStoreContract } from './contract.ts';
import { START } from './position.ts';
import { PostgresEventStore } from './postgres-event-store.ts';

eventStoreContract('Postgres', async () => {
  const db = await createTestDatabase();
  const store = new PostgresEventStore(db.pool, { listenUrl: db.url, pollIntervalMs: 200 });
  return {
    store,
    dispose: async () => {
      await store.close();
      await db.drop();
    },
  };
});

describe('a subscriber that says which types it handles (wakeFor)', () => {
  it('is not woken by appends of other types, here or in another process, and still gets every event', async () => {
    const db = await createTestDatabase();
    // No poll during the test: only a wake-up can make the subscriber read.
    const here = new PostgresEventStore(db.pool, { listenUrl: db.url, pollIntervalMs: 60_000 });
    const elsewhere = new PostgresEventStore(db.pool, { listenUrl: db.url, pollIntervalMs: 60_000 });
    const stop = new AbortController();
    const batches: string[][] = [];
    let caughtUp: () => void = () => undefined;
    const firstCaughtUp = new Promise<void>((resolve) => {
      caughtUp = resolve;
    });
    try {
      const subscribed = here.subscribeToAll({
        fromPosition: START,
        signal: stop.signal,
        wakeFor: (type) => type === 'Wanted',
        onCaughtUp: () => caughtUp(),
        onBatch: async (events) => {
          batches.push(events.map((e) => e.type));
        },
      });
      // Its first read done (a loaded machine may take longer than any fixed pause), and its check for
      // rows still in flight after it: from now on only a wake-up makes it read.
      await firstCaughtUp;
      await new Promise((r) => setTimeout(r, 200));
      await here.appendToStream('s-1', [{ id: randomUUID(), type: 'Other', data: {} }], {
        expectedRevision: 'any',
      });
      await elsewhere.appendMany([
        { streamId: 's-2', expectedRevision: 'any', events: [{ id: randomUUID(), type: 'Other', data: {} }] },
      ]);
      await new Promise((r) => setTimeout(r, 300));
      expect(batches).toEqual([]);
      await elsewhere.appendToStream('s-3', [{ id: randomUUID(), type: 'Wanted', data: {} }], {
        expectedRevision: 'any',
      });
      await vi.waitFor(() => expect(batches.flat()).toEqual(['Other', 'Other', 'Wanted']), { timeout: 2000 });
      stop.abort();
      await subscribed;
    } finally {
      stop.abort();
      await here.close();
      await elsewhere.close();
      await db.drop();
    }
  });

  it('waits while only rows of other types are held back by an open transaction, and reads one it handles once it is released', async () => {
    const db = await createTestDatabase();
    // Each read of the log that left nothing visible unread ends in onCaughtUp: reads are counted there.
    let reads = 0;
    const store = new PostgresEventStore(db.pool, { listenUrl: db.url, pollIntervalMs: 60_000 });
    const stop = new AbortController();
    const delivered: string[] = [];
    // An older transaction, open: every row committed after it stays behind the horizon until it ends.
    const older = new pg.Client({ connectionString: db.url });
    await older.connect();
    const subscribed = store
      .subscribeToAll({
        fromPosition: START,
        signal: stop.signal,
        wakeFor: (type) => type === 'Wanted',
        onCaughtUp: () => {
          reads++;
        },
        onBatch: async (events) => {
          delivered.push(...events.map((e) => e.type));
        },
      })
      .catch((err: unknown) => err);
    try {
      await vi.waitFor(() => expect(reads).toBeGreaterThan(0), { timeout: 10_000, interval: 10 });
      await older.query('begin');
      await older.query('select pg_current_xact_id()');
      await store.appendToStream('held-1', [{ id: randomUUID(), type: 'Other', data: {} }], {
        expectedRevision: 'any',
      });
      // A wake-up for a type it handles (as another process's append of one announces it) makes it read;
      // it finds the held row, of a type it does not handle, and goes back to waiting instead of looking
      // again every few milliseconds until the older transaction ends.
      const before = reads;
      await db.pool.query(`select pg_notify('mrn_events', 'Wanted')`);
      await vi.waitFor(() => expect(reads - before).toBeGreaterThan(0), { timeout: 10_000, interval: 10 });
      await new Promise((r) => setTimeout(r, 500));
      expect(reads - before).toBe(1);
      expect(delivered).toEqual([]);

      // A held row it handles: it looks again until the row is released and then reads it, though the end
      // of the older transaction wakes no one and the poll is a minute away. (How soon depends on the
      // test cluster's other transactions too: the horizon is the whole server's.)
      await store.appendToStream('held-2', [{ id: randomUUID(), type: 'Wanted', data: {} }], {
        expectedRevision: 'any',
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(delivered).toEqual([]);
      await older.query('commit');
      await vi.waitFor(() => expect(delivered).toEqual(['Other', 'Wanted']), {
        timeout: 20_000,
        interval: 5,
      });
      // Stopped, it ends at once (it hung here in CI, a minute-long poll away, before a stop that came
      // while it read was seen by its wait).
      stop.abort();
      const ended = await Promise.race([
        subscribed.then(() => 'ended'),
        new Promise((r) => setTimeout(() => r('still reading'), 5000)),
      ]);
      expect(ended).toBe('ended');
    } finally {
      stop.abort();
      // The subscription ends before the database is dropped (a failed step must not leave it reading);
      // bounded, so that a hang shows as this test's failure and not as a timeout with no step named.
      await Promise.race([subscribed, new Promise((r) => setTimeout(r, 5000))]);
      await older.query('rollback').catch(() => undefined);
      await older.end();
      await store.close();
      await db.drop();
    }
  }, 60_000);
});

/**
 * Subscribes with a stop that comes while the subscriber is busy (in its caught-up hook), before it
 * waits, and answers how long it took to end: its poll interval is a minute, so only a wait that sees
 * the stop ends at once.
 */
async function msToEndWhenStoppedWhileReading(
  log: Pick<PostgresEventStore, 'subscribeToAll'>,
): Promise<number> {
  const stop = new AbortController();
  try {
    const subscribed = log.subscribeToAll({
      fromPosition: START,
      signal: stop.signal,
      onCaughtUp: async () => {
        stop.abort();
        await new Promise((r) => setTimeout(r, 20));
      },
      onBatch: async () => undefined,
    });
    const started = performance.now();
    await subscribed;
    return performance.now() - started;
  } finally {
    stop.abort();
  }
}

describe('stopping a subscriber', () => {
  it('ends at once when stopped while it reads, not at the end of its poll interval', async () => {
    const db = await createTestDatabase();
    const store = new PostgresEventStore(db.pool, { listenUrl: db.url, pollIntervalMs: 60_000 });
    try {
      expect(await msToEndWhenStoppedWhileReading(store)).toBeLessThan(5000);
    } finally {
      await store.close();
      await db.drop();
    }
  }, 20_000);

  it('a feed read as a log (FeedLog) too', async () => {
    const db = await createTestDatabase();
    const feed = new FeedLog<{ position: string }>({
      pool: db.pool,
      read: async (from, max) =>
        (
          await db.pool.query<{ position: string }>(
            'select $1::text as position where false and $2::int > 0',
            [from, max],
          )
        ).rows,
      toEvent: () => {
        throw new Error('the feed is empty');
      },
      writer: 'test-feed-writer',
      pollIntervalMs: 60_000,
    });
    try {
      expect(await msToEndWhenStoppedWhileReading(feed)).toBeLessThan(5000);
    } finally {
      await db.drop();
    }
  }, 20_000);
});
