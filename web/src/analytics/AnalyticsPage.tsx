import { Classes, H2 } from '@blueprintjs/core';
import { useSignedInUser } from '../auth/auth-context.ts';
import { useDocumentTitle } from '../ui/use-document-title.ts';
import { AnalyticsPanel } from './AnalyticsPanel.tsx';

/** /analytics: the signed-in member's account figures (a platform admin's: the whole network's). */
export function AnalyticsPage() {
  useDocumentTitle('Analytics');
  const user = useSignedInUser();
  return (
    <article className="mrn-page">
      <header className="mrn-page-header">
        <H2>Analytics</H2>
        <p className={Classes.TEXT_MUTED}>
          {user.is_dm_admin ? 'The whole network' : 'Your account'}, over the last 30 days (UTC days).
        </p>
      </header>
      <AnalyticsPanel accountId={null} />
    </article>
  );
}
