import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  MEMBERSHIP_FILTERS,
  type MembershipFilter,
  PLAN_FILTERS,
  type PlanFilter,
  readFilter,
} from '../../accounts/membership.ts';
import { readPositiveInt } from '../../ui/pagination.ts';

export const FUNDER_PAGE_SIZES = [5, 10, 25] as const;
export const FUNDER_DEFAULT_PAGE_SIZE = 25;

/** Page, size, name search and the two filters of the funders list, kept in the URL. */
export function useFunderListParams() {
  const [params, setParams] = useSearchParams();
  const page = readPositiveInt(params.get('page'), 1);
  const perPage = readPositiveInt(params.get('per_page'), FUNDER_DEFAULT_PAGE_SIZE, FUNDER_PAGE_SIZES);
  const search = params.get('search') ?? '';
  const membership = readFilter<MembershipFilter>(params.get('membership'), MEMBERSHIP_FILTERS);
  const plan = readFilter<PlanFilter>(params.get('plan'), PLAN_FILTERS);

  const change = useCallback(
    (next: Record<string, string | number | undefined>) => {
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
    membership,
    plan,
    setPage: (p: number) => change({ page: p }),
    setPerPage: (size: number) => change({ per_page: size, page: 1 }),
    setSearch: (term: string) => change({ search: term.trim(), page: 1 }),
    setMembership: (value: MembershipFilter) => change({ membership: value, page: 1 }),
    setPlan: (value: PlanFilter) => change({ plan: value, page: 1 }),
  };
}
