import {
  ADMIN_NOTES_PAGE_SIZE,
  CONTRIBUTOR_PAGE_SIZES,
  type NoteCategory,
  RECENT_MERCHANTS_PER_PAGE,
  routes,
  type SessionUser,
} from '@mrn/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { apiQuery } from '../../api/hooks.ts';

// The dashboard's calls, as its cards make them: the same requests are asked for ahead (below), and
// only the same request finds the answer asked for ahead in the cache.

/** The latest notes in category Suspicious Activity across the network (core spec §2). */
export const SUSPICIOUS_ACTIVITY_REQUEST = {
  query: { category: 'Suspicious Activity' as const, per_page: 20 },
};

/** Platform administrators: the latest notes of every category, 200 a page (core spec §2, §9). */
export const recentNotesRequest = (page: number) => ({ query: { page, per_page: ADMIN_NOTES_PAGE_SIZE } });

/** Recently Reported merchants, All categories by default (accounts spec §2, §9). */
export const recentMerchantsRequest = (page: number, category: NoteCategory | undefined) => ({
  query: { page, per_page: RECENT_MERCHANTS_PER_PAGE, ...(category ? { category } : {}) },
});

/** Top or Bottom Contributors, 10 a page by default. */
export const contributorsRequest = (page: number, perPage: number) => ({
  query: { page, per_page: perPage },
});

/**
 * Asks for the data of the dashboard `user` is about to see, as soon as the sign-in is answered:
 * rendering the signed-in layout and the dashboard took a hundred milliseconds before its cards made
 * their calls, and a platform administrator's thirteen calls then queued on the browser's six
 * connections (issue 31). The cards find the answers (or the calls under way) in the cache.
 */
export function prefetchDashboard(queryClient: QueryClient, user: SessionUser): void {
  const ask = (options: ReturnType<typeof apiQuery>) => {
    void queryClient.prefetchQuery(options);
  };
  ask(apiQuery(routes.recentNotes, SUSPICIOUS_ACTIVITY_REQUEST));
  if (!user.is_dm_admin) return;
  // In the order the dashboard shows them.
  ask(apiQuery(routes.totalMerchants, { query: {} }));
  ask(apiQuery(routes.totalNotes, { query: {} }));
  ask(apiQuery(routes.totalMembers));
  ask(apiQuery(routes.totalUsers));
  ask(apiQuery(routes.totalMonthlyRevenue));
  ask(apiQuery(routes.recentMerchantsByCategory, recentMerchantsRequest(1, undefined)));
  ask(apiQuery(routes.topContributors, contributorsRequest(1, CONTRIBUTOR_PAGE_SIZES[0])));
  ask(apiQuery(routes.bottomContributors, contributorsRequest(1, CONTRIBUTOR_PAGE_SIZES[0])));
  ask(apiQuery(routes.recentNotes, recentNotesRequest(1)));
}
