import { partnerRoutes, type RoutesOf, routes } from '@mrn/contracts';
import { type HandlersFor, loadMigrations, type PartnerApiMount, registerRoutes } from '@mrn/platform';
import { accountHandlers } from './accounts/account-handlers.ts';
import { contributionMails } from './accounts/contribution-mail-source.ts';
import { appSettingsHandlers } from './app-settings/app-settings-handlers.ts';
import { authHandlers } from './auth/auth-handlers.ts';
import { passwordHandlers } from './auth/password-handlers.ts';
import { billingHandlers } from './billing/billing-handlers.ts';
import { renewalFailedMails } from './billing/renewal-failed-mail-source.ts';
import { registerStripeWebhooks } from './billing/webhooks.ts';
import type { CommandDeps } from './context.ts';
import { disputeHandlers } from './disputes/dispute-handlers.ts';
import { disputeMails } from './disputes/dispute-mail-source.ts';
import { registerDirectUploads } from './imports/direct-uploads.ts';
import { importHandlers } from './imports/import-handlers.ts';
import { startImportResumer } from './imports/resume-imports.ts';
import { startMailReactor } from './mail/mail-outbox.ts';
import { merchantSubscriptionHandlers } from './merchant-subscriptions/merchant-subscription-handlers.ts';
import { merchantHandlers } from './merchants/merchant-handlers.ts';
import { partnerCommandHandlers } from './partner-api/partner-api-handlers.ts';
import { sandboxHandlers } from './sandbox/sandbox-handlers.ts';
import { screeningHandlers } from './screenings/screening-handlers.ts';
import { userHandlers } from './users/user-handlers.ts';

/** The command side's slice of the route table. */
export const commandRoutes = Object.fromEntries(
  Object.entries(routes).filter(([, r]) => r.service === 'command'),
) as RoutesOf<'command'>;

export function commandHandlers(deps: CommandDeps): HandlersFor<RoutesOf<'command'>> {
  return {
    ...authHandlers(deps),
    ...appSettingsHandlers(deps),
    ...merchantHandlers(deps),
    ...accountHandlers(deps),
    ...userHandlers(deps),
    ...passwordHandlers(deps),
    ...disputeHandlers(deps),
    ...billingHandlers(deps),
    ...merchantSubscriptionHandlers(deps),
    ...importHandlers(deps),
    ...partnerCommandHandlers(deps),
    ...sandboxHandlers(deps),
    ...screeningHandlers(deps),
  };
}

/** The partner API's commands, mounted in the /api/v2 plugin (`registerPartnerApi`). */
export const partnerCommandRoutes = Object.fromEntries(
  Object.entries(commandRoutes).filter(([name]) => name in partnerRoutes),
) as Pick<RoutesOf<'command'>, keyof RoutesOf<'command'> & keyof typeof partnerRoutes>;

/** The dashboard API's commands, on the app itself. */
const dashboardCommandRoutes = Object.fromEntries(
  Object.entries(commandRoutes).filter(([name]) => !(name in partnerRoutes)),
) as Omit<RoutesOf<'command'>, keyof typeof partnerRoutes>;

export type PartnerCommandHandlers = ReturnType<typeof partnerCommandHandlers>;

/**
 * The partner API's commands only (the sandbox: no dashboard, billing, uploads or consumers), with
 * handlers replaced where that app differs (`override`: the sandbox's token).
 */
export function partnerCommandApi(
  deps: CommandDeps,
  override: (handlers: PartnerCommandHandlers) => Partial<PartnerCommandHandlers> = () => ({}),
): PartnerApiMount {
  const handlers = partnerCommandHandlers(deps);
  return (v2) =>
    registerRoutes(v2, partnerCommandRoutes, { ...handlers, ...override(handlers) } as never, {
      pool: deps.pool,
      validateResponses: deps.config.NODE_ENV !== 'production',
    });
}

/**
 * Mounts the dashboard API's commands on the app (JWT must already be registered on it) and returns
 * the partner API's, for the composition to mount in its /api/v2 plugin.
 */
export function registerCommandApi(deps: CommandDeps): PartnerApiMount {
  const handlers = commandHandlers(deps);
  const options = { pool: deps.pool, validateResponses: deps.config.NODE_ENV !== 'production' };
  registerRoutes(deps.app, dashboardCommandRoutes, handlers, options);
  registerStripeWebhooks(deps);
  registerDirectUploads(deps);
  startImportResumer(deps);
  // E-mails from the log (one outbox with its checkpoint): to business owners about their disputes, to
  // funders' admins about their contribution warnings and failed renewals.
  const productName = deps.config.PRODUCT_NAME;
  startMailReactor(deps, [
    disputeMails({ store: deps.store, productName }),
    contributionMails({ ...deps, productName, publicUrl: () => deps.publicUrl }),
    renewalFailedMails({ ...deps, productName, publicUrl: () => deps.publicUrl }),
  ]);
  return (v2) => registerRoutes(v2, partnerCommandRoutes, handlers, options);
}

export const commandMigrations = () =>
  loadMigrations('command-api', new URL('../migrations/', import.meta.url));
