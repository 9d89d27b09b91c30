import { PASSWORD_REUSE_MESSAGE } from '@mrn/contracts';
import type { Actor } from '@mrn/platform';
import { describe, it } from 'vitest';
import { specFor } from '../testing.ts';
import { USER_TEXTS, type UserEvent, userDecider } from './user.ts';

const actor = (over: Partial<Actor>): Actor => ({
  userId: 'u-admin',
  accountId: 'a1',
  sessionId: 's',
  sessionVersion: 0,
  isAdmin: true,
  isDmAdmin: false,
  planLevel: 'BASIC',
  mfaPending: false,
  ...over,
});
const ownAdmin = actor({});
const otherAdmin = actor({ accountId: 'a2' });
const self = actor({ userId: 'u1', isAdmin: false });
const peer = actor({ userId: 'u2', isAdmin: false });
const staff = actor({ userId: 'u-staff', accountId: 'platform', isDmAdmin: true });
const as = (a: Actor) => specFor(userDecider, { now: new Date('2026-11-22T00:00:00Z'), actor: a });

const registered: UserEvent = {
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
const revoked = (v: number, reason: string): UserEvent => ({
  type: 'UserSessionsRevoked',
  data: { userId: 'u1', sessionVersion: v, reason },
});

describe('user decider: member administration', () => {
  it('updates a profile for the user or an admin of the account; not a peer nor another account', () => {
    const cmd = {
      type: 'UpdateUser' as const,
      firstName: 'Anne',
      lastName: 'Lee',
      email: 'ann@summit.example',
    };
    const updated: UserEvent = {
      type: 'UserUpdated',
      data: { userId: 'u1', firstName: 'Anne', lastName: 'Lee', email: 'ann@summit.example' },
    };
    as(self).given([registered]).when(cmd).thenEvents([updated]);
    as(ownAdmin).given([registered]).when(cmd).thenEvents([updated]);
    as(peer).given([registered]).when(cmd).thenRefuses('forbidden');
    // Another funder's member answers as one that does not exist.
    as(otherAdmin).given([registered]).when(cmd).thenRefuses('not_found', USER_TEXTS.notFound);
  });

  it('archives (revoking sessions) and restores; nobody archives themselves', () => {
    as(ownAdmin)
      .given([registered])
      .when({ type: 'ArchiveUser' })
      .thenEvents([{ type: 'UserArchived', data: { userId: 'u1' } }, revoked(1, 'archived')]);
    as(self).given([registered]).when({ type: 'ArchiveUser' }).thenRefuses('forbidden');
    as(staff)
      .given([registered, { type: 'UserArchived', data: { userId: 'u1' } }])
      .when({ type: 'RestoreUser' })
      .thenEvents([{ type: 'UserRestored', data: { userId: 'u1' } }]);
    as(ownAdmin).given([registered]).when({ type: 'RestoreUser' }).thenRefuses('conflict');
    const adminUser: UserEvent = {
      ...registered,
      data: { ...registered.data, userId: 'u-admin', isAdmin: true },
    } as UserEvent;
    as(ownAdmin).given([adminUser]).when({ type: 'ArchiveUser' }).thenRefuses('conflict', 'yourself');
  });

  it('toggles admin for managers; the MFA toggle is refused while the account requires MFA', () => {
    as(ownAdmin)
      .given([registered])
      .when({ type: 'ToggleAdmin' })
      .thenEvents([{ type: 'UserAdminChanged', data: { userId: 'u1', isAdmin: true } }]);
    as(peer).given([registered]).when({ type: 'ToggleAdmin' }).thenRefuses('forbidden');
    as(ownAdmin)
      .given([registered])
      .when({ type: 'ToggleMfaRequired', accountRequiresMfa: true })
      .thenRefuses('conflict');
    as(ownAdmin)
      .given([registered])
      .when({ type: 'ToggleMfaRequired', accountRequiresMfa: false })
      .thenEvents([{ type: 'UserMfaRequiredChanged', data: { userId: 'u1', mfaRequired: true } }]);
  });

  it('grants member API access only after the account has it', () => {
    as(ownAdmin)
      .given([registered])
      .when({ type: 'GrantApiAccess', accountHasApiAccess: false, authenticationToken: 't', keyHash: 'k' })
      .thenRefuses('conflict');
    as(ownAdmin)
      .given([registered])
      .when({ type: 'GrantApiAccess', accountHasApiAccess: true, authenticationToken: 't', keyHash: 'k' })
      .thenEvents([
        { type: 'UserApiAccessGranted', data: { userId: 'u1', authenticationToken: 't', keyHash: 'k' } },
      ]);
    as(ownAdmin)
      .given([registered])
      .when({ type: 'RegenerateApiKey', keyHash: 'k2', replacingKeyHash: '' })
      .thenRefuses('conflict');
  });

  it('grants once: a second grant would replace the key the first one just showed (issue 20, item 5)', () => {
    const granted: UserEvent = {
      type: 'UserApiAccessGranted',
      data: { userId: 'u1', authenticationToken: 't', keyHash: 'k' },
    };
    as(ownAdmin)
      .given([registered, granted])
      .when({ type: 'GrantApiAccess', accountHasApiAccess: true, authenticationToken: 't2', keyHash: 'k2' })
      .thenRefuses('conflict', USER_TEXTS.apiAlreadyGranted);
    // Revoked, it may be granted again.
    as(ownAdmin)
      .given([registered, granted, { type: 'UserApiAccessRevoked', data: { userId: 'u1' } }])
      .when({ type: 'GrantApiAccess', accountHasApiAccess: true, authenticationToken: 't2', keyHash: 'k2' })
      .thenEvents([
        { type: 'UserApiAccessGranted', data: { userId: 'u1', authenticationToken: 't2', keyHash: 'k2' } },
      ]);
  });

  it('regenerates the key the caller saw, not one issued meanwhile', () => {
    const granted: UserEvent = {
      type: 'UserApiAccessGranted',
      data: { userId: 'u1', authenticationToken: 't', keyHash: 'k' },
    };
    as(ownAdmin)
      .given([registered, granted])
      .when({ type: 'RegenerateApiKey', keyHash: 'k2', replacingKeyHash: 'k' })
      .thenEvents([{ type: 'UserApiKeyRegenerated', data: { userId: 'u1', keyHash: 'k2' } }]);
    as(ownAdmin)
      .given([registered, granted, { type: 'UserApiKeyRegenerated', data: { userId: 'u1', keyHash: 'k2' } }])
      .when({ type: 'RegenerateApiKey', keyHash: 'k3', replacingKeyHash: 'k' })
      .thenRefuses('conflict', USER_TEXTS.apiKeyChanged);
  });
});

describe('user decider: another funder', () => {
  it("sees another funder's member as missing, archived or not, whatever the command", () => {
    const archived: UserEvent = { type: 'UserArchived', data: { userId: 'u1' } };
    for (const given of [[registered], [registered, archived]]) {
      as(otherAdmin).given(given).when({ type: 'ArchiveUser' }).thenRefuses('not_found', USER_TEXTS.notFound);
      as(otherAdmin).given(given).when({ type: 'RestoreUser' }).thenRefuses('not_found', USER_TEXTS.notFound);
      as(otherAdmin)
        .given(given)
        .when({ type: 'ForgetDevice' })
        .thenRefuses('not_found', USER_TEXTS.notFound);
    }
    as(otherAdmin).given([]).when({ type: 'ArchiveUser' }).thenRefuses('not_found', USER_TEXTS.notFound);
  });
});

describe('user decider: reset links', () => {
  // `as(...)` decides at 2026-11-22T00:00:00Z.
  const linkUntil = (expiresAt: string): UserEvent => ({
    type: 'UserPasswordResetRequested',
    data: { userId: 'u1', tokenHash: 'link-hash', expiresAt },
  });
  const reset = (resetTokenHash = 'link-hash') =>
    ({
      type: 'ChangePassword',
      passwordHash: 'h9',
      via: 'reset',
      resetTokenHash,
      matchesHistory: false,
    }) as const;
  const anonymous = specFor(userDecider, { now: new Date('2026-11-22T00:00:00Z') });

  it('changes the password with a live link, until the last millisecond of its life', () => {
    anonymous
      .given([registered, linkUntil('2026-11-22T00:00:00.001Z')])
      .when(reset())
      .thenEvents([
        { type: 'UserPasswordChanged', data: { userId: 'u1', passwordHash: 'h9', via: 'reset' } },
        revoked(1, 'password changed'),
      ]);
  });

  it('refuses an expired, a wrong, a used or a replaced link with the same text', () => {
    anonymous
      .given([registered, linkUntil('2026-11-22T00:00:00.000Z')])
      .when(reset())
      .thenRefuses('invalid', USER_TEXTS.badResetLink);
    anonymous
      .given([registered, linkUntil('2026-11-23T00:00:00Z')])
      .when(reset('other-hash'))
      .thenRefuses('invalid', USER_TEXTS.badResetLink);
    anonymous
      .given([
        registered,
        linkUntil('2026-11-23T00:00:00Z'),
        { type: 'UserPasswordChanged', data: { userId: 'u1', passwordHash: 'h8', via: 'reset' } },
      ])
      .when(reset())
      .thenRefuses('invalid', USER_TEXTS.badResetLink);
    anonymous
      .given([
        registered,
        linkUntil('2026-11-23T00:00:00Z'),
        {
          type: 'UserPasswordResetRequested',
          data: { userId: 'u1', tokenHash: 'newer', expiresAt: '2026-11-23T00:00:00Z' },
        },
      ])
      .when(reset())
      .thenRefuses('invalid', USER_TEXTS.badResetLink);
    anonymous.given([]).when(reset()).thenRefuses('invalid', USER_TEXTS.badResetLink);
    anonymous
      .given([
        registered,
        linkUntil('2026-11-23T00:00:00Z'),
        { type: 'UserArchived', data: { userId: 'u1' } },
      ])
      .when(reset())
      .thenRefuses('invalid', USER_TEXTS.badResetLink);
  });
});

describe('user decider: passwords, MFA, terms', () => {
  it('changes a password (revoking sessions) and refuses one of the last five', () => {
    as(self)
      .given([registered])
      .when({ type: 'ChangePassword', passwordHash: 'h1', via: 'profile', matchesHistory: false })
      .thenEvents([
        { type: 'UserPasswordChanged', data: { userId: 'u1', passwordHash: 'h1', via: 'profile' } },
        revoked(1, 'password changed'),
      ]);
    as(self)
      .given([registered])
      .when({ type: 'ChangePassword', passwordHash: 'h1', via: 'profile', matchesHistory: true })
      .thenRefuses('rule_broken', PASSWORD_REUSE_MESSAGE);
    as(peer)
      .given([registered])
      .when({ type: 'ChangePassword', passwordHash: 'h1', via: 'profile', matchesHistory: false })
      .thenRefuses('forbidden');
    as(peer)
      .given([registered])
      .when({ type: 'ChangePassword', passwordHash: 'h1', via: 'admin', matchesHistory: false })
      .thenRefuses('forbidden');
    as(ownAdmin)
      .given([registered])
      .when({ type: 'ChangePassword', passwordHash: 'h1', via: 'admin', matchesHistory: false })
      .thenEvents([
        { type: 'UserPasswordChanged', data: { userId: 'u1', passwordHash: 'h1', via: 'admin' } },
        revoked(1, 'password changed'),
      ]);
  });

  it('enables MFA once for the user themselves; a reset clears it and logs the user out', () => {
    const enabled: UserEvent = { type: 'UserMfaEnabled', data: { userId: 'u1', secret: 'S' } };
    as(self).given([registered]).when({ type: 'EnableMfa', secret: 'S' }).thenEvents([enabled]);
    as(ownAdmin).given([registered]).when({ type: 'EnableMfa', secret: 'S' }).thenRefuses('forbidden');
    as(self).given([registered, enabled]).when({ type: 'EnableMfa', secret: 'T' }).thenRefuses('conflict');
    as(ownAdmin)
      .given([registered, enabled])
      .when({ type: 'ResetMfa' })
      .thenEvents([{ type: 'UserMfaReset', data: { userId: 'u1' } }, revoked(1, 'mfa reset')]);
    as(ownAdmin).given([registered]).when({ type: 'ResetMfa' }).thenRefuses('conflict');
  });

  it('forgets a remembered device, and nothing when none is remembered', () => {
    const remembered: UserEvent = {
      type: 'UserDeviceRemembered',
      data: {
        userId: 'u1',
        tokenHash: 'x',
        ip: '1.2.3.4',
        device: 'Chrome',
        expiresAt: '2026-12-22T00:00:00Z',
      },
    };
    as(self)
      .given([registered, remembered])
      .when({ type: 'ForgetDevice' })
      .thenEvents([{ type: 'UserDeviceForgotten', data: { userId: 'u1' } }]);
    as(self).given([registered]).when({ type: 'ForgetDevice' }).thenEvents([]);
    as(peer).given([registered, remembered]).when({ type: 'ForgetDevice' }).thenRefuses('forbidden');
  });

  it('records terms agreement once, for the user themselves', () => {
    as(self)
      .given([registered])
      .when({ type: 'AgreeToTerms' })
      .thenEvents([
        { type: 'UserAgreedToTerms', data: { userId: 'u1', agreedAt: '2026-11-22T00:00:00.000Z' } },
      ]);
    as(self)
      .given([registered, { type: 'UserAgreedToTerms', data: { userId: 'u1', agreedAt: 'x' } }])
      .when({ type: 'AgreeToTerms' })
      .thenEvents([]);
    as(ownAdmin).given([registered]).when({ type: 'AgreeToTerms' }).thenRefuses('forbidden');
  });

  it('refuses sign-in to an archived user', () => {
    as(self)
      .given([registered, { type: 'UserArchived', data: { userId: 'u1' } }])
      .when({ type: 'SignIn', sessionId: 's' })
      .thenRefuses('unauthorized');
  });
});
