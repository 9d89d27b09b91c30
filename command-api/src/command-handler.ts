import { type DomainEvent, parseEvent } from '@mrn/contracts';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  newId,
  type Position,
  WrongExpectedRevisionError,
} from '@mrn/platform';
import type { CommandContext, Decider } from './decider.ts';
import { StreamLocks } from './stream-lock.ts';

/** How often, and how patiently, a command is decided again after losing an append race. */
export interface RetryPolicy {
  attempts: number;
  /** Full jitter: the n-th wait is random in [0, min(maxDelayMs, baseDelayMs × 2ⁿ)). */
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * In this process commands on one stream are queued, so a lost race means another process wrote
 * first; jitter keeps processes that collided from colliding again in step.
 */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 10, baseDelayMs: 5, maxDelayMs: 250 };

/** An aggregate bound once: its decider, how its streams are named, and how it retries (Emmett's CommandHandler). */
export interface Aggregate<C, S, E extends DomainEvent> {
  readonly decider: Decider<C, S, E>;
  readonly streamId: (id: string) => string;
  readonly retry: RetryPolicy;
  load(store: EventStore, id: string): Promise<{ state: S; revision: bigint | 'no_stream' }>;
  /** Load, decide, append at the revision read; decided again on a newer state after a lost race. */
  handle(
    deps: { store: EventStore },
    id: string,
    command: CommandInput<C, S>,
    ctx: CommandContext,
    metadata: EventMetadata,
  ): Promise<CommandResult<S, E>>;
}

/** The command, or how to make it from the state just loaded (made again on every retry). */
export type CommandInput<C, S> = C | ((state: S) => C | Promise<C>);

export interface CommandResult<State, Event> {
  state: State;
  events: Event[];
  /** Position of the last event appended, or undefined when the command changed nothing. */
  position: Position | undefined;
}

const locks = new StreamLocks();

export function defineAggregate<C, S, E extends DomainEvent>(definition: {
  decider: Decider<C, S, E>;
  streamId: (id: string) => string;
  retry?: RetryPolicy;
}): Aggregate<C, S, E> {
  const aggregate: Aggregate<C, S, E> = {
    decider: definition.decider,
    streamId: definition.streamId,
    retry: definition.retry ?? DEFAULT_RETRY,
    load: (store, id) => fold(store, definition.decider, definition.streamId(id)),
    async handle(deps, id, command, ctx, metadata) {
      const { value, position, events } = await transact(deps, { ctx, metadata }, (unit) =>
        unit.decide(aggregate, id, command),
      );
      return { state: value.state, events: value.events, position: events.length > 0 ? position : undefined };
    },
  };
  return aggregate;
}

/** Folds a stream into its state, with the revision to expect on the next append. */
async function fold<C, S, E extends DomainEvent>(
  store: EventStore,
  decider: Decider<C, S, E>,
  streamId: string,
): Promise<{ state: S; revision: bigint | 'no_stream' }> {
  let state = decider.initialState();
  let revision: bigint | 'no_stream' = 'no_stream';
  for await (const e of store.readStream(streamId)) {
    // Through the catalogue: a decider only ever sees the current shape of an event (upcasted, checked).
    state = decider.evolve(
      state,
      parseEvent({ type: e.type, data: e.data, metadata: e.metadata }) as unknown as E,
    );
    revision = e.revision;
  }
  return { state, revision };
}

/** What a command touching several streams sees: each stream loaded once, decided on, appended together. */
export interface UnitOfWork {
  /** Decides a command on one aggregate; its events join the unit's append. A stream may be decided on twice. */
  decide<C, S, E extends DomainEvent>(
    aggregate: Aggregate<C, S, E>,
    id: string,
    command: CommandInput<C, S>,
  ): Promise<{ state: S; events: E[] }>;
  /** The state of an aggregate as this unit sees it (with what it has decided so far), without deciding. */
  load<C, S, E extends DomainEvent>(aggregate: Aggregate<C, S, E>, id: string): Promise<S>;
}

interface Touched {
  state: unknown;
  revision: bigint | 'no_stream';
  events: DomainEvent[];
}

/**
 * A command over one or more streams, all or nothing (DESIGN §5): every event decided in `work` is
 * appended in one atomic multi-stream append at the revisions read, so a refusal or a failure leaves
 * nothing behind. The first stream decided on is the unit's own: units on it are queued in this
 * process (one lock per unit, so no two units can wait on each other). A lost race runs `work` again
 * on fresh state after a jittered pause.
 */
export async function transact<T>(
  deps: { store: EventStore },
  context: { ctx: CommandContext; metadata: EventMetadata; retry?: RetryPolicy },
  work: (unit: UnitOfWork) => Promise<T>,
): Promise<{ value: T; events: DomainEvent[]; position: Position | undefined }> {
  const retry = context.retry ?? DEFAULT_RETRY;
  let release: (() => void) | undefined;
  const lockOn = (streamId: string) =>
    new Promise<void>((locked) => {
      void locks.run(
        streamId,
        () =>
          new Promise<void>((resolve) => {
            release = resolve;
            locked();
          }),
      );
    });
  try {
    for (let attempt = 0; ; attempt++) {
      const touched = new Map<string, Touched>();
      const touch = async <C, S, E extends DomainEvent>(aggregate: Aggregate<C, S, E>, id: string) => {
        const streamId = aggregate.streamId(id);
        let entry = touched.get(streamId);
        if (!entry) {
          if (attempt === 0 && touched.size === 0 && !release) await lockOn(streamId);
          const { state, revision } = await fold(deps.store, aggregate.decider, streamId);
          entry = { state, revision, events: [] };
          touched.set(streamId, entry);
        }
        return entry;
      };
      const unit: UnitOfWork = {
        async decide(aggregate, id, command) {
          const entry = await touch(aggregate, id);
          const state = entry.state as Parameters<typeof aggregate.decider.evolve>[0];
          const resolved =
            typeof command === 'function' ? await (command as (s: typeof state) => unknown)(state) : command;
          const events = aggregate.decider.decide(resolved as never, state, context.ctx);
          entry.state = events.reduce(aggregate.decider.evolve, state);
          entry.events.push(...events);
          return { state: entry.state as typeof state, events };
        },
        async load(aggregate, id) {
          return (await touch(aggregate, id)).state as never;
        },
      };
      const value = await work(unit);
      const writes = [...touched].filter(([, t]) => t.events.length > 0);
      try {
        const results = await append(deps.store, writes, context.metadata);
        return {
          value,
          events: writes.flatMap(([, t]) => t.events),
          position: results.reduce<Position | undefined>(
            (max, r) => (max === undefined || r.position > max ? r.position : max),
            undefined,
          ),
        };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt + 1 >= retry.attempts) throw error;
        await jitteredPause(retry, attempt);
      }
    }
  } finally {
    release?.();
  }
}

async function append(
  store: EventStore,
  writes: [string, Touched][],
  metadata: EventMetadata,
): Promise<AppendResult[]> {
  const toNew = (events: DomainEvent[]) =>
    events.map((e) => ({ id: newId(), type: e.type, data: e.data, metadata }));
  const expected = (t: Touched): ExpectedRevision => t.revision;
  if (writes.length === 0) return [];
  if (writes.length === 1) {
    const [streamId, t] = writes[0]!;
    return [await store.appendToStream(streamId, toNew(t.events), { expectedRevision: expected(t) })];
  }
  return store.appendMany(
    writes.map(([streamId, t]) => ({ streamId, events: toNew(t.events), expectedRevision: expected(t) })),
  );
}

const jitteredPause = (retry: RetryPolicy, attempt: number) =>
  new Promise((resolve) =>
    setTimeout(resolve, Math.random() * Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt)),
  );

/** The single-stream path as a function call, for code not yet bound to an aggregate. */
export async function executeCommand<C, S, E extends DomainEvent>(
  deps: { store: EventStore },
  decider: Decider<C, S, E>,
  streamId: string,
  command: CommandInput<C, S>,
  ctx: CommandContext,
  metadata: EventMetadata,
): Promise<CommandResult<S, E>> {
  return defineAggregate({ decider, streamId: () => streamId }).handle(
    deps,
    streamId,
    command,
    ctx,
    metadata,
  );
}

export const loadAggregate = <C, S, E extends DomainEvent>(
  store: EventStore,
  decider: Decider<C, S, E>,
  streamId: string,
) => fold(store, decider, streamId);
