import {
  ANALYTICS_TEXTS,
  type additionsByDay,
  HIT_CATEGORY_KEYS,
  type HitCategoryKey,
  type hitsByCategory,
  type searchesByDay,
  type searchesBySource,
} from '@mrn/contracts';
import { type Actor, forbidden, type Handler } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';

/**
 * Whose figures a call asks for: a member's own account; a platform admin's choice of account, or the
 * whole network (null) without one. Another account's figures are refused to everyone else.
 */
function scopeOf(actor: Actor, accountId: string | undefined): string | null {
  if (actor.isDmAdmin) return accountId ?? null;
  if (accountId !== undefined && accountId !== actor.accountId) throw forbidden(ANALYTICS_TEXTS.otherAccount);
  return actor.accountId;
}

/** The window's first day: the last `days` UTC days, today included. */
const WINDOW = `(now() at time zone 'utc')::date - ($2::int - 1)`;
const SCOPE = '($1::uuid is null or account_id = $1)';

const percent = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100;

export function analyticsHandlers(deps: QueryDeps) {
  /** One row per day of the window, oldest first, zero where nothing happened. */
  async function perDay(scope: string | null, days: number) {
    const { rows } = await deps.pool.query<{
      day: string;
      web: number;
      api: number;
      hits: number;
      merchants: number;
      notes: number;
    }>(
      `with s as (
         select day, sum(web_searches) as web, sum(api_searches) as api, sum(hits) as hits
           from read.analytics_daily_searches where ${SCOPE} and day >= ${WINDOW} group by day
       ), a as (
         select day, sum(merchants_added) as merchants, sum(notes_added) as notes
           from read.analytics_daily where ${SCOPE} and day >= ${WINDOW} group by day
       )
       select to_char(d.day, 'YYYY-MM-DD') as day,
              coalesce(s.web, 0)::int as web, coalesce(s.api, 0)::int as api, coalesce(s.hits, 0)::int as hits,
              coalesce(a.merchants, 0)::int as merchants, coalesce(a.notes, 0)::int as notes
         from generate_series(${WINDOW}, (now() at time zone 'utc')::date, interval '1 day') as d(day)
         left join s on s.day = d.day
         left join a on a.day = d.day
        order by d.day`,
      [scope, days],
    );
    return rows;
  }

  const searchesByDayHandler: Handler<typeof searchesByDay> = async (req) => {
    const rows = await perDay(scopeOf(req.actor, req.query.account_id), req.query.days);
    return {
      data: rows.map((r) => ({
        daily_search_date: r.day,
        total_api_searches: r.api,
        total_web_searches: r.web,
        total_hits: r.hits,
      })),
    };
  };

  const additionsByDayHandler: Handler<typeof additionsByDay> = async (req) => {
    const rows = await perDay(scopeOf(req.actor, req.query.account_id), req.query.days);
    return {
      data: rows.map((r) => ({
        daily_addition_date: r.day,
        total_merchants: r.merchants,
        total_notes: r.notes,
      })),
    };
  };

  const searchesBySourceHandler: Handler<typeof searchesBySource> = async (req) => {
    const { rows } = await deps.pool.query<{ api: number; web: number }>(
      `select coalesce(sum(api_searches), 0)::int as api, coalesce(sum(web_searches), 0)::int as web
         from read.analytics_daily_searches where ${SCOPE} and day >= ${WINDOW}`,
      [scopeOf(req.actor, req.query.account_id), req.query.days],
    );
    const { api, web } = rows[0]!;
    return {
      data: {
        total_api: api,
        percent_api: percent(api, api + web),
        total_web: web,
        percent_web: percent(web, api + web),
      },
    };
  };

  const hitsByCategoryHandler: Handler<typeof hitsByCategory> = async (req) => {
    const { rows } = await deps.pool.query<{ category: string; hits: number }>(
      `select category, sum(hits)::int as hits from read.analytics_daily_hits
        where ${SCOPE} and day >= ${WINDOW} group by category`,
      [scopeOf(req.actor, req.query.account_id), req.query.days],
    );
    const byKey = new Map<HitCategoryKey, number>();
    for (const [key, categories] of Object.entries(HIT_CATEGORY_KEYS) as [
      HitCategoryKey,
      readonly string[],
    ][]) {
      byKey.set(
        key,
        rows.filter((r) => categories.includes(r.category)).reduce((sum, r) => sum + r.hits, 0),
      );
    }
    const total = [...byKey.values()].reduce((a, b) => a + b, 0);
    const data = Object.fromEntries(
      [...byKey].flatMap(([key, n]) => [
        [`total_${key}`, n],
        [`percent_${key}`, percent(n, total)],
      ]),
    ) as Awaited<ReturnType<Handler<typeof hitsByCategory>>>['data'];
    return { data };
  };

  return {
    searchesByDay: searchesByDayHandler,
    additionsByDay: additionsByDayHandler,
    searchesBySource: searchesBySourceHandler,
    hitsByCategory: hitsByCategoryHandler,
  };
}
