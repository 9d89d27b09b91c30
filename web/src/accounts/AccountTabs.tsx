import { Tab, Tabs } from '@blueprintjs/core';
import type { AccountView } from '@mrn/contracts';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { AnalyticsPanel } from '../analytics/AnalyticsPanel.tsx';
import { BillingPanel } from '../billing/BillingPanel.tsx';
import { ContributionPanel } from '../contribution/ContributionPanel.tsx';
import { LONG_SUCCESS_TOAST_MS, showSuccess } from '../ui/toaster.ts';
import { AccountSettingsPanel } from './AccountSettingsPanel.tsx';
import { MembershipPanel } from './MembershipPanel.tsx';
import { MembersPanel } from './MembersPanel.tsx';
import { SecurityPanel } from './SecurityPanel.tsx';
import { ACCOUNT_TABS, FUNDER_TABS, type TabId, tabFromUrl } from './tabs.ts';

function panel(id: TabId, account: AccountView, view: 'admin' | 'own') {
  switch (id) {
    case 'settings':
      return <AccountSettingsPanel account={account} view={view} />;
    case 'membership':
      return <MembershipPanel account={account} view={view} />;
    case 'members':
      return <MembersPanel account={account} view={view} />;
    case 'security':
      return <SecurityPanel account={account} />;
    case 'billing':
      return <BillingPanel account={account} view={view} />;
    case 'contribution':
      return <ContributionPanel accountId={account.id} />;
    case 'analytics':
      return <AnalyticsPanel accountId={account.id} />;
  }
}

export const PAYMENT_METHOD_UPDATED = 'Your payment method has been updated.';

/** The tabs of /funders/{id} (admin view) and /account (own view), the open tab kept in the URL. */
export function AccountTabs({ account, view }: { account: AccountView; view: 'admin' | 'own' }) {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const tabs = view === 'admin' ? FUNDER_TABS : ACCOUNT_TABS;
  const selected = tabFromUrl(tabs, search, hash);

  // Back from the card payment provider's portal (accounts §2, §8).
  useEffect(() => {
    if (hash !== '#billing_updated') return;
    showSuccess(PAYMENT_METHOD_UPDATED, { timeoutMs: LONG_SUCCESS_TOAST_MS });
    navigate(`${pathname}?tab=billing`, { replace: true });
  }, [hash, pathname, navigate]);

  return (
    <Tabs
      id={`${view}-account-tabs`}
      className="mrn-account-tabs"
      selectedTabId={selected}
      onChange={(next) => navigate(`${pathname}?tab=${String(next)}`, { replace: true })}
      renderActiveTabPanelOnly
      size="large"
      // The sliding indicator is measured once and lands outside the page when the tabs wrap on a
      // phone (the page grew to 500 px at 390); the selected tab's own underline wraps with it.
      animate={false}
    >
      {tabs.map((tab) => (
        <Tab key={tab.id} id={tab.id} title={tab.title} panel={panel(tab.id, account, view)} />
      ))}
    </Tabs>
  );
}
