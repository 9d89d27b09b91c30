import { Switch } from '@blueprintjs/core';
import { routes } from '@mrn/contracts/routes/index';
import { SUBSCRIPTION_TEXTS } from '@mrn/contracts/routes/merchant-subscriptions';
import type { MerchantView } from '@mrn/contracts/routes/merchants';
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
 * on adds the merchant's EIN to the account's subscriptions, off deletes that subscription.
 */
export function SubscriptionSwitch({
  merchant,
}: {
  merchant: Pick<MerchantView, 'fein' | 'has_merchant_subscription'>;
}) {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  // What was last set here, until the merchant is read again.
  const [override, setOverride] = useState<{ from: boolean; to: boolean } | null>(null);
  if (!canUseMerchantSubscriptions(user)) return null;
  const accountId = user.account_resource_id;
  const checked =
    override && override.from === merchant.has_merchant_subscription
      ? override.to
      : merchant.has_merchant_subscription;

  const change = async (on: boolean) => {
    setBusy(true);
    try {
      if (on) {
        const answer = await call(routes.addMerchantSubscription, {
          params: { id: accountId },
          body: { merchant_subscription: { fein: merchant.fein } },
        });
        showSuccess(answer.message || SUBSCRIPTION_TEXTS.added(PRODUCT_NAME));
      } else {
        const found = await call(routes.listMerchantSubscriptions, {
          params: { id: accountId },
          query: { page: 1, per_page: 25, search: merchant.fein },
        });
        const ids = found.data.filter((s) => s.fein === merchant.fein).map((s) => s.id);
        if (ids.length > 0)
          await call(routes.deleteSelectedMerchantSubscriptions, {
            params: { account_id: accountId },
            body: { merchant_subscription_ids: ids, page: 1, per_page: 25 },
          });
        showSuccess(SUBSCRIPTION_TEXTS.deleted);
      }
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
      onChange={(event) => void change(event.currentTarget.checked)}
    />
  );
}
