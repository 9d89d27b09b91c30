import {
  isEinSearch,
  MIN_CONTRIBUTION_PERCENT,
  type merchantCheckExists,
  normaliseEin,
  PLANS,
  SEARCH_HISTORY_MONTHS,
  type searchCounts,
  type searchMerchants,
} from '@mrn/contracts';
import { type Actor, DomainError, type Handler } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';
import { likeEscape, MERCHANT_COLUMNS, MERCHANT_JOINS, type MerchantRow, toMerchantView } from '../views.ts';

export const SEARCH_TEXTS = {
  noneFound: 'No Merchants Found',
  overflow: (cap: number) =>
    `More than ${cap} merchants match your search criteria. Please narrow your keyword search.`,
  dailyLimit: (limit: number) =>
    `BASIC members can search up to ${limit.toLocaleString('en-US')} times a day. Upgrade to PRO for unlimited searches.`,
  lowContribution:
    'Your 90 day contribution is below the 0.5% minimum needed to search. Add merchants and notes to raise it.',
} as const;

const keywordCap = (actor: Actor) =>
  actor.isDmAdmin ? PLANS.PRO.keywordMatchLimit : PLANS[actor.planLevel].keywordMatchLimit;

export function searchHandlers(deps: QueryDeps) {
  /** Below 0.5 % 90-day contribution an account may not search (core spec §6), platform admins excepted. */
  async function checkContribution(actor: Actor): Promise<void> {
    if (actor.isDmAdmin) return;
    const { rows } = await deps.pool.query<{ c: string }>(
      'select ninety_day_contribution as c from read.accounts where id = $1',
      [actor.accountId],
    );
    if (rows[0] && Number(rows[0].c) < MIN_CONTRIBUTION_PERCENT)
      throw new DomainError(403, SEARCH_TEXTS.lowContribution);
  }

  /** BASIC accounts have a daily search cap (accounts spec §1); it resets at midnight UTC. */
  async function checkDailyLimit(actor: Actor): Promise<void> {
    const limit = PLANS[actor.planLevel].dailySearchLimit;
    if (actor.isDmAdmin || limit === null) return;
    const { rows } = await deps.pool.query<{ searches: number }>(
      `select searches from read.account_daily_searches where account_id = $1 and day = (now() at time zone 'utc')::date`,
      [actor.accountId],
    );
    if ((rows[0]?.searches ?? 0) >= limit) {
      const now = new Date();
      const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
      throw new DomainError(429, SEARCH_TEXTS.dailyLimit(limit), {
        retryAfterSeconds: Math.ceil((midnight - now.getTime()) / 1000),
      });
    }
  }

  async function byEin(fein: string): Promise<MerchantRow[]> {
    const { rows } = await deps.pool.query<MerchantRow>(
      `select ${MERCHANT_COLUMNS} from read.merchants m ${MERCHANT_JOINS} where m.fein = $1 and m.archived_at is null`,
      [fein],
    );
    return rows;
  }

  /** Name and DBA containing the words typed, best matches first; near spellings when nothing contains them. */
  async function byKeyword(term: string, limit: number): Promise<MerchantRow[]> {
    const folded = term.toLowerCase().replace(/\s+/g, ' ');
    const contains = await deps.pool.query<MerchantRow>(
      `select ${MERCHANT_COLUMNS} from read.merchants m ${MERCHANT_JOINS}
        where m.archived_at is null and m.search_text like $1
        order by (m.search_text like $2) desc, similarity(m.search_text, $3) desc, m.legal_name, m.id
        limit $4`,
      [`%${likeEscape(folded)}%`, `${likeEscape(folded)}%`, folded, limit],
    );
    if (contains.rows.length > 0 || folded.length < 3) return contains.rows;
    const near = await deps.pool.query<MerchantRow>(
      `select ${MERCHANT_COLUMNS} from read.merchants m ${MERCHANT_JOINS}
        where m.archived_at is null and m.search_text % $1
        order by similarity(m.search_text, $1) desc, m.legal_name, m.id limit $2`,
      [folded, limit],
    );
    return near.rows;
  }

  /** Every search is a fact (DESIGN §4): it feeds search history, counts, caps and contribution. */
  const record = (actor: Actor, term: string, einSearch: boolean, merchantIds: string[]) =>
    deps.searches.record({
      accountId: actor.accountId,
      userId: actor.userId,
      source: 'web',
      term,
      einSearch,
      merchantIds,
      hit: merchantIds.length > 0,
    });

  const searchMerchantsHandler: Handler<typeof searchMerchants> = async (req) => {
    await checkContribution(req.actor);
    await checkDailyLimit(req.actor);
    const term = req.query.search;
    const einSearch = isEinSearch(term);
    const cap = keywordCap(req.actor);
    const rows = einSearch ? await byEin(normaliseEin(term)) : await byKeyword(term, cap + 1);
    const shown = rows.slice(0, cap);
    const recorded = await record(
      req.actor,
      term,
      einSearch,
      shown.map((r) => r.id),
    );
    if (shown.length === 0)
      throw new DomainError(404, SEARCH_TEXTS.noneFound, { position: recorded.position });
    return {
      data: shown.map((r) => toMerchantView(r, req.actor)),
      warning: rows.length > cap ? SEARCH_TEXTS.overflow(cap) : null,
      position: recorded.position,
    };
  };

  const merchantCheckExistsHandler: Handler<typeof merchantCheckExists> = async (req) => {
    const rows = await byEin(req.query.search);
    return { data: { resource_id: rows[0]?.id ?? null, legal_name: rows[0]?.legal_name ?? null } };
  };

  const searchCountsHandler: Handler<typeof searchCounts> = async (req) => {
    // A live merchant: every search that found it (by EIN or keyword). No merchant: searches of the EIN.
    const merchant = await byEin(req.query.search);
    const { rows } = merchant[0]
      ? await deps.pool.query<{ searched_at: Date; account_id: string }>(
          `select searched_at, account_id from read.merchant_searches
            where merchant_id = $1 and searched_at > now() - make_interval(months => $2) order by searched_at desc`,
          [merchant[0].id, SEARCH_HISTORY_MONTHS],
        )
      : await deps.pool.query<{ searched_at: Date; account_id: string }>(
          `select searched_at, account_id from read.ein_searches
            where fein = $1 and searched_at > now() - make_interval(months => $2) order by searched_at desc`,
          [req.query.search, SEARCH_HISTORY_MONTHS],
        );
    const months = lastMonths(SEARCH_HISTORY_MONTHS, new Date());
    for (const r of rows) {
      const bucket = months.find((m) => m.month === r.searched_at.toISOString().slice(0, 7));
      if (bucket) bucket.count++;
    }
    return {
      data: {
        total: rows.length,
        months,
        entries: rows.map((r) => ({
          created_at: r.searched_at.toISOString(),
          added_by_account_id: r.account_id,
        })),
      },
    };
  };

  return {
    searchMerchants: searchMerchantsHandler,
    merchantCheckExists: merchantCheckExistsHandler,
    searchCounts: searchCountsHandler,
  };
}

/** The last `n` calendar months (UTC) ending with the current one, oldest first, counts at zero. */
export function lastMonths(n: number, now: Date): { month: string; count: number }[] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (n - 1 - i), 1));
    return { month: d.toISOString().slice(0, 7), count: 0 };
  });
}
