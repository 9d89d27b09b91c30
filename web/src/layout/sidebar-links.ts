import type { IconName } from '@blueprintjs/icons';
import type { SessionUser } from '@mrn/contracts';
import { canUseMerchantSubscriptions } from '../auth/permissions.ts';
import { hasOwnContribution } from '../contribution/display.ts';
import { PATHS } from '../routing/paths.ts';

export interface SidebarLink {
  to: string;
  label: string;
  icon: IconName;
}

type SidebarUser = Pick<
  SessionUser,
  'is_admin' | 'is_dm_admin' | 'account_merchant_subscription_enabled' | 'plan_level'
>;

/** The sidebar's links for a user's roles (core spec §2). */
export function sidebarLinks(user: SidebarUser): SidebarLink[] {
  const links: (SidebarLink | false)[] = [
    { to: PATHS.dashboard, label: 'Dashboard', icon: 'dashboard' },
    { to: PATHS.analytics, label: 'Analytics', icon: 'timeline-bar-chart' },
    // Every funder member sees their funder's contribution (accounts spec §6); staff see it per funder.
    hasOwnContribution(user) && { to: PATHS.contribution, label: 'Contribution', icon: 'percentage' },
    { to: PATHS.members, label: 'Our Members', icon: 'people' },
    // Broker records are PRO data (issue 24); BASIC finds the page through a note's upgrade path.
    (user.plan_level === 'PRO' || user.is_dm_admin) && {
      to: PATHS.brokers,
      label: 'Brokers',
      icon: 'briefcase',
    },
    // Portfolio screening is PRO (issue 32) and screens a funder's own portfolio: not for staff, whose
    // account has none. A BASIC member opening its address is told what it does and how to get it.
    user.plan_level === 'PRO' &&
      !user.is_dm_admin && {
        to: PATHS.screenings,
        label: 'Portfolio Screening',
        icon: 'search-template',
      },
    user.is_admin && { to: PATHS.account, label: 'Account', icon: 'office' },
    user.is_dm_admin && { to: PATHS.funders, label: 'Funders', icon: 'bank-account' },
    user.is_dm_admin && { to: PATHS.merchants, label: 'Merchants', icon: 'shop' },
    canUseMerchantSubscriptions(user) && {
      to: PATHS.merchantSubscriptions,
      label: 'Merchant Subscriptions',
      icon: 'notifications',
    },
    user.is_dm_admin && { to: PATHS.disputes, label: 'Disputes', icon: 'take-action' },
    user.is_dm_admin && { to: PATHS.mailbox, label: 'Mailbox', icon: 'inbox' },
    user.is_dm_admin && { to: PATHS.settings, label: 'Settings', icon: 'cog' },
    { to: PATHS.profile, label: 'Profile', icon: 'user' },
    { to: PATHS.logout, label: 'Logout', icon: 'log-out' },
  ];
  return links.filter((link): link is SidebarLink => link !== false);
}

/** A link is current on its own page and the pages below it, except where a deeper link exists. */
export function isCurrentLink(link: SidebarLink, pathname: string): boolean {
  if (pathname === link.to) return true;
  if (link.to === PATHS.dashboard && pathname === PATHS.dashboardOld) return true;
  if (link.to === PATHS.merchants && pathname === PATHS.newMerchant) return false;
  return pathname.startsWith(`${link.to}/`);
}
