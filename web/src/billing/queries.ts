import { routes } from '@mrn/contracts';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { call } from '../api/client.ts';
import { useApiQuery } from '../api/hooks.ts';
import { planPrices } from './money.ts';

/** How the card panel gets a token and what the plans cost; it changes only with a deployment. */
export function useBillingConfig() {
  const config = useApiQuery(routes.getBillingConfig, undefined, {
    select: (answer) => answer.data,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { ...config, prices: planPrices(config.data?.prices) };
}

/**
 * The card on file. The route is a POST whose account is in the body, so the cache key names the
 * account itself (the route table's keys hold only params and query).
 */
export function usePaymentMethod(accountId: string) {
  return useQuery({
    queryKey: [routes.getPaymentMethod.method, routes.getPaymentMethod.path, { account_id: accountId }],
    queryFn: ({ signal }) => call(routes.getPaymentMethod, { body: { account_id: accountId }, signal }),
    select: (answer) => answer.data.card,
  });
}

const STALE_AFTER_A_MEMBERSHIP_CHANGE = ['/api/accounts', '/api/users', '/api/members', '/api/stripe'];

/**
 * After a membership change: the account, its members, invoices and the card on file. Not the plan
 * change preview: it is asked afresh each time, and asked again now it would be refused (already PRO).
 */
export const invalidateBillingData = (queryClient: QueryClient): Promise<void> =>
  queryClient.invalidateQueries({
    predicate: ({ queryKey }) => {
      const path = queryKey[1];
      return (
        typeof path === 'string' &&
        path !== routes.previewPlanChange.path &&
        STALE_AFTER_A_MEMBERSHIP_CHANGE.some((p) => path === p || path.startsWith(`${p}/`))
      );
    },
  });
