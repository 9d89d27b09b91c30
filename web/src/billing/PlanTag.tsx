import { Tag } from '@blueprintjs/core';
import { billingStateOf, routes, type SessionUser } from '@mrn/contracts';
import { Link } from 'react-router-dom';
import { useApiQuery } from '../api/hooks.ts';
import { PATHS } from '../routing/paths.ts';
import { billingIntent } from './BillingState.tsx';

/**
 * The top bar's plan tag: PRO while a PRO membership or trial is in force (a lapsed PRO funder is not
 * shown as PRO), and for the account's own admins the billing state when it needs them (past due,
 * lapsed), linking to where it is dealt with. The same billing state as every other screen (issue 21).
 */
export function PlanTag({ user }: { user: SessionUser }) {
  const isAccountAdmin = user.is_admin && !user.is_dm_admin;
  const account = useApiQuery(
    routes.getAccount,
    { params: { id: user.account_resource_id } },
    { select: (answer) => answer.data, enabled: isAccountAdmin },
  );
  const state = account.data ? billingStateOf(account.data) : null;
  // The account as loaded when there is one (an admin's), else the session's word for it.
  const inForce = state ? state.inForce : user.active_membership || user.is_dm_admin;
  const plan = state?.plan ?? user.plan_level;
  const attention = state && (state.kind === 'past_due' || state.kind === 'lapsed') ? state : null;
  return (
    <span className="mrn-plan-tags">
      {inForce && plan === 'PRO' && (
        <Tag intent="primary" className="mrn-pro-badge" aria-label="PRO account">
          PRO
        </Tag>
      )}
      {attention && (
        <Link
          // A lapsed admin is held on /membership, where the open invoice is; past due, the Billing tab.
          to={attention.kind === 'lapsed' ? PATHS.membership : `${PATHS.account}?tab=billing`}
          aria-label={`Membership ${attention.label.toLowerCase()}: see billing`}
        >
          <Tag
            intent={billingIntent(attention)}
            minimal
            icon="credit-card"
            data-testid="topbar-billing-state"
          >
            {attention.label}
          </Tag>
        </Link>
      )}
    </span>
  );
}
