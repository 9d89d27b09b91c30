import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing.ts';
import { PostgresEventStore } from './postgres-event-store.ts';
import { type NewEvent, WrongExpectedRevisionError } from './types.ts';

let db: TestDatabase;
let store: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore(db.pool, { groupCommit: true });
});
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

const event = (n = 0): NewEvent => ({ id: randomUUID(), type: 'Counted', data: { n } });

/** How many transactions wrote the given streams' events. */
async function transactionsOf(streams: string[]): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    'select count(distinct transaction_id)::int as n from events where stream_id = any($1)',
    [streams],
  );
  return rows[0]!.n;
}

describe('group commit of concurrent 1-event appends', () => {
  it('writes 40 appends to 40 streams arriving at once in fewer commits, each answered with its own revision', async () => {
    const streams = Array.from({ length: 40 }, () => `g-${randomUUID()}`);
    const results = await Promise.all(
      streams.map((s) => store.appendToStream(s, [event()], { expectedRevision: 'no_stream' })),
    );
    expect(results.map((r) => r.nextRevision)).toEqual(streams.map(() => 0n));
    // Two statements at most run at once, so the other 38 appends went in the next groups.
    expect(await transactionsOf(streams)).toBeLessThanOrEqual(6);
    const positions = new Set(results.map((r) => r.position));
    expect(positions.size).toBe(40);
  });

  it('refuses only the append whose expected revision is stale; the others in its group are written', async () => {
    const stale = `g-${randomUUID()}`;
    await store.appendToStream(stale, [event(), event()], { expectedRevision: 'no_stream' }); // at revision 1
    const others = Array.from({ length: 10 }, () => `g-${randomUUID()}`);
    const outcomes = await Promise.allSettled([
      ...others.map((s) => store.appendToStream(s, [event()], { expectedRevision: 'no_stream' })),
      store.appendToStream(stale, [event()], { expectedRevision: 0n }),
      store.appendToStream(`g-${randomUUID()}`, [event()], { expectedRevision: 3n }), // no such stream
    ]);
    expect(outcomes.slice(0, 10).map((o) => o.status)).toEqual(others.map(() => 'fulfilled'));
    const reasonOf = (o: PromiseSettledResult<unknown> | undefined) =>
      o?.status === 'rejected' ? (o.reason as WrongExpectedRevisionError) : undefined;
    const [behind, missing] = outcomes.slice(10).map(reasonOf);
    expect(behind).toBeInstanceOf(WrongExpectedRevisionError);
    expect(behind?.actual).toBe(1n);
    expect(missing).toBeInstanceOf(WrongExpectedRevisionError);
    expect(missing?.actual).toBe('no_stream');
    const { rows } = await db.pool.query<{ n: number }>(
      'select count(*)::int as n from events where stream_id = $1',
      [stale],
    );
    expect(rows[0]!.n).toBe(2);
  });

  it('lets exactly one of 12 appends at the same expected revision of one stream win', async () => {
    const stream = `g-${randomUUID()}`;
    await store.appendToStream(stream, [event()], { expectedRevision: 'no_stream' });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        store.appendToStream(stream, [event(i)], { expectedRevision: 0n }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused).toHaveLength(11);
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
    const { rows } = await db.pool.query<{ n: number }>(
      'select max(revision)::int as n from events where stream_id = $1',
      [stream],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it("gives 30 concurrent 'any' appends to one stream 30 consecutive revisions", async () => {
    const stream = `g-${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        store.appendToStream(stream, [event(i)], { expectedRevision: 'any' }),
      ),
    );
    expect(results.map((r) => r.nextRevision).sort((a, b) => (a < b ? -1 : 1))).toEqual(
      Array.from({ length: 30 }, (_, i) => BigInt(i)),
    );
  });

  it('answers a retried append (same event id) as the first one was, alone or in a group', async () => {
    const stream = `g-${randomUUID()}`;
    const once = event();
    const first = await store.appendToStream(stream, [once], { expectedRevision: 'no_stream' });
    const again = await Promise.all([
      store.appendToStream(stream, [once], { expectedRevision: 'no_stream' }),
      store.appendToStream(`g-${randomUUID()}`, [event()], { expectedRevision: 'no_stream' }),
    ]);
    expect(again[0]).toEqual(first);
  });

  it('wakes subscribers for grouped appends', async () => {
    const stream = `g-${randomUUID()}`;
    const head = await store.headPosition();
    const seen: string[] = [];
    const controller = new AbortController();
    const following = store.subscribeToAll({
      fromPosition: head,
      signal: controller.signal,
      onBatch: async (events) => {
        for (const e of events) if (e.streamId === stream) seen.push(e.id);
        if (seen.length === 3) controller.abort();
      },
    });
    await Promise.all(
      [0, 1, 2].map((i) => store.appendToStream(stream, [event(i)], { expectedRevision: 'any' })),
    );
    await following;
    expect(seen).toHaveLength(3);
  });
});
