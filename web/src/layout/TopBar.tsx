import { Alignment, Button, Navbar, NavbarDivider, NavbarGroup, NavbarHeading } from '@blueprintjs/core';
import { Link, useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/auth-context.ts';
import { PlanTag } from '../billing/PlanTag.tsx';
import { hasOwnContribution } from '../contribution/display.ts';
import { useOwnContribution } from '../contribution/queries.ts';
import { MerchantSearchForm } from '../merchants/MerchantSearchForm.tsx';
import { PATHS } from '../routing/paths.ts';
import { Logo } from '../ui/Logo.tsx';
import { ContributionIndicator } from './ContributionIndicator.tsx';

interface TopBarProps {
  /** Member navigation (search, add merchant, contribution) once every sign-in step is passed. */
  showMemberTools: boolean;
  onOpenMenu: () => void;
}

/** The top bar's search box, which the skip link reaches. */
export const TOP_SEARCH_ID = 'mrn-top-search';

export function TopBar({ showMemberTools, onOpenMenu }: TopBarProps) {
  const { state, logout, loggingOut } = useAuth();
  const navigate = useNavigate();
  const user = state.status === 'signed-in' ? state.user : null;
  const contribution = useOwnContribution(showMemberTools ? user : null);

  return (
    <Navbar className="mrn-topbar">
      <NavbarGroup align={Alignment.START}>
        {showMemberTools && (
          <Button
            className="mrn-phone-only"
            variant="minimal"
            icon="menu"
            aria-label="Open navigation"
            onClick={onOpenMenu}
          />
        )}
        <NavbarHeading>
          <Link to={user ? PATHS.dashboard : PATHS.login} className="mrn-brand-link">
            <Logo />
          </Link>
        </NavbarHeading>
        {user && <PlanTag user={user} />}
      </NavbarGroup>
      <NavbarGroup align={Alignment.END}>
        {user && showMemberTools && (
          <>
            {hasOwnContribution(user) && (
              <>
                <ContributionIndicator
                  percent={user.account_total_ninety_days_contribution_percentage}
                  view={contribution.data}
                />
                <NavbarDivider className="mrn-wide-only" />
              </>
            )}
            <MerchantSearchForm
              className="mrn-topbar-search mrn-wide-only"
              placeholder="Full EIN/legal name search"
              inputId={TOP_SEARCH_ID}
              compact
            />
            <Button
              intent="primary"
              icon="plus"
              aria-label="Add Merchant"
              className="mrn-topbar-add"
              onClick={() => navigate(PATHS.newMerchant)}
            >
              <span className="mrn-wide-only">Add Merchant</span>
            </Button>
          </>
        )}
        {user ? (
          <Button
            variant="minimal"
            icon="log-out"
            aria-label="Logout"
            loading={loggingOut}
            onClick={() => void logout()}
          >
            <span className="mrn-wide-only">Logout</span>
          </Button>
        ) : (
          state.status === 'anonymous' && (
            <Button variant="minimal" icon="log-in" text="Sign in" onClick={() => navigate(PATHS.login)} />
          )
        )}
      </NavbarGroup>
    </Navbar>
  );
}
