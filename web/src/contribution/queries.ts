import { routes, type SessionUser } from '@mrn/contracts';
import { useApiQuery } from '../api/hooks.ts';
import { hasOwnContribution } from './display.ts';
import { standingOf } from './standing.ts';

/** While a warning or lock stands, the figure is looked at again this often: it lifts by itself. */
export const STANDING_REFRESH_MS = 30_000;

/**
 * A funder's contribution (GET /api/accounts/{id}/contribution), one cached answer for the banner, the
 * top bar's pill and the contribution view. Looked at again every 30 s while warned or locked, so the
 * banner goes once the funder's records bring the figure back.
 */
export function useContribution(accountId: string | undefined) {
  return useApiQuery(
    routes.getAccountContribution,
    { params: { id: accountId ?? '' } },
    {
      select: (answer) => answer.data,
      enabled: accountId !== undefined,
      refetchInterval: (query) => {
        const view = query.state.data?.data;
        return view && standingOf(view) !== 'ok' && standingOf(view) !== 'overridden'
          ? STANDING_REFRESH_MS
          : false;
      },
    },
  );
}

/**
 * The signed-in member's own funder; nothing for platform administrators (the platform's own account is
 * never assessed, and its figure is not theirs to watch).
 */
export const useOwnContribution = (user: SessionUser | null) =>
  useContribution(user && hasOwnContribution(user) ? user.account_resource_id : undefined);
