import { NOTE_CATEGORIES } from '../domain/notes.ts';
import { Pagination } from '../http/envelope.ts';
import { uuid } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { z } from '../zod.ts';

// The platform admins' dashboard widgets (accounts spec §2 "Widgets", §7 "Dashboards", §9). Every one
// is for platform administrators only: a funder's admin and a plain member get 403.
//
// What each figure counts (the specs name the widgets, not their definitions):
// - total_merchants / total_notes: records visible now, i.e. merchants not archived and notes that are
//   not archived and whose merchant is not archived. Merchant Dispute notes count: platform admins, the
//   only readers, see them. With `account_id`: the records attributed to that account.
// - total_members: member funders (accounts not archived whose membership is active or trialing, as on
//   Our Members) by plan, with the spec's minus-1 rule applied (see TOTAL_MEMBERS_EXCLUDED).
// - total_users: members (users) not archived, of funder accounts not archived; the platform's staff
//   are not counted (they run the network, they are not its users).
// - total_monthly_revenue: the monthly price of every membership paid through the card payment provider
//   and running now, a renewal still being retried included (billingStateOf(...).paying; DESIGN §4
//   prices). Trials and memberships opened active without billing (the platform's own) pay nothing.
// - recent_merchants_by_category: live merchants by their latest live note (any category, Merchant
//   Dispute included), newest first; with `category`, those whose latest note is in that category.
// - top/bottom_contributors: funders by merchants added + notes added (the Funders list's figures),
//   most (top) or fewest (bottom) first.

/** Contributor tables' page sizes (accounts spec §9: 10/25/50/100, default 10). */
export const CONTRIBUTOR_PAGE_SIZES = [10, 25, 50, 100] as const;
/** Recently Reported merchants per page (accounts spec §9). */
export const RECENT_MERCHANTS_PER_PAGE = 20;

/**
 * Accounts spec §9: "Admin total-members widget shows count minus 1 and PRO count minus 1". The one
 * taken off is the platform's own account: it is opened as an active PRO membership (server bootstrap)
 * and is not a member funder. Never shown below 0.
 */
export const TOTAL_MEMBERS_EXCLUDED = 1;

const page = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(1, 'must be 1 or more')
  .default(1);

const count = z.number().int();

const countQuery = z.object({ account_id: uuid().optional() });

export const totalMerchants = route({
  method: 'GET',
  path: '/api/widgets/total_merchants',
  service: 'query',
  access: 'platform_admin',
  query: countQuery,
  readModels: ['admin_widgets'],
  response: z.object({ data: z.object({ total_merchants: count }) }),
  action: 'retrieve total merchants',
});

export const totalNotes = route({
  method: 'GET',
  path: '/api/widgets/total_notes',
  service: 'query',
  access: 'platform_admin',
  query: countQuery,
  readModels: ['admin_widgets'],
  response: z.object({ data: z.object({ total_notes: count }) }),
  action: 'retrieve total notes',
});

export const totalMembers = route({
  method: 'GET',
  path: '/api/widgets/total_members',
  service: 'query',
  access: 'platform_admin',
  readModels: ['accounts'],
  response: z.object({ data: z.object({ count, basic: count, pro: count }) }),
  action: 'retrieve total members',
});

export const totalUsers = route({
  method: 'GET',
  path: '/api/widgets/total_users',
  service: 'query',
  access: 'platform_admin',
  readModels: ['users', 'accounts'],
  response: z.object({ data: z.object({ total_users: count }) }),
  action: 'retrieve total users',
});

export const totalMonthlyRevenue = route({
  method: 'GET',
  path: '/api/widgets/total_monthly_revenue',
  service: 'query',
  access: 'platform_admin',
  readModels: ['accounts'],
  response: z.object({
    data: z.object({
      /** US cents, as Stripe and invoices count (accounts spec §9: cents divided by 100 for display). */
      total_monthly_revenue: count,
      /** The paid memberships summed. */
      paying_members: count,
    }),
  }),
  action: 'retrieve total monthly revenue',
});

export const RecentMerchantView = z.object({
  resource_id: z.string(),
  legal_name: z.string(),
  dba: z.string().nullable(),
  fein: z.string(),
  /** The category of the merchant's latest live note. */
  category: z.string(),
  /** When that note was added. */
  reported_at: z.string(),
});
export type RecentMerchantView = z.infer<typeof RecentMerchantView>;

export const recentMerchantsByCategory = route({
  method: 'GET',
  path: '/api/widgets/recent_merchants_by_category',
  service: 'query',
  access: 'platform_admin',
  query: z.object({
    page,
    per_page: z.coerce
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be 1 or more')
      .max(100, 'must be at most 100')
      .default(RECENT_MERCHANTS_PER_PAGE),
    /** Omitted: every category (All). */
    category: z.enum(NOTE_CATEGORIES, { error: 'must be a note category' }).optional(),
  }),
  // Names and EINs come from the merchants read model.
  readModels: ['admin_widgets', 'merchants'],
  response: z.object({ data: z.array(RecentMerchantView), pagination: Pagination }),
  action: 'retrieve recent merchants',
});

export const ContributorView = z.object({
  resource_id: z.string(),
  name: z.string(),
  merchants_added: count,
  notes_added: count,
});
export type ContributorView = z.infer<typeof ContributorView>;

const contributorQuery = z.object({
  page,
  per_page: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .refine(
      (n) => (CONTRIBUTOR_PAGE_SIZES as readonly number[]).includes(n),
      `must be one of ${CONTRIBUTOR_PAGE_SIZES.join(', ')}`,
    )
    .default(CONTRIBUTOR_PAGE_SIZES[0]),
});

const contributors = (direction: 'top' | 'bottom') =>
  route({
    method: 'GET',
    path: `/api/widgets/${direction}_contributors`,
    service: 'query',
    access: 'platform_admin',
    query: contributorQuery,
    readModels: ['accounts'],
    response: z.object({ data: z.array(ContributorView), pagination: Pagination }),
    action: `retrieve ${direction} contributors`,
  });

export const topContributors = contributors('top');
export const bottomContributors = contributors('bottom');

/**
 * Every widget above at once, each part as its own route answers it for its first page (default
 * sizes, All categories, the whole network): what the dashboard shows first, in one call instead of
 * eight, which queued on the browser's six connections to the server (issue 31). Paging, a category or
 * a page size are asked of each widget's own route.
 */
export const dashboardWidgets = route({
  method: 'GET',
  path: '/api/widgets/dashboard',
  service: 'query',
  access: 'platform_admin',
  readModels: ['admin_widgets', 'merchants', 'accounts', 'users'],
  response: z.object({
    data: z.object({
      total_merchants: totalMerchants.response,
      total_notes: totalNotes.response,
      total_members: totalMembers.response,
      total_users: totalUsers.response,
      total_monthly_revenue: totalMonthlyRevenue.response,
      recent_merchants_by_category: recentMerchantsByCategory.response,
      top_contributors: topContributors.response,
      bottom_contributors: bottomContributors.response,
    }),
  }),
  action: 'retrieve the dashboard widgets',
});
