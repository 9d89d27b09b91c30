// Types only: the client (gRPC, protobuf, a native bridge) costs about 250 ms to load, so it is
// imported on first use by KurrentDbEventStore.connect and a process on PostgreSQL never loads it.
import type {
  AllStreamResolvedEvent,
  AppendStreamState,
  JSONType,
  KurrentDBClient,
  Position as KurrentPosition,
  ReadPosition,
  ResolvedEvent,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { decodePosition, encodePosition, START } from './position.ts';
import type { PostgresEventStoreOptions } from './postgres-event-store.ts';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeOptions,
  WrongExpectedRevisionError,
} from './types.ts';

// EventStoreDB / KurrentDB implementation of the EventStore interface (DESIGN §3).
//
// Positions. A KurrentDB log position is the pair (commit, prepare) of unsigned 64-bit offsets into
// the transaction file, ordered by commit then prepare. Written as 16 hex digits each through
// position.ts, plain string comparison of our tokens is the log's order, exactly as for Postgres.
// START ('0…0-0…0') means "from the beginning" and maps to the client's START.
//
// Idempotency. NewEvent.id becomes the KurrentDB event id, so the server itself recognises a
// retried append of the same events (at the same expected revision, or with ANY while the ids are
// still in its idempotency cache) and answers it as a success. When it answers
// WrongExpectedVersion instead, the stream is read to see whether those events are already there
// in order; if so the retry is answered as the first append was.

/** The event shape the client hands back from stream reads, $all reads and subscriptions alike. */
type ClientResolvedEvent = ResolvedEvent | AllStreamResolvedEvent;

/** The client library's module, loaded on first use. */
export type KurrentDbClientModule = typeof import('@kurrent/kurrentdb-client');

let clientModule: Promise<KurrentDbClientModule> | undefined;

/** Loads @kurrent/kurrentdb-client once, on first use (see the note on the imports above). */
export function loadKurrentDbClient(): Promise<KurrentDbClientModule> {
  clientModule ??= import('@kurrent/kurrentdb-client').catch((error: unknown) => {
    clientModule = undefined;
    throw error;
  });
  return clientModule;
}

// The client's constants are plain strings; written out here so the pure mappings below need no
// runtime import of the client (the types still check them against the client's own).
const KURRENT_START = 'start' satisfies ReadPosition;
const END = 'end' satisfies ReadPosition;
const ANY = 'any' satisfies AppendStreamState;
const NO_STREAM = 'no_stream' satisfies AppendStreamState;
const FORWARDS = 'forwards';
const BACKWARDS = 'backwards';

const SYSTEM_PREFIX = '$';

/** Our expected revision → the client's stream state. */
export function toStreamState(expected: ExpectedRevision): AppendStreamState {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  if (expected < 0n) throw new RangeError(`Expected revision must not be negative: ${expected}`);
  return expected;
}

/** A KurrentDB (commit, prepare) pair → our opaque, lexicographically ordered token. */
export function toPositionToken(position: KurrentPosition): Position {
  return encodePosition(position.commit, position.prepare);
}

/** Our token → where the client should start reading or subscribing. */
export function toReadPosition(token: Position): ReadPosition {
  if (token === START) return KURRENT_START;
  const { transactionId, position } = decodePosition(token);
  return { commit: transactionId, prepare: position };
}

/** System events ($metadata, $>, $statsCollected…) are the database's own and never reach callers. */
export const isSystemEventType = (type: string): boolean => type.startsWith(SYSTEM_PREFIX);

function isValidPosition(position: KurrentPosition | undefined): position is KurrentPosition {
  return position !== undefined && position.commit >= 0n && position.prepare >= 0n;
}

function toMetadata(metadata: unknown): EventMetadata {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  if (metadata instanceof Uint8Array) return {};
  return metadata as EventMetadata;
}

/**
 * A client event → ours; undefined for an unresolved link or a system event. Reads of $all always
 * carry the event's position; stream reads carry it on every server since 22.6, and an event whose
 * position is unknown falls back to its commit position (commit and prepare are equal for every
 * event written since implicit commits), then to START.
 */
export function toRecordedEvent(resolved: ClientResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event || isSystemEventType(event.type)) return undefined;
  const position: KurrentPosition | undefined = isValidPosition(event.position)
    ? event.position
    : resolved.commitPosition !== undefined && resolved.commitPosition >= 0n
      ? { commit: resolved.commitPosition, prepare: resolved.commitPosition }
      : undefined;
  return {
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    position: position ? toPositionToken(position) : START,
    type: event.type,
    data: event.data,
    metadata: toMetadata(event.metadata),
    recordedAt: event.created,
  };
}

// Recognised by the `type` every client CommandError carries (WrongExpectedVersionError and
// StreamNotFoundError set it), so no runtime import of the client's classes is needed.
export const isWrongExpectedVersion = (error: unknown): error is WrongExpectedVersionError =>
  (error as { type?: unknown } | null)?.type === 'wrong-expected-version';

export const isStreamNotFound = (error: unknown): boolean =>
  (error as { type?: unknown } | null)?.type === 'stream-not-found';

/** The client's "actual state" of a stream → ours: a revision, or 'no_stream' (also for -1 and other negatives). */
export function toActualRevision(actual: unknown): bigint | 'no_stream' {
  if (typeof actual === 'bigint') return actual >= 0n ? actual : 'no_stream';
  if (typeof actual === 'number' && Number.isInteger(actual))
    return actual >= 0 ? BigInt(actual) : 'no_stream';
  return 'no_stream';
}

/** The client's WrongExpectedVersionError → ours, keeping the revision the caller asked for. */
export function toWrongExpectedRevisionError(
  streamId: string,
  expected: ExpectedRevision,
  error: WrongExpectedVersionError,
): WrongExpectedRevisionError {
  const mapped = new WrongExpectedRevisionError(streamId, expected, toActualRevision(error.actualState));
  mapped.cause = error;
  return mapped;
}

/** Multi-stream appends take only string metadata values; absent ones are left out. */
function stringMetadata(metadata: EventMetadata | undefined): EventMetadata {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata ?? {}))
    if (value !== null && value !== undefined) out[key] = String(value);
  return out as EventMetadata;
}

/** The multi-stream append reports a wrong revision as error details rather than the classic error. */
const isWrongRevisionDetails = (error: unknown): boolean =>
  JSON.stringify((error as { details?: unknown } | null)?.details ?? '').includes(
    'wrong_expected_revision',
  ) || /wrong.expected/i.test(String((error as Error | null)?.message ?? ''));

function toEventData(lib: KurrentDbClientModule, event: NewEvent) {
  return lib.jsonEvent({
    id: event.id,
    type: event.type,
    data: (event.data ?? {}) as JSONType,
    metadata: { ...(event.metadata ?? {}) },
  });
}

export interface KurrentDbEventStoreOptions {
  /** The append timing hook, exactly as PostgresEventStore's (metrics: `Metrics.observeAppend`). */
  onAppend?: PostgresEventStoreOptions['onAppend'];
}

export class KurrentDbEventStore implements EventStore {
  /** Aborted by close(), so that every running subscription returns. */
  private readonly closing = new AbortController();

  /**
   * Loads the client library (first call only), parses the connection string (e.g.
   * `kurrentdb://localhost:2113?tls=false`) and returns the store; the client connects on first use.
   * Rejects a malformed connection string.
   */
  static async connect(
    connectionString: string,
    options: KurrentDbEventStoreOptions = {},
  ): Promise<KurrentDbEventStore> {
    const lib = await loadKurrentDbClient();
    return new KurrentDbEventStore(lib.KurrentDBClient.connectionString(connectionString), lib, options);
  }

  /** A store over a client built by the caller; `lib` is the client's module (loadKurrentDbClient). */
  constructor(
    private readonly client: KurrentDBClient,
    private readonly lib: KurrentDbClientModule,
    private readonly options: KurrentDbEventStoreOptions = {},
  ) {}

  /** Runs an append, timed for `options.onAppend` when there is one (failures included, as on PostgreSQL). */
  private async timed<T>(kind: 'single' | 'many', append: () => Promise<T>): Promise<T> {
    const onAppend = this.options.onAppend;
    if (!onAppend) return append();
    const started = performance.now();
    try {
      return await append();
    } finally {
      try {
        onAppend.call(this.options, kind, (performance.now() - started) / 1000);
      } catch {
        // Metrics never change what an append does.
      }
    }
  }

  /**
   * KurrentDB's multi-stream append (server 25.1 or later): one atomic write across streams, each at its
   * expected state, or nothing. Its metadata must be string-valued, so values are written as text.
   * Each stream's position is read back as in appendToStream: the token must be one subscribers reach.
   */
  appendMany(batch: StreamAppend[]): Promise<AppendResult[]> {
    return this.timed('many', () => this.appendBatch(batch));
  }

  appendToStream(
    streamId: string,
    events: NewEvent[],
    opts: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    return this.timed('single', () => this.appendOne(streamId, events, opts));
  }

  private async appendBatch(batch: StreamAppend[]): Promise<AppendResult[]> {
    if (batch.length === 0) return [];
    let result: Awaited<ReturnType<KurrentDBClient['multiStreamAppend']>>;
    try {
      result = await this.client.multiStreamAppend(
        batch.map((b) => ({
          streamName: b.streamId,
          events: b.events.map((e) => toEventData(this.lib, { ...e, metadata: stringMetadata(e.metadata) })),
          expectedState: toStreamState(b.expectedRevision),
        })),
      );
    } catch (error) {
      const replays: AppendResult[] = [];
      for (const b of batch) {
        const replay = await this.alreadyAppended(
          b.streamId,
          b.events.map((e) => e.id),
          b.expectedRevision,
        );
        if (!replay) break;
        replays.push(replay);
      }
      if (replays.length === batch.length) return replays;
      if (!isWrongExpectedVersion(error) && !isWrongRevisionDetails(error)) throw error;
      for (const b of batch) {
        const actual = await this.currentRevision(b.streamId);
        if (b.expectedRevision !== 'any' && b.expectedRevision !== actual)
          throw new WrongExpectedRevisionError(b.streamId, b.expectedRevision, actual);
      }
      throw new WrongExpectedRevisionError(batch.map((b) => b.streamId).join(','), 'any', 0n);
    }
    const revisions = new Map(result.responses.map((r) => [r.streamName, r.revision]));
    return Promise.all(
      batch.map(async (b) => {
        const nextRevision = revisions.get(b.streamId)!;
        return {
          nextRevision,
          position: await this.positionOfAppend(
            b.streamId,
            b.events.map((e) => e.id),
            nextRevision,
            undefined,
          ),
        };
      }),
    );
  }

  private async appendOne(
    streamId: string,
    events: NewEvent[],
    opts: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('appendToStream needs at least one event');
    const expected = opts.expectedRevision;
    const ids = events.map((e) => e.id);
    let result: Awaited<ReturnType<KurrentDBClient['appendToStream']>>;
    try {
      const data = events.map((e) => toEventData(this.lib, e));
      result = await this.client.appendToStream(streamId, data, { streamState: toStreamState(expected) });
    } catch (error) {
      if (!isWrongExpectedVersion(error)) throw error;
      const replay = await this.alreadyAppended(streamId, ids, expected);
      if (replay) return replay;
      throw toWrongExpectedRevisionError(streamId, expected, error);
    }
    if (!result.success) {
      // Only with throwOnAppendFailure=false in the connection string: the same refusal, unthrown.
      const replay = await this.alreadyAppended(streamId, ids, expected);
      if (replay) return replay;
      throw new WrongExpectedRevisionError(streamId, expected, await this.currentRevision(streamId));
    }
    const nextRevision = result.nextExpectedRevision;
    return {
      nextRevision,
      position: await this.positionOfAppend(streamId, ids, nextRevision, result.position),
    };
  }

  /**
   * The position of the append's last event. For one event the server's answer is that event's own
   * position, fresh or idempotent alike. For several, a fresh write answers with the commit position
   * of the write as a whole, which need not be its last event's, while an idempotent one answers with
   * its last event's; so the last event is read back: the token must be the same on a retry and must
   * be a position subscribers actually reach, since read-your-writes waits for projections to pass it.
   */
  private async positionOfAppend(
    streamId: string,
    ids: string[],
    lastRevision: bigint,
    reported: KurrentPosition | undefined,
  ): Promise<Position> {
    if (ids.length === 1 && isValidPosition(reported)) return toPositionToken(reported);
    const [last] = await this.readSlice(streamId, {
      fromRevision: lastRevision,
      direction: 'backwards',
      maxCount: 1,
    });
    if (last && last.id === ids[ids.length - 1] && last.position !== START) return last.position;
    if (isValidPosition(reported)) return toPositionToken(reported);
    throw new Error(`Appended to ${streamId} but could not learn the position of revision ${lastRevision}`);
  }

  /**
   * A retried append whose events are all stored already: answer as the first append did. They are
   * looked for where this expected revision put them, then at the stream's tail (a retry that
   * re-read the stream first expects a later revision).
   */
  private async alreadyAppended(
    streamId: string,
    ids: string[],
    expected: ExpectedRevision,
  ): Promise<AppendResult | undefined> {
    const matches = (events: RecordedEvent[]) =>
      events.length === ids.length && events.every((e, i) => e.id === ids[i]);
    const done = (events: RecordedEvent[]): AppendResult => {
      const last = events[events.length - 1]!;
      return { nextRevision: last.revision, position: last.position };
    };
    if (expected !== 'any') {
      const fromRevision = expected === 'no_stream' ? 0n : expected + 1n;
      const slot = await this.readSlice(streamId, {
        fromRevision,
        direction: 'forwards',
        maxCount: ids.length,
      });
      if (matches(slot)) return done(slot);
    }
    const tail = (
      await this.readSlice(streamId, { fromRevision: 'end', direction: 'backwards', maxCount: ids.length })
    ).reverse();
    return matches(tail) ? done(tail) : undefined;
  }

  private async currentRevision(streamId: string): Promise<bigint | 'no_stream'> {
    const [last] = await this.readSlice(streamId, {
      fromRevision: 'end',
      direction: 'backwards',
      maxCount: 1,
    });
    return last ? last.revision : 'no_stream';
  }

  /** A bounded stream read; a missing stream reads as empty. */
  private async readSlice(
    streamId: string,
    opts: { fromRevision: bigint | 'end'; direction: 'forwards' | 'backwards'; maxCount: number },
  ): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision: opts.fromRevision === 'end' ? END : opts.fromRevision,
        direction: opts.direction === 'forwards' ? FORWARDS : BACKWARDS,
        maxCount: opts.maxCount,
      })) {
        const event = toRecordedEvent(resolved);
        if (event) out.push(event);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return out;
  }

  async *readStream(streamId: string, opts: { fromRevision?: bigint } = {}): AsyncIterable<RecordedEvent> {
    const events = this.client.readStream(streamId, {
      fromRevision: opts.fromRevision ?? KURRENT_START,
      direction: FORWARDS,
    });
    try {
      for await (const resolved of events) {
        const event = toRecordedEvent(resolved);
        if (event) yield event;
      }
    } catch (error) {
      if (isStreamNotFound(error)) return;
      throw error;
    }
  }

  async readAll(opts: {
    fromPosition: Position;
    maxCount: number;
    types?: readonly string[];
  }): Promise<RecordedEvent[]> {
    const wanted = opts.types && new Set(opts.types);
    if (opts.maxCount <= 0) return [];
    // KurrentDB reads $all forwards *including* the event at the start position; ours is exclusive,
    // so read one more and drop whatever is not past fromPosition.
    const out: RecordedEvent[] = [];
    for await (const resolved of this.client.readAll({
      fromPosition: toReadPosition(opts.fromPosition),
      direction: FORWARDS,
      // Without a type filter one more than asked (the start is inclusive); with one, read on until
      // enough events of those types have come.
      ...(wanted ? {} : { maxCount: opts.maxCount + 1 }),
      filter: this.lib.excludeSystemEvents(),
    })) {
      const event = toRecordedEvent(resolved);
      if (!event || event.position <= opts.fromPosition) continue;
      if (wanted && !wanted.has(event.type)) continue;
      out.push(event);
      if (out.length >= opts.maxCount) break;
    }
    return out;
  }

  async headPosition(): Promise<Position> {
    for await (const resolved of this.client.readAll({
      fromPosition: END,
      direction: BACKWARDS,
      maxCount: 1,
      filter: this.lib.excludeSystemEvents(),
    })) {
      const event = toRecordedEvent(resolved);
      if (event) return event.position;
    }
    return START;
  }

  async subscribeToAll(opts: SubscribeOptions): Promise<void> {
    const batchSize = Math.max(1, opts.batchSize ?? 1000);
    // A KurrentDB subscription from a position starts *after* it, which is our exclusive contract;
    // `delivered` still drops anything not past the last position handed over (the start position
    // itself, or a replay after a reconnect), so onBatch sees strictly increasing positions.
    const fromPosition = toReadPosition(opts.fromPosition);
    let delivered = opts.fromPosition;
    if (opts.signal.aborted || this.closing.signal.aborted) return;
    const stop = new AbortController();
    const onStop = () => stop.abort();
    opts.signal.addEventListener('abort', onStop, { once: true });
    this.closing.signal.addEventListener('abort', onStop, { once: true });

    const subscription = this.client.subscribeToAll(
      { fromPosition, filter: this.lib.excludeSystemEvents() },
      { highWaterMark: batchSize },
    );
    let failure: unknown;
    let ended = false;
    let wake: (() => void) | undefined;
    const notify = () => {
      const resume = wake;
      wake = undefined;
      resume?.();
    };
    const onEnd = () => {
      ended = true;
      notify();
    };
    // Kept for the subscription's whole life, so a late error never goes unhandled.
    subscription.on('error', (error: Error) => {
      failure ??= error;
      notify();
    });
    subscription.on('readable', notify);
    subscription.on('end', onEnd);
    subscription.on('close', onEnd);
    stop.signal.addEventListener('abort', notify, { once: true });

    try {
      // Everything the subscription has buffered is one batch (up to batchSize): events that arrive
      // together are handed over together, and a slow onBatch makes the next batch bigger.
      while (!stop.signal.aborted) {
        if (failure !== undefined) throw failure;
        const batch: RecordedEvent[] = [];
        while (batch.length < batchSize) {
          const item = subscription.read() as ClientResolvedEvent | null;
          if (item === null) break;
          const event = toRecordedEvent(item);
          if (!event || event.position <= delivered) continue;
          batch.push(event);
          delivered = event.position;
        }
        if (batch.length > 0) {
          await opts.onBatch(batch);
          continue;
        }
        if (failure !== undefined) throw failure;
        if (ended) {
          if (stop.signal.aborted) break;
          throw new Error('The KurrentDB subscription to $all ended unexpectedly');
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    } finally {
      wake = undefined;
      opts.signal.removeEventListener('abort', onStop);
      this.closing.signal.removeEventListener('abort', onStop);
      subscription.off('readable', notify);
      subscription.off('end', onEnd);
      subscription.off('close', onEnd);
      await subscription.unsubscribe().catch(() => undefined);
      subscription.destroy();
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
    await this.client.dispose();
  }
}
