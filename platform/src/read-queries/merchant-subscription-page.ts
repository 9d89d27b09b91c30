import type { MerchantSubscriptionView } from '@mrn/contracts';
import type { Pool } from '../db.ts';
import { merchantSubscriptionId } from '../ids.ts';

interface SubscriptionRow {
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
 * One page of an account's watched EINs, newest first, each with the live merchant reported under it,
 * over the read models projections publishes for it (projections/src/published-tables.ts). Two services
 * answer with it: query-api's list, and command-api's deletions (delete_selected, delete_all answer
 * with the list's first page after them). Only an answer: nothing is decided from it.
 */
export async function merchantSubscriptionPage(
  pool: Pick<Pool, 'query'>,
  accountId: string,
  page: { page: number; perPage: number; search?: string | undefined },
): Promise<{ data: MerchantSubscriptionView[]; total: number }> {
  const prefix = `${page.search ?? ''}%`;
  const [rows, count] = await Promise.all([
    pool.query<SubscriptionRow>(
      `select s.fein, s.created_at, s.watch_until, m.id as merchant_id, m.legal_name, m.dba, m.city, m.state
         from read.merchant_subscriptions s
         left join read.merchants m on m.fein = s.fein and m.archived_at is null
        where s.account_id = $1 and s.fein like $2
        order by s.created_at desc, s.fein
        limit $3 offset $4`,
      [accountId, prefix, page.perPage, (page.page - 1) * page.perPage],
    ),
    pool.query<{ n: number }>(
      'select count(*)::int as n from read.merchant_subscriptions where account_id = $1 and fein like $2',
      [accountId, prefix],
    ),
  ]);
  return {
    data: rows.rows.map((r) => {
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
    total: count.rows[0]!.n,
  };
}
