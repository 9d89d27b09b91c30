import type { QueryResultRow } from 'pg';
import type { Queryable } from '../db.ts';

/** One page of a list, in the words of its SQL. */
export interface PageQuery {
  /** The columns of each row, over the aliases of `from`. */
  select: string;
  /** `from …` with the joins the rows need (written with its keyword, so the ownership test reads it). */
  from: string;
  /** `from …` the count needs: the rows' without the joins that only add columns (default `from`). */
  countFrom?: string;
  /** The condition, over `params` as $1, $2…; `true` for every row. */
  where: string;
  params?: readonly unknown[];
  /** Ends with a unique key, so that pages never overlap. */
  orderBy: string;
  /** 1-based. */
  page: number;
  perPage: number;
}

/**
 * A page of a list and the count of the whole list, the two statements side by side on the pool: every
 * paged list of the product answers both (its `pagination.total_count`), and each wrote them by hand.
 */
export async function pageOf<R extends QueryResultRow>(
  db: Queryable,
  q: PageQuery,
): Promise<{ rows: R[]; total: number }> {
  const params = q.params ?? [];
  const n = params.length;
  const [rows, count] = await Promise.all([
    db.query<R>(
      `select ${q.select} ${q.from} where ${q.where} order by ${q.orderBy} limit $${n + 1} offset $${n + 2}`,
      [...params, q.perPage, (q.page - 1) * q.perPage],
    ),
    db.query<{ n: number }>(`select count(*)::int as n ${q.countFrom ?? q.from} where ${q.where}`, [
      ...params,
    ]),
  ]);
  return { rows: rows.rows, total: count.rows[0]?.n ?? 0 };
}
