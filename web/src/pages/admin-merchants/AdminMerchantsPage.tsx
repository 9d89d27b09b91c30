import { Button, H2, Intent, Tab, Tabs } from '@blueprintjs/core';
import { useLocation, useNavigate } from 'react-router-dom';
import { newMerchantPath, PATHS } from '../../routing/paths.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { DeletedMerchantsTab } from './DeletedMerchantsTab.tsx';
import { MerchantsTab } from './MerchantsTab.tsx';
import { ReportedNotesTab } from './ReportedNotesTab.tsx';

type AdminTab = 'merchants' | 'deleted' | 'reported';

const TAB_PATHS: Record<AdminTab, string> = {
  merchants: PATHS.merchants,
  deleted: PATHS.deletedMerchants,
  reported: `${PATHS.merchants}?tab=reported`,
};
const TITLES: Record<AdminTab, string> = {
  merchants: 'Merchants',
  deleted: 'Deleted Merchants',
  reported: 'Reported Notes',
};

const tabOf = (pathname: string, search: string): AdminTab => {
  if (pathname.startsWith(PATHS.deletedMerchants)) return 'deleted';
  return new URLSearchParams(search).get('tab') === 'reported' ? 'reported' : 'merchants';
};

/** Platform administrators: /merchants (Merchants, Reported Notes) and /deleted-merchants (core spec §2). */
export function AdminMerchantsPage() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const tab = tabOf(pathname, search);
  useDocumentTitle(TITLES[tab]);

  return (
    <div className="mrn-page">
      <header className="mrn-page-header mrn-header-row">
        <H2>Merchants</H2>
        <Button
          intent={Intent.PRIMARY}
          icon="plus"
          text="Add Merchant"
          onClick={() => navigate(newMerchantPath())}
        />
      </header>
      <Tabs
        id="admin-merchant-tabs"
        className="mrn-admin-merchant-tabs"
        selectedTabId={tab}
        onChange={(next) => navigate(TAB_PATHS[next as AdminTab])}
        size="large"
        renderActiveTabPanelOnly
        // The tabs wrap on a phone; the sliding indicator, measured once, would land outside the page
        // (AccountTabs); the selected tab's own underline wraps with it.
        animate={false}
      >
        <Tab id="merchants" title="Merchants" panel={<MerchantsTab />} />
        <Tab id="deleted" title="Deleted Merchants" panel={<DeletedMerchantsTab />} />
        <Tab id="reported" title="Reported Notes" panel={<ReportedNotesTab />} />
      </Tabs>
    </div>
  );
}
