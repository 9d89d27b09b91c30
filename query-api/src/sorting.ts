import { resolveSort, type SortDirection, type SortSpec } from '@mrn/contracts';

/** The SQL of one sortable column in a direction: written here, for each key of the spec. */
export type SortOrders<C extends string> = Readonly<Record<C, (direction: 'asc' | 'desc') => string>>;

/**
 * The ORDER BY of a paged list from an allow-list: the column's expression is the one written for the
 * key the route's schema let through, the direction one of two words chosen here. Nothing the caller
 * typed reaches the SQL; a key without an expression is a programming error, not a caller's.
 */
export function orderBy<C extends string>(
  spec: SortSpec<C>,
  query: { sort?: C | undefined; direction?: SortDirection | undefined },
  orders: SortOrders<C>,
): string {
  const { sort, direction } = resolveSort(spec, query);
  const order = Object.hasOwn(orders, sort) ? orders[sort] : undefined;
  if (!order) throw new Error(`no ORDER BY for the sort key ${JSON.stringify(sort)}`);
  return order(direction === 'desc' ? 'desc' : 'asc');
}
