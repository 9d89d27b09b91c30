import fastifyHelmet from '@fastify/helmet';
import replyFrom from '@fastify/reply-from';
import { STRIPE_WEBHOOK_PATH } from '@mrn/command-api';
import {
  DIRECT_UPLOAD_PATH,
  PARTNER_OPENAPI_PATH,
  type RouteSpec,
  routes,
  type Service,
  SUBSCRIPTION_UPLOAD_MAX_BYTES,
} from '@mrn/contracts';
import {
  type Clock,
  type Config,
  type EventStore,
  installResponseHeaders,
  isPartnerApi,
  type Logger,
  type Pool,
  partnerErrorBody,
  ROUTER_OPTIONS,
  securityHeaders,
  systemClock,
} from '@mrn/platform';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { DEFAULT_WEB_DIST, serveWeb } from './app.ts';
import { installSandboxRouting } from './sandbox/forwarding.ts';
import { Sandbox } from './sandbox/sandbox.ts';

/** Where each service's processes listen (origins; two or more are balanced round-robin). */
export type Upstreams = Record<Service, readonly string[]>;

/** Routes outside the route table, and the service that answers each. */
const OUTSIDE_THE_TABLE: readonly Pick<RouteSpec, 'method' | 'path' | 'service'>[] = [
  { method: 'POST', path: STRIPE_WEBHOOK_PATH, service: 'command' },
  { method: 'PUT', path: DIRECT_UPLOAD_PATH, service: 'command' },
  { method: 'GET', path: PARTNER_OPENAPI_PATH, service: 'query' },
];

/** Every /api route the gateway forwards, from the route table's `service` field. */
export function gatewayRoutes(): Pick<RouteSpec, 'method' | 'path' | 'service'>[] {
  return [
    ...Object.values(routes).map(({ method, path, service }) => ({ method, path, service })),
    ...OUTSIDE_THE_TABLE,
  ];
}

/**
 * The split topology's front door: each /api route goes to the processes of the service the route
 * table names for it, balanced by @fastify/reply-from (undici's BalancedPool). The gateway does not
 * parse a body: it forwards the bytes it received (the services parse and validate them).
 */
export async function registerGateway(app: FastifyInstance, upstreams: Upstreams): Promise<void> {
  // Bytes as they came (up to the largest body a route accepts: a merchant-subscription upload).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: SUBSCRIPTION_UPLOAD_MAX_BYTES },
    (_r, body, done) => done(null, body),
  );
  for (const service of ['command', 'query', 'webhooks'] as const) {
    const origins = upstreams[service];
    if (origins.length === 0) throw new Error(`gateway: no ${service} processes`);
    await app.register(async (scope) => {
      await scope.register(replyFrom, {
        base: origins.length === 1 ? origins[0]! : [...origins],
        undici: { connections: 256, pipelining: 1, keepAliveTimeout: 30_000 },
      });
      for (const r of gatewayRoutes().filter((x) => x.service === service)) {
        scope.route({
          method: r.method,
          url: r.path,
          bodyLimit: SUBSCRIPTION_UPLOAD_MAX_BYTES,
          handler: (request, reply) =>
            reply.from(request.url, {
              // The bytes as received, with their own content type (not re-encoded as JSON).
              ...(Buffer.isBuffer(request.body)
                ? {
                    body: request.body,
                    contentType: String(request.headers['content-type'] ?? 'application/octet-stream'),
                  }
                : {}),
              rewriteRequestHeaders: (_req, headers) => ({
                ...headers,
                'x-forwarded-for': forwardedFor(request),
                'x-forwarded-proto': request.protocol,
                'x-forwarded-host': request.headers.host ?? '',
              }),
              onError: (res, { error }) => {
                request.log.warn({ err: error, service }, 'gateway: service unreachable');
                const body = { errors: 'The service is unavailable; try again shortly.' };
                res
                  .code(503)
                  .header('retry-after', '5')
                  .send(isPartnerApi(request.url) ? partnerErrorBody(body, request.id) : body);
              },
            }),
        });
      }
    });
  }
}

function forwardedFor(request: FastifyRequest): string {
  const prior = request.headers['x-forwarded-for'];
  return prior ? `${prior}, ${request.ip}` : request.ip;
}

/**
 * The gateway's whole app: the partner sandbox (routed first, as in the all-in-one process), security
 * headers, /api forwarded by the route table, GET /health, and the web app. Not listening yet.
 */
export async function createGatewayApp(opts: {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** Production's database, read by the sandbox to check `test_` credentials. */
  production: { pool: Pool; store: EventStore; databaseUrl: string };
  jwtSecret: string;
  billingTokenUrl: string | null;
  upstreams: Upstreams;
  webDist?: string;
  health?: () => Record<string, unknown>;
}): Promise<{ app: FastifyInstance; sandbox: Sandbox }> {
  const { config, logger } = opts;
  const app = Fastify({
    logger: false,
    bodyLimit: 1_048_576,
    trustProxy: config.TRUST_PROXY,
    routerOptions: ROUTER_OPTIONS,
  });
  const sandbox = new Sandbox({
    productionUrl: opts.production.databaseUrl,
    production: { pool: opts.production.pool, store: opts.production.store },
    productionJwtSecret: opts.jwtSecret,
    config,
    logger,
    clock: opts.clock ?? systemClock,
  });
  installSandboxRouting(app, sandbox);
  installResponseHeaders(app);
  await app.register(fastifyHelmet, securityHeaders(opts.billingTokenUrl));
  await registerGateway(app, opts.upstreams);
  app.get('/health', async () => ({ status: 'ok', ...opts.health?.() }));
  await serveWeb(app, opts.webDist ?? DEFAULT_WEB_DIST, logger);
  return { app, sandbox };
}
