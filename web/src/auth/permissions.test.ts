import { describe, expect, it } from 'vitest';
import { hasProFeatures, mayEditMerchant } from './permissions.ts';

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
