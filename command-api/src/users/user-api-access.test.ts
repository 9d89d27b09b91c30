import { describe, it } from 'vitest';
import type { UserEvent } from './user.ts';
import { archived, as, CALLERS, registered } from './user-testing.ts';

const { ownAdmin, member } = CALLERS;
const grant = {
  type: 'GrantApiAccess' as const,
  accountHasApiAccess: true,
  authenticationToken: 't',
  keyHash: 'k',
};
const granted: UserEvent = {
  type: 'UserApiAccessGranted',
  data: { userId: 'u1', authenticationToken: 't', keyHash: 'k' },
};

describe('user API access', () => {
  it('is managed by admins only: a member of the same funder is refused, whatever the command', () => {
    as(member).given([registered]).when(grant).thenRefuses('forbidden');
    as(member)
      .given([registered, granted])
      .when({ type: 'RegenerateApiKey', keyHash: 'k2', replacingKeyHash: 'k' })
      .thenRefuses('forbidden');
    as(member).given([registered, granted]).when({ type: 'RevokeApiAccess' }).thenRefuses('forbidden');
  });

  it('revokes access the member has; revoking none records nothing', () => {
    as(ownAdmin)
      .given([registered, granted])
      .when({ type: 'RevokeApiAccess' })
      .thenEvents([{ type: 'UserApiAccessRevoked', data: { userId: 'u1' } }]);
    as(ownAdmin).given([registered]).when({ type: 'RevokeApiAccess' }).thenEvents([]);
  });

  it('gives an archived member no API access', () => {
    as(ownAdmin).given([registered, archived]).when(grant).thenRefuses('gone');
  });
});
