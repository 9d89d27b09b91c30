import { type SessionUser, seesProData } from '@mrn/contracts';

/** Merchant subscriptions: an account admin whose account has them enabled and is on PRO (accounts §2). */
export const canUseMerchantSubscriptions = (
  user: Pick<SessionUser, 'is_admin' | 'account_merchant_subscription_enabled' | 'plan_level'>,
): boolean => user.is_admin && user.account_merchant_subscription_enabled && user.plan_level === 'PRO';

/**
 * What the merchant subscription pages show a member: the pages (`use`); what the feature is and how to
 * get it (`explain`: an account admin whose account cannot use them yet, and any member of a BASIC
 * account, who learns what PRO gives and that their account administrators can upgrade, issue 32); or
 * the no-access message (`refuse`: a member of a PRO account, where they are the administrators' tool).
 */
export function merchantSubscriptionsAccess(
  user: Pick<SessionUser, 'is_admin' | 'account_merchant_subscription_enabled' | 'plan_level'>,
): 'use' | 'explain' | 'refuse' {
  if (canUseMerchantSubscriptions(user)) return 'use';
  return user.is_admin || user.plan_level !== 'PRO' ? 'explain' : 'refuse';
}

/** PRO features (search history, submission source): PRO accounts and platform administrators (core §6). */
export const hasProFeatures = (user: Pick<SessionUser, 'plan_level' | 'is_dm_admin'>): boolean =>
  seesProData({ planLevel: user.plan_level, isPlatformAdmin: user.is_dm_admin });

/** Editing a merchant: platform administrators and members of the funder that added it. */
export const mayEditMerchant = (
  user: Pick<SessionUser, 'account_resource_id' | 'is_dm_admin'>,
  merchant: { added_by_account_id: string | null },
): boolean => user.is_dm_admin || user.account_resource_id === merchant.added_by_account_id;
