import { checkWebhookUrl, invalid } from '@mrn/platform';

const FIELD = 'account.merchant_subscription_notification_webhook';

/**
 * A webhook address is refused when it is saved if it names (or resolves to) a private, loopback,
 * link-local, multicast or unspecified address (issue 11, no server-side request forgery). A host that
 * does not resolve now is accepted: the dispatcher checks the resolved address again on every
 * connection, which also defeats DNS rebinding.
 */
export async function assertSafeWebhookUrl(url: string | null, allowLoopback: boolean): Promise<void> {
  if (!url) return;
  const check = await checkWebhookUrl(url, { allowLoopback });
  if (check.ok || check.reason === 'names a host that cannot be resolved') return;
  const message = `Merchant Subscription Notification Webhook ${check.reason}`;
  throw invalid(message, { fields: [{ field: FIELD, message: check.reason }] });
}
