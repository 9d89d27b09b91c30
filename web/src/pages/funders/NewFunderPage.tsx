import { Button, Card, H2, H4 } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AccountInfoForm, accountBody, accountInfoValues } from '../../accounts/AccountInfoForm.tsx';
import { accountSaveErrors } from '../../accounts/member-errors.ts';
import type { AccountInfoValues, Errors } from '../../accounts/validation.ts';
import { useApiMutation } from '../../api/hooks.ts';
import { idempotencyKeys } from '../../api/idempotency.ts';
import { invalidateAccountData } from '../../api/invalidate.ts';
import { funderPath, PATHS } from '../../routing/paths.ts';
import { showError, showSuccess } from '../../ui/toaster.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';

/** /funders/new: Funder Info, then the new funder's page (accounts §2). */
export function NewFunderPage() {
  useDocumentTitle('Add Funder');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [serverErrors, setServerErrors] = useState<Errors<keyof AccountInfoValues>>({});
  const keyFor = useRef(idempotencyKeys()).current;
  const create = useApiMutation(routes.createAccount, {
    onSuccess: (answer) => {
      showSuccess('Funder has been created.');
      void invalidateAccountData(queryClient);
      navigate(funderPath(answer.data.resource_id));
    },
    onError: (error) => {
      const fields = accountSaveErrors(error);
      if (fields) setServerErrors(fields);
      if (error.status !== 401) showError(error.message);
    },
  });

  return (
    <div className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header mrn-header-row">
        <H2>Add Funder</H2>
        <Button icon="arrow-left" variant="minimal" text="Funders" onClick={() => navigate(PATHS.funders)} />
      </header>
      <Card elevation={1}>
        <H4>Funder Info</H4>
        <AccountInfoForm
          idPrefix="new-funder"
          initial={accountInfoValues()}
          subscriptionSettings={false}
          canEnableSubscriptions={false}
          saving={create.isPending}
          serverErrors={serverErrors}
          autoFocus
          onSubmit={(values) => {
            setServerErrors({});
            const body = { account: accountBody(values) };
            create.mutate({ body, headers: { 'Idempotency-Key': keyFor(body) } });
          }}
        />
      </Card>
    </div>
  );
}
