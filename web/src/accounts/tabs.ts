/** The tabs of the funder page (platform admin) and the own-account page (accounts §2). */
export const FUNDER_TABS = [
  { id: 'settings', title: 'Funder Settings' },
  { id: 'membership', title: 'Membership' },
  { id: 'members', title: 'Account Members' },
  { id: 'security', title: 'Security' },
  { id: 'billing', title: 'Billing' },
  { id: 'contribution', title: 'Contribution' },
  { id: 'analytics', title: 'Analytics' },
] as const;

export const ACCOUNT_TABS = [
  { id: 'settings', title: 'Settings' },
  { id: 'members', title: 'Account Members' },
  { id: 'membership', title: 'Membership' },
  { id: 'billing', title: 'Billing' },
  { id: 'contribution', title: 'Contribution' },
] as const;

export type TabId = (typeof FUNDER_TABS)[number]['id'];

/** The tab a URL asks for: `?tab=`, the billing_updated hash (accounts §2), else the first tab. */
export function tabFromUrl(tabs: readonly { id: TabId }[], search: string, hash: string): TabId {
  if (hash.replace(/^#/, '') === 'billing_updated' && tabs.some((t) => t.id === 'billing')) return 'billing';
  const asked = new URLSearchParams(search).get('tab');
  return tabs.find((t) => t.id === asked)?.id ?? (tabs[0]?.id as TabId);
}
