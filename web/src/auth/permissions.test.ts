import { describe, expect, it } from 'vitest';
import { hasProFeatures, mayEditMerchant, merchantSubscriptionsAccess } from './permissions.ts';

describe('merchant permissions', () => {
  it('gives PRO features to PRO accounts and platform administrators', () => {
    expect(hasProFeatures({ plan_level: 'PRO', is_dm_admin: false })).toBe(true);
    expect(hasProFeatures({ plan_level: 'BASIC', is_dm_admin: true })).toBe(true);
    expect(hasProFeatures({ plan_level: 'BASIC', is_dm_admin: false })).toBe(false);
  });

  it('lets the adding funder and platform administrators edit a merchant', () => {
    const merchant = { added_by_account_id: 'a1' };
    expect(mayEditMerchant({ account_resource_id: 'a1', is_dm_admin: false }, merchant)).toBe(true);
    expect(mayEditMerchant({ account_resource_id: 'a2', is_dm_admin: false }, merchant)).toBe(false);
    expect(mayEditMerchant({ account_resource_id: 'a2', is_dm_admin: true }, merchant)).toBe(true);
    expect(
      mayEditMerchant({ account_resource_id: 'a2', is_dm_admin: false }, { added_by_account_id: null }),
    ).toBe(false);
  });
});

describe('merchant subscription pages', () => {
  const member = {
    is_admin: false,
    account_merchant_subscription_enabled: false,
    plan_level: 'BASIC' as const,
  };

  it('opens them to an admin of a PRO account that has them turned on', () => {
    expect(
      merchantSubscriptionsAccess({
        ...member,
        is_admin: true,
        plan_level: 'PRO',
        account_merchant_subscription_enabled: true,
      }),
    ).toBe('use');
  });

  it('explains PRO to a BASIC member as to a BASIC admin, rather than refusing them (issue 32)', () => {
    expect(merchantSubscriptionsAccess(member)).toBe('explain');
    expect(merchantSubscriptionsAccess({ ...member, is_admin: true })).toBe('explain');
    expect(merchantSubscriptionsAccess({ ...member, is_admin: true, plan_level: 'PRO' })).toBe('explain');
  });

  it('leaves them to the administrators in a PRO account', () => {
    expect(merchantSubscriptionsAccess({ ...member, plan_level: 'PRO' })).toBe('refuse');
    expect(
      merchantSubscriptionsAccess({
        ...member,
        plan_level: 'PRO',
        account_merchant_subscription_enabled: true,
      }),
    ).toBe('refuse');
  });
});
