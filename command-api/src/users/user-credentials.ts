import { type EventOf, PASSWORD_HISTORY, PASSWORD_REUSE_MESSAGE } from '@mrn/contracts';
import { conflict, invalid, ruleBroken } from '@mrn/platform';
import type { CommandContext } from '../decider.ts';
import { active, assertManager, assertSelf, assertSelfOrManager } from './user-guards.ts';
import { type SessionEvent, sessionsRevoked } from './user-sessions.ts';
import type { ActiveUser, UserState } from './user-state.ts';

export type CredentialEvent =
  | EventOf<'UserMfaEnabled'>
  | EventOf<'UserMfaReset'>
  | EventOf<'UserDeviceRemembered'>
  | EventOf<'UserDeviceForgotten'>
  | EventOf<'UserPasswordChanged'>
  | EventOf<'UserPasswordResetRequested'>;

export type CredentialCommand =
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
  | { type: 'RequestPasswordReset'; tokenHash: string; expiresAt: string };

export const CREDENTIAL_TEXTS = {
  badResetLink: 'This password reset link is invalid or has expired. Please request a new one.',
  mfaAlreadyEnabled: 'Multi-factor authentication is already enabled.',
  noMfa: 'MFA has not been enabled.',
} as const;

export function decideCredentials(
  command: CredentialCommand,
  state: UserState,
  ctx: CommandContext,
): (CredentialEvent | SessionEvent)[] {
  switch (command.type) {
    case 'EnableMfa': {
      const user = active(state);
      assertSelf(ctx, user);
      if (user.mfaSecret) throw conflict(CREDENTIAL_TEXTS.mfaAlreadyEnabled);
      return [{ type: 'UserMfaEnabled', data: { userId: user.userId, secret: command.secret } }];
    }
    case 'ResetMfa': {
      const user = active(state);
      assertSelfOrManager(ctx, user);
      if (!user.mfaSecret) throw conflict(CREDENTIAL_TEXTS.noMfa);
      // A reset logs the user out everywhere (accounts spec §4).
      return [{ type: 'UserMfaReset', data: { userId: user.userId } }, sessionsRevoked(user, 'mfa reset')];
    }
    case 'RememberDevice': {
      const user = active(state);
      const { type: _, ...data } = command;
      return [{ type: 'UserDeviceRemembered', data: { userId: user.userId, ...data } }];
    }
    case 'ForgetDevice': {
      const user = active(state);
      assertSelfOrManager(ctx, user);
      return user.rememberedDevice ? [{ type: 'UserDeviceForgotten', data: { userId: user.userId } }] : [];
    }
    case 'ChangePassword': {
      if (command.via === 'reset') {
        // Any dead link (used, replaced, expired, or a member since archived) reads the same.
        const link = state.status === 'active' ? state.resetToken : null;
        if (!link || link.hash !== command.resetTokenHash || new Date(link.expiresAt) <= ctx.now) {
          throw invalid(CREDENTIAL_TEXTS.badResetLink);
        }
      }
      const user = active(state);
      if (command.via === 'admin') assertManager(ctx, user);
      if (command.via === 'profile') assertSelf(ctx, user);
      if (command.matchesHistory) throw ruleBroken(PASSWORD_REUSE_MESSAGE);
      // A new password ends every other session: the handler gives the caller a fresh token.
      const { passwordHash, via } = command;
      return [
        { type: 'UserPasswordChanged', data: { userId: user.userId, passwordHash, via } },
        sessionsRevoked(user, 'password changed'),
      ];
    }
    case 'RequestPasswordReset': {
      const user = active(state);
      const { tokenHash, expiresAt } = command;
      return [{ type: 'UserPasswordResetRequested', data: { userId: user.userId, tokenHash, expiresAt } }];
    }
  }
}

export function evolveCredentials(user: ActiveUser, event: CredentialEvent): ActiveUser {
  switch (event.type) {
    case 'UserMfaEnabled':
      return { ...user, mfaSecret: event.data.secret };
    // The remembered device skipped the MFA step: it goes with the secret it skipped.
    case 'UserMfaReset':
      return { ...user, mfaSecret: null, rememberedDevice: null };
    case 'UserDeviceRemembered': {
      const { tokenHash, ip, device, expiresAt } = event.data;
      return { ...user, rememberedDevice: { tokenHash, ip, device, expiresAt } };
    }
    case 'UserDeviceForgotten':
      return { ...user, rememberedDevice: null };
    // A link is good for one change: the change itself uses it up.
    case 'UserPasswordChanged':
      return {
        ...user,
        passwordHash: event.data.passwordHash,
        passwordHistory: [event.data.passwordHash, ...user.passwordHistory].slice(0, PASSWORD_HISTORY),
        resetToken: null,
      };
    case 'UserPasswordResetRequested':
      return { ...user, resetToken: { hash: event.data.tokenHash, expiresAt: event.data.expiresAt } };
  }
}
