import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing.ts';
import { followLog } from './follow-log.ts';
import { START } from './position.ts';
import { PostgresEventStore } from './postgres-event-store.ts';

let db: TestDatabase;
let store: PostgresEventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore(db.pool, { listenUrl: db.url, pollIntervalMs: 100 });
});
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

const append = (n: number) =>
  store.appendMany(
    Array.from({ length: n }, () => ({
      streamId: `follow-${randomUUID()}`,
      expectedRevision: 'no_stream' as const,
      events: [{ id: randomUUID(), type: 'Probe', data: {} }],
    })),
  );

it('marks the first short batch as the end of the catch-up, and no later batch', async () => {
  await append(25);
  const seen: { size: number; endOfCatchUp: boolean }[] = [];
  const controller = new AbortController();
  const following = followLog({
    store,
    signal: controller.signal,
    readCheckpoint: async () => START,
    batchSize: 10,
    onBatch: async (events, endOfCatchUp) => {
      seen.push({ size: events.length, endOfCatchUp });
    },
  });
  await expect.poll(() => seen.length).toBe(3);
  // Live batches after the catch-up are short too, and are not the end of a catch-up.
  await append(1);
  await expect.poll(() => seen.length).toBe(4);
  controller.abort();
  await following;
  expect(seen).toEqual([
    { size: 10, endOfCatchUp: false },
    { size: 10, endOfCatchUp: false },
    { size: 5, endOfCatchUp: true },
    { size: 1, endOfCatchUp: false },
  ]);
});
