import { Button, Card, Classes, H2, H4, Intent } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { useSignedInUser } from '../../auth/auth-context.ts';
import { MerchantSearchForm } from '../../merchants/MerchantSearchForm.tsx';
import { PATHS } from '../../routing/paths.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { AdminRecentNotesCard } from './AdminRecentNotesCard.tsx';
import { AppMessageBar } from './AppMessageBar.tsx';
import { AdminWidgets } from './admin-widgets/AdminWidgets.tsx';
import { ProIntroBanner } from './ProIntroBanner.tsx';
import { RecentSuspiciousActivityCard } from './RecentSuspiciousActivityCard.tsx';

/** /dashboard (with the PRO introduction for non-PRO accounts) and /dashboardold (without). */
export function DashboardPage({ withProIntroduction }: { withProIntroduction: boolean }) {
  const user = useSignedInUser();
  const navigate = useNavigate();
  useDocumentTitle('Dashboard');

  return (
    <div className="mrn-page">
      <header className="mrn-page-header">
        <H2>Welcome, {user.first_name}</H2>
        <p className={Classes.TEXT_MUTED}>{user.account_name}</p>
      </header>
      {withProIntroduction && user.plan_level !== 'PRO' && <ProIntroBanner />}
      <AppMessageBar />
      <Card className="mrn-card mrn-dashboard-search" elevation={1}>
        <H4>Merchant search</H4>
        <div className="mrn-dashboard-search-row">
          <MerchantSearchForm
            className="mrn-dashboard-search-form"
            size="large"
            placeholder="Search by full EIN or legal name"
          />
          <Button
            intent={Intent.PRIMARY}
            size="large"
            icon="plus"
            text="Add Merchant"
            onClick={() => navigate(PATHS.newMerchant)}
          />
        </div>
      </Card>
      <RecentSuspiciousActivityCard />
      {user.is_dm_admin && <AdminWidgets />}
      {user.is_dm_admin && <AdminRecentNotesCard />}
    </div>
  );
}
