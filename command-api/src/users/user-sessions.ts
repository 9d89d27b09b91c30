import { type EventOf, MESSAGES } from '@mrn/contracts';
import { notFound, unauthorized } from '@mrn/platform';
import { GUARD_TEXTS } from './user-guards.ts';
import type { ActiveUser, UserState } from './user-state.ts';

export type SessionEvent =
  | EventOf<'UserSignedIn'>
  | EventOf<'UserSignedOut'>
  | EventOf<'UserSessionsRevoked'>;

export type SessionCommand =
  /** The password was already checked by the handler (a side effect); this records the session. */
  | { type: 'SignIn'; sessionId: string }
  | { type: 'SignOut'; sessionId: string }
  | { type: 'RevokeSessions'; reason: string };

/**
 * A token carries the session version it was issued under and one below the member's current version
 * is refused, so a new version ends every session at once.
 */
export const sessionsRevoked = (user: ActiveUser, reason: string): EventOf<'UserSessionsRevoked'> => ({
  type: 'UserSessionsRevoked',
  data: { userId: user.userId, sessionVersion: user.sessionVersion + 1, reason },
});

export function decideSessions(command: SessionCommand, state: UserState): SessionEvent[] {
  switch (command.type) {
    case 'SignIn': {
      if (state.status !== 'active') throw unauthorized(MESSAGES.invalidCredentials);
      return [{ type: 'UserSignedIn', data: { userId: state.userId, sessionId: command.sessionId } }];
    }
    case 'SignOut': {
      if (state.status === 'none' || !state.openSessions.includes(command.sessionId)) return [];
      return [{ type: 'UserSignedOut', data: { userId: state.userId, sessionId: command.sessionId } }];
    }
    case 'RevokeSessions': {
      if (state.status === 'none') throw notFound(GUARD_TEXTS.notFound);
      return [sessionsRevoked(state, command.reason)];
    }
  }
}

export function evolveSessions(user: ActiveUser, event: SessionEvent): ActiveUser {
  switch (event.type) {
    case 'UserSignedIn':
      return { ...user, openSessions: [...user.openSessions, event.data.sessionId] };
    case 'UserSignedOut':
      return { ...user, openSessions: user.openSessions.filter((s) => s !== event.data.sessionId) };
    case 'UserSessionsRevoked':
      return { ...user, sessionVersion: event.data.sessionVersion, openSessions: [] };
  }
}
