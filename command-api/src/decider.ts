import type { DomainEvent } from '@mrn/contracts';
import type { Actor } from '@mrn/platform';

/** What a decision may know besides the command and the state: who asks and when. */
export interface CommandContext {
  actor?: Actor;
  now: Date;
}

/** An aggregate: pure functions only; loading and appending happen in command-handler.ts. */
export interface Decider<Command, State, Event extends DomainEvent = DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State, ctx: CommandContext) => Event[];
}

export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
