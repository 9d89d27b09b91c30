import { describe, it } from 'vitest';
import { specFor } from '../testing.ts';
import { type UserEvent, userDecider } from './user.ts';

const spec = specFor(userDecider, { now: new Date('2026-11-01T00:00:00Z') });
const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userId: 'u1',
    accountId: 'a1',
    email: 'ann@funder.example',
    firstName: 'Ann',
    lastName: 'Lee',
    isAdmin: false,
    isDmAdmin: false,
    passwordHash: '$argon2id$…',
    agreedToTermsAt: null,
  },
};

describe('user decider', () => {
  it('registers a new user', () => {
    const { type: _, ...data } = { type: 'RegisterUser' as const, ...registered.data };
    spec
      .given([])
      .when({ type: 'RegisterUser', ...data })
      .thenEvents([registered]);
  });

  it('refuses to register the same user twice', () => {
    spec
      .given([registered])
      .when({ type: 'RegisterUser', ...registered.data })
      .thenRefuses('conflict');
  });

  it('records a sign-in with its session', () => {
    spec
      .given([registered])
      .when({ type: 'SignIn', sessionId: 's1' })
      .thenEvents([{ type: 'UserSignedIn', data: { userId: 'u1', sessionId: 's1' } }]);
  });

  it('refuses a sign-in for a user that does not exist, with the sign-in text', () => {
    spec
      .given([])
      .when({ type: 'SignIn', sessionId: 's1' })
      .thenRefuses('unauthorized', 'Invalid email or password.');
  });

  it('signs out an open session once; a second sign-out records nothing', () => {
    const signedIn: UserEvent = { type: 'UserSignedIn', data: { userId: 'u1', sessionId: 's1' } };
    spec
      .given([registered, signedIn])
      .when({ type: 'SignOut', sessionId: 's1' })
      .thenEvents([{ type: 'UserSignedOut', data: { userId: 'u1', sessionId: 's1' } }]);
    spec
      .given([registered, signedIn, { type: 'UserSignedOut', data: { userId: 'u1', sessionId: 's1' } }])
      .when({ type: 'SignOut', sessionId: 's1' })
      .thenEvents([]);
  });

  it('bumps the session version on every revocation', () => {
    spec
      .given([
        registered,
        { type: 'UserSessionsRevoked', data: { userId: 'u1', sessionVersion: 1, reason: 'x' } },
      ])
      .when({ type: 'RevokeSessions', reason: 'password changed' })
      .thenEvents([
        {
          type: 'UserSessionsRevoked',
          data: { userId: 'u1', sessionVersion: 2, reason: 'password changed' },
        },
      ]);
  });
});
