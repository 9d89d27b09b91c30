import type { EventOf } from '@mrn/contracts';
import { conflict, notFound } from '@mrn/platform';
import { assertNever, type Decider } from '../decider.ts';
import {
  API_ACCESS_TEXTS,
  type ApiAccessCommand,
  type ApiAccessEvent,
  decideApiAccess,
  evolveApiAccess,
} from './user-api-access.ts';
import {
  CREDENTIAL_TEXTS,
  type CredentialCommand,
  type CredentialEvent,
  decideCredentials,
  evolveCredentials,
} from './user-credentials.ts';
import { active, assertManager, assertSelf, assertSelfOrManager, GUARD_TEXTS } from './user-guards.ts';
import {
  decideSessions,
  evolveSessions,
  type SessionCommand,
  type SessionEvent,
  sessionsRevoked,
} from './user-sessions.ts';

export { canManage } from './user-guards.ts';

import type { ActiveUser, UserState } from './user-state.ts';

export type UserEvent =
  | EventOf<'UserRegistered'>
  | EventOf<'UserUpdated'>
  | EventOf<'UserArchived'>
  | EventOf<'UserRestored'>
  | EventOf<'UserAdminChanged'>
  | EventOf<'UserMfaRequiredChanged'>
  | EventOf<'UserAgreedToTerms'>
  | SessionEvent
  | CredentialEvent
  | ApiAccessEvent;

export type { ActiveUser, RememberedDevice, UserState } from './user-state.ts';

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
  | { type: 'UpdateUser'; firstName: string; lastName: string; email: string }
  | { type: 'ArchiveUser' }
  | { type: 'RestoreUser' }
  | { type: 'ToggleAdmin' }
  | { type: 'ToggleMfaRequired'; accountRequiresMfa: boolean }
  | { type: 'AgreeToTerms' }
  | SessionCommand
  | CredentialCommand
  | ApiAccessCommand;

export const USER_TEXTS = {
  ...GUARD_TEXTS,
  notArchived: 'This member is not archived.',
  selfArchive: 'You cannot archive yourself.',
  selfAdmin: 'You cannot change your own admin status.',
  accountRequiresMfa: 'MFA is required for every member of this account.',
  ...CREDENTIAL_TEXTS,
  ...API_ACCESS_TEXTS,
} as const;

/**
 * Before the registration an event changes nothing. Applied case by case rather than up front, so that
 * an event of no known type still fails loudly.
 */
const on = (state: UserState, change: (u: ActiveUser) => ActiveUser): UserState =>
  state.status === 'none' ? state : change(state);

export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    if (event.type === 'UserRegistered') {
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
        passwordHistory: [passwordHash],
        agreedToTermsAt,
        sessionVersion: 0,
        openSessions: [],
        mfaRequired: false,
        mfaSecret: null,
        rememberedDevice: null,
        api: null,
        resetToken: null,
      };
    }
    switch (event.type) {
      case 'UserUpdated':
        return on(state, (u) => ({
          ...u,
          firstName: event.data.firstName,
          lastName: event.data.lastName,
          email: event.data.email,
        }));
      case 'UserArchived':
        return on(state, (u) => ({ ...u, status: 'archived' }));
      case 'UserRestored':
        return on(state, (u) => ({ ...u, status: 'active' }));
      case 'UserAdminChanged':
        return on(state, (u) => ({ ...u, isAdmin: event.data.isAdmin }));
      case 'UserMfaRequiredChanged':
        return on(state, (u) => ({ ...u, mfaRequired: event.data.mfaRequired }));
      case 'UserAgreedToTerms':
        return on(state, (u) => ({ ...u, agreedToTermsAt: event.data.agreedAt }));
      case 'UserSignedIn':
      case 'UserSignedOut':
      case 'UserSessionsRevoked':
        return on(state, (u) => evolveSessions(u, event));
      case 'UserMfaEnabled':
      case 'UserMfaReset':
      case 'UserDeviceRemembered':
      case 'UserDeviceForgotten':
      case 'UserPasswordChanged':
      case 'UserPasswordResetRequested':
        return on(state, (u) => evolveCredentials(u, event));
      case 'UserApiAccessGranted':
      case 'UserApiKeyRegenerated':
      case 'UserApiAccessRevoked':
        return on(state, (u) => evolveApiAccess(u, event));
      default:
        return assertNever(event);
    }
  },
  decide(command, state, ctx) {
    // Another funder's member is, to this funder, a member that does not exist, archived or not.
    if (
      state.status !== 'none' &&
      ctx.actor &&
      !ctx.actor.isDmAdmin &&
      ctx.actor.accountId !== state.accountId
    ) {
      throw notFound(USER_TEXTS.notFound);
    }
    switch (command.type) {
      case 'RegisterUser': {
        if (state.status !== 'none') throw conflict('This user already exists.');
        const { type: _, ...data } = command;
        return [{ type: 'UserRegistered', data }];
      }
      case 'UpdateUser': {
        const user = active(state);
        assertSelfOrManager(ctx, user);
        if (
          user.firstName === command.firstName &&
          user.lastName === command.lastName &&
          user.email === command.email
        )
          return [];
        const { type: _, ...data } = command;
        return [{ type: 'UserUpdated', data: { userId: user.userId, ...data } }];
      }
      case 'ArchiveUser': {
        if (state.status === 'archived') return [];
        const user = active(state);
        assertManager(ctx, user);
        if (ctx.actor?.userId === user.userId) throw conflict(USER_TEXTS.selfArchive);
        return [{ type: 'UserArchived', data: { userId: user.userId } }, sessionsRevoked(user, 'archived')];
      }
      case 'RestoreUser': {
        if (state.status === 'none') throw notFound(USER_TEXTS.notFound);
        assertManager(ctx, state);
        if (state.status !== 'archived') throw conflict(USER_TEXTS.notArchived);
        return [{ type: 'UserRestored', data: { userId: state.userId } }];
      }
      case 'ToggleAdmin': {
        const user = active(state);
        assertManager(ctx, user);
        if (ctx.actor?.userId === user.userId) throw conflict(USER_TEXTS.selfAdmin);
        return [{ type: 'UserAdminChanged', data: { userId: user.userId, isAdmin: !user.isAdmin } }];
      }
      case 'ToggleMfaRequired': {
        const user = active(state);
        assertManager(ctx, user);
        if (command.accountRequiresMfa) throw conflict(USER_TEXTS.accountRequiresMfa);
        return [
          { type: 'UserMfaRequiredChanged', data: { userId: user.userId, mfaRequired: !user.mfaRequired } },
        ];
      }
      case 'AgreeToTerms': {
        const user = active(state);
        assertSelf(ctx, user);
        if (user.agreedToTermsAt) return [];
        return [
          { type: 'UserAgreedToTerms', data: { userId: user.userId, agreedAt: ctx.now.toISOString() } },
        ];
      }
      case 'SignIn':
      case 'SignOut':
      case 'RevokeSessions':
        return decideSessions(command, state);
      case 'EnableMfa':
      case 'ResetMfa':
      case 'RememberDevice':
      case 'ForgetDevice':
      case 'ChangePassword':
      case 'RequestPasswordReset':
        return decideCredentials(command, state, ctx);
      case 'GrantApiAccess':
      case 'RegenerateApiKey':
      case 'RevokeApiAccess':
        return decideApiAccess(command, state, ctx);
      default:
        return assertNever(command);
    }
  },
};
