import { partnerRoutes, type RoutesOf, routes } from '@mrn/contracts';
import { type HandlersFor, loadMigrations, registerRoutes } from '@mrn/platform';
import { accountQueryHandlers } from './accounts/account-handlers.ts';
import { analyticsHandlers } from './analytics/analytics-handlers.ts';
import { appSettingsHandlers } from './app-settings/app-settings-handlers.ts';
import { consistencyWait } from './consistency.ts';
import type { QueryDeps } from './context.ts';
import { disputeQueryHandlers } from './disputes/dispute-handlers.ts';
import { merchantSubscriptionQueryHandlers } from './merchant-subscriptions/merchant-subscription-handlers.ts';
import { historyHandlers } from './merchants/history-handlers.ts';
import { merchantQueryHandlers } from './merchants/merchant-handlers.ts';
import { partnerQueryHandlers } from './partner-api/partner-api-handlers.ts';
import { searchHandlers } from './search/search-handlers.ts';
import { widgetHandlers } from './widgets/widget-handlers.ts';

export const queryRoutes = Object.fromEntries(
  Object.entries(routes).filter(([, r]) => r.service === 'query'),
) as RoutesOf<'query'>;

export function queryHandlers(deps: QueryDeps): HandlersFor<RoutesOf<'query'>> {
  return {
    ...appSettingsHandlers(deps),
    ...searchHandlers(deps),
    ...merchantQueryHandlers(deps),
    ...historyHandlers(deps),
    ...accountQueryHandlers(deps),
    ...disputeQueryHandlers(deps),
    ...merchantSubscriptionQueryHandlers(deps),
    ...partnerQueryHandlers(deps),
    ...analyticsHandlers(deps),
    ...widgetHandlers(deps),
  };
}

/** The partner API's queries: the slice of the query routes the sandbox serves. */
export const partnerQueryRoutes = Object.fromEntries(
  Object.entries(queryRoutes).filter(([name]) => name in partnerRoutes),
) as Pick<RoutesOf<'query'>, keyof RoutesOf<'query'> & keyof typeof partnerRoutes>;

/**
 * Mounts every query route (or only the partner API's: the sandbox); honours X-Consistent-After by
 * waiting for the route's read models first.
 */
export function registerQueryApi(deps: QueryDeps, only: 'all' | 'partner' = 'all'): void {
  const table = only === 'partner' ? partnerQueryRoutes : queryRoutes;
  const handlers = only === 'partner' ? partnerQueryHandlers(deps) : queryHandlers(deps);
  registerRoutes(deps.app, table, handlers as never, {
    pool: deps.pool,
    validateResponses: deps.config.NODE_ENV !== 'production',
    beforeHandler: consistencyWait(deps.consistency, deps.config.CONSISTENCY_TIMEOUT_MS),
  });
}

export const queryMigrations = () => loadMigrations('query-api', new URL('../migrations/', import.meta.url));
