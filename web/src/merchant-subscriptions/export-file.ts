import { buildPath, routes } from '@mrn/contracts';
import { downloadRoute } from '../api/download.ts';
import { toQueryString } from '../api/query-string.ts';

/** The account's watched merchants with their risk signals as CSV, as the list's search narrows them. */
export function downloadWatchedMerchants(accountId: string, search: string): Promise<string> {
  const route = routes.exportMerchantSubscriptions;
  return downloadRoute(
    { ...route, path: buildPath(route.path, { id: accountId }) + toQueryString({ search }) },
    'watched-merchants.csv',
  );
}
