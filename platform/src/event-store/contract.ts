import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START } from './position.ts';
import { type EventStore, type NewEvent, type RecordedEvent, WrongExpectedRevisionError } from './types.ts';

/**
 * The behaviour every EventStore implementation must have (DESIGN §3). Run against Postgres always
 * and against EventStoreDB when EVENTSTORE_URL is set.
 */
export function eventStoreContract(
  name: string,
  open: () => Promise<{ store: EventStore; dispose: () => Promise<void> }>,
  /** Why the suite cannot run here (e.g. no server configured): it is reported as skipped, not absent. */
  skipBecause?: string,
) {
  describe.skipIf(skipBecause !== undefined)(
    `EventStore contract: ${name}${skipBecause ? ` (skipped: ${skipBecause})` : ''}`,
    () => {
      let store: EventStore;
      let dispose: () => Promise<void>;
      beforeAll(async () => {
        ({ store, dispose } = await open());
      });
      afterAll(async () => {
        await dispose();
      });

      const ev = (type: string, data: Record<string, unknown> = {}): NewEvent => ({
        id: randomUUID(),
        type,
        data,
      });
      const stream = (prefix = 'test') => `${prefix}-${randomUUID()}`;
      const readAllOf = async (s: string) => {
        const out: RecordedEvent[] = [];
        for await (const e of store.readStream(s)) out.push(e);
        return out;
      };

      it('appends to a new stream and reads it back in revision order', async () => {
        const s = stream();
        const r = await store.appendToStream(s, [ev('A', { n: 1 }), ev('B', { n: 2 })], {
          expectedRevision: 'no_stream',
        });
        expect(r.nextRevision).toBe(1n);
        const events = await readAllOf(s);
        expect(events.map((e) => [e.type, e.revision, e.data])).toEqual([
          ['A', 0n, { n: 1 }],
          ['B', 1n, { n: 2 }],
        ]);
        expect(events[0]!.position < events[1]!.position).toBe(true);
      });

      it('refuses an append at a wrong expected revision and writes nothing', async () => {
        const s = stream();
        await store.appendToStream(s, [ev('A')], { expectedRevision: 'no_stream' });
        await expect(
          store.appendToStream(s, [ev('B')], { expectedRevision: 'no_stream' }),
        ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        await expect(store.appendToStream(s, [ev('B')], { expectedRevision: 5n })).rejects.toBeInstanceOf(
          WrongExpectedRevisionError,
        );
        const ok = await store.appendToStream(s, [ev('C')], { expectedRevision: 0n });
        expect(ok.nextRevision).toBe(1n);
        expect((await readAllOf(s)).map((e) => e.type)).toEqual(['A', 'C']);
      });

      it("appends with 'any' whatever the stream's revision", async () => {
        const s = stream();
        await store.appendToStream(s, [ev('A')], { expectedRevision: 'any' });
        const r = await store.appendToStream(s, [ev('B'), ev('C')], { expectedRevision: 'any' });
        expect(r.nextRevision).toBe(2n);
      });

      it('treats a retried append with the same event ids as done, writing nothing twice', async () => {
        const s = stream();
        const batch = [ev('A'), ev('B')];
        const first = await store.appendToStream(s, batch, { expectedRevision: 'no_stream' });
        const retry = await store.appendToStream(s, batch, { expectedRevision: 'no_stream' });
        expect(retry).toEqual(first);
        const retryAny = await store.appendToStream(s, batch, { expectedRevision: 'any' });
        expect(retryAny.nextRevision).toBe(first.nextRevision);
        expect(await readAllOf(s)).toHaveLength(2);
      });

      it('reads a stream from a revision', async () => {
        const s = stream();
        await store.appendToStream(s, [ev('A'), ev('B'), ev('C')], { expectedRevision: 'no_stream' });
        const tail: string[] = [];
        for await (const e of store.readStream(s, { fromRevision: 1n })) tail.push(e.type);
        expect(tail).toEqual(['B', 'C']);
      });

      it('lets exactly one of many concurrent writers at the same revision win', async () => {
        const s = stream();
        await store.appendToStream(s, [ev('A')], { expectedRevision: 'no_stream' });
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, () => store.appendToStream(s, [ev('B')], { expectedRevision: 0n })),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        expect(results.filter((r) => r.status === 'rejected')).toHaveLength(9);
        expect(await readAllOf(s)).toHaveLength(2);
      });

      it('delivers every event exactly once to a tailing subscriber under 8 concurrent appenders, in the order of a later replay', async () => {
        const writers = 8;
        const perWriter = 500;
        const tag = randomUUID();
        const start = await store.headPosition();
        const seen: RecordedEvent[] = [];
        const controller = new AbortController();
        const expected = writers * perWriter;
        let resolveAll: () => void = () => undefined;
        const allSeen = new Promise<void>((r) => {
          resolveAll = r;
        });
        const subscription = store.subscribeToAll({
          fromPosition: start,
          signal: controller.signal,
          batchSize: 200,
          onBatch: async (batch) => {
            for (const e of batch) if ((e.data as { tag?: string }).tag === tag) seen.push(e);
            if (seen.length >= expected) resolveAll();
          },
        });
        const write = async (w: number) => {
          const s = `tail-${tag}-${w}`;
          let revision: bigint | 'no_stream' = 'no_stream';
          for (let i = 0; i < perWriter; ) {
            // Mix single-event and multi-event appends so transactions of different sizes interleave.
            const size = Math.min(i % 7 === 0 ? 5 : 1, perWriter - i);
            const batch = Array.from({ length: size }, (_, k) => ev('Tick', { tag, w, i: i + k }));
            const r = await store.appendToStream(s, batch, { expectedRevision: revision });
            revision = r.nextRevision;
            i += size;
          }
        };
        await Promise.all(Array.from({ length: writers }, (_, w) => write(w)));
        await Promise.race([
          allSeen,
          new Promise((_, reject) => setTimeout(() => reject(new Error(`saw ${seen.length}`)), 30_000)),
        ]);
        controller.abort();
        await subscription;

        expect(seen).toHaveLength(expected);
        expect(new Set(seen.map((e) => e.id)).size).toBe(expected);
        for (let w = 0; w < writers; w++) {
          const mine = seen
            .filter((e) => (e.data as { w: number }).w === w)
            .map((e) => (e.data as { i: number }).i);
          expect(mine).toEqual(Array.from({ length: perWriter }, (_, i) => i));
        }
        const replay: RecordedEvent[] = [];
        let cursor = start;
        for (;;) {
          const page = await store.readAll({ fromPosition: cursor, maxCount: 1000 });
          if (page.length === 0) break;
          replay.push(...page.filter((e) => (e.data as { tag?: string }).tag === tag));
          cursor = page[page.length - 1]!.position;
        }
        expect(replay.map((e) => e.id)).toEqual(seen.map((e) => e.id));
        const positions = seen.map((e) => e.position);
        expect([...positions].sort()).toEqual(positions);
      }, 60_000);

      it('appends to many streams in one call, continuing existing streams and refusing an existing no_stream', async () => {
        const [a, b] = [stream('many'), stream('many')];
        await store.appendToStream(a, [ev('A0')], { expectedRevision: 'no_stream' });
        const results = await store.appendMany([
          { streamId: a, events: [ev('A1'), ev('A2')], expectedRevision: 'any' },
          { streamId: b, events: [ev('B0')], expectedRevision: 'no_stream' },
        ]);
        expect(results.map((r) => r.nextRevision)).toEqual([2n, 0n]);
        expect((await readAllOf(a)).map((e) => [e.type, e.revision])).toEqual([
          ['A0', 0n],
          ['A1', 1n],
          ['A2', 2n],
        ]);
        await expect(
          store.appendMany([{ streamId: b, events: [ev('B1')], expectedRevision: 'no_stream' }]),
        ).rejects.toThrow();
        expect(await readAllOf(b)).toHaveLength(1);
      });

      it('appends to several streams at their expected revisions, or writes nothing to any of them', async () => {
        const [reservation, record, other] = [stream('res'), stream('rec'), stream('other')];
        await store.appendToStream(reservation, [ev('Reserved'), ev('Released')], {
          expectedRevision: 'no_stream',
        });
        // The reservation moved on since it was read at revision 0: the whole batch is refused.
        await expect(
          store.appendMany([
            { streamId: reservation, events: [ev('Reserved')], expectedRevision: 0n },
            { streamId: record, events: [ev('Added'), ev('Noted')], expectedRevision: 'no_stream' },
          ]),
        ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        // A revision the stream has not reached yet is refused too.
        await expect(
          store.appendMany([
            { streamId: record, events: [ev('Added')], expectedRevision: 'no_stream' },
            { streamId: reservation, events: [ev('Reserved')], expectedRevision: 7n },
          ]),
        ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        expect(await readAllOf(record)).toHaveLength(0);
        expect(await readAllOf(reservation)).toHaveLength(2);

        const batch = [
          { streamId: reservation, events: [ev('Reserved')], expectedRevision: 1n },
          { streamId: record, events: [ev('Added'), ev('Noted')], expectedRevision: 'no_stream' as const },
          { streamId: other, events: [ev('Other')], expectedRevision: 'any' as const },
        ];
        const results = await store.appendMany(batch);
        expect(results.map((r) => r.nextRevision)).toEqual([2n, 1n, 0n]);
        // A retry of the same events is answered as the first append was and writes nothing twice.
        expect(await store.appendMany(batch)).toEqual(results);
        expect((await readAllOf(reservation)).map((e) => e.type)).toEqual([
          'Reserved',
          'Released',
          'Reserved',
        ]);
        expect((await readAllOf(record)).map((e) => e.type)).toEqual(['Added', 'Noted']);
        expect(await readAllOf(other)).toHaveLength(1);
      });

      it('lets exactly one of many concurrent multi-stream appends on a shared stream win, the losers writing nothing', async () => {
        const shared = stream('ein');
        const records = Array.from({ length: 12 }, () => stream('merchant'));
        const outcomes = await Promise.allSettled(
          records.map((record) =>
            store.appendMany([
              { streamId: shared, events: [ev('Reserved', { record })], expectedRevision: 'no_stream' },
              { streamId: record, events: [ev('Added')], expectedRevision: 'no_stream' },
            ]),
          ),
        );
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        expect(won).toHaveLength(1);
        for (const o of outcomes)
          if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(WrongExpectedRevisionError);
        const holder = (await readAllOf(shared)).map((e) => (e.data as { record: string }).record);
        expect(holder).toHaveLength(1);
        for (const record of records)
          expect(await readAllOf(record)).toHaveLength(record === holder[0] ? 1 : 0);
      });

      it('reads the whole log from the start', async () => {
        const page = await store.readAll({ fromPosition: START, maxCount: 5 });
        expect(page.length).toBeGreaterThan(0);
        expect(page.length).toBeLessThanOrEqual(5);
      });
    },
  );
}
