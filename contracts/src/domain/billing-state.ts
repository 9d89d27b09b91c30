import type { MembershipStatus, PlanLevel } from './plans.ts';

/**
 * A funder's membership and billing as one state (DESIGN §4 "Billing", accounts spec §4), derived here
 * once from the account's fields so that every screen and figure says the same: the Membership tab,
 * the Billing tab, /membership, the top bar, the platform admin's funder page and the revenue widget.
 *
 * | kind          | when                                                               | members search | revenue |
 * |---------------|--------------------------------------------------------------------|----------------|---------|
 * | none          | no membership or trial was ever started                            | no             | no      |
 * | trialing      | a platform administrator started a trial                           | yes            | no      |
 * | active        | paid through the provider, renewals paid                           | yes            | yes     |
 * | past_due      | paid through the provider, a renewal failed and is being retried   | yes            | yes     |
 * | complimentary | active without a provider subscription (the platform's own account)| yes            | no      |
 * | lapsed        | the provider gave up on a failed renewal, or ended the subscription| no             | no      |
 * | canceled      | cancelled on request (Cancel Membership, Cancel Trial)             | no             | no      |
 */

/** Why the last membership or trial ended (AccountView.membership_ended_reason). */
export const MEMBERSHIP_ENDED_REASONS = [
  'requested',
  'trial_canceled',
  'unpaid',
  'provider_payment_failed',
  'provider',
] as const;
export type MembershipEndedReason = (typeof MEMBERSHIP_ENDED_REASONS)[number];

/** The account fields the state is made of (AccountView's names). */
export interface BillingFields {
  membership_status: MembershipStatus;
  plan_level: PlanLevel;
  billed: boolean;
  payment_failed: boolean;
  next_payment_attempt: string | null;
  current_period_end: string | null;
  membership_ended_reason: MembershipEndedReason | null;
  membership_ended_at: string | null;
  trial_started_at?: string | null;
}

export type BillingStateKind =
  | 'none'
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'complimentary'
  | 'lapsed'
  | 'canceled';

export interface BillingState {
  kind: BillingStateKind;
  plan: PlanLevel;
  /** The tag's text, the same on every screen. */
  label: string;
  /** The tag's colour: success green, primary blue, warning orange, danger red. */
  tone: 'success' | 'primary' | 'warning' | 'danger' | 'none';
  /** Members have the network (active, past due, complimentary, trialing). */
  inForce: boolean;
  /** Counts in the monthly revenue: a billed membership, including a renewal still being retried. */
  paying: boolean;
  /** Lapsed: because a renewal payment failed (unpaid or ended after it), or ended by the provider. */
  lapse: 'unpaid' | 'payment_failed' | 'provider' | null;
  /**
   * Paying the open invoice (the provider's hosted invoice page) helps: past due (paid now rather than
   * at the next retry) or unpaid (it restores the membership).
   */
  payOpenInvoice: boolean;
  /** Changing the card helps: past due, the provider's next retries charge the new card. */
  updateCard: boolean;
  /** Upgrade, downgrade and Cancel Membership apply (a billed membership in force). */
  manageable: boolean;
  /** Start Membership on /membership applies (no billed membership in force). */
  canStart: boolean;
  /** Active: the next renewal; past due: the period the failed renewal is for ends. */
  renewsOn: string | null;
  /** Past due: the provider's next attempt (null when none is scheduled). */
  nextAttempt: string | null;
  /** Lapsed or canceled: when it ended, and why (the account's membership_ended_reason). */
  endedOn: string | null;
  endedReason: MembershipEndedReason | null;
}

const TAGS: Record<BillingStateKind, Pick<BillingState, 'label' | 'tone'>> = {
  none: { label: 'No membership', tone: 'none' },
  trialing: { label: 'Trial', tone: 'primary' },
  active: { label: 'Active', tone: 'success' },
  past_due: { label: 'Past due', tone: 'warning' },
  complimentary: { label: 'Active (not billed)', tone: 'success' },
  lapsed: { label: 'Lapsed', tone: 'danger' },
  canceled: { label: 'Cancelled', tone: 'none' },
};

function kindOf(a: BillingFields): BillingStateKind {
  switch (a.membership_status) {
    case 'none':
      return 'none';
    case 'trialing':
      return 'trialing';
    case 'active':
      if (!a.billed) return 'complimentary';
      return a.payment_failed ? 'past_due' : 'active';
    case 'canceled':
    case 'inactive': {
      const reason = a.membership_ended_reason;
      return reason === 'unpaid' || reason === 'provider_payment_failed' || reason === 'provider'
        ? 'lapsed'
        : 'canceled';
    }
  }
}

const LAPSES = {
  unpaid: 'unpaid',
  provider_payment_failed: 'payment_failed',
  provider: 'provider',
} as const;

/** The one billing state of an account. */
export function billingStateOf(a: BillingFields): BillingState {
  const kind = kindOf(a);
  const reason = a.membership_ended_reason;
  const lapse =
    kind === 'lapsed' && reason && reason in LAPSES ? LAPSES[reason as keyof typeof LAPSES] : null;
  const inForce = kind === 'active' || kind === 'past_due' || kind === 'complimentary' || kind === 'trialing';
  return {
    kind,
    plan: a.plan_level,
    ...TAGS[kind],
    inForce,
    paying: kind === 'active' || kind === 'past_due',
    lapse,
    payOpenInvoice: kind === 'past_due' || lapse === 'unpaid',
    updateCard: kind === 'past_due',
    manageable: kind === 'active' || kind === 'past_due',
    canStart: kind !== 'active' && kind !== 'past_due',
    renewsOn: kind === 'active' || kind === 'past_due' ? a.current_period_end : null,
    nextAttempt: kind === 'past_due' ? a.next_payment_attempt : null,
    endedOn: kind === 'lapsed' || kind === 'canceled' ? a.membership_ended_at : null,
    endedReason: kind === 'lapsed' || kind === 'canceled' ? reason : null,
  };
}

const on = (date: string | null, format: (iso: string) => string) => (date ? ` on ${format(date)}` : '');

/**
 * What the state means, in the words every screen uses (dates through `format`, MM/DD/YYYY in the
 * viewer's zone on the web).
 */
export function billingSummary(state: BillingState, format: (iso: string) => string): string {
  const plan = state.plan;
  switch (state.kind) {
    case 'none':
      return 'No membership has been started, so members cannot search yet.';
    case 'trialing':
      return 'The trial is running: members have full access while it lasts.';
    case 'active':
      return `The ${plan} membership is active${state.renewsOn ? ` and renews on ${format(state.renewsOn)}` : ''}.`;
    case 'complimentary':
      return `The ${plan} membership is active and not billed: no card payment is taken for it.`;
    case 'past_due':
      return `The renewal payment failed${
        state.nextAttempt
          ? `; the card payment provider tries again on ${format(state.nextAttempt)}`
          : ' and no further attempt is scheduled'
      }. Update the payment method or pay the open invoice to keep the membership.`;
    case 'lapsed':
      if (state.lapse === 'unpaid')
        return `The membership lapsed${on(state.endedOn, format)}: the renewal payment failed and the card payment provider stopped retrying. Pay the open invoice to restore it.`;
      if (state.lapse === 'payment_failed')
        return `The card payment provider ended the membership${on(state.endedOn, format)} after the renewal payment failed. Start a new membership to continue.`;
      return `The card payment provider ended the membership${on(state.endedOn, format)}. Start a new membership to continue.`;
    case 'canceled':
      return state.endedReason === 'trial_canceled'
        ? `The trial was cancelled${on(state.endedOn, format)}; members cannot search.`
        : `The membership was cancelled${on(state.endedOn, format)}; members cannot search.`;
  }
}
