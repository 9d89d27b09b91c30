import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
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
});
