import type { MerchantSubscriptionView } from '@mrn/contracts';
import { merchantSubscriptionId, pageOf, type Queryable } from '@mrn/platform';

/** A watched EIN with the live merchant reported under it (`WATCHED_EINS`), as its columns come. */
export interface WatchedEinRow {
  fein: string;
  created_at: Date;
  watch_until: Date | null;
  merchant_id: string | null;
  legal_name: string | null;
  dba: string | null;
  city: string | null;
  state: string | null;
}

/**
 * An account's watched EINs (`s`), each joined to the live merchant reported under it (`m`): the list's
 * page and query-api's CSV export select these columns from this join, each adding its own.
 */
export const WATCHED_EINS = {
  columns: 's.fein, s.created_at, s.watch_until, m.id as merchant_id, m.legal_name, m.dba, m.city, m.state',
  from: `from read.merchant_subscriptions s
         left join read.merchants m on m.fein = s.fein and m.archived_at is null`,
} as const;

/**
 * One page of an account's watched EINs, newest first, each with the live merchant reported under it.
 * Two services answer with it: query-api's list, and command-api's deletions (delete_selected,
 * delete_all answer with the list's first page after them). Only an answer: nothing is decided from it.
 * It lives with the read models it reads (DESIGN §2: projections exports their queries), not in
 * platform, which knows no feature.
 */
export async function merchantSubscriptionPage(
  pool: Queryable,
  accountId: string,
  page: { page: number; perPage: number; search?: string | undefined },
): Promise<{ data: MerchantSubscriptionView[]; total: number }> {
  const prefix = `${page.search ?? ''}%`;
  const { rows, total } = await pageOf<WatchedEinRow>(pool, {
    select: WATCHED_EINS.columns,
    from: WATCHED_EINS.from,
    countFrom: 'from read.merchant_subscriptions s',
    where: 's.account_id = $1 and s.fein like $2',
    params: [accountId, prefix],
    orderBy: 's.created_at desc, s.fein',
    page: page.page,
    perPage: page.perPage,
  });
  return {
    data: rows.map((r) => {
      const id = merchantSubscriptionId(accountId, r.fein);
      return {
        id,
        resource_id: id,
        fein: r.fein,
        created_at: r.created_at.toISOString(),
        watch_until: r.watch_until?.toISOString() ?? null,
        merchant:
          r.merchant_id === null
            ? null
            : {
                resource_id: r.merchant_id,
                legal_name: r.legal_name!,
                dba: r.dba,
                city: r.city!,
                state: r.state!,
              },
      };
    }),
    total,
  };
}
