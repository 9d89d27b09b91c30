import { createHmac, randomUUID } from 'node:crypto';
import fastifyHelmet from '@fastify/helmet';
import fastifyJwt from '@fastify/jwt';
import { type BillingGateway, type CommandDeps, partnerCommandHandlers } from '@mrn/command-api';
import { partnerRoutes, type RouteSpec } from '@mrn/contracts';
import {
  type Clock,
  type Config,
  createPool,
  type EventStore,
  installBareTokenSupport,
  installErrorHandler,
  installPartnerRateLimits,
  installResponseHeaders,
  installStrictJsonBody,
  type Logger,
  type Mailer,
  type Pool,
  PostgresEventStore,
  partnerErrorBody,
  registerRoutes,
  sessionCache,
} from '@mrn/platform';
import { allProjectors, ProjectionRunner } from '@mrn/projections';
import { consistencyWait, partnerQueryHandlers, type QueryDeps, SearchRecorder } from '@mrn/query-api';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
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

const byService = (service: RouteSpec['service']) =>
  Object.fromEntries(Object.entries(partnerRoutes).filter(([, r]) => r.service === service));

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
  const searches = new SearchRecorder(store);
  const projections = new ProjectionRunner(
    {
      pool,
      store,
      logger,
      onApplied: (name) => {
        // The session cache is the process's: a sandbox revocation must apply at once too.
        if (name === 'users' || name === 'accounts') sessionCache.clear();
      },
    },
    allProjectors,
  );
  await projections.start();

  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: 1_048_576,
    genReqId: () => randomUUID(),
  });
  installErrorHandler(app);
  installStrictJsonBody(app);
  installResponseHeaders(app);
  installBareTokenSupport(app);
  await installPartnerRateLimits(app, {
    pool,
    perKeyPerMinute: config.RATE_LIMIT_API_PER_MINUTE,
    tokenPerMinute: config.RATE_LIMIT_TOKEN_PER_MINUTE,
    scope: 'sandbox',
  });
  // JSON only: nothing may be framed, run or loaded from an answer.
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  await app.register(fastifyJwt, {
    secret: sandboxJwtSecret(opts.productionJwtSecret),
    sign: { iss: SANDBOX_ISSUER },
    verify: { allowedIss: SANDBOX_ISSUER },
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
  const commands = partnerCommandHandlers(commandDeps);
  const validateResponses = config.NODE_ENV !== 'production';
  registerRoutes(
    app,
    byService('command'),
    {
      ...commands,
      getApiToken: sandboxTokenHandler({
        production: opts.production,
        sandbox: { store, projections },
        issue: commands.getApiToken,
      }),
    } as never,
    { pool, validateResponses },
  );
  const queryDeps: QueryDeps = {
    pool,
    lookups: pool,
    store,
    searches,
    config,
    logger,
    app,
    consistency: projections,
  };
  registerRoutes(app, byService('query'), partnerQueryHandlers(queryDeps) as never, {
    pool,
    validateResponses,
    // As the production query API: X-Consistent-After waits for the route's read models.
    beforeHandler: consistencyWait(projections, config.CONSISTENCY_TIMEOUT_MS),
  });
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
    searches,
    async close() {
      await app.close();
      await searches.flush();
      await projections.stop();
      await store.close();
      await pool.end();
    },
  };
}
