import { describe, it } from 'vitest';
import { actorOf } from '../testing.ts';
import { USER_TEXTS, type UserEvent } from './user.ts';
import { archived, as, CALLERS, registered } from './user-testing.ts';

describe('user guards', () => {
  it("an account admin of the platform's own account does not manage a platform admin", () => {
    const platformAdmin: UserEvent = {
      ...registered,
      data: { ...registered.data, accountId: 'platform', isAdmin: true, isDmAdmin: true },
    };
    as(actorOf({ accountId: 'platform', isAdmin: true }))
      .given([platformAdmin])
      .when({ type: 'ToggleAdmin' })
      .thenRefuses('forbidden');
  });

  it('a refusal without a caller answers as a member that does not exist', () => {
    as().given([registered]).when({ type: 'ArchiveUser' }).thenRefuses('not_found', USER_TEXTS.notFound);
  });

  it('a command on an archived member answers that it is archived', () => {
    as(CALLERS.ownAdmin)
      .given([registered, archived])
      .when({ type: 'ToggleAdmin' })
      .thenRefuses('gone', USER_TEXTS.archived);
  });
});
