import type { RouteResponse } from '@mrn/contracts';
import {
  type BillingFields,
  billingStateOf,
  type bottomContributors,
  CONTRIBUTOR_PAGE_SIZES,
  type dashboardWidgets,
  type NoteCategory,
  PLANS,
  RECENT_MERCHANTS_PER_PAGE,
  type recentMerchantsByCategory,
  TOTAL_MEMBERS_EXCLUDED,
  type topContributors,
  type totalMembers,
  type totalMerchants,
  type totalMonthlyRevenue,
  type totalNotes,
  type totalUsers,
} from '@mrn/contracts';
import type { Handler } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';
import { iso, pagination } from '../views.ts';

// The platform admins' dashboard widgets (definitions in contracts/src/routes/widgets.ts). Each answer
// reads counter rows kept by the admin_widgets projector, one index range, or the accounts and users
// read models (a row per funder or person, a few thousand at most), never the log or the notes table.

/** Funders: not archived and not the platform's own account. */
const FUNDERS = 'archived_at is null and not is_platform';

export function widgetHandlers(deps: QueryDeps) {
  /** Sum of one per-account counter, over every account or one. */
  async function accountCounter(column: 'merchants' | 'notes', accountId: string | undefined) {
    const { rows } = await deps.pool.query<{ n: number }>(
      `select coalesce(sum(${column}), 0)::int as n from read.widget_account_counts
        where $1::uuid is null or account_id = $1`,
      [accountId ?? null],
    );
    return rows[0]!.n;
  }

  const totalMerchantsHandler: Handler<typeof totalMerchants> = async (req) => ({
    data: { total_merchants: await accountCounter('merchants', req.query.account_id) },
  });

  const totalNotesHandler: Handler<typeof totalNotes> = async (req) => ({
    data: { total_notes: await accountCounter('notes', req.query.account_id) },
  });

  const totalMembersHandler = async (): Promise<RouteResponse<typeof totalMembers>> => {
    // Member funders as Our Members lists them (active or trialing), the platform's account included
    // here because the spec's rule takes it off: count − 1 and PRO − 1 (it is an active PRO account).
    const { rows } = await deps.pool.query<{ count: number; basic: number; pro: number }>(
      `select count(*)::int as count, count(*) filter (where plan_level = 'BASIC')::int as basic,
              count(*) filter (where plan_level = 'PRO')::int as pro
         from read.accounts where archived_at is null and membership_status in ('active', 'trialing')`,
    );
    const { count, basic, pro } = rows[0]!;
    return {
      data: {
        count: Math.max(0, count - TOTAL_MEMBERS_EXCLUDED),
        basic,
        pro: Math.max(0, pro - TOTAL_MEMBERS_EXCLUDED),
      },
    };
  };

  const totalUsersHandler = async (): Promise<RouteResponse<typeof totalUsers>> => {
    const { rows } = await deps.pool.query<{ n: number }>(
      `select count(*)::int as n from read.users u join read.accounts a on a.id = u.account_id
        where u.archived_at is null and a.archived_at is null and not a.is_platform`,
    );
    return { data: { total_users: rows[0]!.n } };
  };

  const totalMonthlyRevenueHandler = async (): Promise<RouteResponse<typeof totalMonthlyRevenue>> => {
    // What counts is decided by the one billing state (billingStateOf: `paying`): a membership paid
    // through the card payment provider (AccountMembershipStarted or Reinstated until it is cancelled),
    // a renewal still being retried included. Trials pay nothing, and neither does a membership opened
    // active without billing. The accounts are grouped by what the state is made of, so the rule is
    // applied to a handful of groups.
    const { rows } = await deps.pool.query<BillingFields & { n: number }>(
      `select plan_level, membership_status, billed, payment_failed, membership_ended_reason, count(*)::int as n
         from read.accounts where ${FUNDERS} and membership_status = 'active'
        group by plan_level, membership_status, billed, payment_failed, membership_ended_reason`,
    );
    const paying = rows.filter(
      (r) =>
        billingStateOf({
          ...r,
          next_payment_attempt: null,
          current_period_end: null,
          membership_ended_at: null,
        }).paying,
    );
    return {
      data: {
        total_monthly_revenue: paying.reduce((sum, r) => sum + PLANS[r.plan_level].priceCents * r.n, 0),
        paying_members: paying.reduce((sum, r) => sum + r.n, 0),
      },
    };
  };

  const recentMerchants = async ({
    page,
    per_page,
    category,
  }: {
    page: number;
    per_page: number;
    category?: NoteCategory;
  }): Promise<RouteResponse<typeof recentMerchantsByCategory>> => {
    const byCategory = category === undefined ? '' : 'and w.latest_category = $3';
    const [list, count] = await Promise.all([
      deps.pool.query<{
        merchant_id: string;
        legal_name: string;
        dba: string | null;
        fein: string;
        latest_category: string;
        latest_at: Date;
      }>(
        // Names come from the merchants read model by primary key (20 look-ups, not a copy kept here).
        `select w.merchant_id, m.legal_name, m.dba, m.fein, w.latest_category, w.latest_at
           from read.widget_merchants w join read.merchants m on m.id = w.merchant_id
          where not w.archived and w.latest_at is not null ${byCategory}
          order by w.latest_at desc, w.merchant_id desc limit $1 offset $2`,
        category === undefined
          ? [per_page, (page - 1) * per_page]
          : [per_page, (page - 1) * per_page, category],
      ),
      deps.pool.query<{ n: number }>(
        `select coalesce(sum(merchants), 0)::int as n from read.widget_category_counts
          where $1::text is null or category = $1`,
        [category ?? null],
      ),
    ]);
    return {
      data: list.rows.map((r) => ({
        resource_id: r.merchant_id,
        legal_name: r.legal_name,
        dba: r.dba,
        fein: r.fein,
        category: r.latest_category,
        reported_at: iso(r.latest_at)!,
      })),
      pagination: pagination(page, per_page, count.rows[0]!.n),
    };
  };

  /** Funders by merchants + notes added, most (desc) or fewest (asc) first, ties by name. */
  const contributors =
    (direction: 'desc' | 'asc') =>
    async ({
      page,
      per_page,
    }: {
      page: number;
      per_page: number;
    }): Promise<RouteResponse<typeof topContributors | typeof bottomContributors>> => {
      const [list, count] = await Promise.all([
        deps.pool.query<{ id: string; name: string; merchants_added: number; notes_added: number }>(
          `select id, name, merchants_added, notes_added from read.accounts where ${FUNDERS}
            order by (merchants_added + notes_added) ${direction}, lower(name), id limit $1 offset $2`,
          [per_page, (page - 1) * per_page],
        ),
        deps.pool.query<{ n: number }>(`select count(*)::int as n from read.accounts where ${FUNDERS}`),
      ]);
      return {
        data: list.rows.map((r) => ({
          resource_id: r.id,
          name: r.name,
          merchants_added: r.merchants_added,
          notes_added: r.notes_added,
        })),
        pagination: pagination(page, per_page, count.rows[0]!.n),
      };
    };

  const top = contributors('desc');
  const bottom = contributors('asc');
  const recentMerchantsHandler: Handler<typeof recentMerchantsByCategory> = (req) =>
    recentMerchants(req.query);
  const topHandler: Handler<typeof topContributors> = (req) => top(req.query);
  const bottomHandler: Handler<typeof bottomContributors> = (req) => bottom(req.query);

  /** Each widget's first page, as its own route answers it when asked with no parameters. */
  const dashboardHandler: Handler<typeof dashboardWidgets> = async () => {
    const firstPage = { page: 1, per_page: CONTRIBUTOR_PAGE_SIZES[0] };
    const [merchants, notes, members, users, revenue, recent, topPage, bottomPage] = await Promise.all([
      accountCounter('merchants', undefined),
      accountCounter('notes', undefined),
      totalMembersHandler(),
      totalUsersHandler(),
      totalMonthlyRevenueHandler(),
      recentMerchants({ page: 1, per_page: RECENT_MERCHANTS_PER_PAGE }),
      top(firstPage),
      bottom(firstPage),
    ]);
    return {
      data: {
        total_merchants: { data: { total_merchants: merchants } },
        total_notes: { data: { total_notes: notes } },
        total_members: members,
        total_users: users,
        total_monthly_revenue: revenue,
        recent_merchants_by_category: recent,
        top_contributors: topPage,
        bottom_contributors: bottomPage,
      },
    };
  };

  return {
    totalMerchants: totalMerchantsHandler,
    totalNotes: totalNotesHandler,
    totalMembers: totalMembersHandler,
    totalUsers: totalUsersHandler,
    totalMonthlyRevenue: totalMonthlyRevenueHandler,
    recentMerchantsByCategory: recentMerchantsHandler,
    topContributors: topHandler,
    bottomContributors: bottomHandler,
    dashboardWidgets: dashboardHandler,
  };
}
