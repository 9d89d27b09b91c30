import { routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import type { ApiError } from '../api/api-error.ts';
import { call } from '../api/client.ts';
import { useApiMutation } from '../api/hooks.ts';
import { useAuth, useSignedInUser } from '../auth/auth-context.ts';
import { LONG_SUCCESS_TOAST_MS, showError, showSuccess } from '../ui/toaster.ts';
import { PLAN_CHANGES, type PlanChange } from './PlanChangeDialog.tsx';
import { invalidateBillingData } from './queries.ts';

export const MEMBERSHIP_CANCELLED = 'Membership has been cancelled.';

/**
 * Upgrade, downgrade and cancel a paid membership (accounts spec §4, §7). In the own view the session
 * user follows a plan change at once (the PRO badge), and cancelling signs out to /login, the server
 * having ended the session; a platform administrator on a funder's page stays there.
 */
export function useMembershipChanges(
  accountId: string,
  view: 'admin' | 'own',
  { onChanged }: { onChanged?: () => void } = {},
) {
  const user = useSignedInUser();
  const { updateUser, logout } = useAuth();
  const queryClient = useQueryClient();
  const own = view === 'own';

  const onError = (error: ApiError) => {
    if (error.status !== 401) showError(error.message);
  };
  const refreshSessionUser = async () => {
    const fresh = await call(routes.dashboardUpdates, { body: { resource_id: user.resource_id } }).catch(
      () => null,
    );
    if (fresh) updateUser(fresh.data.user);
  };
  const changed = (change: PlanChange) => async () => {
    showSuccess(PLAN_CHANGES[change].done, { timeoutMs: LONG_SUCCESS_TOAST_MS });
    onChanged?.();
    await Promise.all([invalidateBillingData(queryClient), own ? refreshSessionUser() : undefined]);
  };

  const upgrade = useApiMutation(routes.upgradeSubscription, { onSuccess: changed('upgrade'), onError });
  const downgrade = useApiMutation(routes.downgradeSubscription, {
    onSuccess: changed('downgrade'),
    onError,
  });
  const cancel = useApiMutation(routes.cancelSubscription, {
    onSuccess: async () => {
      showSuccess(MEMBERSHIP_CANCELLED, { timeoutMs: LONG_SUCCESS_TOAST_MS });
      onChanged?.();
      if (own) {
        // The server ended this session with the membership: leave through the usual sign-out.
        await logout();
        return;
      }
      await invalidateBillingData(queryClient);
    },
    onError,
  });

  const params = { params: { id: accountId } };
  return {
    changePlan: (change: PlanChange) => (change === 'upgrade' ? upgrade : downgrade).mutate(params),
    planChangeBusy: upgrade.isPending || downgrade.isPending,
    cancel: () => cancel.mutate(params),
    cancelBusy: cancel.isPending,
  };
}
