import { PassThrough } from 'node:stream';
import type { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { WrongExpectedVersionError } from '@kurrent/kurrentdb-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTAINER_START_TIMEOUT_MS, kurrentDbForTests } from '../testing/containers.ts';
import { eventStoreContract } from './contract.ts';
import {
  isStreamNotFound,
  isSystemEventType,
  isWrongExpectedVersion,
  type KurrentDbClientModule,
  KurrentDbEventStore,
  toActualRevision,
  toPositionToken,
  toReadPosition,
  toRecordedEvent,
  toStreamState,
  toWrongExpectedRevisionError,
} from './kurrentdb-event-store.ts';
import { comparePositions, isPosition, START } from './position.ts';
import { type RecordedEvent, WrongExpectedRevisionError } from './types.ts';

// The contract needs a real KurrentDB (or EventStoreDB) server (platform/src/testing/containers.ts):
// - EVENTSTORE_URL when set, e.g.
//     EVENTSTORE_URL=kurrentdb://localhost:2113?tls=false npx vitest run platform/src/event-store/kurrentdb
//   after `docker run -p 2113:2113 -e KURRENTDB_INSECURE=true docker.kurrent.io/kurrent-latest/kurrentdb`;
// - otherwise, when a Docker engine answers, a KurrentDB container testcontainers starts before the
//   contract and stops after it (never run on the development machine: it has no Docker engine);
// - otherwise the whole contract (multi-stream appends included) shows in the report as skipped, with
//   the reason printed below.
const kurrent = await kurrentDbForTests();
if (kurrent.skip !== undefined) console.info(`KurrentDB contract skipped: ${kurrent.skip}`);
describe('KurrentDB server', () => {
  if (kurrent.skip === undefined) {
    beforeAll(async () => {
      await kurrent.start();
    }, CONTAINER_START_TIMEOUT_MS);
    afterAll(() => kurrent.stop(), CONTAINER_START_TIMEOUT_MS);
  }
  eventStoreContract(
    'KurrentDB',
    async () => {
      const store = await KurrentDbEventStore.connect((await kurrent.start!()).url);
      return { store, dispose: () => store.close() };
    },
    kurrent.skip,
  );
});

// What follows needs no server: the pure mapping between our types and the client's.
describe('KurrentDbEventStore without a server', () => {
  it('builds its client from a connection string without connecting, and closes', async () => {
    // Port 1 on loopback: nothing listens there, so any connection attempt would fail or hang.
    const store = await KurrentDbEventStore.connect('kurrentdb://127.0.0.1:1?tls=false');
    await expect(store.close()).resolves.toBeUndefined();
  });

  it('refuses a malformed connection string', async () => {
    await expect(KurrentDbEventStore.connect('postgres://localhost/db')).rejects.toThrow();
  });

  it('maps expected revisions to stream states', () => {
    expect(toStreamState('no_stream')).toBe('no_stream');
    expect(toStreamState('any')).toBe('any');
    expect(toStreamState(0n)).toBe(0n);
    expect(toStreamState(41n)).toBe(41n);
    expect(() => toStreamState(-1n)).toThrow(RangeError);
  });

  it('encodes (commit, prepare) so that string order is log order', () => {
    const max = (1n << 64n) - 1n;
    const pairs: Array<[bigint, bigint]> = [
      [0n, 0n],
      [0n, 1n],
      [15n, 15n],
      [16n, 0n],
      [255n, 300n],
      [4096n, 4096n],
      [1n << 40n, 0n],
      [(1n << 63n) - 1n, (1n << 63n) - 1n],
      [max, max],
    ];
    const tokens = pairs.map(([commit, prepare]) => toPositionToken({ commit, prepare }));
    for (const token of tokens) expect(isPosition(token)).toBe(true);
    expect([...tokens].sort(comparePositions)).toEqual(tokens);
    expect(toPositionToken({ commit: 0n, prepare: 0n })).toBe(START);
    expect(toPositionToken({ commit: 255n, prepare: 300n })).toBe('00000000000000ff-000000000000012c');
  });

  it('orders tokens as text exactly as (commit, prepare) in numbers, as checkpoints compare them', () => {
    // Consumers compare positions with < and >= as strings and PostgreSQL orders the checkpoint column
    // by them (collate "C" where it matters): every token must be fixed-width. A seeded generator
    // draws commits and prepares of every magnitude, with many equal commits.
    let seed = 0x2545f491;
    const next = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed;
    };
    const offset = (): bigint => {
      const bits = BigInt(next() % 65);
      return bits === 0n ? 0n : (BigInt(next()) * BigInt(next()) * BigInt(next())) % (1n << bits);
    };
    const pairs = Array.from({ length: 2000 }, () => {
      const commit = offset();
      return { commit, prepare: next() % 3 === 0 ? commit : offset() };
    });
    const numeric = (a: { commit: bigint; prepare: bigint }, b: { commit: bigint; prepare: bigint }) =>
      a.commit !== b.commit
        ? a.commit < b.commit
          ? -1
          : 1
        : a.prepare < b.prepare
          ? -1
          : a.prepare > b.prepare
            ? 1
            : 0;
    const wrong: string[] = [];
    for (let i = 1; i < pairs.length; i++) {
      const [a, b] = [pairs[i - 1]!, pairs[i]!];
      const [ta, tb] = [toPositionToken(a), toPositionToken(b)];
      const order = numeric(a, b);
      if (ta.length !== 33 || Math.sign(comparePositions(ta, tb)) !== order || ta < tb !== order < 0)
        wrong.push(`${ta} vs ${tb}`);
      const back = toReadPosition(ta);
      if (typeof back !== 'string' && (back.commit !== a.commit || back.prepare !== a.prepare))
        wrong.push(ta);
    }
    expect(wrong).toEqual([]);
    const byText = pairs.map(toPositionToken).sort();
    expect(byText).toEqual([...pairs].sort(numeric).map(toPositionToken));
    // Every KurrentDB token sorts after START, which a consumer without a checkpoint reads from.
    expect(byText.every((t) => t >= START)).toBe(true);
  });

  it('turns a token back into a client read position', () => {
    expect(toReadPosition(START)).toBe('start');
    expect(toReadPosition(toPositionToken({ commit: 1234n, prepare: 1200n }))).toEqual({
      commit: 1234n,
      prepare: 1200n,
    });
    expect(() => toReadPosition('not-a-position')).toThrow();
  });

  it('maps a recorded event, with its position and metadata', () => {
    const created = new Date('2025-01-02T03:04:05Z');
    const event = toRecordedEvent({
      event: {
        id: '9a1c7f1e-5a2b-4c3d-8e4f-0a1b2c3d4e5f',
        streamId: 'merchant-1',
        revision: 3n,
        type: 'NoteAdded',
        isJson: true,
        data: { text: 'slow pay' },
        metadata: { actorUserId: 'u1', source: 'web' },
        created,
        position: { commit: 500n, prepare: 500n },
      },
    });
    expect(event).toEqual({
      id: '9a1c7f1e-5a2b-4c3d-8e4f-0a1b2c3d4e5f',
      streamId: 'merchant-1',
      revision: 3n,
      position: toPositionToken({ commit: 500n, prepare: 500n }),
      type: 'NoteAdded',
      data: { text: 'slow pay' },
      metadata: { actorUserId: 'u1', source: 'web' },
      recordedAt: created,
    });
  });

  it('falls back to the commit position, and to empty metadata', () => {
    const event = toRecordedEvent({
      event: {
        id: 'e1',
        streamId: 's',
        revision: 0n,
        type: 'A',
        isJson: true,
        data: {},
        metadata: undefined,
        created: new Date(0),
      },
      commitPosition: 77n,
    });
    expect(event?.position).toBe(toPositionToken({ commit: 77n, prepare: 77n }));
    expect(event?.metadata).toEqual({});
  });

  it('drops system events and unresolved links', () => {
    expect(isSystemEventType('$metadata')).toBe(true);
    expect(isSystemEventType('MerchantAdded')).toBe(false);
    expect(
      toRecordedEvent({
        event: {
          id: 'e1',
          streamId: '$$merchant-1',
          revision: 0n,
          type: '$metadata',
          isJson: true,
          data: {},
          metadata: undefined,
          created: new Date(0),
          position: { commit: 1n, prepare: 1n },
        },
      }),
    ).toBeUndefined();
    expect(toRecordedEvent({ commitPosition: 5n })).toBeUndefined();
  });

  it('maps a wrong expected version to WrongExpectedRevisionError', () => {
    const conflict = new WrongExpectedVersionError(undefined, {
      streamName: 'merchant-1',
      expected: 0n,
      current: 4n,
    });
    expect(isWrongExpectedVersion(conflict)).toBe(true);
    expect(isWrongExpectedVersion(new Error('other'))).toBe(false);
    const mapped = toWrongExpectedRevisionError('merchant-1', 0n, conflict);
    expect(mapped).toBeInstanceOf(WrongExpectedRevisionError);
    expect(mapped).toMatchObject({ streamId: 'merchant-1', expected: 0n, actual: 4n });

    const missing = new WrongExpectedVersionError(undefined, {
      streamName: 'ein-123456789',
      expected: 2n,
      current: 'no_stream',
    });
    expect(toWrongExpectedRevisionError('ein-123456789', 2n, missing).actual).toBe('no_stream');
  });

  it('reads actual revisions, treating negatives as no stream', () => {
    expect(toActualRevision(7n)).toBe(7n);
    expect(toActualRevision(0n)).toBe(0n);
    expect(toActualRevision(-1n)).toBe('no_stream');
    expect(toActualRevision('no_stream')).toBe('no_stream');
  });

  it('recognises a missing stream by class or by error type', () => {
    expect(isStreamNotFound({ type: 'stream-not-found' })).toBe(true);
    expect(isStreamNotFound(new Error('stream-not-found'))).toBe(false);
    expect(isStreamNotFound(undefined)).toBe(false);
  });
});

// subscribeToAll and headPosition over a stand-in client: the loop that turns the client's stream into
// batches, checked against the contract (exclusive start, strictly increasing positions, resolves on
// abort, fails when the server ends the subscription) without a server.
describe('KurrentDbEventStore over a stand-in client', () => {
  const lib = {
    excludeSystemEvents: () => ({}),
    jsonEvent: (e: unknown) => e,
  } as unknown as KurrentDbClientModule;
  const at = (n: bigint, type = 'Tick') => ({
    event: {
      id: `e-${n}-${type}`,
      streamId: type.startsWith('$') ? '$stats' : 's-1',
      revision: n,
      type,
      isJson: true,
      data: { n: Number(n) },
      metadata: {},
      created: new Date(0),
      position: { commit: n * 100n, prepare: n * 100n },
    },
  });
  const subscribing = () => {
    const stream = Object.assign(new PassThrough({ objectMode: true }), {
      unsubscribed: false,
      async unsubscribe() {
        stream.unsubscribed = true;
      },
    });
    const requests: unknown[] = [];
    const client = {
      subscribeToAll: (options: unknown) => {
        requests.push(options);
        return stream;
      },
      dispose: async () => undefined,
    } as unknown as KurrentDBClient;
    return { stream, requests, store: new KurrentDbEventStore(client, lib) };
  };
  const positionOf = (n: bigint) => toPositionToken({ commit: n * 100n, prepare: n * 100n });

  it('delivers events after the start position, never the same position twice, and resolves on abort', async () => {
    const { stream, requests, store } = subscribing();
    const batches: string[][] = [];
    const controller = new AbortController();
    const done = store.subscribeToAll({
      fromPosition: positionOf(2n),
      signal: controller.signal,
      batchSize: 3,
      onBatch: async (events: RecordedEvent[]) => {
        batches.push(events.map((e) => e.position));
      },
    });
    expect(requests).toEqual([{ fromPosition: { commit: 200n, prepare: 200n }, filter: {} }]);
    // The start position itself (the server would not send it) and a repeat of 4 are dropped; a system
    // event is never delivered.
    for (const n of [2n, 3n, 4n, 4n, 5n, 6n]) stream.write(at(n));
    stream.write(at(7n, '$statsCollected'));
    await vi.waitFor(() => expect(batches).toHaveLength(2));
    expect(batches).toEqual([[positionOf(3n), positionOf(4n), positionOf(5n)], [positionOf(6n)]]);
    stream.write(at(6n));
    stream.write(at(8n));
    await vi.waitFor(() => expect(batches).toHaveLength(3));
    expect(batches[2]).toEqual([positionOf(8n)]);
    controller.abort();
    await expect(done).resolves.toBeUndefined();
    expect(stream.unsubscribed).toBe(true);
  });

  it('rejects when the server ends the subscription or it fails, and returns when the store closes', async () => {
    const signal = new AbortController().signal;
    const ended = subscribing();
    const endedRun = ended.store.subscribeToAll({ fromPosition: START, signal, onBatch: async () => {} });
    ended.stream.end();
    await expect(endedRun).rejects.toThrow(/ended unexpectedly/);

    const failed = subscribing();
    const failedRun = failed.store.subscribeToAll({ fromPosition: START, signal, onBatch: async () => {} });
    expect(failed.requests).toEqual([{ fromPosition: 'start', filter: {} }]);
    failed.stream.destroy(new Error('unavailable'));
    await expect(failedRun).rejects.toThrow('unavailable');

    const closing = subscribing();
    const closingRun = closing.store.subscribeToAll({ fromPosition: START, signal, onBatch: async () => {} });
    await closing.store.close();
    await expect(closingRun).resolves.toBeUndefined();
  });

  it('times every append for onAppend, failures included, and ignores a hook that throws', async () => {
    const timings: string[] = [];
    const conflict = Object.assign(new Error('conflict'), { type: 'wrong-expected-version' });
    const client = {
      appendToStream: async (_stream: string, _events: unknown[], opts: { streamState: unknown }) => {
        if (opts.streamState === 'no_stream') throw conflict;
        return { success: true, nextExpectedRevision: 0n, position: { commit: 300n, prepare: 300n } };
      },
      // Answers the idempotency check after the conflict: nothing of this append is in the stream.
      async *readStream() {},
    } as unknown as KurrentDBClient;
    const store = new KurrentDbEventStore(client, lib, {
      onAppend: (kind, seconds) => {
        timings.push(kind);
        expect(seconds).toBeGreaterThanOrEqual(0);
        throw new Error('a failing hook changes nothing');
      },
    });
    const ev = { id: 'e-1', type: 'A', data: {} };
    await expect(store.appendToStream('s-1', [ev], { expectedRevision: 'any' })).resolves.toEqual({
      nextRevision: 0n,
      position: positionOf(3n),
    });
    await expect(store.appendToStream('s-1', [ev], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
      WrongExpectedRevisionError,
    );
    await expect(store.appendMany([])).resolves.toEqual([]);
    expect(timings).toEqual(['single', 'single', 'many']);
  });

  it('reads the head backwards from the end, START when the log is empty', async () => {
    const reads: unknown[] = [];
    const storeOver = (events: unknown[]) =>
      new KurrentDbEventStore(
        {
          async *readAll(options: unknown) {
            reads.push(options);
            yield* events;
          },
        } as unknown as KurrentDBClient,
        lib,
      );
    expect(await storeOver([at(9n)]).headPosition()).toBe(positionOf(9n));
    expect(reads).toEqual([{ fromPosition: 'end', direction: 'backwards', maxCount: 1, filter: {} }]);
    expect(await storeOver([]).headPosition()).toBe(START);
  });
});
