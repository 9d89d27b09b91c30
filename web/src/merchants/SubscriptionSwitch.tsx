import { Switch } from '@blueprintjs/core';
import { type MerchantView, routes, SUBSCRIPTION_TEXTS } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/api-error.ts';
import { call } from '../api/client.ts';
import { invalidateApiPaths } from '../api/invalidate.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { canUseMerchantSubscriptions } from '../auth/permissions.ts';
import { PRODUCT_NAME } from '../product.ts';
import { showError, showSuccess } from '../ui/toaster.ts';

/**
 * "Subscription Enabled" on a merchant page, for admins whose account may use merchant subscriptions:
 * each change is the spec's toggle call (GET /merchants/{id}/toggle_subscription), which watches the
 * merchant's EIN or stops and answers the new state, shown at once.
 */
export function SubscriptionSwitch({
  merchant,
}: {
  merchant: Pick<MerchantView, 'resource_id' | 'fein' | 'has_merchant_subscription'>;
}) {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  // What was last set here, until the merchant is read again.
  const [override, setOverride] = useState<{ from: boolean; to: boolean } | null>(null);
  if (!canUseMerchantSubscriptions(user)) return null;
  const checked =
    override && override.from === merchant.has_merchant_subscription
      ? override.to
      : merchant.has_merchant_subscription;

  const toggle = async () => {
    setBusy(true);
    try {
      const answer = await call(routes.toggleMerchantSubscription, { params: { id: merchant.resource_id } });
      const on = answer.data.has_merchant_subscription;
      showSuccess(
        answer.message || (on ? SUBSCRIPTION_TEXTS.added(PRODUCT_NAME) : SUBSCRIPTION_TEXTS.deleted),
      );
      setOverride({ from: merchant.has_merchant_subscription, to: on });
      void invalidateApiPaths(queryClient, [
        routes.listMerchantSubscriptions.path,
        '/api/merchants',
        '/api/search',
      ]);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401))
        showError(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Switch
      className="mrn-subscription-switch"
      label="Subscription Enabled"
      checked={checked}
      disabled={busy}
      onChange={() => void toggle()}
    />
  );
}
