import { type AccountView, routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { ApiError } from '../api/api-error.ts';
import { useApiMutation } from '../api/hooks.ts';
import { invalidateAccountData } from '../api/invalidate.ts';
import { showError, showSuccess } from '../ui/toaster.ts';

type Funder = Pick<AccountView, 'resource_id' | 'can_access_api' | 'mfa_required'>;

/** The platform administrator's funder switches and actions, shared by the list and the detail page. */
export function useFunderActions({ onArchived }: { onArchived?: () => void } = {}) {
  const queryClient = useQueryClient();
  const handlers = (success: string | (() => string), after?: () => void) => ({
    onSuccess: () => {
      showSuccess(typeof success === 'function' ? success() : success);
      after?.();
      void invalidateAccountData(queryClient);
    },
    onError: (error: ApiError) => {
      if (error.status !== 401) showError(error.message);
    },
  });
  const grantApi = useApiMutation(routes.grantAccountApiAccess, handlers('API access has been granted.'));
  const revokeApi = useApiMutation(routes.revokeAccountApiAccess, handlers('API access has been revoked.'));
  // The toast names the new state: the switch showed the old one when it was flipped.
  const mfaWasRequired = useRef(false);
  const toggleMfa = useApiMutation(
    routes.toggleAccountMfaRequired,
    handlers(() =>
      mfaWasRequired.current
        ? 'Multi-factor authentication is no longer required.'
        : 'Multi-factor authentication is now required.',
    ),
  );
  const archive = useApiMutation(routes.archiveAccount, handlers('Funder has been archived.', onArchived));
  const startTrial = useApiMutation(routes.startTrial, handlers('Trial has been started.'));
  const cancelTrial = useApiMutation(routes.cancelTrial, handlers('Trial has been cancelled.'));

  const busyOn = (mutation: { isPending: boolean; variables?: { params?: { id: string } } }, id: string) =>
    mutation.isPending && mutation.variables?.params?.id === id;

  return {
    toggleApi: (f: Funder) =>
      (f.can_access_api ? revokeApi : grantApi).mutate({ params: { id: f.resource_id } }),
    apiBusy: (id: string) => busyOn(grantApi, id) || busyOn(revokeApi, id),
    toggleMfa: (f: Funder) => {
      mfaWasRequired.current = f.mfa_required;
      toggleMfa.mutate({ params: { id: f.resource_id } });
    },
    mfaBusy: (id: string) => busyOn(toggleMfa, id),
    archive: (id: string) => archive.mutate({ params: { id } }),
    archiveBusy: (id: string) => busyOn(archive, id),
    startTrial: (id: string) => startTrial.mutate({ params: { id } }),
    cancelTrial: (id: string) => cancelTrial.mutate({ params: { id } }),
    trialBusy: (id: string) => busyOn(startTrial, id) || busyOn(cancelTrial, id),
  };
}
