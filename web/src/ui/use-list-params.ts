import { resolveSort, SORT_DIRECTIONS, type SortDirection, type SortSpec } from '@mrn/contracts';
import { useCallback, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { readPositiveInt } from './pagination.ts';

/**
 * Page, page size, search, filters and (with a `sortSpec`, for a list sorted on the server) the sort of
 * an admin list, kept in the URL so back and reload keep them.
 */
export function useListParams<C extends string = string>(
  pageSizes: readonly number[],
  defaultSize: number,
  sortSpec?: SortSpec<C>,
) {
  const [params, setParams] = useSearchParams();
  // React Router does not queue setSearchParams' updates: two changes before the next render (a filter,
  // then a search, on a loaded machine) both started from the same params and the second undid the
  // first. Each change starts from the last one made, until a navigation renders new params.
  const rendered = params.toString();
  const latest = useRef({ rendered, params });
  if (latest.current.rendered !== rendered) latest.current = { rendered, params };
  const page = readPositiveInt(params.get('page'), 1);
  const perPage = readPositiveInt(params.get('per_page'), defaultSize, pageSizes);
  const search = params.get('search') ?? '';
  // A sort key or direction the list does not know (an old link, a hand-edited URL) is its own order.
  const askedSort = params.get('sort');
  const askedDirection = params.get('direction');
  const sort = sortSpec
    ? resolveSort(sortSpec, {
        sort: askedSort !== null && Object.hasOwn(sortSpec.columns, askedSort) ? (askedSort as C) : undefined,
        direction: SORT_DIRECTIONS.find((d) => d === askedDirection),
      })
    : undefined;
  const isDefaultSort =
    !sortSpec || (sort?.sort === sortSpec.default.sort && sort.direction === sortSpec.default.direction);

  const change = useCallback(
    (next: Record<string, string | number | undefined>) => {
      const updated = new URLSearchParams(latest.current.params);
      for (const [key, value] of Object.entries(next)) {
        if (value === undefined || value === '' || (key === 'page' && value === 1)) updated.delete(key);
        else updated.set(key, String(value));
      }
      latest.current = { ...latest.current, params: updated };
      setParams(updated, { replace: true });
    },
    [setParams],
  );

  // A narrower search or filter may have fewer pages than the one being shown, so it starts at page 1.
  const setFilter = (name: string, value: string) => change({ [name]: value, page: 1 });

  return {
    page,
    perPage,
    search,
    /** The raw URL value of a list-specific filter. */
    filter: (name: string) => params.get(name),
    setPage: (p: number) => change({ page: p }),
    setPerPage: (size: number) => change({ per_page: size, page: 1 }),
    setSearch: (term: string) => setFilter('search', term.trim()),
    setFilter,
    /** The sort to ask the route for: nothing while it is the list's own order. */
    sortQuery: (isDefaultSort ? {} : { sort: sort?.sort, direction: sort?.direction }) as {
      sort?: C;
      direction?: SortDirection;
    },
    /** For the grid's headers (`DataGrid`'s `sorting`), when the list sorts on the server. */
    sorting:
      sortSpec && sort
        ? {
            ...sort,
            first: sortSpec.columns,
            // Another order starts again from the first page; the list's own order leaves the URL.
            onSort: (key: string, direction: SortDirection) => {
              const own = key === sortSpec.default.sort && direction === sortSpec.default.direction;
              change({ sort: own ? undefined : key, direction: own ? undefined : direction, page: 1 });
            },
          }
        : undefined,
    /** What the rows are sorted by, for the grid's reset key. */
    sortKey: sort ? `${sort.sort}:${sort.direction}` : '',
  };
}

export type ListParams = ReturnType<typeof useListParams>;
