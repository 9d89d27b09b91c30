import type { Actor } from '@mrn/platform';
import { describe, it } from 'vitest';
import { ACTORS, specFor } from '../testing.ts';
import { type AccountEvent, accountDecider } from './account.ts';

// The contribution rule (DESIGN §4): below 0.5 % a warning with a 14-day expiry, still below at expiry
// a lock, back at 0.5 % both lifted; a platform administrator's override.

const { staff, ownAdmin, otherAdmin, member } = ACTORS;

const issued = new Date('2026-11-01T00:00:00Z');
const expiry = new Date('2026-11-15T00:00:00Z'); // 14 days later
const at = (now: Date, a?: Actor) => specFor(accountDecider, { now, actor: a });

const opened: AccountEvent = {
  type: 'AccountOpened',
  data: {
    accountId: 'a1',
    name: 'Summit',
    website: 'summit.example',
    primaryContactEmail: 'ops@summit.example',
    planLevel: 'BASIC',
    membershipStatus: 'active',
    isPlatform: false,
  },
};
const warned: AccountEvent = {
  type: 'AccountContributionWarningIssued',
  data: { accountId: 'a1', percent: 0.4, issuedAt: issued.toISOString(), expiresAt: expiry.toISOString() },
};
const locked: AccountEvent = { type: 'AccountContributionLocked', data: { accountId: 'a1', percent: 0.3 } };
const assess = (percent: number) => ({ type: 'AssessContribution' as const, percent, requested: false });
const recalculated: AccountEvent = { type: 'AccountContributionRecalculated', data: { accountId: 'a1' } };

describe('account decider: contribution', () => {
  it('issues a warning expiring in 14 days the first time the figure is below 0.5 %, once', () => {
    at(issued).given([opened]).when(assess(0.4)).thenEvents([warned]);
    at(new Date('2026-11-05T00:00:00Z')).given([opened, warned]).when(assess(0.2)).thenEvents([]);
  });

  it('takes exactly 0.5 % as enough and 0.49 % as too little', () => {
    at(issued).given([opened]).when(assess(0.5)).thenEvents([]);
    at(issued)
      .given([opened])
      .when(assess(0.49))
      .thenEvents([{ ...warned, data: { ...warned.data, percent: 0.49 } } as AccountEvent]);
  });

  it('locks at the expiry, not a millisecond before, while still below', () => {
    const reminded: AccountEvent = {
      type: 'AccountContributionWarningReminded',
      data: {
        accountId: 'a1',
        percent: 0.3,
        issuedAt: issued.toISOString(),
        expiresAt: expiry.toISOString(),
      },
    };
    at(new Date(expiry.getTime() - 1))
      .given([opened, warned, reminded])
      .when(assess(0.3))
      .thenEvents([]);
    at(expiry).given([opened, warned]).when(assess(0.3)).thenEvents([locked]);
    at(new Date(expiry.getTime() + 86_400_000))
      .given([opened, warned, locked])
      .when(assess(0.3))
      .thenEvents([]);
  });

  it('lifts the warning, or the lock, once back at 0.5 %', () => {
    const restored: AccountEvent = {
      type: 'AccountContributionRestored',
      data: { accountId: 'a1', percent: 0.5 },
    };
    at(issued).given([opened, warned]).when(assess(0.5)).thenEvents([restored]);
    at(expiry).given([opened, warned, locked]).when(assess(0.5)).thenEvents([restored]);
    // After a restore the next fall starts a new 14-day warning.
    at(expiry)
      .given([opened, warned, locked, restored])
      .when(assess(0.1))
      .thenEvents([
        {
          type: 'AccountContributionWarningIssued',
          data: {
            accountId: 'a1',
            percent: 0.1,
            issuedAt: expiry.toISOString(),
            expiresAt: new Date(expiry.getTime() + 14 * 86_400_000).toISOString(),
          },
        },
      ]);
  });

  describe('the reminder three days before the warning expires', () => {
    const reminded = (percent: number): AccountEvent => ({
      type: 'AccountContributionWarningReminded',
      data: { accountId: 'a1', percent, issuedAt: issued.toISOString(), expiresAt: expiry.toISOString() },
    });
    const threeDaysBefore = new Date('2026-11-12T00:00:00Z');

    it('is decided when the warning expires in exactly 3 days, not a millisecond earlier', () => {
      at(threeDaysBefore)
        .given([opened, warned])
        .when(assess(0.3))
        .thenEvents([reminded(0.3)]);
      at(new Date(threeDaysBefore.getTime() - 1))
        .given([opened, warned])
        .when(assess(0.3))
        .thenEvents([]);
    });

    it('is decided once per warning, any time in its last 3 days, and a new warning has its own', () => {
      const dayBefore = new Date('2026-11-14T00:00:00Z');
      at(dayBefore)
        .given([opened, warned])
        .when(assess(0.3))
        .thenEvents([reminded(0.3)]);
      at(dayBefore)
        .given([opened, warned, reminded(0.3)])
        .when(assess(0.2))
        .thenEvents([]);
      // At the expiry the lock, not a reminder.
      at(expiry)
        .given([opened, warned, reminded(0.3)])
        .when(assess(0.3))
        .thenEvents([locked]);
      const restored: AccountEvent = {
        type: 'AccountContributionRestored',
        data: { accountId: 'a1', percent: 0.6 },
      };
      const later = new Date('2026-12-01T00:00:00Z');
      const second: AccountEvent = {
        type: 'AccountContributionWarningIssued',
        data: {
          accountId: 'a1',
          percent: 0.1,
          issuedAt: later.toISOString(),
          expiresAt: '2026-12-15T00:00:00.000Z',
        },
      };
      at(new Date('2026-12-12T00:00:00Z'))
        .given([opened, warned, reminded(0.3), restored, second])
        .when(assess(0.1))
        .thenEvents([
          {
            type: 'AccountContributionWarningReminded',
            data: {
              accountId: 'a1',
              percent: 0.1,
              issuedAt: later.toISOString(),
              expiresAt: '2026-12-15T00:00:00.000Z',
            },
          },
        ]);
    });

    it('is not decided once the figure is back at 0.5 % (the warning is lifted), nor while overridden', () => {
      at(threeDaysBefore)
        .given([opened, warned])
        .when(assess(0.5))
        .thenEvents([{ type: 'AccountContributionRestored', data: { accountId: 'a1', percent: 0.5 } }]);
      const overridden: AccountEvent = {
        type: 'AccountContributionOverrideChanged',
        data: { accountId: 'a1', override: true },
      };
      at(threeDaysBefore).given([opened, warned, overridden]).when(assess(0.3)).thenEvents([]);
    });
  });

  it("lifts the warning when the funder's own new records bring it back (the system's assessment, no person asked)", () => {
    // The assessment that follows a merchant or note added by a warned or locked funder: no actor, not requested.
    const dayAfterIssue = new Date('2026-11-02T00:00:00Z');
    const restored = (percent: number): AccountEvent => ({
      type: 'AccountContributionRestored',
      data: { accountId: 'a1', percent },
    });
    at(dayAfterIssue)
      .given([opened, warned])
      .when(assess(0.5))
      .thenEvents([restored(0.5)]);
    at(dayAfterIssue).given([opened, warned]).when(assess(0.49)).thenEvents([]);
    at(new Date(expiry.getTime() + 1))
      .given([opened, warned, locked])
      .when(assess(0.51))
      .thenEvents([restored(0.51)]);
  });

  it('records a Recalculate asked for by the account admin or a platform admin; others are refused', () => {
    const requested = { type: 'AssessContribution' as const, percent: 100, requested: true };
    at(issued, ownAdmin).given([opened]).when(requested).thenEvents([recalculated]);
    at(issued, staff).given([opened]).when(requested).thenEvents([recalculated]);
    at(issued, staff)
      .given([opened])
      .when({ ...requested, percent: 0 })
      .thenEvents([recalculated, { ...warned, data: { ...warned.data, percent: 0 } } as AccountEvent]);
    at(issued, member).given([opened]).when(requested).thenRefuses('forbidden');
    at(issued, otherAdmin).given([opened]).when(requested).thenRefuses('not_found');
  });

  it('toggles the override, platform admins only', () => {
    const on: AccountEvent = {
      type: 'AccountContributionOverrideChanged',
      data: { accountId: 'a1', override: true },
    };
    at(issued, staff).given([opened]).when({ type: 'ToggleContributionOverride' }).thenEvents([on]);
    at(issued, staff)
      .given([opened, on])
      .when({ type: 'ToggleContributionOverride' })
      .thenEvents([{ ...on, data: { accountId: 'a1', override: false } } as AccountEvent]);
    at(issued, ownAdmin)
      .given([opened])
      .when({ type: 'ToggleContributionOverride' })
      .thenRefuses('forbidden');
  });
});
