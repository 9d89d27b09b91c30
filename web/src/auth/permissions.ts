import type { SessionUser } from '@mrn/contracts/routes/auth';

/** Merchant subscriptions: an account admin whose account has them enabled and is on PRO (accounts §2). */
export const canUseMerchantSubscriptions = (
  user: Pick<SessionUser, 'is_admin' | 'account_merchant_subscription_enabled' | 'plan_level'>,
): boolean => user.is_admin && user.account_merchant_subscription_enabled && user.plan_level === 'PRO';
