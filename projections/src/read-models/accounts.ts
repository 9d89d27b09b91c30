import { alertSettingsOf, type EventData, type MembershipEndedReason, watchSettingsOf } from '@mrn/contracts';
import { projector } from '../projector.ts';

/** AccountView.membership_ended_reason of a cancellation (contracts/src/domain/billing-state.ts). */
function endedReasonOf(d: EventData<'AccountMembershipCanceled'>): MembershipEndedReason {
  if (d.reason === 'requested' || d.reason === 'unpaid') return d.reason;
  return d.afterFailedPayment ? 'provider_payment_failed' : 'provider';
}

export const accountsProjector = projector({
  name: 'accounts',
  tables: ['read.accounts'],
  handlers: {
    AccountOpened: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `insert into read.accounts (id, name, website, primary_contact_email, plan_level, membership_status, is_platform, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          d.accountId,
          d.name,
          d.website,
          d.primaryContactEmail,
          d.planLevel,
          d.membershipStatus,
          d.isPlatform,
          e.recordedAt,
        ],
      );
    },
    AccountUpdated: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `update read.accounts set name = $2, website = $3, primary_contact_email = $4, merchant_subscription_enabled = $5,
           merchant_subscription_notification_email = $6, merchant_subscription_notification_webhook = $7,
           watch_searched_merchants = $8, watch_searched_months = $9, shopped_alert_threshold = $10,
           webhook_event_types = $11 where id = $1`,
        [
          d.accountId,
          d.name,
          d.website,
          d.primaryContactEmail,
          d.merchantSubscriptionEnabled,
          d.merchantSubscriptionNotificationEmail,
          d.merchantSubscriptionNotificationWebhook,
          watchSettingsOf(d).watchSearchedMerchants,
          watchSettingsOf(d).watchSearchedMonths,
          alertSettingsOf(d).shoppedAlertThreshold,
          alertSettingsOf(d).webhookEventTypes,
        ],
      );
    },
    AccountArchived: async (tx, e) => {
      await tx.query('update read.accounts set archived_at = $2 where id = $1', [
        e.data.accountId,
        e.recordedAt,
      ]);
    },
    AccountApiAccessGranted: async (tx, e) => {
      await tx.query('update read.accounts set can_access_api = true, api_granted_at = $2 where id = $1', [
        e.data.accountId,
        e.recordedAt,
      ]);
    },
    AccountApiAccessRevoked: async (tx, e) => {
      await tx.query('update read.accounts set can_access_api = false, api_revoked_at = $2 where id = $1', [
        e.data.accountId,
        e.recordedAt,
      ]);
    },
    AccountTrialStarted: async (tx, e) => {
      await tx.query(
        `update read.accounts set membership_status = 'trialing', trial_started_at = $2 where id = $1`,
        [e.data.accountId, e.recordedAt],
      );
    },
    AccountTrialCanceled: async (tx, e) => {
      await tx.query(
        `update read.accounts set membership_status = 'canceled', membership_ended_reason = 'trial_canceled',
           membership_ended_at = $2 where id = $1`,
        [e.data.accountId, e.recordedAt],
      );
    },
    AccountContributionWarningIssued: async (tx, e) => {
      await tx.query(
        `update read.accounts set contribution_warning_date = $2, contribution_warning_expire_date = $3
         where id = $1`,
        [e.data.accountId, e.data.issuedAt, e.data.expiresAt],
      );
    },
    AccountContributionLocked: async (tx, e) => {
      await tx.query('update read.accounts set contribution_locked = true where id = $1', [e.data.accountId]);
    },
    AccountContributionRestored: async (tx, e) => {
      await tx.query(
        `update read.accounts set contribution_locked = false, contribution_warning_date = null,
           contribution_warning_expire_date = null where id = $1`,
        [e.data.accountId],
      );
    },
    AccountContributionOverrideChanged: async (tx, e) => {
      await tx.query('update read.accounts set contribution_override = $2 where id = $1', [
        e.data.accountId,
        e.data.override,
      ]);
    },
    AccountMembershipStarted: async (tx, e) => {
      await tx.query(
        `update read.accounts set plan_level = $2, membership_status = 'active', current_period_end = $3,
           payment_failed = false, next_payment_attempt = null, billed = true, membership_ended_reason = null,
           membership_ended_at = null where id = $1`,
        [e.data.accountId, e.data.planLevel, e.data.currentPeriodEnd],
      );
    },
    AccountMembershipReinstated: async (tx, e) => {
      await tx.query(
        `update read.accounts set plan_level = $2, membership_status = 'active',
           current_period_end = coalesce($3, current_period_end), payment_failed = false,
           next_payment_attempt = null, billed = true, membership_ended_reason = null,
           membership_ended_at = null where id = $1`,
        [e.data.accountId, e.data.planLevel, e.data.currentPeriodEnd],
      );
    },
    AccountPlanChanged: async (tx, e) => {
      await tx.query('update read.accounts set plan_level = $2 where id = $1', [
        e.data.accountId,
        e.data.planLevel,
      ]);
    },
    AccountMembershipCanceled: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `update read.accounts set membership_status = 'canceled', payment_failed = false, next_payment_attempt = null,
           billed = false, membership_ended_reason = $2, membership_ended_at = $3 where id = $1`,
        [d.accountId, endedReasonOf(d), d.providerEndedAt ?? e.recordedAt],
      );
    },
    AccountRenewalPaid: async (tx, e) => {
      await tx.query(
        `update read.accounts set current_period_end = coalesce($2, current_period_end), payment_failed = false,
           next_payment_attempt = null where id = $1`,
        [e.data.accountId, e.data.currentPeriodEnd],
      );
    },
    AccountRenewalFailed: async (tx, e) => {
      await tx.query(
        'update read.accounts set payment_failed = true, next_payment_attempt = $2 where id = $1',
        [e.data.accountId, e.data.nextPaymentAttempt],
      );
    },
    AccountMfaRequiredChanged: async (tx, e) => {
      await tx.query('update read.accounts set mfa_required = $2 where id = $1', [
        e.data.accountId,
        e.data.mfaRequired,
      ]);
    },
  },
  // Contribution counters: one statement per batch, after the account rows above exist.
  bulk: {
    order: ['MerchantAdded', 'NoteAdded'],
    handlers: {
      MerchantAdded: async (tx, events) => {
        await tx.query(
          `update read.accounts a set merchants_added = a.merchants_added + r.n,
             last_merchant_added_at = greatest(a.last_merchant_added_at, r.last_at)
           from (select "accountId" as id, count(*)::int as n, max(at) as last_at
                   from json_to_recordset($1::json) as x("accountId" uuid, at timestamptz) group by "accountId") r
           where a.id = r.id`,
          [JSON.stringify(events.map((e) => ({ accountId: e.data.accountId, at: e.recordedAt })))],
        );
      },
      NoteAdded: async (tx, events) => {
        await tx.query(
          `update read.accounts a set notes_added = a.notes_added + r.n
           from (select "accountId" as id, count(*)::int as n
                   from json_to_recordset($1::json) as x("accountId" uuid) group by "accountId") r
           where a.id = r.id`,
          [JSON.stringify(events.map((e) => ({ accountId: e.data.accountId })))],
        );
      },
    },
  },
});
