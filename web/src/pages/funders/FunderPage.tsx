import { Button, Callout, Classes, H2, Intent, NonIdealState, Tag } from '@blueprintjs/core';
import { billingStateOf, routes } from '@mrn/contracts';
import { useNavigate, useParams } from 'react-router-dom';
import { AccountTabs } from '../../accounts/AccountTabs.tsx';
import { useApiQuery } from '../../api/hooks.ts';
import { BillingStateTag } from '../../billing/BillingState.tsx';
import { PATHS } from '../../routing/paths.ts';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';

/** /funders/{id}: one funder for platform administrators (accounts §2). */
export function FunderPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const funder = useApiQuery(
    routes.getAccount,
    { params: { id } },
    { select: (answer) => answer.data, meta: { errorToast: true, quietStatuses: [404, 400] } },
  );
  useDocumentTitle(funder.data?.name ?? 'Funder');

  const back = (
    <Button icon="arrow-left" variant="minimal" text="Funders" onClick={() => navigate(PATHS.funders)} />
  );
  if (funder.isPending) return <PageSpinner label="Loading funder" />;
  if (funder.isError)
    return funder.error.status === 404 || funder.error.status === 400 ? (
      <NonIdealState icon="search" title="Funder not found" action={back} />
    ) : (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {funder.error.message}
      </Callout>
    );
  const account = funder.data;

  return (
    <div className="mrn-page">
      <header className="mrn-page-header mrn-header-row">
        <div>
          <H2>{account.name}</H2>
          <p className={Classes.TEXT_MUTED}>
            <span className="mrn-tag-row">
              <Tag minimal intent={account.plan_level === 'PRO' ? Intent.PRIMARY : Intent.NONE}>
                {account.plan_level}
              </Tag>
              <BillingStateTag minimal state={billingStateOf(account)} />
              {account.archived_at && (
                <Tag minimal intent={Intent.DANGER}>
                  Archived
                </Tag>
              )}
            </span>
          </p>
        </div>
        {back}
      </header>
      {account.archived_at && (
        <Callout intent={Intent.WARNING} icon="archive">
          This funder is archived: its members cannot sign in and its settings are read-only.
        </Callout>
      )}
      <AccountTabs account={account} view="admin" />
    </div>
  );
}
