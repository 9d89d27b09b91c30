import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyHelmet from '@fastify/helmet';
import fastifyJwt from '@fastify/jwt';
import fastifyStatic from '@fastify/static';
import {
  registerCommandApi,
  runContributionClock,
  runSearchWatchReactor,
  settleBackground,
} from '@mrn/command-api';
import {
  type Clock,
  type Config,
  createLogger,
  createMailer,
  createPool,
  installBareTokenSupport,
  installErrorHandler,
  installPartnerRateLimits,
  installResponseHeaders,
  installStrictJsonBody,
  isPartnerApi,
  type Logger,
  PostgresEventStore,
  partnerErrorBody,
  sessionCache,
  systemClock,
} from '@mrn/platform';
import { allProjectors, ProjectionRunner } from '@mrn/projections';
import { registerQueryApi, SearchRecorder } from '@mrn/query-api';
import { startDispatcher } from '@mrn/webhook-dispatcher';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { startBilling } from './billing.ts';
import { ensurePlatformAdmin } from './bootstrap.ts';
import { allMigrations, openDatabase } from './database.ts';
import { loadDemoNetwork } from './demo.ts';
import { startDevMailbox } from './dev-mailbox.ts';
import { registerHealthRoutes } from './health.ts';
import { resolveJwtSecret } from './jwt-secret.ts';
import { startKafka } from './kafka.ts';
import { registerOpenApiDocument } from './openapi.ts';
import { installSandboxRouting } from './sandbox/forwarding.ts';
import { Sandbox } from './sandbox/sandbox.ts';

/** The built web app: `web/dist`, or `WEB_DIST` (a build of one's own, e.g. to test a change beside another). */
export const DEFAULT_WEB_DIST =
  process.env.WEB_DIST?.trim() || fileURLToPath(new URL('../../web/dist/', import.meta.url));

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  store: PostgresEventStore;
  searches: SearchRecorder;
  projections: ProjectionRunner;
  databaseUrl: string;
  /** The partner API's sandbox (`test_` credentials), started on first use. */
  sandbox: Sandbox;
  admin: { created: boolean; email: string; password?: string };
  close(): Promise<void>;
}

/**
 * Everything in one process (DESIGN §2 `server/`): database, migrations, projections, both APIs
 * under /api, /health and the web app. The same plugins run split in the scaled topology.
 */
export async function startServer(
  config: Config,
  opts: { logger?: Logger; demo?: boolean; webDist?: string; listen?: boolean; clock?: Clock } = {},
): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL);
  const db = await openDatabase(config, logger);
  const store = new PostgresEventStore(db.pool, { listenUrl: db.url });
  // Search facts are many and individually cheap: their own small pool commits asynchronously.
  const searchPool = createPool(db.url, 4, { asynchronousCommit: true });
  const searches = new SearchRecorder(new PostgresEventStore(searchPool, { listenUrl: db.url }));
  const lookupPool = createPool(db.url, 6, { genericPlans: true });
  const projections = new ProjectionRunner(
    {
      pool: db.pool,
      store,
      logger,
      // Sessions are checked against users and accounts: a change there must not wait for the cache.
      onApplied: (name) => {
        if (name === 'users' || name === 'accounts') sessionCache.clear();
      },
    },
    allProjectors,
  );
  await projections.start();

  const app: FastifyInstance = Fastify({
    loggerInstance: logger.child({ component: 'http' }) as FastifyBaseLogger,
    bodyLimit: 1_048_576,
    // Unique across processes and restarts: it is the correlation id of the events a request writes
    // (the dispatcher folds a merchant's first note into its Merchant Added by it), not only a log tag.
    genReqId: () => randomUUID(),
  });
  const jwtSecret = resolveJwtSecret(config.JWT_SECRET, config.DATA_DIR);
  // The partner API's sandbox: routed first, so nothing of production acts on a request for it.
  const sandbox = new Sandbox({
    productionUrl: db.url,
    production: { pool: db.pool, store },
    productionJwtSecret: jwtSecret,
    config,
    logger,
    clock: opts.clock ?? systemClock,
  });
  installSandboxRouting(app, sandbox);
  installErrorHandler(app);
  installStrictJsonBody(app);
  installResponseHeaders(app);
  installBareTokenSupport(app);
  await installPartnerRateLimits(app, {
    pool: db.pool,
    perKeyPerMinute: config.RATE_LIMIT_API_PER_MINUTE,
    tokenPerMinute: config.RATE_LIMIT_TOKEN_PER_MINUTE,
  });
  const billing = await startBilling(config, logger);
  await app.register(fastifyHelmet, securityHeaders(billing.gateway.tokenUrl));
  await app.register(fastifyJwt, { secret: jwtSecret });
  const mailbox = config.SMTP_URL ? undefined : await startDevMailbox(db.pool, logger);
  const mailer = createMailer(
    config.SMTP_URL ?? mailbox!.smtpUrl,
    `${config.PRODUCT_NAME} <no-reply@merchantrisk.local>`,
  );
  const commandDeps = {
    app,
    pool: db.pool,
    store,
    config,
    logger,
    mailer,
    // Set again once listening when PORT is 0 (tests): links in e-mails and the billing portal's way
    // back must name the port the server really has.
    publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    clock: opts.clock ?? systemClock,
    billing: billing.gateway,
    sandbox,
    // Work after a command that reads a read model waits for the projections here (one process).
    readModels: projections,
  };
  registerCommandApi(commandDeps);
  const kafka = startKafka(config, { pool: db.pool, store, logger });
  const dispatcher = startDispatcher({
    pool: db.pool,
    store,
    mailer,
    clock: opts.clock ?? systemClock,
    logger: logger.child({ component: 'webhook-dispatcher' }),
    publicUrl: () => commandDeps.publicUrl,
    allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
    source: kafka.dispatcherSource,
  });
  registerQueryApi({
    app,
    pool: db.pool,
    lookups: lookupPool,
    store,
    searches,
    config,
    logger,
    consistency: projections,
  });
  registerOpenApiDocument(app, {
    productName: config.PRODUCT_NAME,
    // PUBLIC_URL only: without it the document's addresses are relative, never this machine's.
    publicUrl: config.PUBLIC_URL,
    rateLimits: {
      perApiKeyPerMinute: config.RATE_LIMIT_API_PER_MINUTE,
      tokenPerMinute: config.RATE_LIMIT_TOKEN_PER_MINUTE,
    },
  });
  registerHealthRoutes(app, { pool: db.pool, store, projections, migrations: allMigrations() });
  await serveWeb(app, opts.webDist ?? DEFAULT_WEB_DIST, logger);
  const contributionClock = runContributionClock({
    store,
    pool: db.pool,
    clock: opts.clock ?? systemClock,
    logger,
  });
  // "Watch merchants we search": subscribes accounts to what they search, following the log.
  const searchWatch = runSearchWatchReactor({
    store,
    pool: db.pool,
    clock: opts.clock ?? systemClock,
    logger: logger.child({ component: 'search-watch' }),
  });

  const admin = await ensurePlatformAdmin(
    { store, logger },
    { productName: config.PRODUCT_NAME, email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD },
  );
  if (opts.demo) await loadDemoNetwork(commandDeps, projections);

  let url = '';
  if (opts.listen !== false) {
    url = await app.listen({ port: config.PORT, host: config.HOST });
    url = url.replace('0.0.0.0', 'localhost').replace('127.0.0.1', 'localhost');
    const address = app.server.address();
    if (address && typeof address === 'object') {
      billing.listening(`http://127.0.0.1:${address.port}`);
      if (!config.PUBLIC_URL) commandDeps.publicUrl = `http://localhost:${address.port}`;
    }
  }
  return {
    url,
    app,
    store,
    searches,
    projections,
    databaseUrl: db.url,
    sandbox,
    admin,
    async close() {
      contributionClock.stop();
      await app.close();
      await sandbox.close();
      await settleBackground();
      await searchWatch.stop();
      await dispatcher.stop();
      await kafka.stop();
      await billing.stop();
      mailer.close();
      await mailbox?.close();
      await searches.flush();
      await searchPool.end();
      await lookupPool.end();
      await projections.stop();
      await store.close();
      await db.close();
    },
  };
}

/**
 * Security headers on every answer (API, files, the SPA, 404s). The web app's bundle has no inline
 * script, so scripts come only from our origin; Blueprint and React set inline styles, which CSP can
 * only allow wholesale ('unsafe-inline' for styles, never for scripts). The MFA QR code is a data: image.
 * No one frames us (clickjacking on sign-in and money decisions).
 */
function securityHeaders(billingTokenUrl: string | null) {
  // The card panel talks to the payment provider from the page: in billing test mode our card form
  // posts to the test server's token endpoint; with Stripe, Stripe.js and Elements (script, frames, API).
  const billing = billingTokenUrl
    ? { connect: [new URL(billingTokenUrl).origin], script: [], frame: [] }
    : {
        connect: ['https://api.stripe.com'],
        script: ['https://js.stripe.com'],
        frame: ['https://js.stripe.com'],
      };
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...billing.script],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...billing.connect],
        frameSrc: billing.frame.length > 0 ? billing.frame : ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' as const },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
    // Cross-origin isolation would break nothing today but blocks future partner embeds for no gain.
    crossOriginEmbedderPolicy: false,
  };
}

/** The built SPA; every GET outside /api and /health answers with its index page. */
async function serveWeb(app: FastifyInstance, dist: string, logger: Logger): Promise<void> {
  const hasWeb = existsSync(`${dist}/index.html`);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      maxAge: '1h',
      immutable: false,
      // web/scripts/precompress.mjs writes .br and .gz next to each file at build time.
      preCompressed: true,
      // The page must be revalidated (it names the current bundle); the bundle's hashed files never change.
      setHeaders: (reply, path) => {
        // The path is the file sent: with a precompressed copy, index.html.br or index.html.gz.
        if (/index\.html(\.br|\.gz)?$/.test(path)) reply.header('cache-control', 'no-cache');
        else if (path.includes('/assets/'))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  } else {
    logger.warn({ dist }, 'web app not built: run `npm run build -w @mrn/web`');
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // Screens get the SPA; a missing file (an old asset name) gets a real 404, not the page.
    const isFile = path.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(path);
    if (request.method === 'GET' && !isFile && !path.startsWith('/api/') && path !== '/api') {
      if (!hasWeb)
        return reply
          .code(503)
          .type('text/plain')
          .send('The web app is not built. Run: npm run build -w @mrn/web');
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    const body = { errors: `No route ${request.method} ${path}` };
    return reply
      .code(404)
      .send(isPartnerApi(path) ? partnerErrorBody(body, request.id) : { ...body, request_id: request.id });
  });
}
