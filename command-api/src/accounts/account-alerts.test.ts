import type { Actor } from '@mrn/platform';
import { describe, expect, it } from 'vitest';
import { ACTORS, specFor } from '../testing.ts';
import { type AccountDetailsInput, type AccountEvent, accountDecider } from './account.ts';

// "Being shopped" alerts and the webhook endpoint's event types (issue 24) as account settings: 3 and
// every type until changed, changed by the account's admins and platform admins, kept when an update
// leaves them out, every type chosen stored as "all", and old AccountUpdated events read as 3 and all.

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
const updated = (
  shoppedAlertThreshold: number | null,
  webhookEventTypes: AccountDetailsInput['webhookEventTypes'],
): AccountEvent => ({
  type: 'AccountUpdated',
  data: {
    accountId: 'a1',
    ...base,
    watchSearchedMerchants: false,
    watchSearchedMonths: 12,
    shoppedAlertThreshold,
    webhookEventTypes,
  },
});

describe('account decider: being-shopped alerts and webhook event types', () => {
  it('is 3 funders and every type until an admin of the account or a platform admin changes it', () => {
    as(ownAdmin)
      .given([opened])
      .when(update({ shoppedAlertThreshold: 5 }))
      .thenEvents([updated(5, null)]);
    as(staff)
      .given([opened])
      .when(update({ shoppedAlertThreshold: null, webhookEventTypes: ['merchant.shopped'] }))
      .thenEvents([updated(null, ['merchant.shopped'])]);
    as(member)
      .given([opened])
      .when(update({ shoppedAlertThreshold: 5 }))
      .thenRefuses('forbidden');
  });

  it('keeps the settings when an update leaves them out, and writes nothing when nothing changed', () => {
    as(ownAdmin)
      .given([opened, updated(null, ['merchant.note_added'])])
      .when(update({}))
      .thenEvents([]);
    as(ownAdmin)
      .given([opened, updated(null, ['merchant.note_added'])])
      .when(update({ webhookEventTypes: ['merchant.note_added'] }))
      .thenEvents([]);
  });

  it('stores every type chosen as "all" (an endpoint that takes everything gets types added later too)', () => {
    as(ownAdmin)
      .given([opened, updated(3, ['merchant.added'])])
      .when(
        update({
          webhookEventTypes: [
            'merchant.shopped',
            'merchant.added',
            'merchant.updated',
            'merchant.note_updated',
            'merchant.note_added',
            'merchant.signals_changed',
          ],
        }),
      )
      .thenEvents([updated(3, null)]);
    // The chosen types in the catalogue's order, whatever order they were sent in.
    as(ownAdmin)
      .given([opened])
      .when(update({ webhookEventTypes: ['merchant.shopped', 'merchant.added'] }))
      .thenEvents([updated(3, ['merchant.added', 'merchant.shopped'])]);
  });

  it('reads an AccountUpdated written before the settings existed as 3 and every type', () => {
    const old: AccountEvent = { type: 'AccountUpdated', data: { accountId: 'a1', ...base } };
    const state = [opened, old].reduce(accountDecider.evolve, accountDecider.initialState());
    expect(state).toMatchObject({ shoppedAlertThreshold: 3, webhookEventTypes: null });
  });
});
