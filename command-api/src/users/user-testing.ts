import type { EventOf } from '@mrn/contracts';
import type { Actor } from '@mrn/platform';
import { ACTORS, actorOf, specFor } from '../testing.ts';
import { type UserEvent, userDecider } from './user.ts';

/** Ann (u1), a member of funder a1, and the callers the user decider's tests decide as. */
export const registered: EventOf<'UserRegistered'> = {
  type: 'UserRegistered',
  data: {
    userId: 'u1',
    accountId: 'a1',
    email: 'ann@summit.example',
    firstName: 'Ann',
    lastName: 'Lee',
    isAdmin: false,
    isDmAdmin: false,
    passwordHash: 'h0',
    agreedToTermsAt: null,
  },
};
export const archived: UserEvent = { type: 'UserArchived', data: { userId: 'u1' } };
export const revoked = (sessionVersion: number, reason: string): UserEvent => ({
  type: 'UserSessionsRevoked',
  data: { userId: 'u1', sessionVersion, reason },
});

export const CALLERS = { ...ACTORS, self: actorOf({ userId: 'u1' }) } as const;
/** Decides at 2026-11-22T00:00:00Z as `actor`; no actor is the system (a job, a handler's own step). */
export const as = (actor?: Actor) => specFor(userDecider, { now: new Date('2026-11-22T00:00:00Z'), actor });
