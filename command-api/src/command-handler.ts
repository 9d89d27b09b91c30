import type { DomainEvent } from '@mrn/contracts';
import {
  type EventMetadata,
  type EventStore,
  newId,
  type Position,
  WrongExpectedRevisionError,
} from '@mrn/platform';
import type { CommandContext, Decider } from './domain/decider.ts';

export interface CommandResult<State, Event> {
  state: State;
  events: Event[];
  /** Position of the last event appended, or undefined when the command changed nothing. */
  position: Position | undefined;
}

/** Folds a stream into its aggregate state, returning the revision to expect on the next append. */
export async function loadAggregate<C, S, E extends DomainEvent>(
  store: EventStore,
  decider: Decider<C, S, E>,
  streamId: string,
): Promise<{ state: S; revision: bigint | 'no_stream' }> {
  let state = decider.initialState();
  let revision: bigint | 'no_stream' = 'no_stream';
  for await (const e of store.readStream(streamId)) {
    state = decider.evolve(state, { type: e.type, data: e.data } as E);
    revision = e.revision;
  }
  return { state, revision };
}

/**
 * Load, decide, append at the revision read: the write path of every command. A concurrent writer
 * makes the append fail on its revision; the command is then decided again on the newer state.
 */
export async function executeCommand<C, S, E extends DomainEvent>(
  deps: { store: EventStore },
  decider: Decider<C, S, E>,
  streamId: string,
  /** The command, or how to make it from the state just loaded (re-run on every retry). */
  command: C | ((state: S) => C | Promise<C>),
  ctx: CommandContext,
  metadata: EventMetadata,
  options: { eventIds?: (index: number) => string } = {},
): Promise<CommandResult<S, E>> {
  for (let attempt = 0; ; attempt++) {
    const { state, revision } = await loadAggregate(deps.store, decider, streamId);
    const resolved =
      typeof command === 'function' ? await (command as (state: S) => C | Promise<C>)(state) : command;
    const events = decider.decide(resolved, state, ctx);
    if (events.length === 0) return { state, events, position: undefined };
    try {
      const result = await deps.store.appendToStream(
        streamId,
        events.map((e, i) => ({
          id: options.eventIds?.(i) ?? newId(),
          type: e.type,
          data: e.data,
          metadata,
        })),
        { expectedRevision: revision },
      );
      return { state: events.reduce(decider.evolve, state), events, position: result.position };
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError && attempt < 3) continue;
      throw error;
    }
  }
}
