import {
  ADMIN_NOTES_PAGE_SIZE,
  CONTRIBUTOR_PAGE_SIZES,
  type NoteCategory,
  RECENT_MERCHANTS_PER_PAGE,
  type RouteResponse,
  type RouteSpec,
  routes,
  type SessionUser,
} from '@mrn/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
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

/** The network's totals (no `account_id`). */
export const WHOLE_NETWORK_REQUEST = { query: {} };

/**
 * Asks for the data of the dashboard `user` is about to see, as soon as the sign-in is answered:
 * rendering the signed-in layout and the dashboard took a hundred milliseconds before its cards made
 * their calls, and a platform administrator's thirteen calls then queued on the browser's six
 * connections (issue 31). A platform administrator's eight widgets come in one call (their first
 * pages), each put under the key its card reads; the cards find the answers (or the calls under way)
 * in the cache. Should that call fail, each widget asks its own route, as before.
 */
export function prefetchDashboard(queryClient: QueryClient, user: SessionUser): void {
  void queryClient.prefetchQuery(apiQuery(routes.recentNotes, SUSPICIOUS_ACTIVITY_REQUEST));
  if (!user.is_dm_admin) return;
  const widgets = call(routes.dashboardWidgets).then((answer) => answer.data);
  // A failure is each widget's own call's to see (below), not an unhandled rejection.
  widgets.catch(() => undefined);
  const part = <R extends RouteSpec>(
    route: R,
    request: Parameters<typeof apiQuery<R>>[1],
    pick: (all: Awaited<typeof widgets>) => RouteResponse<R>,
  ) => {
    const own = apiQuery(route, request);
    void queryClient.prefetchQuery({
      queryKey: own.queryKey,
      // Should the one call fail, each widget makes its own, retried as any: a widget fails (quietly,
      // accounts spec §8) only when its own call does.
      queryFn: (context) => widgets.then(pick, () => own.queryFn(context)),
    });
  };
  const firstContributors = contributorsRequest(1, CONTRIBUTOR_PAGE_SIZES[0]);
  part(routes.totalMerchants, WHOLE_NETWORK_REQUEST, (w) => w.total_merchants);
  part(routes.totalNotes, WHOLE_NETWORK_REQUEST, (w) => w.total_notes);
  part(routes.totalMembers, undefined, (w) => w.total_members);
  part(routes.totalUsers, undefined, (w) => w.total_users);
  part(routes.totalMonthlyRevenue, undefined, (w) => w.total_monthly_revenue);
  part(
    routes.recentMerchantsByCategory,
    recentMerchantsRequest(1, undefined),
    (w) => w.recent_merchants_by_category,
  );
  part(routes.topContributors, firstContributors, (w) => w.top_contributors);
  part(routes.bottomContributors, firstContributors, (w) => w.bottom_contributors);
  void queryClient.prefetchQuery(apiQuery(routes.recentNotes, recentNotesRequest(1)));
}
