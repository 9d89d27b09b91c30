import { routes } from '@mrn/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { apiQueryKey } from '../api/hooks.ts';
import { invalidateMerchantData } from './queries.ts';

const seeded = () => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  const keys = {
    merchant: apiQueryKey(routes.getMerchant, { params: { id: 'm1' } }),
    notes: apiQueryKey(routes.listMerchantNotes, { params: { id: 'm1' } }),
    other: apiQueryKey(routes.getMerchant, { params: { id: 'm2' } }),
    list: apiQueryKey(routes.listMerchants, { query: { page: 1 } }),
    recent: apiQueryKey(routes.recentNotes, { query: {} }),
    search: apiQueryKey(routes.searchMerchants, { query: { search: 'acme' } }),
    settings: apiQueryKey(routes.getAppSettings),
  };
  for (const key of Object.values(keys)) client.setQueryData(key, { data: null });
  const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;
  return { client, keys, stale };
};

describe('invalidateMerchantData', () => {
  it('marks merchant and note answers stale, never searches or settings', async () => {
    const { client, keys, stale } = seeded();
    await invalidateMerchantData(client);
    expect([keys.merchant, keys.notes, keys.other, keys.list, keys.recent].map(stale)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(stale(keys.search)).toBe(false);
    expect(stale(keys.settings)).toBe(false);
  });

  it('keeps an archived merchant’s own answers in the cache, stale, for the next visit', async () => {
    const { client, keys, stale } = seeded();
    await invalidateMerchantData(client, { archivedMerchantId: 'm1' });
    expect(stale(keys.merchant)).toBe(true);
    expect(stale(keys.notes)).toBe(true);
    expect(client.getQueryData(keys.merchant)).toEqual({ data: null });
    expect(stale(keys.other)).toBe(true);
  });
});
