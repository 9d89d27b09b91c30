import { describe, it } from 'vitest';
import { USER_TEXTS, type UserEvent } from './user.ts';
import { archived, as, registered, revoked } from './user-testing.ts';

describe('user sessions', () => {
  it('a revocation ends the open sessions: signing one out afterwards records nothing', () => {
    const signedIn: UserEvent = { type: 'UserSignedIn', data: { userId: 'u1', sessionId: 's1' } };
    as()
      .given([registered, signedIn, revoked(1, 'password changed')])
      .when({ type: 'SignOut', sessionId: 's1' })
      .thenEvents([]);
  });

  it("revokes an archived member's sessions too; a member that does not exist is not found", () => {
    as()
      .given([registered, archived, revoked(1, 'archived')])
      .when({ type: 'RevokeSessions', reason: 'test' })
      .thenEvents([revoked(2, 'test')]);
    as()
      .given([])
      .when({ type: 'RevokeSessions', reason: 'test' })
      .thenRefuses('not_found', USER_TEXTS.notFound);
  });
});
