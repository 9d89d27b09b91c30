import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { readPositiveInt } from './pagination.ts';

/** Page, page size and search of an admin list, kept in the URL so back and reload keep them. */
export function useListParams(pageSizes: readonly number[], defaultSize: number) {
  const [params, setParams] = useSearchParams();
  const page = readPositiveInt(params.get('page'), 1);
  const perPage = readPositiveInt(params.get('per_page'), defaultSize, pageSizes);
  const search = params.get('search') ?? '';

  const change = useCallback(
    (next: { page?: number; per_page?: number; search?: string }) => {
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          for (const [key, value] of Object.entries(next)) {
            if (value === undefined || value === '' || (key === 'page' && value === 1)) updated.delete(key);
            else updated.set(key, String(value));
          }
          return updated;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  return {
    page,
    perPage,
    search,
    setPage: (p: number) => change({ page: p }),
    setPerPage: (size: number) => change({ per_page: size, page: 1 }),
    setSearch: (term: string) => change({ search: term.trim(), page: 1 }),
  };
}
