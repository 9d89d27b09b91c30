import { hasActiveMembership, type SessionUser } from '@mrn/contracts';
import type { OpenAccountState } from '../accounts/account.ts';
import type { ActiveUser } from '../users/user.ts';

type OpenAccount = OpenAccountState;

/** The session user of core spec §3, from the user's and account's event-sourced states. */
export function toSessionUser(
  user: ActiveUser,
  account: OpenAccount,
  extra: { contributionPercent: number; mfaVerified: boolean },
): SessionUser {
  return {
    resource_id: user.userId,
    account_resource_id: account.accountId,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    account_name: account.name,
    is_admin: user.isAdmin,
    is_dm_admin: user.isDmAdmin,
    mfa_required: mfaRequiredFor(user, account),
    mfa_enabled: user.mfaSecret !== null,
    mfa_verified: extra.mfaVerified,
    active_membership: account.isPlatform || hasActiveMembership(account.membershipStatus),
    agreed_to_terms: user.agreedToTermsAt,
    plan_level: account.planLevel,
    account_merchant_subscription_enabled: account.merchantSubscriptionEnabled,
    account_merchant_subscription_notification_email: account.merchantSubscriptionNotificationEmail,
    account_merchant_subscription_notification_webhook_url: account.merchantSubscriptionNotificationWebhook,
    account_total_ninety_days_contribution_percentage: extra.contributionPercent,
  };
}

/** MFA is required per member or for the whole account (DESIGN §5). */
export const mfaRequiredFor = (user: ActiveUser, account: OpenAccount): boolean =>
  user.mfaRequired || account.mfaRequired;
