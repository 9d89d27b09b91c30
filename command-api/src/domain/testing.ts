import type { DomainEvent } from '@mrn/contracts';
import { DomainError, type RefusalKind } from '@mrn/platform';
import { expect } from 'vitest';
import type { CommandContext, Decider } from './decider.ts';

/** given(events).when(command).thenEvents(events) / .thenRefuses(kind, text) for any decider. */
export function specFor<C, S, E extends DomainEvent>(decider: Decider<C, S, E>, ctx: CommandContext) {
  return {
    given(events: E[]) {
      const state = events.reduce(decider.evolve, decider.initialState());
      return {
        when(command: C) {
          const run = () => decider.decide(command, state, ctx);
          return {
            thenEvents(expected: E[]) {
              expect(run()).toEqual(expected);
            },
            thenRefuses(kind: RefusalKind, message?: string | RegExp) {
              let thrown: unknown;
              try {
                run();
              } catch (error) {
                thrown = error;
              }
              expect(thrown).toBeInstanceOf(DomainError);
              expect((thrown as DomainError).kind).toBe(kind);
              if (message) expect((thrown as DomainError).message).toMatch(message);
            },
          };
        },
      };
    },
  };
}
