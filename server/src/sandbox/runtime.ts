import { createHmac } from 'node:crypto';
import { type BillingGateway, type CommandDeps, partnerCommandApi } from '@mrn/command-api';
import {
  type Clock,
  type Config,
  createHttpShell,
  createPool,
  type EventStore,
  type Logger,
  type Mailer,
  type Pool,
  PostgresEventStore,
  partnerErrorBody,
  partnerRateLimits,
  registerPartnerApi,
  SearchLog,
  sessionCache,
} from '@mrn/platform';
import { allProjectors, ProjectionRunner } from '@mrn/projections';
import { type SearchRecorder, startQueryService } from '@mrn/query-api';
import type { FastifyInstance } from 'fastify';
import { sandboxTokenHandler } from './token.ts';

/** The `iss` of every sandbox token: production routes a partner call by it (never trusting it). */
export const SANDBOX_ISSUER = 'mrn-sandbox';

/**
 * The sandbox's own signing key, derived from production's: every process of a deployment derives
 * the same one, yet a token signed with either key never verifies with the other.
 */
export const sandboxJwtSecret = (productionSecret: string) =>
  createHmac('sha256', productionSecret).update('mrn partner API sandbox tokens').digest('base64url');

export interface SandboxRuntime {
  app: FastifyInstance;
  pool: Pool;
  store: PostgresEventStore;
  projections: ProjectionRunner;
  searches: SearchRecorder;
  close(): Promise<void>;
}

// Partner routes never send mail or talk to billing; if one ever did, the sandbox must refuse, not
// e-mail a real address or charge a real card because of test data.
const noMail: Mailer = {
  send: async () => {
    throw new Error('The sandbox sends no e-mail.');
  },
  close: () => undefined,
};
const refuseBilling = async (): Promise<never> => {
  throw new Error('The sandbox has no billing.');
};
const noBilling: BillingGateway = {
  mode: 'test',
  publishableKey: '',
  tokenUrl: null,
  subscribe: refuseBilling,
  changePlan: refuseBilling,
  previewPlanChange: refuseBilling,
  cancel: refuseBilling,
  cancelIfLive: refuseBilling,
  invoices: refuseBilling,
  paymentMethod: refuseBilling,
  portalUrl: refuseBilling,
  verifyWebhook: () => {
    throw new Error('The sandbox has no billing.');
  },
  planOfPrice: refuseBilling,
  accountOfCustomer: refuseBilling,
};

/**
 * The partner API v2 over the sandbox database, on a Fastify app of its own: its own event store,
 * projections and search recorder, the partner routes only (no dashboard, web app, billing, webhook
 * dispatcher, Kafka relay or e-mail), and its own JWT key. Production forwards to it (forwarding.ts).
 */
export async function startSandboxRuntime(opts: {
  url: string;
  config: Config;
  logger: Logger;
  clock: Clock;
  productionJwtSecret: string;
  /** Where `test_` credentials are checked: production's event store and read models, read only. */
  production: { pool: Pool; store: EventStore };
}): Promise<SandboxRuntime> {
  const { url, config, clock } = opts;
  const logger = opts.logger.child({ component: 'sandbox' });
  const pool = createPool(url, 8);
  const store = new PostgresEventStore(pool, { listenUrl: url });
  const searchLog = new SearchLog(pool, { listenUrl: url });
  const projections = new ProjectionRunner(
    {
      pool,
      store,
      searches: searchLog,
      logger,
      onApplied: (name) => {
        // The session cache is the process's: a sandbox revocation must apply at once too.
        if (name === 'users' || name === 'accounts') sessionCache.clear();
      },
    },
    allProjectors,
  );
  await projections.start();

  // The same HTTP shell and services as production, with the sandbox's own key, issuer and counters.
  const app = await createHttpShell({
    logger,
    pool,
    jwtSecret: sandboxJwtSecret(opts.productionJwtSecret),
    jwtIssuer: SANDBOX_ISSUER,
    billingTokenUrl: null,
    jsonOnly: true,
  });
  const commandDeps: CommandDeps = {
    app,
    pool,
    store,
    config,
    logger,
    mailer: noMail,
    publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    clock,
    billing: noBilling,
    readModels: projections,
  };
  const partnerCommands = partnerCommandApi(commandDeps, (handlers) => ({
    getApiToken: sandboxTokenHandler({
      production: opts.production,
      sandbox: { store, projections },
      issue: handlers.getApiToken,
    }),
  }));
  const queries = await startQueryService({
    app,
    pool,
    databaseUrl: url,
    store,
    config,
    logger,
    consistency: projections,
    only: 'partner',
    searchConnections: 2,
  });
  await registerPartnerApi(
    app,
    {
      pool,
      rateLimits: partnerRateLimits(config),
      rateLimitScope: 'sandbox',
      notFoundSuffix: ' in the sandbox',
    },
    partnerCommands,
    queries.partnerApi,
  );
  // Outside /api/v2 the sandbox serves nothing; it still answers in the partner API's envelope.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    return reply
      .code(404)
      .send(partnerErrorBody({ errors: `No route ${request.method} ${path} in the sandbox` }, request.id));
  });
  await app.ready();

  return {
    app,
    pool,
    store,
    projections,
    searches: queries.searches,
    async close() {
      await app.close();
      await queries.stop();
      await projections.stop();
      await store.close();
      await pool.end();
    },
  };
}
