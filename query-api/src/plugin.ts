import { partnerRoutes, type RoutesOf, routes } from '@mrn/contracts';
import { type HandlersFor, loadMigrations, type PartnerApiMount, registerRoutes } from '@mrn/platform';
import { accountQueryHandlers } from './accounts/account-handlers.ts';
import { analyticsHandlers } from './analytics/analytics-handlers.ts';
import { appSettingsHandlers } from './app-settings/app-settings-handlers.ts';
import { brokerHandlers } from './brokers/broker-handlers.ts';
import { consistencyWait } from './consistency.ts';
import type { QueryDeps } from './context.ts';
import { disputeQueryHandlers } from './disputes/dispute-handlers.ts';
import { merchantSubscriptionQueryHandlers } from './merchant-subscriptions/merchant-subscription-handlers.ts';
import { historyHandlers } from './merchants/history-handlers.ts';
import { inquiryAuditHandlers } from './merchants/inquiry-audit-handlers.ts';
import { linkedMerchantHandlers } from './merchants/linked-merchant-handlers.ts';
import { merchantQueryHandlers } from './merchants/merchant-handlers.ts';
import { partnerQueryHandlers } from './partner-api/partner-api-handlers.ts';
import { screeningQueryHandlers } from './screenings/screening-handlers.ts';
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
    ...linkedMerchantHandlers(deps),
    ...inquiryAuditHandlers(deps),
    ...brokerHandlers(deps),
    ...accountQueryHandlers(deps),
    ...disputeQueryHandlers(deps),
    ...merchantSubscriptionQueryHandlers(deps),
    ...partnerQueryHandlers(deps),
    ...analyticsHandlers(deps),
    ...widgetHandlers(deps),
    ...screeningQueryHandlers(deps),
  };
}

/** The partner API's queries, mounted in the /api/v2 plugin (`registerPartnerApi`). */
export const partnerQueryRoutes = Object.fromEntries(
  Object.entries(queryRoutes).filter(([name]) => name in partnerRoutes),
) as Pick<RoutesOf<'query'>, keyof RoutesOf<'query'> & keyof typeof partnerRoutes>;

/** The dashboard API's queries, on the app itself. */
const dashboardQueryRoutes = Object.fromEntries(
  Object.entries(queryRoutes).filter(([name]) => !(name in partnerRoutes)),
) as Omit<RoutesOf<'query'>, keyof typeof partnerRoutes>;

/**
 * Mounts the dashboard API's queries on the app (none for the sandbox: `only: 'partner'`) and returns
 * the partner API's, for the composition to mount in its /api/v2 plugin. Both honour
 * X-Consistent-After by waiting for the route's read models first.
 */
export function registerQueryApi(deps: QueryDeps, only: 'all' | 'partner' = 'all'): PartnerApiMount {
  const options = {
    pool: deps.pool,
    validateResponses: deps.config.NODE_ENV !== 'production',
    beforeHandler: consistencyWait(deps.consistency, deps.config.CONSISTENCY_TIMEOUT_MS),
  };
  if (only === 'partner') {
    const handlers = partnerQueryHandlers(deps);
    return (v2) => registerRoutes(v2, partnerQueryRoutes, handlers as never, options);
  }
  const handlers = queryHandlers(deps);
  registerRoutes(deps.app, dashboardQueryRoutes, handlers, options);
  return (v2) => registerRoutes(v2, partnerQueryRoutes, handlers, options);
}

export const queryMigrations = () => loadMigrations('query-api', new URL('../migrations/', import.meta.url));
