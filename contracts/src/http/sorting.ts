import { z } from '../zod.ts';

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/**
 * The columns a paged list sorts by on the server: each column's key (what `sort` takes) and the
 * direction it is sorted in first (names A→Z, dates newest first), and the list's own order.
 */
export interface SortSpec<C extends string = string> {
  columns: Readonly<Record<C, SortDirection>>;
  default: { sort: C; direction: SortDirection };
}

/** A spec whose keys are those of its columns (the default is checked against them, not added to them). */
export const sortSpec = <const C extends string>(spec: {
  columns: Readonly<Record<C, SortDirection>>;
  default: { sort: NoInfer<C>; direction: SortDirection };
}): SortSpec<C> => spec;

/**
 * `sort` (one of the spec's column keys) and `direction` (`asc` or `desc`), each refused with a 400
 * naming it when it is anything else. Left out, the list's own order; `sort` alone, that column's
 * first direction. Answers the pair as the handler uses it: a key of the spec and a direction, never
 * the caller's text.
 */
export const sortQuery = <C extends string>(spec: SortSpec<C>) => {
  const keys = Object.keys(spec.columns) as [C, ...C[]];
  return {
    sort: z.enum(keys, { error: `must be one of ${keys.join(', ')}` }).optional(),
    direction: z.enum(SORT_DIRECTIONS, { error: 'must be asc or desc' }).optional(),
  };
};

/** The sort a request asked for, completed with the spec's defaults. */
export function resolveSort<C extends string>(
  spec: SortSpec<C>,
  query: { sort?: C | undefined; direction?: SortDirection | undefined },
): { sort: C; direction: SortDirection } {
  if (!query.sort) return { sort: spec.default.sort, direction: query.direction ?? spec.default.direction };
  return { sort: query.sort, direction: query.direction ?? spec.columns[query.sort] };
}

/** The funders list (`GET /api/accounts`). */
export const FUNDER_SORT = sortSpec({
  columns: { name: 'asc', merchants_added: 'desc', last_added: 'desc', contribution: 'asc' },
  default: { sort: 'name', direction: 'asc' },
});
/** The live merchants list (`GET /api/merchants`). */
export const MERCHANT_SORT = sortSpec({
  columns: { name: 'asc', ein: 'asc', added: 'desc' },
  default: { sort: 'added', direction: 'desc' },
});
/** The deleted merchants list (`GET /api/deleted_merchants`). */
export const DELETED_MERCHANT_SORT = sortSpec({
  columns: { name: 'asc', ein: 'asc', deleted: 'desc' },
  default: { sort: 'deleted', direction: 'desc' },
});
/** The reported notes list (`GET /api/reported_notes`). */
export const REPORTED_NOTE_SORT = sortSpec({
  columns: { name: 'asc', ein: 'asc', reported: 'desc', category: 'asc', reported_by: 'asc' },
  default: { sort: 'reported', direction: 'desc' },
});
