import { Alert, Button, Intent } from '@blueprintjs/core';
import { routes, type ScreeningView } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/api-error.ts';
import { call } from '../api/client.ts';
import { invalidateApiPaths } from '../api/invalidate.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { LONG_SUCCESS_TOAST_MS, showError, showSuccess } from '../ui/toaster.ts';
import { merchantCount, watchBlockedReason, watchedText } from './screening.ts';

/**
 * "Watch all hits" (issue 32): every merchant the screening found added to the account's merchant
 * subscriptions in one step, after a confirmation; the toast says how many were added and how many were
 * watched already. For account admins whose account has subscriptions; others see why not, beside it.
 */
export function WatchAllHits({ view, reasonId }: { view: ScreeningView; reasonId: string }) {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const blocked = watchBlockedReason(user, view);

  const watch = async () => {
    setBusy(true);
    try {
      const hits = await call(routes.listScreeningHits, { params: { id: view.resource_id } });
      if (hits.data.length === 0) {
        showSuccess('This screening found no merchant to watch.');
        return;
      }
      const answer = await call(routes.addMerchantSubscriptions, {
        params: { id: user.account_resource_id },
        body: { feins: hits.data },
      });
      showSuccess(watchedText(answer.data), { timeoutMs: LONG_SUCCESS_TOAST_MS });
      // The watch list and the merchants' Subscription Enabled switches are stale.
      void invalidateApiPaths(queryClient, [routes.listMerchantSubscriptions.path, '/api/merchants']);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401))
        showError(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <>
      <Button
        icon="eye-open"
        text="Watch all hits"
        disabled={blocked !== null}
        loading={busy}
        aria-describedby={blocked ? reasonId : undefined}
        onClick={() => setConfirming(true)}
      />
      <Alert
        isOpen={confirming}
        intent={Intent.PRIMARY}
        icon="eye-open"
        confirmButtonText="Watch all hits"
        cancelButtonText="Cancel"
        loading={busy}
        canEscapeKeyCancel={!busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void watch()}
      >
        <p>
          Watch the {merchantCount(view.found)} this screening found? Your account is told (by e-mail or
          webhook, as set in your Account settings) when another funder reports one of them. EINs you already
          watch stay as they are.
        </p>
      </Alert>
    </>
  );
}
