import { Classes, H2 } from '@blueprintjs/core';
import { useSignedInUser } from '../auth/auth-context.ts';
import { useDocumentTitle } from '../ui/use-document-title.ts';
import { ContributionPanel } from './ContributionPanel.tsx';

/**
 * /contribution: the signed-in member's funder's contribution, for every member (accounts spec §6);
 * read-only but for its admins' Recalculate. The banner and the top bar's figure lead here.
 */
export function ContributionPage() {
  useDocumentTitle('Contribution');
  const user = useSignedInUser();
  return (
    <article className="mrn-page">
      <header className="mrn-page-header">
        <H2>Contribution</H2>
        <p className={Classes.TEXT_MUTED}>{user.account_name}</p>
      </header>
      <ContributionPanel accountId={user.account_resource_id} />
    </article>
  );
}
