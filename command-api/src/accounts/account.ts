import type { EventData, EventOf, MembershipStatus, PlanLevel } from '@mrn/contracts';
import {
  type AlertSettings,
  alertSettingsOf,
  CONTRIBUTION_REMINDER_DAYS,
  CONTRIBUTION_WARNING_DAYS,
  MIN_CONTRIBUTION_PERCENT,
  normaliseEventTypes,
  WATCH_SEARCHED_MONTHS,
  type WebhookEventType,
  watchSettingsOf,
} from '@mrn/contracts';
import { type Actor, conflict, forbidden, gone, invalid, notFound } from '@mrn/platform';
import { assertNever, type Decider } from '../decider.ts';
import {
  type BillingCommand,
  type BillingEvent,
  type BillingState,
  decideBilling,
  evolveBilling,
  initialBilling,
} from './account-billing.ts';

export type AccountEvent =
  | EventOf<'AccountOpened'>
  | EventOf<'AccountUpdated'>
  | EventOf<'AccountArchived'>
  | EventOf<'AccountWebhookEndpointSaved'>
  | EventOf<'AccountApiAccessGranted'>
  | EventOf<'AccountApiAccessRevoked'>
  | EventOf<'AccountTrialStarted'>
  | EventOf<'AccountTrialCanceled'>
  | EventOf<'AccountMfaRequiredChanged'>
  | EventOf<'AccountContributionRecalculated'>
  | EventOf<'AccountContributionWarningIssued'>
  | EventOf<'AccountContributionWarningReminded'>
  | EventOf<'AccountContributionLocked'>
  | EventOf<'AccountContributionRestored'>
  | EventOf<'AccountContributionOverrideChanged'>
  | BillingEvent;

export interface OpenAccountState {
  status: 'open' | 'archived';
  accountId: string;
  name: string;
  website: string | null;
  primaryContactEmail: string;
  planLevel: PlanLevel;
  membershipStatus: MembershipStatus;
  isPlatform: boolean;
  canAccessApi: boolean;
  mfaRequired: boolean;
  merchantSubscriptionEnabled: boolean;
  merchantSubscriptionNotificationEmail: string | null;
  merchantSubscriptionNotificationWebhook: string | null;
  /** "Watch merchants we search" and for how many months (acted on only for PRO with subscriptions on). */
  watchSearchedMerchants: boolean;
  watchSearchedMonths: number;
  /** Being-shopped alerts (null: off) and the webhook endpoint's event types (null: all), issue 24. */
  shoppedAlertThreshold: number | null;
  webhookEventTypes: WebhookEventType[] | null;
  /**
   * Issued when the 90-day contribution fell below the minimum; null while it is at or above it.
   * `reminded`: the admins were reminded of its expiry (once per warning).
   */
  contributionWarning: { issuedAt: string; expiresAt: string; reminded: boolean } | null;
  contributionLocked: boolean;
  contributionOverride: boolean;
  billing: BillingState;
}

export type AccountState = { status: 'none' } | OpenAccountState;

export type AccountDetails = Required<
  Omit<EventData<'AccountUpdated'>, 'accountId' | 'shoppedAlertThreshold' | 'webhookEventTypes'>
> &
  AlertSettings;
type KeptWhenLeftOut = 'watchSearchedMerchants' | 'watchSearchedMonths' | keyof AlertSettings;
/** The details an update asks for; a watch or alert setting left out stays as it is. */
export type AccountDetailsInput = Omit<AccountDetails, KeptWhenLeftOut> &
  Partial<Pick<AccountDetails, KeptWhenLeftOut>>;

export type AccountCommand =
  | {
      type: 'OpenAccount';
      accountId: string;
      name: string;
      website: string | null;
      primaryContactEmail: string;
      planLevel: PlanLevel;
      membershipStatus: MembershipStatus;
      isPlatform: boolean;
    }
  | { type: 'UpdateAccount'; details: AccountDetailsInput }
  | { type: 'ArchiveAccount' }
  | { type: 'GrantApiAccess' }
  | { type: 'RevokeApiAccess' }
  | { type: 'StartTrial' }
  | { type: 'CancelTrial' }
  | { type: 'ToggleMfaRequired' }
  /**
   * The account's 90-day contribution measured now (DESIGN §4): below the minimum a warning with a
   * 14-day expiry, a reminder once it expires within 3 days, still below after it a lock, back at the
   * minimum both lifted. `requested`: asked for by a person (Recalculate), which also refreshes the
   * stored figures; otherwise the daily job, or the funder's own new records while it is warned or locked.
   */
  | { type: 'AssessContribution'; percent: number; requested: boolean }
  | { type: 'ToggleContributionOverride' }
  | BillingCommand;

export const ACCOUNT_TEXTS = {
  notFound: 'Funder not found.',
  archived: 'This funder has been archived.',
  trialNotAllowed: 'A trial can only start for a funder without an active membership or trial.',
  noTrial: 'This funder is not in a trial.',
  subscriptionsProOnly: 'Merchant subscriptions are only available to PRO funders.',
  watchMonths: `Watch searched merchants for must be between ${WATCH_SEARCHED_MONTHS.min} and ${WATCH_SEARCHED_MONTHS.max} months.`,
} as const;

function open(state: AccountState): OpenAccountState & { status: 'open' } {
  if (state.status === 'none') throw notFound(ACCOUNT_TEXTS.notFound);
  if (state.status === 'archived') throw gone(ACCOUNT_TEXTS.archived);
  return state as OpenAccountState & { status: 'open' };
}

const platformOnly = (actor: Actor | undefined) => {
  if (!actor?.isDmAdmin) throw forbidden();
};

export const accountDecider: Decider<AccountCommand, AccountState, AccountEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    if (event.type === 'AccountOpened') {
      return {
        status: 'open',
        ...event.data,
        canAccessApi: false,
        mfaRequired: false,
        merchantSubscriptionEnabled: false,
        merchantSubscriptionNotificationEmail: null,
        merchantSubscriptionNotificationWebhook: null,
        ...watchSettingsOf({}),
        ...alertSettingsOf({}),
        contributionWarning: null,
        contributionLocked: false,
        contributionOverride: false,
        billing: initialBilling(),
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'AccountUpdated': {
        const { accountId: _, ...details } = event.data;
        return { ...state, ...details, ...watchSettingsOf(details), ...alertSettingsOf(details) };
      }
      case 'AccountArchived':
        return { ...state, status: 'archived' };
      case 'AccountWebhookEndpointSaved':
        return state;
      case 'AccountApiAccessGranted':
        return { ...state, canAccessApi: true };
      case 'AccountApiAccessRevoked':
        return { ...state, canAccessApi: false };
      case 'AccountTrialStarted':
        return { ...state, membershipStatus: 'trialing' };
      case 'AccountTrialCanceled':
        return { ...state, membershipStatus: 'canceled' };
      case 'AccountMfaRequiredChanged':
        return { ...state, mfaRequired: event.data.mfaRequired };
      case 'AccountContributionRecalculated':
        return state;
      case 'AccountContributionWarningIssued':
        return {
          ...state,
          contributionWarning: {
            issuedAt: event.data.issuedAt,
            expiresAt: event.data.expiresAt,
            reminded: false,
          },
        };
      case 'AccountContributionWarningReminded':
        return state.contributionWarning
          ? { ...state, contributionWarning: { ...state.contributionWarning, reminded: true } }
          : state;
      case 'AccountContributionLocked':
        return { ...state, contributionLocked: true };
      case 'AccountContributionRestored':
        return { ...state, contributionWarning: null, contributionLocked: false };
      case 'AccountContributionOverrideChanged':
        return { ...state, contributionOverride: event.data.override };
      case 'AccountMembershipStarted':
      case 'AccountPlanChanged':
      case 'AccountMembershipCanceled':
      case 'AccountRenewalPaid':
      case 'AccountRenewalFailed':
      case 'AccountMembershipReinstated':
        return evolveBilling(state, event);
      default:
        return assertNever(event);
    }
  },
  decide(command, state, ctx) {
    const actor = ctx.actor;
    // Another funder's account is, to this funder, one that does not exist, archived or not: a 410
    // would tell an archived funder apart from an unknown id.
    if (state.status !== 'none' && actor && !actor.isDmAdmin && actor.accountId !== state.accountId) {
      throw notFound(ACCOUNT_TEXTS.notFound);
    }
    switch (command.type) {
      case 'OpenAccount': {
        if (state.status !== 'none') throw conflict('This account already exists.');
        const { type: _, ...data } = command;
        return [{ type: 'AccountOpened', data }];
      }
      case 'UpdateAccount': {
        const account = open(state);
        // Another funder's account answers as one that does not exist.
        if (!actor || (!actor.isDmAdmin && actor.accountId !== account.accountId))
          throw notFound(ACCOUNT_TEXTS.notFound);
        if (!actor.isDmAdmin && !actor.isAdmin) throw forbidden();
        // Only platform admins switch merchant subscriptions on, and only for PRO funders.
        const enabled = actor.isDmAdmin
          ? command.details.merchantSubscriptionEnabled
          : account.merchantSubscriptionEnabled;
        if (enabled && account.planLevel !== 'PRO') throw invalid(ACCOUNT_TEXTS.subscriptionsProOnly);
        // The watch setting is kept whatever the plan (it acts only for PRO with subscriptions on), so
        // that an upgrade or switching subscriptions back on finds it as the account left it.
        const months = command.details.watchSearchedMonths ?? account.watchSearchedMonths;
        if (
          !Number.isInteger(months) ||
          months < WATCH_SEARCHED_MONTHS.min ||
          months > WATCH_SEARCHED_MONTHS.max
        )
          throw invalid(ACCOUNT_TEXTS.watchMonths);
        const details: AccountDetails = {
          ...command.details,
          merchantSubscriptionEnabled: enabled,
          watchSearchedMerchants: command.details.watchSearchedMerchants ?? account.watchSearchedMerchants,
          watchSearchedMonths: months,
          shoppedAlertThreshold:
            command.details.shoppedAlertThreshold === undefined
              ? account.shoppedAlertThreshold
              : command.details.shoppedAlertThreshold,
          webhookEventTypes:
            command.details.webhookEventTypes === undefined
              ? account.webhookEventTypes
              : normaliseEventTypes(command.details.webhookEventTypes),
        };
        const same = (Object.keys(details) as (keyof AccountDetails)[]).every(
          (k) => JSON.stringify(account[k]) === JSON.stringify(details[k]),
        );
        if (!same) return [{ type: 'AccountUpdated', data: { accountId: account.accountId, ...details } }];
        // Saving the same webhook address again is how a disabled endpoint is resumed (the e-mail says so).
        const url = details.merchantSubscriptionNotificationWebhook;
        return url
          ? [{ type: 'AccountWebhookEndpointSaved', data: { accountId: account.accountId, url } }]
          : [];
      }
      case 'ArchiveAccount': {
        platformOnly(actor);
        if (state.status === 'archived') return [];
        const account = open(state);
        if (account.isPlatform) throw forbidden('The platform account cannot be archived.');
        return [{ type: 'AccountArchived', data: { accountId: account.accountId } }];
      }
      case 'GrantApiAccess': {
        platformOnly(actor);
        const account = open(state);
        return account.canAccessApi
          ? []
          : [{ type: 'AccountApiAccessGranted', data: { accountId: account.accountId } }];
      }
      case 'RevokeApiAccess': {
        platformOnly(actor);
        const account = open(state);
        return account.canAccessApi
          ? [{ type: 'AccountApiAccessRevoked', data: { accountId: account.accountId } }]
          : [];
      }
      case 'StartTrial': {
        platformOnly(actor);
        const account = open(state);
        if (account.membershipStatus === 'trialing' || account.membershipStatus === 'active') {
          throw conflict(ACCOUNT_TEXTS.trialNotAllowed);
        }
        return [{ type: 'AccountTrialStarted', data: { accountId: account.accountId } }];
      }
      case 'CancelTrial': {
        platformOnly(actor);
        const account = open(state);
        if (account.membershipStatus !== 'trialing') throw conflict(ACCOUNT_TEXTS.noTrial);
        return [{ type: 'AccountTrialCanceled', data: { accountId: account.accountId } }];
      }
      case 'ToggleMfaRequired': {
        platformOnly(actor);
        const account = open(state);
        return [
          {
            type: 'AccountMfaRequiredChanged',
            data: { accountId: account.accountId, mfaRequired: !account.mfaRequired },
          },
        ];
      }
      case 'AssessContribution': {
        const account = open(state);
        // A person's Recalculate: the account's own admins or platform admins (the daily job has no actor).
        if (command.requested) {
          if (!actor || (!actor.isDmAdmin && actor.accountId !== account.accountId))
            throw notFound(ACCOUNT_TEXTS.notFound);
          if (!actor.isDmAdmin && !actor.isAdmin) throw forbidden();
        }
        const events: AccountEvent[] = command.requested
          ? [{ type: 'AccountContributionRecalculated', data: { accountId: account.accountId } }]
          : [];
        return [...events, ...assessContribution(account, command.percent, ctx.now)];
      }
      case 'ToggleContributionOverride': {
        platformOnly(actor);
        const account = open(state);
        return [
          {
            type: 'AccountContributionOverrideChanged',
            data: { accountId: account.accountId, override: !account.contributionOverride },
          },
        ];
      }
      case 'StartMembership':
      case 'RecordPlanChange':
      case 'CancelMembership':
      case 'ApplyStripeSubscription':
      case 'RecordInvoicePaid':
      case 'RecordInvoiceFailed':
        return decideBilling(command, open(state), actor);
      default:
        return assertNever(command);
    }
  },
};

const DAY_MS = 86_400_000;

function assessContribution(account: OpenAccountState, percent: number, now: Date): AccountEvent[] {
  const { accountId, contributionWarning: warning, contributionLocked: locked } = account;
  if (percent >= MIN_CONTRIBUTION_PERCENT) {
    return warning || locked ? [{ type: 'AccountContributionRestored', data: { accountId, percent } }] : [];
  }
  if (!warning) {
    const expiresAt = new Date(now.getTime() + CONTRIBUTION_WARNING_DAYS * DAY_MS);
    return [
      {
        type: 'AccountContributionWarningIssued',
        data: { accountId, percent, issuedAt: now.toISOString(), expiresAt: expiresAt.toISOString() },
      },
    ];
  }
  if (locked) return [];
  const left = Date.parse(warning.expiresAt) - now.getTime();
  if (left <= 0) return [{ type: 'AccountContributionLocked', data: { accountId, percent } }];
  // Once per warning, when it expires within 3 days; not while overridden (nothing happens at expiry).
  if (!warning.reminded && !account.contributionOverride && left <= CONTRIBUTION_REMINDER_DAYS * DAY_MS) {
    const { issuedAt, expiresAt } = warning;
    return [
      { type: 'AccountContributionWarningReminded', data: { accountId, percent, issuedAt, expiresAt } },
    ];
  }
  return [];
}
