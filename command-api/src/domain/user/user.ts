import { type EventOf, MESSAGES, PASSWORD_HISTORY, PASSWORD_REUSE_MESSAGE } from '@mrn/contracts';
import {
  type Actor,
  conflict,
  forbidden,
  gone,
  invalid,
  notFound,
  ruleBroken,
  unauthorized,
} from '@mrn/platform';
import { assertNever, type CommandContext, type Decider } from '../decider.ts';

export type UserEvent =
  | EventOf<'UserRegistered'>
  | EventOf<'UserSignedIn'>
  | EventOf<'UserSignedOut'>
  | EventOf<'UserSessionsRevoked'>
  | EventOf<'UserUpdated'>
  | EventOf<'UserArchived'>
  | EventOf<'UserRestored'>
  | EventOf<'UserAdminChanged'>
  | EventOf<'UserMfaRequiredChanged'>
  | EventOf<'UserApiAccessGranted'>
  | EventOf<'UserApiKeyRegenerated'>
  | EventOf<'UserApiAccessRevoked'>
  | EventOf<'UserMfaEnabled'>
  | EventOf<'UserMfaReset'>
  | EventOf<'UserDeviceRemembered'>
  | EventOf<'UserDeviceForgotten'>
  | EventOf<'UserPasswordChanged'>
  | EventOf<'UserPasswordResetRequested'>
  | EventOf<'UserAgreedToTerms'>;

export interface RememberedDevice {
  tokenHash: string;
  ip: string | null;
  device: string | null;
  expiresAt: string;
}

export interface ActiveUser {
  status: 'active' | 'archived';
  userId: string;
  accountId: string;
  email: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  isDmAdmin: boolean;
  passwordHash: string;
  /** The current hash first, then earlier ones: the no-reuse rule looks at PASSWORD_HISTORY of them. */
  passwordHistory: string[];
  sessionVersion: number;
  agreedToTermsAt: string | null;
  openSessions: string[];
  mfaRequired: boolean;
  mfaSecret: string | null;
  rememberedDevice: RememberedDevice | null;
  api: { token: string; keyHash: string } | null;
  resetToken: { hash: string; expiresAt: string } | null;
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
  | { type: 'RevokeSessions'; reason: string }
  | { type: 'UpdateUser'; firstName: string; lastName: string; email: string }
  | { type: 'ArchiveUser' }
  | { type: 'RestoreUser' }
  | { type: 'ToggleAdmin' }
  | { type: 'ToggleMfaRequired'; accountRequiresMfa: boolean }
  | { type: 'GrantApiAccess'; accountHasApiAccess: boolean; authenticationToken: string; keyHash: string }
  | { type: 'RegenerateApiKey'; keyHash: string; replacingKeyHash: string }
  | { type: 'RevokeApiAccess' }
  | { type: 'EnableMfa'; secret: string }
  | { type: 'ResetMfa' }
  | { type: 'RememberDevice'; tokenHash: string; ip: string | null; device: string | null; expiresAt: string }
  | { type: 'ForgetDevice' }
  /**
   * `matchesHistory` is the handler's verdict from hashing the new password against the history. A reset
   * carries the hash of the link's token: the link's validity is decided here, against the state the
   * change is appended to, so of concurrent uses of one link exactly one can change the password.
   */
  | {
      type: 'ChangePassword';
      passwordHash: string;
      via: 'profile' | 'admin';
      matchesHistory: boolean;
    }
  | {
      type: 'ChangePassword';
      passwordHash: string;
      via: 'reset';
      resetTokenHash: string;
      matchesHistory: boolean;
    }
  | { type: 'RequestPasswordReset'; tokenHash: string; expiresAt: string }
  | { type: 'AgreeToTerms' };

export const USER_TEXTS = {
  notFound: 'Member not found.',
  badResetLink: 'This password reset link is invalid or has expired. Please request a new one.',
  archived: 'This member has been archived.',
  notArchived: 'This member is not archived.',
  accountHasNoApi: 'API access must first be granted to the account by a platform administrator.',
  noApiAccess: 'This member has no API access.',
  apiAlreadyGranted: 'This member already has API access. Regenerate the key to issue a new one.',
  apiKeyChanged: 'The API key was just changed by someone else. Open the credentials again to see them.',
  selfArchive: 'You cannot archive yourself.',
  selfAdmin: 'You cannot change your own admin status.',
  accountRequiresMfa: 'MFA is required for every member of this account.',
  mfaAlreadyEnabled: 'Multi-factor authentication is already enabled.',
  noMfa: 'MFA has not been enabled.',
} as const;

function active(state: UserState): ActiveUser & { status: 'active' } {
  if (state.status === 'none') throw notFound(USER_TEXTS.notFound);
  if (state.status === 'archived') throw gone(USER_TEXTS.archived);
  return state as ActiveUser & { status: 'active' };
}

/** Platform admins manage everyone; account admins manage the members of their own account. */
export function canManage(actor: Actor | undefined, user: ActiveUser): boolean {
  if (!actor) return false;
  if (actor.isDmAdmin) return true;
  return actor.isAdmin && actor.accountId === user.accountId && !user.isDmAdmin;
}

/**
 * Another funder's member answers exactly as a member that does not exist (404), so a refusal reveals
 * nothing of the other funder; within one's own funder a refusal is a plain 403.
 */
const hiddenFrom = (actor: Actor | undefined, user: ActiveUser): boolean =>
  !actor || (!actor.isDmAdmin && actor.accountId !== user.accountId);
const refuse = (ctx: CommandContext, user: ActiveUser): never => {
  if (hiddenFrom(ctx.actor, user)) throw notFound(USER_TEXTS.notFound);
  throw forbidden();
};
const manager = (ctx: CommandContext, user: ActiveUser) => {
  if (!canManage(ctx.actor, user)) refuse(ctx, user);
};
const selfOrManager = (ctx: CommandContext, user: ActiveUser) => {
  if (ctx.actor?.userId !== user.userId && !canManage(ctx.actor, user)) refuse(ctx, user);
};

const on = (state: UserState, change: (u: ActiveUser) => ActiveUser): UserState =>
  state.status === 'none' ? state : change(state);

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
      case 'UserSignedIn':
        return on(state, (u) => ({ ...u, openSessions: [...u.openSessions, event.data.sessionId] }));
      case 'UserSignedOut':
        return on(state, (u) => ({
          ...u,
          openSessions: u.openSessions.filter((s) => s !== event.data.sessionId),
        }));
      case 'UserSessionsRevoked':
        return on(state, (u) => ({ ...u, sessionVersion: event.data.sessionVersion, openSessions: [] }));
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
      case 'UserApiAccessGranted':
        return on(state, (u) => ({
          ...u,
          api: { token: event.data.authenticationToken, keyHash: event.data.keyHash },
        }));
      case 'UserApiKeyRegenerated':
        return on(state, (u) => (u.api ? { ...u, api: { ...u.api, keyHash: event.data.keyHash } } : u));
      case 'UserApiAccessRevoked':
        return on(state, (u) => ({ ...u, api: null }));
      case 'UserMfaEnabled':
        return on(state, (u) => ({ ...u, mfaSecret: event.data.secret }));
      case 'UserMfaReset':
        return on(state, (u) => ({ ...u, mfaSecret: null, rememberedDevice: null }));
      case 'UserDeviceRemembered': {
        const { tokenHash, ip, device, expiresAt } = event.data;
        return on(state, (u) => ({ ...u, rememberedDevice: { tokenHash, ip, device, expiresAt } }));
      }
      case 'UserDeviceForgotten':
        return on(state, (u) => ({ ...u, rememberedDevice: null }));
      case 'UserPasswordChanged':
        return on(state, (u) => ({
          ...u,
          passwordHash: event.data.passwordHash,
          passwordHistory: [event.data.passwordHash, ...u.passwordHistory].slice(0, PASSWORD_HISTORY),
          resetToken: null,
        }));
      case 'UserPasswordResetRequested':
        return on(state, (u) => ({
          ...u,
          resetToken: { hash: event.data.tokenHash, expiresAt: event.data.expiresAt },
        }));
      case 'UserAgreedToTerms':
        return on(state, (u) => ({ ...u, agreedToTermsAt: event.data.agreedAt }));
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
      case 'SignIn': {
        if (state.status !== 'active') throw unauthorized(MESSAGES.invalidCredentials);
        return [{ type: 'UserSignedIn', data: { userId: state.userId, sessionId: command.sessionId } }];
      }
      case 'SignOut': {
        if (state.status === 'none' || !state.openSessions.includes(command.sessionId)) return [];
        return [{ type: 'UserSignedOut', data: { userId: state.userId, sessionId: command.sessionId } }];
      }
      case 'RevokeSessions': {
        if (state.status === 'none') throw notFound(USER_TEXTS.notFound);
        return [
          {
            type: 'UserSessionsRevoked',
            data: { userId: state.userId, sessionVersion: state.sessionVersion + 1, reason: command.reason },
          },
        ];
      }
      case 'UpdateUser': {
        const user = active(state);
        selfOrManager(ctx, user);
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
        manager(ctx, user);
        if (ctx.actor?.userId === user.userId) throw conflict(USER_TEXTS.selfArchive);
        return [
          { type: 'UserArchived', data: { userId: user.userId } },
          {
            type: 'UserSessionsRevoked',
            data: { userId: user.userId, sessionVersion: user.sessionVersion + 1, reason: 'archived' },
          },
        ];
      }
      case 'RestoreUser': {
        if (state.status === 'none') throw notFound(USER_TEXTS.notFound);
        if (!canManage(ctx.actor, state)) refuse(ctx, state);
        if (state.status !== 'archived') throw conflict(USER_TEXTS.notArchived);
        return [{ type: 'UserRestored', data: { userId: state.userId } }];
      }
      case 'ToggleAdmin': {
        const user = active(state);
        manager(ctx, user);
        if (ctx.actor?.userId === user.userId) throw conflict(USER_TEXTS.selfAdmin);
        return [{ type: 'UserAdminChanged', data: { userId: user.userId, isAdmin: !user.isAdmin } }];
      }
      case 'ToggleMfaRequired': {
        const user = active(state);
        manager(ctx, user);
        if (command.accountRequiresMfa) throw conflict(USER_TEXTS.accountRequiresMfa);
        return [
          { type: 'UserMfaRequiredChanged', data: { userId: user.userId, mfaRequired: !user.mfaRequired } },
        ];
      }
      case 'GrantApiAccess': {
        const user = active(state);
        manager(ctx, user);
        if (!command.accountHasApiAccess) throw conflict(USER_TEXTS.accountHasNoApi);
        // A second grant would replace the key the first one just showed: of grants sent at once, one wins.
        if (user.api) throw conflict(USER_TEXTS.apiAlreadyGranted);
        return [
          {
            type: 'UserApiAccessGranted',
            data: {
              userId: user.userId,
              authenticationToken: command.authenticationToken,
              keyHash: command.keyHash,
            },
          },
        ];
      }
      case 'RegenerateApiKey': {
        const user = active(state);
        manager(ctx, user);
        if (!user.api) throw conflict(USER_TEXTS.noApiAccess);
        // Replaces the key the caller saw, not one issued meanwhile (which someone was just shown).
        if (user.api.keyHash !== command.replacingKeyHash) throw conflict(USER_TEXTS.apiKeyChanged);
        return [{ type: 'UserApiKeyRegenerated', data: { userId: user.userId, keyHash: command.keyHash } }];
      }
      case 'RevokeApiAccess': {
        const user = active(state);
        manager(ctx, user);
        return user.api ? [{ type: 'UserApiAccessRevoked', data: { userId: user.userId } }] : [];
      }
      case 'EnableMfa': {
        const user = active(state);
        if (ctx.actor?.userId !== user.userId) throw forbidden();
        if (user.mfaSecret) throw conflict(USER_TEXTS.mfaAlreadyEnabled);
        return [{ type: 'UserMfaEnabled', data: { userId: user.userId, secret: command.secret } }];
      }
      case 'ResetMfa': {
        const user = active(state);
        selfOrManager(ctx, user);
        if (!user.mfaSecret) throw conflict(USER_TEXTS.noMfa);
        // A reset logs the user out everywhere (accounts spec §4).
        return [
          { type: 'UserMfaReset', data: { userId: user.userId } },
          {
            type: 'UserSessionsRevoked',
            data: { userId: user.userId, sessionVersion: user.sessionVersion + 1, reason: 'mfa reset' },
          },
        ];
      }
      case 'RememberDevice': {
        const user = active(state);
        const { type: _, ...data } = command;
        return [{ type: 'UserDeviceRemembered', data: { userId: user.userId, ...data } }];
      }
      case 'ForgetDevice': {
        const user = active(state);
        selfOrManager(ctx, user);
        return user.rememberedDevice ? [{ type: 'UserDeviceForgotten', data: { userId: user.userId } }] : [];
      }
      case 'ChangePassword': {
        if (command.via === 'reset') {
          // Any dead link (used, replaced, expired, or a member since archived) reads the same.
          const link = state.status === 'active' ? state.resetToken : null;
          if (!link || link.hash !== command.resetTokenHash || new Date(link.expiresAt) <= ctx.now) {
            throw invalid(USER_TEXTS.badResetLink);
          }
        }
        const user = active(state);
        if (command.via === 'admin') manager(ctx, user);
        if (command.via === 'profile' && ctx.actor?.userId !== user.userId) throw forbidden();
        if (command.matchesHistory) throw ruleBroken(PASSWORD_REUSE_MESSAGE);
        // A new password ends every other session: the handler gives the caller a fresh token.
        return [
          {
            type: 'UserPasswordChanged',
            data: { userId: user.userId, passwordHash: command.passwordHash, via: command.via },
          },
          {
            type: 'UserSessionsRevoked',
            data: {
              userId: user.userId,
              sessionVersion: user.sessionVersion + 1,
              reason: 'password changed',
            },
          },
        ];
      }
      case 'RequestPasswordReset': {
        const user = active(state);
        return [
          {
            type: 'UserPasswordResetRequested',
            data: { userId: user.userId, tokenHash: command.tokenHash, expiresAt: command.expiresAt },
          },
        ];
      }
      case 'AgreeToTerms': {
        const user = active(state);
        if (ctx.actor?.userId !== user.userId) throw forbidden();
        if (user.agreedToTermsAt) return [];
        return [
          { type: 'UserAgreedToTerms', data: { userId: user.userId, agreedAt: ctx.now.toISOString() } },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
