import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { startCommandService } from '@mrn/command-api';
import {
  type Clock,
  type Config,
  createHttpShell,
  createLogger,
  createMailer,
  createMetrics,
  type EventStore,
  followSessionChanges,
  healthContract,
  type Logger,
  listenOrigin,
  type OpsListener,
  openEventStore,
  PgNotifications,
  partnerRateLimits,
  registerHealthRoutes,
  registerPartnerApi,
  resolveJwtSecret,
  SearchLog,
  sessionCache,
  startOpsListener,
  systemClock,
} from '@mrn/platform';
import { allProjectors, ProjectionRunner, projectionsProbe } from '@mrn/projections';
import { type SearchRecorder, startQueryService } from '@mrn/query-api';
import { registerWebhookApi, startDispatcher, startKafka } from '@mrn/webhook-dispatcher';
import type { FastifyInstance } from 'fastify';
import { startBilling } from './billing.ts';
import { ensurePlatformAdmin } from './bootstrap.ts';
import { allMigrations, openDatabase } from './database.ts';
import { loadDemoNetwork } from './demo.ts';
import { startDevMailbox } from './dev-mailbox.ts';

import { installSandboxRouting } from './sandbox/forwarding.ts';
import { Sandbox } from './sandbox/sandbox.ts';

/** The built web app: `web/dist`, or `WEB_DIST` (a build of one's own, e.g. to test a change beside another). */
export const DEFAULT_WEB_DIST =
  process.env.WEB_DIST?.trim() || fileURLToPath(new URL('../../web/dist/', import.meta.url));

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  store: EventStore;
  searches: SearchRecorder;
  projections: ProjectionRunner;
  /** The operations listener: /metrics and detailed health, on METRICS_HOST:METRICS_PORT (loopback). */
  ops: OpsListener;
  databaseUrl: string;
  /** The partner API's sandbox (`test_` credentials), started on first use. */
  sandbox: Sandbox;
  admin: { created: boolean; email: string; password?: string };
  /** The contribution reactor of the command service (a test stops it to hold a lock in place). */
  contributionReactor: { stop(): Promise<void> };
  close(): Promise<void>;
}

/**
 * Everything in one process (DESIGN §2 `server/`): database, migrations, projections, both APIs
 * under /api, /health and the web app. Each service is started here by the same function its own
 * process runs (`npm run start:split`), on the same HTTP shell.
 */
export async function startServer(
  config: Config,
  opts: { logger?: Logger; demo?: boolean; webDist?: string; listen?: boolean; clock?: Clock } = {},
): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL);
  const clock = opts.clock ?? systemClock;
  const db = await openDatabase(config, logger);
  const metrics = createMetrics('all-in-one', { defaultMetrics: false });
  const events = await openEventStore(config, {
    pool: db.pool,
    databaseUrl: db.url,
    onAppend: metrics.observeAppend,
  });
  const store = events.store;
  const notifications = new PgNotifications(db.url, logger);
  // Another process (a command-api run apart, an operator's tool) may end sessions too.
  await followSessionChanges(notifications);
  // The search log's readers (issue 31): searches are recorded there, not in the event log.
  const searchLog = new SearchLog(db.pool, { listenUrl: db.url });
  const projections = new ProjectionRunner(
    {
      pool: db.pool,
      store,
      searches: searchLog,
      logger,
      leaseUrl: db.url,
      // Sessions are checked against users and accounts: a change there must not wait for the cache.
      onApplied: (name) => {
        if (name === 'users' || name === 'accounts') sessionCache.clear();
      },
    },
    allProjectors,
  );
  await projections.start();

  const jwtSecret = resolveJwtSecret(config.JWT_SECRET, config.DATA_DIR);
  // The partner API's sandbox: routed first, so nothing of production acts on a request for it.
  const sandbox = new Sandbox({
    productionUrl: db.url,
    production: { pool: db.pool, store },
    productionJwtSecret: jwtSecret,
    config,
    logger,
    clock,
  });
  const billing = await startBilling(config, logger);
  const app = await createHttpShell({
    logger,
    pool: db.pool,
    jwtSecret,
    billingTokenUrl: billing.gateway.tokenUrl,
    metrics,
    trustProxy: config.TRUST_PROXY,
    first: (shell) => installSandboxRouting(shell, sandbox),
  });
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
    clock,
    billing: billing.gateway,
    sandbox,
    // Work after a command that reads a read model waits for the projections here (one process).
    readModels: projections,
    leaseUrl: db.url,
    notifications,
  };
  const commands = startCommandService(commandDeps);
  const kafka = startKafka(config, { pool: db.pool, store, logger });
  const dispatcher = startDispatcher({
    pool: db.pool,
    store,
    mailer,
    clock,
    logger: logger.child({ component: 'webhook-dispatcher' }),
    publicUrl: () => commandDeps.publicUrl,
    allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
    source: kafka.dispatcherSource,
    leaseUrl: db.url,
    notifications,
  });
  registerWebhookApi({ app, pool: db.pool, config, clock });
  const queries = await startQueryService({
    app,
    pool: db.pool,
    databaseUrl: db.url,
    store,
    config,
    logger,
    consistency: projections,
  });
  // The partner API: one plugin under /api/v2 with both services' shares of its routes.
  await registerPartnerApi(
    app,
    { pool: db.pool, rateLimits: partnerRateLimits(config) },
    commands.partnerApi,
    queries.partnerApi,
  );
  const health = healthContract({
    pool: db.pool,
    migrations: allMigrations(),
    live: [projectionsProbe(projections, store)],
  });
  registerHealthRoutes(app, health, { detail: false });
  await serveWeb(app, opts.webDist ?? DEFAULT_WEB_DIST, logger);

  const admin = await ensurePlatformAdmin(
    { store, logger },
    { productName: config.PRODUCT_NAME, email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD },
  );
  if (opts.demo) await loadDemoNetwork(commandDeps, projections);

  const ops = await startOpsListener({ config, metrics, health, logger, listen: opts.listen !== false });
  let url = '';
  if (opts.listen !== false) {
    await app.listen({ port: config.PORT, host: config.HOST });
    // The port bound (PORT 0 picks one) and the configured host make the address to open.
    const address = app.server.address();
    const port = address && typeof address === 'object' ? address.port : config.PORT;
    url = listenOrigin(config.HOST, port);
    billing.listening(`http://127.0.0.1:${port}`);
    if (!config.PUBLIC_URL) commandDeps.publicUrl = `http://localhost:${port}`;
  }
  return {
    url,
    app,
    store,
    searches: queries.searches,
    projections,
    ops,
    databaseUrl: db.url,
    sandbox,
    admin,
    contributionReactor: commands.contributionReactor,
    async close() {
      await app.close();
      await ops.close();
      await sandbox.close();
      await commands.stop();
      await dispatcher.stop();
      await kafka.stop();
      await billing.stop();
      mailer.close();
      await mailbox?.close();
      await queries.stop();
      await projections.stop();
      await searchLog.close();
      await notifications.close();
      await events.close();
      await db.close();
    },
  };
}

/** Paths of a process's operations, never a screen: a GET of one that is not served here is a 404. */
const OPERATIONS_PATHS = new Set(['/health', '/ready', '/metrics']);

/** The built SPA; every GET outside /api and the operations paths answers with its index page. */
export async function serveWeb(app: FastifyInstance, dist: string, logger: Logger): Promise<void> {
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
    const reserved = path === '/api' || path.startsWith('/api/') || OPERATIONS_PATHS.has(path);
    if (request.method === 'GET' && !isFile && !reserved) {
      if (!hasWeb)
        return reply
          .code(503)
          .type('text/plain')
          .send('The web app is not built. Run: npm run build -w @mrn/web');
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    // /metrics lives on the operations listener only, never on this port (and is no screen either).
    // Under /api/v2 the partner API plugin answers its own 404s.
    return reply.code(404).send({ errors: `No route ${request.method} ${path}`, request_id: request.id });
  });
}
