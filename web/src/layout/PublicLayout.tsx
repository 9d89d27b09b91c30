import { Classes } from '@blueprintjs/core';
import { MESSAGES } from '@mrn/contracts';
import { Suspense } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { PATHS } from '../routing/paths.ts';
import { Logo } from '../ui/Logo.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';

/** A centred card for the sign-in and password screens. */
export function PublicLayout() {
  return (
    <div className="mrn-public">
      <header className="mrn-public-header">
        <Link to={PATHS.login} className="mrn-brand-link">
          <Logo />
        </Link>
      </header>
      <main className="mrn-public-main">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="mrn-public-footer">
        <nav className="mrn-footer-links" aria-label="Footer">
          <Link to={PATHS.termsOfUse}>Terms of Use</Link>
          <Link to={PATHS.privacyPolicy}>Privacy Policy</Link>
          <Link to={PATHS.disputeProcess}>Dispute Process</Link>
        </nav>
        <p className={Classes.TEXT_MUTED}>{MESSAGES.disclaimer}</p>
      </footer>
    </div>
  );
}
