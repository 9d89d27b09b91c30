/** Where an event sits in the global log; opaque to callers, comparable as a string (see position.ts). */
export type Position = string;

export type ExpectedRevision = 'no_stream' | 'any' | bigint;

export interface EventMetadata {
  actorUserId?: string | null;
  actorAccountId?: string | null;
  onBehalfOfAccountId?: string | null;
  correlationId?: string | null;
  causationId?: string | null;
  source?: 'web' | 'api' | 'system' | 'stripe';
  ip?: string | null;
  userAgent?: string | null;
}

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** uuid; doubles as the idempotency key of the append. */
  id: string;
  type: Type;
  data: Data;
  metadata?: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  streamId: string;
  revision: bigint;
  position: Position;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  recordedAt: Date;
}

export interface AppendResult {
  /** Revision of the last event now in the stream: pass it as the next expectedRevision. */
  nextRevision: bigint;
  position: Position;
}

export interface SubscribeOptions {
  fromPosition: Position;
  onBatch: (events: RecordedEvent[]) => Promise<void>;
  signal: AbortSignal;
  batchSize?: number;
  /**
   * The event types the subscriber handles, when it knows them. Appends of none of them do not wake it:
   * it reads them (every event is still delivered) at its next wake-up for a type it handles or at the
   * store's poll interval (a second). A hint: a store that cannot tell wakes it for everything.
   */
  wakeFor?: (type: string) => boolean;
  /** Only events of these types are delivered (a store that cannot filter delivers every event). */
  types?: readonly string[];
  /**
   * After a read that left nothing visible unread: where the subscriber stands (`LogRead.horizon`),
   * past every position of this log and of any other log of the same position space before it. Stores
   * that cannot tell do not call it.
   */
  onCaughtUp?: (horizon: Position) => void | Promise<void>;
  /** An emitter whose 'nudge' makes the subscription read again now (someone waits for a position). */
  nudges?: import('node:events').EventEmitter;
}

/** One stream's part of a multi-stream append. */
export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expectedRevision: ExpectedRevision;
}

export interface EventStore {
  appendToStream(
    streamId: string,
    events: NewEvent[],
    opts: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult>;
  /**
   * Appends to many streams atomically: every stream at its expected revision, or nothing is written
   * (a command that touches several streams, bulk loads, batched facts such as searches).
   */
  appendMany(batch: StreamAppend[]): Promise<AppendResult[]>;
  readStream(streamId: string, opts?: { fromRevision?: bigint }): AsyncIterable<RecordedEvent>;
  /**
   * Events after `fromPosition` (exclusive) in global order, at most `maxCount`; with `types`, only
   * events of those types (a replay skips what no projector handles without reading it).
   */
  readAll(opts: {
    fromPosition: Position;
    maxCount: number;
    types?: readonly string[];
  }): Promise<RecordedEvent[]>;
  /** Catch-up from `fromPosition`, then live; resolves when `signal` aborts. */
  subscribeToAll(opts: SubscribeOptions): Promise<void>;
  /** The position of the newest event a subscriber can see now (START when empty). */
  headPosition(): Promise<Position>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Wrong expected revision for ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}
