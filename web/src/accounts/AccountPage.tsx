import { Callout, Classes, H2, Intent } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useApiQuery } from '../api/hooks.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { useDocumentTitle } from '../ui/use-document-title.ts';
import { AccountTabs } from './AccountTabs.tsx';

/** /account: the own account for account administrators (accounts §2). */
export function AccountPage() {
  const user = useSignedInUser();
  useDocumentTitle('Account');
  const account = useApiQuery(
    routes.getAccount,
    { params: { id: user.account_resource_id } },
    { select: (answer) => answer.data, meta: { errorToast: true } },
  );

  return (
    <div className="mrn-page">
      <header className="mrn-page-header">
        <H2>Account</H2>
        <p className={Classes.TEXT_MUTED}>{user.account_name}</p>
      </header>
      {account.isPending && <PageSpinner label="Loading account" />}
      {account.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {account.error.message}
        </Callout>
      )}
      {account.data && <AccountTabs account={account.data} view="own" />}
    </div>
  );
}
