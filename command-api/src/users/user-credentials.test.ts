import { PASSWORD_HISTORY } from '@mrn/contracts';
import { describe, expect, it } from 'vitest';
import { type UserEvent, userDecider } from './user.ts';
import { archived, as, CALLERS, registered, revoked } from './user-testing.ts';

const { self, member } = CALLERS;
const enabled: UserEvent = { type: 'UserMfaEnabled', data: { userId: 'u1', secret: 'S' } };
const device = { tokenHash: 'x', ip: '1.2.3.4', device: 'Chrome', expiresAt: '2026-12-22T00:00:00Z' };
const remembered: UserEvent = { type: 'UserDeviceRemembered', data: { userId: 'u1', ...device } };
const mfaReset: UserEvent[] = [{ type: 'UserMfaReset', data: { userId: 'u1' } }, revoked(1, 'mfa reset')];

describe('user credentials: MFA and remembered devices', () => {
  it('lets a member reset their own MFA; another member may not', () => {
    as(self)
      .given([registered, enabled])
      .when({ type: 'ResetMfa' })
      .thenEvents([{ type: 'UserMfaReset', data: { userId: 'u1' } }, revoked(1, 'mfa reset')]);
    as(member).given([registered, enabled]).when({ type: 'ResetMfa' }).thenRefuses('forbidden');
  });

  it('after a reset MFA can be enabled again, and the remembered device is gone with the old secret', () => {
    const afterReset = [registered, enabled, remembered, ...mfaReset];
    as(self)
      .given(afterReset)
      .when({ type: 'EnableMfa', secret: 'T' })
      .thenEvents([{ type: 'UserMfaEnabled', data: { userId: 'u1', secret: 'T' } }]);
    as(self).given(afterReset).when({ type: 'ForgetDevice' }).thenEvents([]);
  });

  it('remembers the device it is given, for an active member only; a forgotten one stays forgotten', () => {
    as(self)
      .given([registered])
      .when({ type: 'RememberDevice', ...device })
      .thenEvents([remembered]);
    as(self)
      .given([registered, archived])
      .when({ type: 'RememberDevice', ...device })
      .thenRefuses('gone');
    as(self)
      .given([registered, remembered, { type: 'UserDeviceForgotten', data: { userId: 'u1' } }])
      .when({ type: 'ForgetDevice' })
      .thenEvents([]);
  });
});

describe('user credentials: passwords', () => {
  it('records a reset link for an active member only', () => {
    const request = {
      type: 'RequestPasswordReset' as const,
      tokenHash: 'l',
      expiresAt: '2026-11-22T01:00:00Z',
    };
    as()
      .given([registered])
      .when(request)
      .thenEvents([
        {
          type: 'UserPasswordResetRequested',
          data: { userId: 'u1', tokenHash: 'l', expiresAt: '2026-11-22T01:00:00Z' },
        },
      ]);
    as().given([registered, archived]).when(request).thenRefuses('gone');
  });

  // The no-reuse rule is the handler's (it hashes the new password against this history), so this
  // reads the state the handler reads.
  it('keeps the new hash and the last five, newest first', () => {
    const changes = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map(
      (passwordHash): UserEvent => ({
        type: 'UserPasswordChanged',
        data: { userId: 'u1', passwordHash, via: 'profile' },
      }),
    );
    const state = [registered, ...changes].reduce(userDecider.evolve, userDecider.initialState());
    expect(PASSWORD_HISTORY).toBe(5);
    expect(state).toMatchObject({ passwordHash: 'h6', passwordHistory: ['h6', 'h5', 'h4', 'h3', 'h2'] });
  });
});
