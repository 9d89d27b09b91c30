import type { Actor } from '@mrn/platform';
import { describe, it } from 'vitest';
import { ACTORS, specFor } from '../testing.ts';
import { ACCOUNT_TEXTS, type AccountEvent, accountDecider } from './account.ts';

const { staff, ownAdmin, otherAdmin, member } = ACTORS;
const as = (a: Actor) => specFor(accountDecider, { now: new Date(), actor: a });

const opened = (
  planLevel: 'BASIC' | 'PRO' = 'BASIC',
  membershipStatus: 'none' | 'active' = 'none',
): AccountEvent => ({
  type: 'AccountOpened',
  data: {
    accountId: 'a1',
    name: 'Summit',
    website: 'summit.example',
    primaryContactEmail: 'ops@summit.example',
    planLevel,
    membershipStatus,
    isPlatform: false,
  },
});
const details = {
  name: 'Summit Capital',
  website: 'summit.example',
  primaryContactEmail: 'ops@summit.example',
  merchantSubscriptionEnabled: false,
  merchantSubscriptionNotificationEmail: null,
  merchantSubscriptionNotificationWebhook: null,
  watchSearchedMerchants: false,
  watchSearchedMonths: 12,
  shoppedAlertThreshold: 3,
  webhookEventTypes: null,
};

describe('account decider: funder administration', () => {
  it('lets the own account admin or a platform admin update; members and other admins are refused', () => {
    const updated: AccountEvent = { type: 'AccountUpdated', data: { accountId: 'a1', ...details } };
    as(ownAdmin).given([opened()]).when({ type: 'UpdateAccount', details }).thenEvents([updated]);
    as(staff).given([opened()]).when({ type: 'UpdateAccount', details }).thenEvents([updated]);
    as(member).given([opened()]).when({ type: 'UpdateAccount', details }).thenRefuses('forbidden');
    // Another funder's account answers as one that does not exist.
    as(otherAdmin)
      .given([opened()])
      .when({ type: 'UpdateAccount', details })
      .thenRefuses('not_found', ACCOUNT_TEXTS.notFound);
  });

  it('enables merchant subscriptions only by a platform admin and only for PRO', () => {
    const withSubs = { ...details, merchantSubscriptionEnabled: true };
    as(staff)
      .given([opened('BASIC')])
      .when({ type: 'UpdateAccount', details: withSubs })
      .thenRefuses('invalid', 'PRO');
    as(staff)
      .given([opened('PRO')])
      .when({ type: 'UpdateAccount', details: withSubs })
      .thenEvents([{ type: 'AccountUpdated', data: { accountId: 'a1', ...withSubs } }]);
    // An account admin's "enabled" is ignored: the stored value stays.
    as(ownAdmin)
      .given([opened('PRO')])
      .when({ type: 'UpdateAccount', details: withSubs })
      .thenEvents([{ type: 'AccountUpdated', data: { accountId: 'a1', ...details } }]);
  });

  it('starts a trial only without an active membership or trial, and cancels only a trial', () => {
    const started: AccountEvent = { type: 'AccountTrialStarted', data: { accountId: 'a1' } };
    as(staff).given([opened()]).when({ type: 'StartTrial' }).thenEvents([started]);
    as(staff).given([opened(), started]).when({ type: 'StartTrial' }).thenRefuses('conflict');
    as(staff)
      .given([opened('BASIC', 'active')])
      .when({ type: 'StartTrial' })
      .thenRefuses('conflict');
    as(staff)
      .given([opened(), started])
      .when({ type: 'CancelTrial' })
      .thenEvents([{ type: 'AccountTrialCanceled', data: { accountId: 'a1' } }]);
    as(staff).given([opened()]).when({ type: 'CancelTrial' }).thenRefuses('conflict');
    as(ownAdmin).given([opened()]).when({ type: 'StartTrial' }).thenRefuses('forbidden');
  });

  it('grants and revokes API access idempotently, platform admins only', () => {
    const granted: AccountEvent = { type: 'AccountApiAccessGranted', data: { accountId: 'a1' } };
    as(staff).given([opened()]).when({ type: 'GrantApiAccess' }).thenEvents([granted]);
    as(staff).given([opened(), granted]).when({ type: 'GrantApiAccess' }).thenEvents([]);
    as(staff)
      .given([opened(), granted])
      .when({ type: 'RevokeApiAccess' })
      .thenEvents([{ type: 'AccountApiAccessRevoked', data: { accountId: 'a1' } }]);
    as(ownAdmin).given([opened()]).when({ type: 'GrantApiAccess' }).thenRefuses('forbidden');
  });

  it('toggles MFA required and archives, platform admins only; an archived funder takes no changes', () => {
    as(staff)
      .given([opened()])
      .when({ type: 'ToggleMfaRequired' })
      .thenEvents([{ type: 'AccountMfaRequiredChanged', data: { accountId: 'a1', mfaRequired: true } }]);
    as(ownAdmin).given([opened()]).when({ type: 'ToggleMfaRequired' }).thenRefuses('forbidden');
    const archived: AccountEvent = { type: 'AccountArchived', data: { accountId: 'a1' } };
    as(staff).given([opened()]).when({ type: 'ArchiveAccount' }).thenEvents([archived]);
    as(staff).given([opened(), archived]).when({ type: 'UpdateAccount', details }).thenRefuses('gone');
    as(ownAdmin).given([opened(), archived]).when({ type: 'UpdateAccount', details }).thenRefuses('gone');
  });

  it("answers another funder's archived account exactly as an unknown one (issue 20, item 11)", () => {
    const archived: AccountEvent = { type: 'AccountArchived', data: { accountId: 'a1' } };
    as(otherAdmin).given([]).when({ type: 'UpdateAccount', details }).thenRefuses('not_found');
    as(otherAdmin).given([opened()]).when({ type: 'UpdateAccount', details }).thenRefuses('not_found');
    as(otherAdmin)
      .given([opened(), archived])
      .when({ type: 'UpdateAccount', details })
      .thenRefuses('not_found');
    as(otherAdmin)
      .given([opened(), archived])
      .when({ type: 'AssessContribution', percent: 1, requested: true })
      .thenRefuses('not_found');
  });

  it('a save that changes nothing but names the webhook says so: the dispatcher resumes a disabled endpoint', () => {
    const withHook = { ...details, merchantSubscriptionNotificationWebhook: 'https://hooks.example/mrn' };
    const updated: AccountEvent = { type: 'AccountUpdated', data: { accountId: 'a1', ...withHook } };
    as(ownAdmin)
      .given([opened('PRO'), updated])
      .when({ type: 'UpdateAccount', details: withHook })
      .thenEvents([
        { type: 'AccountWebhookEndpointSaved', data: { accountId: 'a1', url: 'https://hooks.example/mrn' } },
      ]);
    as(ownAdmin)
      .given([opened(), { type: 'AccountUpdated', data: { accountId: 'a1', ...details } }])
      .when({ type: 'UpdateAccount', details })
      .thenEvents([]);
  });
});
