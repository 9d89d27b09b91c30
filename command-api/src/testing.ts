import type { DomainEvent } from '@mrn/contracts';
import { type Actor, DomainError, type RefusalKind } from '@mrn/platform';
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

/** A caller of funder `a1` (override anything), and the usual cast of the account decider's tests. */
export const actorOf = (over: Partial<Actor> = {}): Actor => ({
  userId: 'u',
  accountId: 'a1',
  sessionId: 's',
  sessionVersion: 0,
  isAdmin: false,
  isDmAdmin: false,
  planLevel: 'BASIC',
  mfaPending: false,
  ...over,
});
export const ACTORS = {
  staff: actorOf({ accountId: 'platform', isDmAdmin: true, isAdmin: true }),
  ownAdmin: actorOf({ isAdmin: true }),
  otherAdmin: actorOf({ accountId: 'a2', isAdmin: true }),
  member: actorOf(),
} as const;
