import { Drawer, DrawerSize } from '@blueprintjs/core';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { useAuth } from '../auth/auth-context.ts';
import { pendingSessionStep } from '../auth/post-login-route.ts';
import { PaymentFailedBar } from '../billing/PaymentFailedBar.tsx';
import { ContributionBanner } from '../contribution/ContributionBanner.tsx';
import { PRODUCT_NAME } from '../product.ts';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { Footer } from './Footer.tsx';
import { NavigationProgress } from './NavigationProgress.tsx';
import { Sidebar } from './Sidebar.tsx';
import { TOP_SEARCH_ID, TopBar } from './TopBar.tsx';

/** The first thing Tab reaches: straight to the merchant search (or the page on a phone), past the bars. */
function SkipLinks({ search }: { search: boolean }) {
  const focus = (id: string) => () => document.getElementById(id)?.focus();
  return (
    <nav className="mrn-skip-links" aria-label="Skip links">
      {search && (
        <button type="button" className="mrn-skip-link mrn-wide-only" onClick={focus(TOP_SEARCH_ID)}>
          Skip to merchant search
        </button>
      )}
      <button type="button" className="mrn-skip-link" onClick={focus('mrn-main')}>
        Skip to content
      </button>
    </nav>
  );
}

/** Top bar, sidebar (a drawer at phone width) and footer around every in-app page (core spec §2). */
export function MainLayout() {
  const { state } = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);
  // The sidebar and member tools appear once every sign-in step (MFA, membership, terms) is passed.
  const isMember = state.status === 'signed-in' && pendingSessionStep(state.user, state.bypassMfa) === null;

  return (
    <div className="mrn-shell">
      <NavigationProgress />
      <SkipLinks search={isMember} />
      <TopBar showMemberTools={isMember} onOpenMenu={() => setMenuOpen(true)} />
      <div className="mrn-body">
        {isMember && (
          <aside className="mrn-sidebar mrn-wide-only">
            <Sidebar />
          </aside>
        )}
        <div className="mrn-main-column">
          {isMember && state.user.is_admin && <PaymentFailedBar user={state.user} />}
          {isMember && <ContributionBanner user={state.user} />}
          <main className="mrn-content" id="mrn-main" tabIndex={-1}>
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          </main>
          <Footer />
        </div>
      </div>
      {isMember && (
        <Drawer
          isOpen={menuOpen}
          onClose={() => setMenuOpen(false)}
          position="left"
          size={DrawerSize.SMALL}
          title={PRODUCT_NAME}
          className="mrn-nav-drawer"
        >
          <div className="mrn-drawer-body">
            <Sidebar onNavigate={() => setMenuOpen(false)} />
          </div>
        </Drawer>
      )}
    </div>
  );
}
