import { hasActiveMembership, type SessionUser } from '@mrn/contracts';
import type { OpenAccountState } from '../domain/account/account.ts';
import type { ActiveUser } from '../domain/user/user.ts';

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
    mfa_required: false,
    mfa_enabled: false,
    mfa_verified: extra.mfaVerified,
    active_membership: account.isPlatform || hasActiveMembership(account.membershipStatus),
    agreed_to_terms: user.agreedToTermsAt,
    plan_level: account.planLevel,
    account_merchant_subscription_enabled: false,
    account_merchant_subscription_notification_email: null,
    account_merchant_subscription_notification_webhook_url: null,
    account_total_ninety_days_contribution_percentage: extra.contributionPercent,
  };
}
