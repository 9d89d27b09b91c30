import { Callout, H2, Intent, Tab, Tabs } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useApiQuery } from '../api/hooks.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { PATHS } from '../routing/paths.ts';
import { useDocumentTitle } from '../ui/use-document-title.ts';
import { SubscriptionsTab } from './SubscriptionsTab.tsx';
import { UploadsTab } from './UploadsTab.tsx';
import { WebhookLogsTab } from './WebhookLogsTab.tsx';

const TABS = [
  { path: PATHS.merchantSubscriptions, title: 'Merchant Subscriptions' },
  { path: PATHS.merchantSubscriptionImports, title: 'Uploads' },
  { path: PATHS.merchantSubscriptionWebhookLogs, title: 'Webhook Logs' },
] as const;
type TabPath = (typeof TABS)[number]['path'];

/** Configuration Missing (accounts §2): neither a notification e-mail nor a webhook URL is set. */
function ConfigurationMissing() {
  const user = useSignedInUser();
  const account = useApiQuery(
    routes.getAccount,
    { params: { id: user.account_resource_id } },
    { select: (answer) => answer.data },
  );
  const email = account.data
    ? account.data.merchant_subscription_notification_email
    : user.account_merchant_subscription_notification_email;
  const webhook = account.data
    ? account.data.merchant_subscription_notification_webhook
    : user.account_merchant_subscription_notification_webhook_url;
  if (email || webhook) return null;
  return (
    <Callout
      intent={Intent.WARNING}
      icon="warning-sign"
      title="Configuration Missing"
      className="mrn-subs-callout"
    >
      You will not receive notifications from your merchant subscriptions until you configure a Subscription
      Notification Email or Subscription Notification Webhook URL in your{' '}
      <Link to={`${PATHS.account}?tab=settings`}>Account settings</Link>.
    </Callout>
  );
}

/**
 * /merchant_subscriptions, /merchant_subscription_imports and /merchant_subscription_webhook_logs: one
 * page, three tabs, the tab taken from the path (accounts §2).
 */
export function MerchantSubscriptionsPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const selected: TabPath = TABS.find((t) => t.path === pathname)?.path ?? PATHS.merchantSubscriptions;
  const title = TABS.find((t) => t.path === selected)?.title ?? 'Merchant Subscriptions';
  useDocumentTitle(title);

  return (
    <div className="mrn-page mrn-subs-page">
      <header className="mrn-page-header">
        <H2>Merchant Subscriptions</H2>
      </header>
      <ConfigurationMissing />
      <Tabs
        id="merchant-subscription-tabs"
        className="mrn-subs-tabs"
        selectedTabId={selected}
        onChange={(next) => navigate(String(next))}
        renderActiveTabPanelOnly
        size="large"
        // The sliding indicator is measured once and lands outside the page when the tabs wrap on a
        // phone; the selected tab's own underline wraps with it.
        animate={false}
      >
        <Tab
          id={PATHS.merchantSubscriptions}
          title="Merchant Subscriptions"
          panel={<SubscriptionsTab onUploaded={() => navigate(PATHS.merchantSubscriptionImports)} />}
        />
        <Tab id={PATHS.merchantSubscriptionImports} title="Uploads" panel={<UploadsTab />} />
        <Tab id={PATHS.merchantSubscriptionWebhookLogs} title="Webhook Logs" panel={<WebhookLogsTab />} />
      </Tabs>
    </div>
  );
}
