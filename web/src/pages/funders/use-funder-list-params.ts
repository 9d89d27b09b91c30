import { FUNDER_SORT } from '@mrn/contracts';
import {
  MEMBERSHIP_FILTERS,
  type MembershipFilter,
  PLAN_FILTERS,
  type PlanFilter,
  readFilter,
} from '../../accounts/membership.ts';
import { useListParams } from '../../ui/use-list-params.ts';

export const FUNDER_PAGE_SIZES = [5, 10, 25] as const;
export const FUNDER_DEFAULT_PAGE_SIZE = 25;

/** The funders list's URL state: the shared page, size, search and sort, plus its membership and plan filters. */
export function useFunderListParams() {
  const list = useListParams(FUNDER_PAGE_SIZES, FUNDER_DEFAULT_PAGE_SIZE, FUNDER_SORT);
  return {
    ...list,
    membership: readFilter<MembershipFilter>(list.filter('membership'), MEMBERSHIP_FILTERS),
    plan: readFilter<PlanFilter>(list.filter('plan'), PLAN_FILTERS),
    setMembership: (value: MembershipFilter) => list.setFilter('membership', value),
    setPlan: (value: PlanFilter) => list.setFilter('plan', value),
  };
}
