import { Card, H4 } from '@blueprintjs/core';
import { type AccountView, routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiMutation } from '../api/hooks.ts';
import { invalidateAccountData } from '../api/invalidate.ts';
import { showError, showSuccess } from '../ui/toaster.ts';
import { AccountInfoForm, accountBody, accountInfoValues } from './AccountInfoForm.tsx';
import { accountSaveErrors } from './member-errors.ts';
import type { AccountInfoValues, Errors } from './validation.ts';

/** Funder Settings (platform admin) or Settings (own account): the Funder/Account Info form. */
export function AccountSettingsPanel({ account, view }: { account: AccountView; view: 'admin' | 'own' }) {
  const queryClient = useQueryClient();
  const [serverErrors, setServerErrors] = useState<Errors<keyof AccountInfoValues>>({});
  const update = useApiMutation(routes.updateAccount, {
    onSuccess: () => {
      showSuccess(view === 'admin' ? 'Funder has been updated.' : 'Account has been updated.');
      void invalidateAccountData(queryClient);
    },
    onError: (error) => {
      const fields = accountSaveErrors(error);
      if (fields) setServerErrors(fields);
      if (error.status !== 401) showError(error.message);
    },
  });

  return (
    <Card elevation={1}>
      <H4>{view === 'admin' ? 'Funder Info' : 'Account Info'}</H4>
      <AccountInfoForm
        key={account.resource_id}
        idPrefix="account-info"
        initial={accountInfoValues(account)}
        subscriptionSettings={account.plan_level === 'PRO'}
        canEnableSubscriptions={view === 'admin'}
        saving={update.isPending}
        readOnly={account.archived_at !== null}
        serverErrors={serverErrors}
        onSubmit={(values) => {
          setServerErrors({});
          update.mutate({ params: { id: account.resource_id }, body: { account: accountBody(values) } });
        }}
      />
    </Card>
  );
}
