import { WrongExpectedVersionError } from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { eventStoreContract } from './contract.ts';
import {
  isStreamNotFound,
  isSystemEventType,
  isWrongExpectedVersion,
  KurrentDbEventStore,
  toActualRevision,
  toPositionToken,
  toReadPosition,
  toRecordedEvent,
  toStreamState,
  toWrongExpectedRevisionError,
} from './kurrentdb-event-store.ts';
import { comparePositions, isPosition, START } from './position.ts';
import { WrongExpectedRevisionError } from './types.ts';

// The contract needs a real EventStoreDB/KurrentDB server, and none can run on this machine (no
// Docker, no internet to fetch one), so it is gated on EVENTSTORE_URL. Where a server is reachable:
//   EVENTSTORE_URL=esdb://localhost:2113?tls=false npx vitest run platform/src/event-store/kurrentdb
// Without it the whole contract (multi-stream appends included) shows in the report as skipped.
const eventStoreUrl = process.env.EVENTSTORE_URL;
eventStoreContract(
  'KurrentDB',
  async () => {
    const store = new KurrentDbEventStore(eventStoreUrl!);
    return { store, dispose: () => store.close() };
  },
  eventStoreUrl ? undefined : 'EVENTSTORE_URL is not set',
);

// What follows needs no server: the pure mapping between our types and the client's.
describe('KurrentDbEventStore without a server', () => {
  it('builds its client from a connection string without connecting, and closes', async () => {
    // Port 1 on loopback: nothing listens there, so any connection attempt would fail or hang.
    const store = new KurrentDbEventStore('kurrentdb://127.0.0.1:1?tls=false');
    await expect(store.close()).resolves.toBeUndefined();
  });

  it('refuses a malformed connection string', () => {
    expect(() => new KurrentDbEventStore('postgres://localhost/db')).toThrow();
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
