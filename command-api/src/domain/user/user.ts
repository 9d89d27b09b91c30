import { type EventOf, MESSAGES } from '@mrn/contracts';
import { conflict, DomainError } from '@mrn/platform';
import { assertNever, type Decider } from '../decider.ts';

export type UserEvent =
  | EventOf<'UserRegistered'>
  | EventOf<'UserSignedIn'>
  | EventOf<'UserSignedOut'>
  | EventOf<'UserSessionsRevoked'>;

export interface ActiveUser {
  status: 'active';
  userId: string;
  accountId: string;
  email: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  isDmAdmin: boolean;
  passwordHash: string;
  sessionVersion: number;
  agreedToTermsAt: string | null;
  openSessions: string[];
}

export type UserState = { status: 'none' } | ActiveUser;

export type UserCommand =
  | {
      type: 'RegisterUser';
      userId: string;
      accountId: string;
      email: string;
      firstName: string;
      lastName: string;
      isAdmin: boolean;
      isDmAdmin: boolean;
      passwordHash: string;
      agreedToTermsAt: string | null;
    }
  /** The password was already checked by the handler (a side effect); this records the session. */
  | { type: 'SignIn'; sessionId: string }
  | { type: 'SignOut'; sessionId: string }
  | { type: 'RevokeSessions'; reason: string };

function requireActive(state: UserState): ActiveUser {
  if (state.status !== 'active') throw new DomainError(401, MESSAGES.invalidCredentials);
  return state;
}

export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered': {
        const {
          userId,
          accountId,
          email,
          firstName,
          lastName,
          isAdmin,
          isDmAdmin,
          passwordHash,
          agreedToTermsAt,
        } = event.data;
        return {
          status: 'active',
          userId,
          accountId,
          email,
          firstName,
          lastName,
          isAdmin,
          isDmAdmin,
          passwordHash,
          agreedToTermsAt,
          sessionVersion: 0,
          openSessions: [],
        };
      }
      case 'UserSignedIn':
        return state.status === 'active'
          ? { ...state, openSessions: [...state.openSessions, event.data.sessionId] }
          : state;
      case 'UserSignedOut':
        return state.status === 'active'
          ? { ...state, openSessions: state.openSessions.filter((s) => s !== event.data.sessionId) }
          : state;
      case 'UserSessionsRevoked':
        return state.status === 'active'
          ? { ...state, sessionVersion: event.data.sessionVersion, openSessions: [] }
          : state;
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser': {
        if (state.status !== 'none') throw conflict('This user already exists.');
        const { type: _, ...data } = command;
        return [{ type: 'UserRegistered', data }];
      }
      case 'SignIn': {
        const user = requireActive(state);
        return [{ type: 'UserSignedIn', data: { userId: user.userId, sessionId: command.sessionId } }];
      }
      case 'SignOut': {
        const user = requireActive(state);
        if (!user.openSessions.includes(command.sessionId)) return [];
        return [{ type: 'UserSignedOut', data: { userId: user.userId, sessionId: command.sessionId } }];
      }
      case 'RevokeSessions': {
        const user = requireActive(state);
        return [
          {
            type: 'UserSessionsRevoked',
            data: { userId: user.userId, sessionVersion: user.sessionVersion + 1, reason: command.reason },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
