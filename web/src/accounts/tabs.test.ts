import { describe, expect, it } from 'vitest';
import { ACCOUNT_TABS, FUNDER_TABS, tabFromUrl } from './tabs.ts';

describe('tabFromUrl', () => {
  it('reads ?tab= and falls back to the first tab', () => {
    expect(tabFromUrl(FUNDER_TABS, '?tab=members', '')).toBe('members');
    expect(tabFromUrl(FUNDER_TABS, '', '')).toBe('settings');
    expect(tabFromUrl(FUNDER_TABS, '?tab=nope', '')).toBe('settings');
  });

  it('opens Billing for the billing_updated hash', () => {
    expect(tabFromUrl(FUNDER_TABS, '?tab=members', '#billing_updated')).toBe('billing');
    expect(tabFromUrl(ACCOUNT_TABS, '', '#billing_updated')).toBe('billing');
  });

  it('keeps own-account pages to their own tabs', () => {
    expect(tabFromUrl(ACCOUNT_TABS, '?tab=security', '')).toBe('settings');
  });
});
