import type { EventOf, PlanLevel } from '@mrn/contracts';
import { type Actor, conflict, forbidden, notFound } from '@mrn/platform';

export type BillingEvent =
  | EventOf<'AccountMembershipStarted'>
  | EventOf<'AccountPlanChanged'>
  | EventOf<'AccountMembershipCanceled'>
  | EventOf<'AccountRenewalPaid'>
  | EventOf<'AccountRenewalFailed'>
  | EventOf<'AccountMembershipReinstated'>;

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
  /**
   * Why the last paid membership ended (its AccountMembershipCanceled), null while it runs. `unpaid`:
   * the provider stopped retrying the renewal and keeps the subscription unpaid; paying its open invoice
   * makes the subscription active again, and the membership with it.
   */
  endedReason: 'requested' | 'stripe' | 'unpaid' | null;
  /** When the provider ended it (its event's `created`): an older subscription event cannot undo it. */
  endedAt: string | null;
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
  endedReason: null,
  endedAt: null,
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
      /** The subscription the invoice bills (its `parent.subscription_details.subscription`), if any. */
      subscriptionId: string | null;
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
      const { billing } = account;
      // An old subscription (before a cancel and a new start) no longer speaks for the account.
      if (s.subscriptionId !== billing.stripeSubscriptionId) return [];
      // The provider's own order: nothing older than the event that ended the membership undoes it.
      if (billing.endedAt !== null && s.eventCreatedAt < billing.endedAt) return [];
      const ended = (reason: 'stripe' | 'unpaid', afterFailedPayment: boolean): BillingEvent => ({
        type: 'AccountMembershipCanceled',
        data: { accountId, reason, afterFailedPayment, providerEndedAt: s.eventCreatedAt },
      });
      const active = account.membershipStatus === 'active';
      // Every retry of the renewal failed: the provider keeps the subscription, unpaid, and charges
      // nothing more; the membership lapses until its open invoice is paid.
      if (s.status === 'unpaid') return active ? [ended('unpaid', true)] : [];
      if (s.status === 'canceled' || s.status === 'incomplete_expired') {
        if (active) return [ended('stripe', billing.paymentFailed)];
        // An unpaid membership whose subscription the provider then ended can no longer come back.
        return billing.endedReason === 'unpaid' ? [ended('stripe', true)] : [];
      }
      if (!active) {
        // The unpaid subscription is active again: its open invoice was paid.
        return s.status === 'active' && billing.endedReason === 'unpaid'
          ? [reinstated(account, s.planLevel ?? account.planLevel, s.currentPeriodEnd)]
          : [];
      }
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
        const paid: BillingEvent = {
          type: 'AccountRenewalPaid',
          data: {
            accountId,
            invoiceId: command.invoiceId,
            currentPeriodEnd: command.currentPeriodEnd,
            invoiceCreatedAt: command.invoiceCreatedAt,
          },
        };
        // The open invoice of the unpaid subscription is paid: the provider makes it active again, and
        // the membership comes back with it (whichever of invoice.paid and the subscription's update
        // arrives first records it; the other then changes nothing).
        const restores =
          account.membershipStatus !== 'active' &&
          account.billing.endedReason === 'unpaid' &&
          command.subscriptionId !== null &&
          command.subscriptionId === account.billing.stripeSubscriptionId;
        return restores
          ? [
              paid,
              reinstated(
                account,
                account.planLevel,
                command.currentPeriodEnd ?? account.billing.currentPeriodEnd,
              ),
            ]
          : [paid];
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

const reinstated = (
  account: Account,
  planLevel: PlanLevel,
  currentPeriodEnd: string | null,
): BillingEvent => ({
  type: 'AccountMembershipReinstated',
  data: { accountId: account.accountId, planLevel, currentPeriodEnd },
});

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
          endedReason: null,
          endedAt: null,
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
        billing: {
          ...state.billing,
          paymentFailed: false,
          nextPaymentAttempt: null,
          endedReason: event.data.reason,
          endedAt: event.data.providerEndedAt ?? null,
        },
      };
    case 'AccountMembershipReinstated':
      return {
        ...state,
        planLevel: event.data.planLevel,
        membershipStatus: 'active',
        billing: {
          ...state.billing,
          currentPeriodEnd: event.data.currentPeriodEnd ?? state.billing.currentPeriodEnd,
          paymentFailed: false,
          nextPaymentAttempt: null,
          endedReason: null,
          endedAt: null,
        },
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
