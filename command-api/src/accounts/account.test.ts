import { describe, it } from 'vitest';
import { specFor } from '../testing.ts';
import { accountDecider } from './account.ts';

const spec = specFor(accountDecider, { now: new Date() });
const data = {
  accountId: 'a1',
  name: 'Summit Capital',
  website: null,
  primaryContactEmail: 'ops@summit.example',
  planLevel: 'BASIC' as const,
  membershipStatus: 'trialing' as const,
  isPlatform: false,
};

describe('account decider', () => {
  it('opens an account', () => {
    spec
      .given([])
      .when({ type: 'OpenAccount', ...data })
      .thenEvents([{ type: 'AccountOpened', data }]);
  });
  it('refuses to open it twice', () => {
    spec
      .given([{ type: 'AccountOpened', data }])
      .when({ type: 'OpenAccount', ...data })
      .thenRefuses('conflict');
  });
});
