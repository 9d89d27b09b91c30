import { describe, expect, it } from 'vitest';
import { isCurrentLink, sidebarLinks } from './sidebar-links.ts';

const member = {
  is_admin: false,
  is_dm_admin: false,
  account_merchant_subscription_enabled: false,
  plan_level: 'BASIC' as const,
};
const labels = (user: typeof member | Parameters<typeof sidebarLinks>[0]) =>
  sidebarLinks(user).map((l) => l.label);

describe('sidebarLinks', () => {
  it('gives every member the common links', () => {
    expect(labels(member)).toEqual([
      'Dashboard',
      'Analytics',
      'Contribution',
      'Our Members',
      'Profile',
      'Logout',
    ]);
  });

  it('adds Account for account admins', () => {
    expect(labels({ ...member, is_admin: true })).toContain('Account');
  });

  it('adds Brokers for PRO members only: broker records are PRO data', () => {
    expect(labels({ ...member, plan_level: 'PRO' })).toContain('Brokers');
    expect(labels(member)).not.toContain('Brokers');
  });

  it('adds Portfolio Screening for PRO funder members only (issue 32)', () => {
    expect(labels({ ...member, plan_level: 'PRO' })).toEqual([
      'Dashboard',
      'Analytics',
      'Contribution',
      'Our Members',
      'Brokers',
      'Portfolio Screening',
      'Profile',
      'Logout',
    ]);
    expect(labels(member)).not.toContain('Portfolio Screening');
    expect(labels({ ...member, plan_level: 'PRO', is_dm_admin: true })).not.toContain('Portfolio Screening');
  });

  it('adds Brokers, Funders, Merchants, Disputes, Mailbox and Settings for platform admins', () => {
    const links = labels({ ...member, is_dm_admin: true });
    expect(links).toEqual([
      'Dashboard',
      'Analytics',
      'Our Members',
      'Brokers',
      'Funders',
      'Merchants',
      'Disputes',
      'Mailbox',
      'Settings',
      'Profile',
      'Logout',
    ]);
    expect(links).not.toContain('Account');
  });

  it('shows Merchant Subscriptions only to an admin of a PRO account with subscriptions enabled', () => {
    const eligible = {
      ...member,
      is_admin: true,
      account_merchant_subscription_enabled: true,
      plan_level: 'PRO' as const,
    };
    expect(labels(eligible)).toContain('Merchant Subscriptions');
    expect(labels({ ...eligible, is_admin: false })).not.toContain('Merchant Subscriptions');
    expect(labels({ ...eligible, plan_level: 'BASIC' })).not.toContain('Merchant Subscriptions');
    expect(labels({ ...eligible, account_merchant_subscription_enabled: false })).not.toContain(
      'Merchant Subscriptions',
    );
  });
});

describe('isCurrentLink', () => {
  const merchants = { to: '/merchants', label: 'Merchants', icon: 'shop' as const };
  it('matches the page and pages below it', () => {
    expect(isCurrentLink(merchants, '/merchants')).toBe(true);
    expect(isCurrentLink(merchants, '/merchants/abc')).toBe(true);
    expect(isCurrentLink(merchants, '/merchants_x')).toBe(false);
  });

  it('marks Dashboard on both dashboard variants', () => {
    const dashboard = { to: '/dashboard', label: 'Dashboard', icon: 'dashboard' as const };
    expect(isCurrentLink(dashboard, '/dashboardold')).toBe(true);
  });

  it('leaves Add Merchant to its own button', () => {
    expect(isCurrentLink(merchants, '/merchants/new')).toBe(false);
  });
});
