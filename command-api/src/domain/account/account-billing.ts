import type { EventOf, PlanLevel } from '@mrn/contracts';
import { type Actor, conflict, forbidden, notFound } from '@mrn/platform';

export type BillingEvent =
  | EventOf<'AccountMembershipStarted'>
  | EventOf<'AccountPlanChanged'>
  | EventOf<'AccountMembershipCanceled'>
  | EventOf<'AccountRenewalPaid'>
  | EventOf<'AccountRenewalFailed'>;

export interface BillingState {
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  currentPeriodEnd: string | null;
  paymentFailed: boolean;
  nextPaymentAttempt: string | null;
  /** The newest invoice applied: an older invoice's event arriving late changes nothing. */
  lastInvoiceAt: string | null;
  /**
   * The provider's plan version of the plan recorded (the subscription's `mrn_plan_version`, 0 when it
   * started): a subscription event of an older version is stale and changes nothing, and a change of
   * this version is already recorded whether the request or the webhook got here first.
   */
  planVersion: number;
  /**
   * `created` of the Stripe event the plan was last applied from, null when the request that made the
   * change recorded it. Orders changes of one version: only a change made outside the product (the
   * Stripe dashboard) leaves the version as it was.
   */
  planChangedAt: string | null;
}

export const initialBilling = (): BillingState => ({
  stripeCustomerId: null,
  stripeSubscriptionId: null,
  currentPeriodEnd: null,
  paymentFailed: false,
  nextPaymentAttempt: null,
  lastInvoiceAt: null,
  planVersion: 0,
  planChangedAt: null,
});

/**
 * What Stripe's subscription object says now (a `customer.subscription.*` webhook): compared with the
 * account, not with the order events arrive in.
 */
export interface StripeSubscriptionState {
  subscriptionId: string;
  /** Stripe's status: active, past_due, canceled, unpaid, incomplete, incomplete_expired, trialing, paused. */
  status: string;
  planLevel: PlanLevel | null;
  currentPeriodEnd: string | null;
  /** The subscription's plan version as the event shows it (see `BillingState.planVersion`). */
  planVersion: number;
  /** When Stripe created the event (its `created`), ISO. */
  eventCreatedAt: string;
}

export type BillingCommand =
  | {
      type: 'StartMembership';
      planLevel: PlanLevel;
      stripeCustomerId: string;
      stripeSubscriptionId: string;
      currentPeriodEnd: string | null;
    }
  /**
   * Stripe has made the plan change the funder asked for (checked with `assertMayChangePlan` before
   * charging), as plan version `planVersion`. Stripe's webhook of it may have been applied first: then
   * there is nothing left to record.
   */
  | { type: 'RecordPlanChange'; planLevel: PlanLevel; planVersion: number }
  | { type: 'CancelMembership' }
  | { type: 'ApplyStripeSubscription'; subscription: StripeSubscriptionState }
  | {
      type: 'RecordInvoicePaid';
      invoiceId: string;
      invoiceCreatedAt: string;
      currentPeriodEnd: string | null;
    }
  | {
      type: 'RecordInvoiceFailed';
      invoiceId: string;
      invoiceCreatedAt: string;
      nextPaymentAttempt: string | null;
    };

export const BILLING_TEXTS = {
  alreadyMember: 'This funder already has an active membership.',
  notMember: 'This funder has no active paid membership.',
  samePlan: (plan: PlanLevel) => `This funder is already on the ${plan} plan.`,
} as const;

interface Account {
  accountId: string;
  planLevel: PlanLevel;
  membershipStatus: string;
  billing: BillingState;
}

/** The account's own admins and platform admins manage billing; another funder's admin sees nothing. */
export function assertMayManageBilling(account: { accountId: string }, actor: Actor | undefined): void {
  if (!actor || (!actor.isDmAdmin && actor.accountId !== account.accountId))
    throw notFound('Funder not found.');
  if (!actor.isDmAdmin && !actor.isAdmin) throw forbidden();
}

/** Checked before the card is charged, and again when the outcome is recorded. */
export function assertMayStartMembership(account: Account, actor: Actor | undefined): void {
  assertMayManageBilling(account, actor);
  if (account.membershipStatus === 'active' && account.billing.stripeSubscriptionId)
    throw conflict(BILLING_TEXTS.alreadyMember);
}

export function assertMayChangePlan(account: Account, actor: Actor | undefined, planLevel?: PlanLevel): void {
  assertMayManageBilling(account, actor);
  if (account.membershipStatus !== 'active' || !account.billing.stripeSubscriptionId)
    throw conflict(BILLING_TEXTS.notMember);
  if (planLevel && account.planLevel === planLevel) throw conflict(BILLING_TEXTS.samePlan(planLevel));
}

export function decideBilling(
  command: BillingCommand,
  account: Account,
  actor: Actor | undefined,
): BillingEvent[] {
  const { accountId } = account;
  switch (command.type) {
    case 'StartMembership': {
      assertMayStartMembership(account, actor);
      const { type: _, ...data } = command;
      return [{ type: 'AccountMembershipStarted', data: { accountId, ...data } }];
    }
    case 'RecordPlanChange':
      assertMayChangePlan(account, actor);
      // This version or a newer one is recorded already (its webhook got here first).
      if (command.planVersion <= account.billing.planVersion || account.planLevel === command.planLevel)
        return [];
      return [
        {
          type: 'AccountPlanChanged',
          data: {
            accountId,
            planLevel: command.planLevel,
            planVersion: command.planVersion,
            providerChangedAt: null,
          },
        },
      ];
    case 'CancelMembership':
      assertMayChangePlan(account, actor);
      return [{ type: 'AccountMembershipCanceled', data: { accountId, reason: 'requested' } }];
    case 'ApplyStripeSubscription': {
      const s = command.subscription;
      // An old subscription (before a cancel and a new start) no longer speaks for the account.
      if (s.subscriptionId !== account.billing.stripeSubscriptionId) return [];
      if (s.status === 'canceled' || s.status === 'incomplete_expired' || s.status === 'unpaid') {
        return account.membershipStatus === 'active'
          ? [{ type: 'AccountMembershipCanceled', data: { accountId, reason: 'stripe' } }]
          : [];
      }
      if (account.membershipStatus !== 'active') return [];
      if (!s.planLevel || s.planLevel === account.planLevel) return [];
      // By the provider's order, not arrival: an older version is stale. A change of the version
      // recorded was made outside the product (the version moves only with ours); it applies when
      // Stripe made its event after the one the plan was last applied from.
      const { planVersion, planChangedAt } = account.billing;
      if (s.planVersion < planVersion) return [];
      if (s.planVersion === planVersion && planChangedAt !== null && s.eventCreatedAt <= planChangedAt)
        return [];
      return [
        {
          type: 'AccountPlanChanged',
          data: {
            accountId,
            planLevel: s.planLevel,
            planVersion: s.planVersion,
            providerChangedAt: s.eventCreatedAt,
          },
        },
      ];
    }
    case 'RecordInvoicePaid':
    case 'RecordInvoiceFailed': {
      const last = account.billing.lastInvoiceAt;
      if (last && command.invoiceCreatedAt < last) return [];
      if (command.type === 'RecordInvoicePaid') {
        return [
          {
            type: 'AccountRenewalPaid',
            data: {
              accountId,
              invoiceId: command.invoiceId,
              currentPeriodEnd: command.currentPeriodEnd,
              invoiceCreatedAt: command.invoiceCreatedAt,
            },
          },
        ];
      }
      if (account.membershipStatus !== 'active') return [];
      return [
        {
          type: 'AccountRenewalFailed',
          data: {
            accountId,
            invoiceId: command.invoiceId,
            nextPaymentAttempt: command.nextPaymentAttempt,
            invoiceCreatedAt: command.invoiceCreatedAt,
          },
        },
      ];
    }
  }
}

export function evolveBilling<
  S extends { planLevel: PlanLevel; membershipStatus: string; billing: BillingState },
>(state: S, event: BillingEvent): S {
  switch (event.type) {
    case 'AccountMembershipStarted':
      return {
        ...state,
        planLevel: event.data.planLevel,
        membershipStatus: 'active',
        billing: {
          ...state.billing,
          stripeCustomerId: event.data.stripeCustomerId,
          stripeSubscriptionId: event.data.stripeSubscriptionId,
          currentPeriodEnd: event.data.currentPeriodEnd,
          paymentFailed: false,
          nextPaymentAttempt: null,
          // A new subscription counts its plan versions from 0.
          planVersion: 0,
          planChangedAt: null,
        },
      };
    case 'AccountPlanChanged':
      // Written without a version (before it was kept, or by the sandbox mirror): the plan only.
      if (event.data.planVersion === undefined) return { ...state, planLevel: event.data.planLevel };
      return {
        ...state,
        planLevel: event.data.planLevel,
        billing: {
          ...state.billing,
          planVersion: event.data.planVersion,
          planChangedAt: event.data.providerChangedAt ?? null,
        },
      };
    case 'AccountMembershipCanceled':
      return {
        ...state,
        membershipStatus: 'canceled',
        billing: { ...state.billing, paymentFailed: false, nextPaymentAttempt: null },
      };
    case 'AccountRenewalPaid':
      return {
        ...state,
        billing: {
          ...state.billing,
          currentPeriodEnd: event.data.currentPeriodEnd ?? state.billing.currentPeriodEnd,
          paymentFailed: false,
          nextPaymentAttempt: null,
          lastInvoiceAt: event.data.invoiceCreatedAt,
        },
      };
    case 'AccountRenewalFailed':
      return {
        ...state,
        billing: {
          ...state.billing,
          paymentFailed: true,
          nextPaymentAttempt: event.data.nextPaymentAttempt,
          lastInvoiceAt: event.data.invoiceCreatedAt,
        },
      };
  }
}
