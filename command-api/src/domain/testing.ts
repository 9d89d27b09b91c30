import type { DomainEvent } from '@mrn/contracts';
import { DomainError } from '@mrn/platform';
import { expect } from 'vitest';
import type { CommandContext, Decider } from './decider.ts';

/** given(events).when(command).thenEvents(events) / .thenRefuses(status, text) for any decider. */
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
            thenRefuses(status: number, message?: string | RegExp) {
              let thrown: unknown;
              try {
                run();
              } catch (error) {
                thrown = error;
              }
              expect(thrown).toBeInstanceOf(DomainError);
              expect((thrown as DomainError).status).toBe(status);
              if (message) expect((thrown as DomainError).message).toMatch(message);
            },
          };
        },
      };
    },
  };
}
