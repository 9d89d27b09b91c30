import type { Actor } from '@mrn/platform';
import { describe, it } from 'vitest';
import { ACTORS, specFor } from '../testing.ts';
import { type AccountEvent, accountDecider } from './account.ts';

// The membership state machine of accounts spec §4 with billing (DESIGN §4): none → trialing →
// active / canceled; active → canceled; BASIC ↔ PRO; Stripe's webhooks applied by state, not arrival.

const { staff, ownAdmin, otherAdmin, member } = ACTORS;
const now = new Date('2026-11-24T12:00:00Z');
const as = (a?: Actor) => specFor(accountDecider, { now, actor: a });

const opened: AccountEvent = {
  type: 'AccountOpened',
  data: {
    accountId: 'a1',
    name: 'Summit',
    website: 'summit.example',
    primaryContactEmail: 'ops@summit.example',
    planLevel: 'BASIC',
    membershipStatus: 'none',
    isPlatform: false,
  },
};
const trial: AccountEvent = { type: 'AccountTrialStarted', data: { accountId: 'a1' } };
const start = {
  type: 'StartMembership' as const,
  planLevel: 'BASIC' as const,
  stripeCustomerId: 'cus_1',
  stripeSubscriptionId: 'sub_1',
  currentPeriodEnd: '2026-12-24T12:00:00.000Z',
};
const started: AccountEvent = {
  type: 'AccountMembershipStarted',
  data: {
    accountId: 'a1',
    planLevel: 'BASIC',
    stripeCustomerId: 'cus_1',
    stripeSubscriptionId: 'sub_1',
    currentPeriodEnd: '2026-12-24T12:00:00.000Z',
  },
};
const toPro: AccountEvent = { type: 'AccountPlanChanged', data: { accountId: 'a1', planLevel: 'PRO' } };
const subscription = (status: string, planLevel: 'BASIC' | 'PRO' | null = 'BASIC', id = 'sub_1') => ({
  type: 'ApplyStripeSubscription' as const,
  subscription: { subscriptionId: id, status, planLevel, currentPeriodEnd: null },
});

describe('account decider: membership and billing', () => {
  it('starts a membership from none or a trial, by the account admin or a platform admin', () => {
    as(ownAdmin).given([opened]).when(start).thenEvents([started]);
    as(staff).given([opened, trial]).when(start).thenEvents([started]);
    as(member).given([opened]).when(start).thenRefuses('forbidden');
    as(otherAdmin).given([opened]).when(start).thenRefuses('not_found');
    as(ownAdmin)
      .given([opened, started])
      .when(start)
      .thenRefuses('conflict', 'already has an active membership');
  });

  it('upgrades and downgrades an active membership, never to the plan it has', () => {
    as(ownAdmin).given([opened, started]).when({ type: 'ChangePlan', planLevel: 'PRO' }).thenEvents([toPro]);
    as(ownAdmin)
      .given([opened, started, toPro])
      .when({ type: 'ChangePlan', planLevel: 'BASIC' })
      .thenEvents([{ type: 'AccountPlanChanged', data: { accountId: 'a1', planLevel: 'BASIC' } }]);
    as(ownAdmin)
      .given([opened, started])
      .when({ type: 'ChangePlan', planLevel: 'BASIC' })
      .thenRefuses('conflict', 'already on the BASIC plan');
    as(ownAdmin)
      .given([opened, trial])
      .when({ type: 'ChangePlan', planLevel: 'PRO' })
      .thenRefuses('conflict');
    as(member)
      .given([opened, started])
      .when({ type: 'ChangePlan', planLevel: 'PRO' })
      .thenRefuses('forbidden');
  });

  it('records a plan change Stripe made once, whether or not its webhook was applied first', () => {
    as(ownAdmin)
      .given([opened, started])
      .when({ type: 'RecordPlanChange', planLevel: 'PRO' })
      .thenEvents([toPro]);
    as(ownAdmin)
      .given([opened, started, toPro])
      .when({ type: 'RecordPlanChange', planLevel: 'PRO' })
      .thenEvents([]);
    as(member)
      .given([opened, started])
      .when({ type: 'RecordPlanChange', planLevel: 'PRO' })
      .thenRefuses('forbidden');
  });

  it('cancels an active membership only', () => {
    as(ownAdmin)
      .given([opened, started])
      .when({ type: 'CancelMembership' })
      .thenEvents([{ type: 'AccountMembershipCanceled', data: { accountId: 'a1', reason: 'requested' } }]);
    as(ownAdmin).given([opened]).when({ type: 'CancelMembership' }).thenRefuses('conflict');
  });

  it("applies Stripe's subscription by its state: a plan change, the end, and nothing twice or from an old subscription", () => {
    as().given([opened, started]).when(subscription('active', 'PRO')).thenEvents([toPro]);
    as().given([opened, started, toPro]).when(subscription('active', 'PRO')).thenEvents([]);
    as()
      .given([opened, started])
      .when(subscription('canceled'))
      .thenEvents([{ type: 'AccountMembershipCanceled', data: { accountId: 'a1', reason: 'stripe' } }]);
    // A late "updated" after the end changes nothing; neither does a subscription the account left.
    const ended: AccountEvent = {
      type: 'AccountMembershipCanceled',
      data: { accountId: 'a1', reason: 'stripe' },
    };
    as().given([opened, started, ended]).when(subscription('active', 'PRO')).thenEvents([]);
    as()
      .given([opened, started])
      .when(subscription('canceled', 'BASIC', 'sub_old'))
      .thenEvents([]);
  });

  it('records a failed renewal and a payment, the newer invoice winning whatever the order they arrive in', () => {
    const failed = {
      type: 'RecordInvoiceFailed' as const,
      invoiceId: 'in_2',
      invoiceCreatedAt: '2026-12-24T12:00:00.000Z',
      nextPaymentAttempt: '2026-12-27T12:00:00.000Z',
    };
    const failedEvent: AccountEvent = {
      type: 'AccountRenewalFailed',
      data: {
        accountId: 'a1',
        invoiceId: 'in_2',
        nextPaymentAttempt: '2026-12-27T12:00:00.000Z',
        invoiceCreatedAt: '2026-12-24T12:00:00.000Z',
      },
    };
    as().given([opened, started]).when(failed).thenEvents([failedEvent]);
    // The first month's "paid", delivered late, does not clear the newer failure.
    as()
      .given([opened, started, failedEvent])
      .when({
        type: 'RecordInvoicePaid',
        invoiceId: 'in_1',
        invoiceCreatedAt: '2026-11-24T12:00:00.000Z',
        currentPeriodEnd: null,
      })
      .thenEvents([]);
    as()
      .given([opened, started, failedEvent])
      .when({
        type: 'RecordInvoicePaid',
        invoiceId: 'in_2',
        invoiceCreatedAt: '2026-12-24T12:00:00.000Z',
        currentPeriodEnd: '2027-01-24T12:00:00.000Z',
      })
      .thenEvents([
        {
          type: 'AccountRenewalPaid',
          data: {
            accountId: 'a1',
            invoiceId: 'in_2',
            currentPeriodEnd: '2027-01-24T12:00:00.000Z',
            invoiceCreatedAt: '2026-12-24T12:00:00.000Z',
          },
        },
      ]);
  });
});
