import { useCallback, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { readPositiveInt } from './pagination.ts';

/** Page, page size, search and filters of an admin list, kept in the URL so back and reload keep them. */
export function useListParams(pageSizes: readonly number[], defaultSize: number) {
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
  };
}

export type ListParams = ReturnType<typeof useListParams>;
