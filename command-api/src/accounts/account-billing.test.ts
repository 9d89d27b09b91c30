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
/** Stripe ended the subscription (its event made at `at`), with or without a failing renewal. */
const providerEnded = (afterFailedPayment: boolean, at = '2026-11-24T12:00:00.000Z'): AccountEvent => ({
  type: 'AccountMembershipCanceled',
  data: { accountId: 'a1', reason: 'stripe', afterFailedPayment, providerEndedAt: at },
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
      .thenEvents([providerEnded(false)]);
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
      .thenEvents([providerEnded(false)]);
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
        subscriptionId: 'sub_1',
      })
      .thenEvents([]);
    as()
      .given([opened, started, failedEvent])
      .when({
        type: 'RecordInvoicePaid',
        invoiceId: 'in_2',
        invoiceCreatedAt: '2026-12-24T12:00:00.000Z',
        currentPeriodEnd: '2027-01-24T12:00:00.000Z',
        subscriptionId: 'sub_1',
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

  // Issue 21 item 2: when every retry of a renewal failed the provider keeps the subscription unpaid;
  // the membership lapses, and paying the open invoice brings it back.
  describe('a renewal every retry failed', () => {
    const failedAt = '2027-01-14T12:00:00.000Z';
    const failedEvent: AccountEvent = {
      type: 'AccountRenewalFailed',
      data: {
        accountId: 'a1',
        invoiceId: 'in_2',
        nextPaymentAttempt: null,
        invoiceCreatedAt: '2026-12-24T12:00:00.000Z',
      },
    };
    const lapsed: AccountEvent = {
      type: 'AccountMembershipCanceled',
      data: { accountId: 'a1', reason: 'unpaid', afterFailedPayment: true, providerEndedAt: failedAt },
    };
    const reinstated: AccountEvent = {
      type: 'AccountMembershipReinstated',
      data: { accountId: 'a1', planLevel: 'BASIC', currentPeriodEnd: '2027-01-24T12:00:00.000Z' },
    };
    const paid = (subscriptionId: string | null = 'sub_1') => ({
      type: 'RecordInvoicePaid' as const,
      invoiceId: 'in_2',
      invoiceCreatedAt: '2026-12-24T12:00:00.000Z',
      currentPeriodEnd: '2027-01-24T12:00:00.000Z',
      subscriptionId,
    });
    const renewalPaid: AccountEvent = {
      type: 'AccountRenewalPaid',
      data: {
        accountId: 'a1',
        invoiceId: 'in_2',
        currentPeriodEnd: '2027-01-24T12:00:00.000Z',
        invoiceCreatedAt: '2026-12-24T12:00:00.000Z',
      },
    };

    it('lapses the membership when the subscription turns unpaid, saying so', () => {
      as()
        .given([opened, started, failedEvent])
        .when(subscription('unpaid', 'BASIC', 'sub_1', 0, failedAt))
        .thenEvents([lapsed]);
      const state = [opened, started, failedEvent, lapsed].reduce(
        accountDecider.evolve,
        accountDecider.initialState(),
      ) as OpenAccountState;
      expect(state.membershipStatus).toBe('canceled');
      expect(state.billing.endedReason).toBe('unpaid');
    });

    it('brings it back when the open invoice is paid, from invoice.paid or the subscription, once', () => {
      as().given([opened, started, failedEvent, lapsed]).when(paid()).thenEvents([renewalPaid, reinstated]);
      as()
        .given([opened, started, failedEvent, lapsed])
        .when({
          ...subscription('active', 'BASIC', 'sub_1', 0, '2027-01-20T12:00:00.000Z'),
          subscription: {
            ...subscription('active').subscription,
            eventCreatedAt: '2027-01-20T12:00:00.000Z',
            currentPeriodEnd: '2027-01-24T12:00:00.000Z',
          },
        })
        .thenEvents([reinstated]);
      // The other of the two, after it: nothing more.
      as()
        .given([opened, started, failedEvent, lapsed, renewalPaid, reinstated])
        .when(subscription('active', 'BASIC', 'sub_1', 0, '2027-01-20T12:00:00.000Z'))
        .thenEvents([]);
      const back = [opened, started, failedEvent, lapsed, renewalPaid, reinstated].reduce(
        accountDecider.evolve,
        accountDecider.initialState(),
      ) as OpenAccountState;
      expect(back).toMatchObject({ membershipStatus: 'active', planLevel: 'BASIC' });
      expect(back.billing).toMatchObject({ endedReason: null, paymentFailed: false });
    });

    it('is not brought back by an older subscription event, another subscription, or a cancellation on request', () => {
      // "active" made before the lapse, delivered after it.
      as()
        .given([opened, started, failedEvent, lapsed])
        .when(subscription('active', 'BASIC', 'sub_1', 0, '2027-01-01T12:00:00.000Z'))
        .thenEvents([]);
      as().given([opened, started, failedEvent, lapsed]).when(paid('sub_other')).thenEvents([renewalPaid]);
      as().given([opened, started, failedEvent, lapsed]).when(paid(null)).thenEvents([renewalPaid]);
      const requested: AccountEvent = {
        type: 'AccountMembershipCanceled',
        data: { accountId: 'a1', reason: 'requested' },
      };
      as()
        .given([opened, started, requested])
        .when({ ...paid(), invoiceCreatedAt: '2026-12-24T12:00:00.000Z' })
        .thenEvents([renewalPaid]);
    });

    it('ends it for good when the provider then deletes the unpaid subscription, or ended it after a failure', () => {
      as()
        .given([opened, started, failedEvent, lapsed])
        .when(subscription('canceled', 'BASIC', 'sub_1', 0, '2027-02-01T12:00:00.000Z'))
        .thenEvents([providerEnded(true, '2027-02-01T12:00:00.000Z')]);
      // Stripe set to cancel after the last retry: ended while the renewal was failing.
      as()
        .given([opened, started, failedEvent])
        .when(subscription('canceled', 'BASIC', 'sub_1', 0, failedAt))
        .thenEvents([providerEnded(true, failedAt)]);
      as()
        .given([opened, started, failedEvent, providerEnded(true, failedAt)])
        .when(paid())
        .thenEvents([renewalPaid]);
    });
  });
});
