import { type Actor, DomainError } from '@mrn/platform';
import { describe, expect, it } from 'vitest';
import { ACTORS, specFor } from '../testing.ts';
import { type AccountEvent, accountDecider, type OpenAccountState } from './account.ts';
import { assertMayChangePlan } from './account-billing.ts';

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
type Plan = 'BASIC' | 'PRO';
/** The plan change the provider made as version `planVersion`: from the request (null) or a webhook. */
const changed = (
  planLevel: Plan,
  planVersion: number,
  providerChangedAt: string | null = null,
): AccountEvent => ({
  type: 'AccountPlanChanged',
  data: { accountId: 'a1', planLevel, planVersion, providerChangedAt },
});
const toPro = changed('PRO', 1);
/** Stripe's subscription as a `customer.subscription.*` event shows it. */
const subscription = (
  status: string,
  planLevel: Plan | null = 'BASIC',
  id = 'sub_1',
  planVersion = 0,
  eventCreatedAt = '2026-11-24T12:00:00.000Z',
) => ({
  type: 'ApplyStripeSubscription' as const,
  subscription: {
    subscriptionId: id,
    status,
    planLevel,
    currentPeriodEnd: null,
    planVersion,
    eventCreatedAt,
  },
});
const recordPlanChange = (planLevel: Plan, planVersion: number) => ({
  type: 'RecordPlanChange' as const,
  planLevel,
  planVersion,
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

  it('lets an admin change the plan of an active membership only, never to the plan it has', () => {
    const account = (events: AccountEvent[]) =>
      events.reduce(accountDecider.evolve, accountDecider.initialState()) as OpenAccountState;
    const refusal = (run: () => void) => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(DomainError);
        return { kind: (error as DomainError).kind, message: (error as DomainError).message };
      }
      return null;
    };
    const basic = account([opened, started]);
    expect(refusal(() => assertMayChangePlan(basic, ownAdmin, 'PRO'))).toBeNull();
    expect(refusal(() => assertMayChangePlan(basic, staff, 'PRO'))).toBeNull();
    expect(
      refusal(() => assertMayChangePlan(account([opened, started, toPro]), ownAdmin, 'BASIC')),
    ).toBeNull();
    expect(refusal(() => assertMayChangePlan(basic, ownAdmin, 'BASIC'))).toEqual({
      kind: 'conflict',
      message: 'This funder is already on the BASIC plan.',
    });
    expect(refusal(() => assertMayChangePlan(account([opened, trial]), ownAdmin, 'PRO'))).toMatchObject({
      kind: 'conflict',
    });
    expect(refusal(() => assertMayChangePlan(basic, member, 'PRO'))).toMatchObject({ kind: 'forbidden' });
    expect(refusal(() => assertMayChangePlan(basic, otherAdmin, 'PRO'))).toMatchObject({ kind: 'not_found' });
  });

  it('records a plan change Stripe made once, whether or not its webhook was applied first', () => {
    // The request path: Stripe made version 1, nothing recorded yet.
    as(ownAdmin).given([opened, started]).when(recordPlanChange('PRO', 1)).thenEvents([toPro]);
    as(staff).given([opened, started]).when(recordPlanChange('PRO', 1)).thenEvents([toPro]);
    // The same change through the request, then Stripe's webhook of it: one event.
    as()
      .given([opened, started, toPro])
      .when(subscription('active', 'PRO', 'sub_1', 1))
      .thenEvents([]);
    // The webhook first, then the request: one event.
    const fromWebhook = changed('PRO', 1, '2026-11-24T12:00:00.000Z');
    as()
      .given([opened, started])
      .when(subscription('active', 'PRO', 'sub_1', 1))
      .thenEvents([fromWebhook]);
    as(ownAdmin).given([opened, started, fromWebhook]).when(recordPlanChange('PRO', 1)).thenEvents([]);
    // …even when a later change's webhook came before the request of the earlier one was recorded.
    as(ownAdmin)
      .given([opened, started, fromWebhook, changed('BASIC', 2, '2026-11-24T12:00:00.000Z')])
      .when(recordPlanChange('PRO', 1))
      .thenEvents([]);
    as(member).given([opened, started]).when(recordPlanChange('PRO', 1)).thenRefuses('forbidden');
    as(ownAdmin)
      .given([
        opened,
        started,
        { type: 'AccountMembershipCanceled', data: { accountId: 'a1', reason: 'stripe' } },
      ])
      .when(recordPlanChange('PRO', 1))
      .thenRefuses('conflict', 'no active paid membership');
  });

  it('ignores a stale customer.subscription.updated: an older plan version arriving after a newer one', () => {
    const downgraded = changed('BASIC', 2);
    // Version 1 (PRO) arrives after version 2 (BASIC) was recorded: nothing.
    as()
      .given([opened, started, toPro, downgraded])
      .when(subscription('active', 'PRO', 'sub_1', 1))
      .thenEvents([]);
    // …and the subscription as it was when it started (version 0), late as well.
    as()
      .given([opened, started, toPro])
      .when(subscription('active', 'BASIC', 'sub_1', 0))
      .thenEvents([]);
    // The newer version applies, whichever path comes first.
    as()
      .given([opened, started, toPro])
      .when(subscription('active', 'BASIC', 'sub_1', 2, '2026-11-24T12:05:00.000Z'))
      .thenEvents([changed('BASIC', 2, '2026-11-24T12:05:00.000Z')]);
    // A stale event still ends the membership when Stripe has ended the subscription: that is final.
    as()
      .given([opened, started, toPro, downgraded])
      .when(subscription('canceled', 'PRO', 'sub_1', 1))
      .thenEvents([{ type: 'AccountMembershipCanceled', data: { accountId: 'a1', reason: 'stripe' } }]);
  });

  it('orders changes made outside the product (the version unchanged) by when Stripe made their events', () => {
    const early = '2026-11-24T12:00:00.000Z';
    const later = '2026-11-24T13:00:00.000Z';
    // Recorded from the request as version 1 (PRO); someone moves it to BASIC in the Stripe dashboard.
    const outside = changed('BASIC', 1, later);
    as()
      .given([opened, started, toPro])
      .when(subscription('active', 'BASIC', 'sub_1', 1, later))
      .thenEvents([outside]);
    // Version 1's own event (PRO, made before) arriving after that changes nothing.
    as()
      .given([opened, started, toPro, outside])
      .when(subscription('active', 'PRO', 'sub_1', 1, early))
      .thenEvents([]);
    // A later event of the same version moving it back applies.
    as()
      .given([opened, started, toPro, outside])
      .when(subscription('active', 'PRO', 'sub_1', 1, '2026-11-24T14:00:00.000Z'))
      .thenEvents([changed('PRO', 1, '2026-11-24T14:00:00.000Z')]);
  });

  it('counts plan versions again for a new subscription', () => {
    const ended: AccountEvent = {
      type: 'AccountMembershipCanceled',
      data: { accountId: 'a1', reason: 'requested' },
    };
    const again: AccountEvent = {
      type: 'AccountMembershipStarted',
      data: { ...(started.data as object), stripeSubscriptionId: 'sub_2' } as never,
    };
    as(ownAdmin)
      .given([opened, started, toPro, changed('BASIC', 2), ended, again])
      .when(recordPlanChange('PRO', 1))
      .thenEvents([toPro]);
    // A plan change written before versions were kept (or by the sandbox mirror) moves the plan only.
    const legacy: AccountEvent = { type: 'AccountPlanChanged', data: { accountId: 'a1', planLevel: 'PRO' } };
    as()
      .given([opened, started, legacy])
      .when(subscription('active', 'BASIC', 'sub_1', 1))
      .thenEvents([changed('BASIC', 1, '2026-11-24T12:00:00.000Z')]);
  });

  it('cancels an active membership only', () => {
    as(ownAdmin)
      .given([opened, started])
      .when({ type: 'CancelMembership' })
      .thenEvents([{ type: 'AccountMembershipCanceled', data: { accountId: 'a1', reason: 'requested' } }]);
    as(ownAdmin).given([opened]).when({ type: 'CancelMembership' }).thenRefuses('conflict');
  });

  it("applies Stripe's subscription by its state: a plan change, the end, and nothing twice or from an old subscription", () => {
    as()
      .given([opened, started])
      .when(subscription('active', 'PRO', 'sub_1', 1))
      .thenEvents([changed('PRO', 1, '2026-11-24T12:00:00.000Z')]);
    as()
      .given([opened, started, toPro])
      .when(subscription('active', 'PRO', 'sub_1', 1))
      .thenEvents([]);
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
