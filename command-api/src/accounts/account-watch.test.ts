import { parseEventData } from '@mrn/contracts';
import type { Actor } from '@mrn/platform';
import { describe, expect, it } from 'vitest';
import { ACTORS, specFor } from '../testing.ts';
import { ACCOUNT_TEXTS, type AccountDetailsInput, type AccountEvent, accountDecider } from './account.ts';

// "Watch merchants we search" as an account setting: off and 12 months until changed, changed by the
// account's admins and platform admins, kept when an update leaves it out, months 1 to 24 only, and
// old AccountUpdated events (written before the setting) read as off.

const { staff, ownAdmin, member } = ACTORS;
const as = (a: Actor) => specFor(accountDecider, { now: new Date(), actor: a });

const opened: AccountEvent = {
  type: 'AccountOpened',
  data: {
    accountId: 'a1',
    name: 'Summit',
    website: 'summit.example',
    primaryContactEmail: 'ops@summit.example',
    planLevel: 'PRO',
    membershipStatus: 'active',
    isPlatform: false,
  },
};
const base = {
  name: 'Summit',
  website: 'summit.example',
  primaryContactEmail: 'ops@summit.example',
  merchantSubscriptionEnabled: false,
  merchantSubscriptionNotificationEmail: null,
  merchantSubscriptionNotificationWebhook: null,
};
const update = (details: Partial<AccountDetailsInput>) => ({
  type: 'UpdateAccount' as const,
  details: { ...base, ...details },
});
const updated = (watchSearchedMerchants: boolean, watchSearchedMonths: number): AccountEvent => ({
  type: 'AccountUpdated',
  data: {
    accountId: 'a1',
    ...base,
    watchSearchedMerchants,
    watchSearchedMonths,
    shoppedAlertThreshold: 3,
    webhookEventTypes: null,
  },
});

describe('account decider: watch merchants we search', () => {
  it('is off with 12 months until an admin of the account or a platform admin turns it on', () => {
    as(ownAdmin)
      .given([opened])
      .when(update({ watchSearchedMerchants: true, watchSearchedMonths: 6 }))
      .thenEvents([updated(true, 6)]);
    as(staff)
      .given([opened])
      .when(update({ watchSearchedMerchants: true }))
      .thenEvents([updated(true, 12)]);
    as(member)
      .given([opened])
      .when(update({ watchSearchedMerchants: true }))
      .thenRefuses('forbidden');
  });

  it('keeps the setting when an update leaves it out, and writes nothing when nothing changed', () => {
    as(ownAdmin)
      .given([opened, updated(true, 3)])
      .when(update({ name: 'Summit Capital' }))
      .thenEvents([
        {
          type: 'AccountUpdated',
          data: { ...updated(true, 3).data, name: 'Summit Capital' } as never,
        },
      ]);
    as(ownAdmin)
      .given([opened, updated(true, 3)])
      .when(update({}))
      .thenEvents([]);
    as(ownAdmin)
      .given([opened, updated(true, 3)])
      .when(update({ watchSearchedMerchants: false }))
      .thenEvents([updated(false, 3)]);
  });

  it('refuses months outside 1 to 24', () => {
    for (const months of [0, 25, 1.5]) {
      as(ownAdmin)
        .given([opened])
        .when(update({ watchSearchedMonths: months }))
        .thenRefuses('invalid', ACCOUNT_TEXTS.watchMonths);
    }
    as(ownAdmin)
      .given([opened])
      .when(update({ watchSearchedMonths: 24 }))
      .thenEvents([updated(false, 24)]);
    as(ownAdmin)
      .given([opened])
      .when(update({ watchSearchedMonths: 1 }))
      .thenEvents([updated(false, 1)]);
  });

  it('reads an AccountUpdated written before the setting existed as off, 12 months', () => {
    // Through the catalogue, as the command side and the projectors read the log.
    const data = parseEventData('AccountUpdated', { accountId: 'a1', ...base });
    const old = { type: 'AccountUpdated', data } as AccountEvent;
    const state = [opened, updated(true, 5), old].reduce(
      accountDecider.evolve,
      accountDecider.initialState(),
    );
    expect(state).toMatchObject({ watchSearchedMerchants: false, watchSearchedMonths: 12 });
  });

  it('stores the setting on a BASIC account too (it only acts on PRO with subscriptions on)', () => {
    as(ownAdmin)
      .given([{ ...opened, data: { ...opened.data, planLevel: 'BASIC' } } as AccountEvent])
      .when(update({ watchSearchedMerchants: true }))
      .thenEvents([updated(true, 12)]);
  });
});
