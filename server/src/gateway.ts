import { randomUUID } from 'node:crypto';
import replyFrom from '@fastify/reply-from';
import { STRIPE_WEBHOOK_PATH } from '@mrn/command-api';
import {
  DIRECT_UPLOAD_PATH,
  MESSAGES,
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
  frameworkErrors,
  installErrorHandler,
  installResponseHeaders,
  installSecurityHeaders,
  invalid,
  isPartnerApi,
  JSON_BODY_LIMIT_BYTES,
  type Logger,
  type Pool,
  partnerErrorBody,
  ROUTER_OPTIONS,
  securityHeaders,
  systemClock,
} from '@mrn/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEFAULT_WEB_DIST, serveWeb } from './app.ts';
import { registerGatewayHealth } from './gateway-health.ts';
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

const decodable = (url: string) => {
  try {
    decodeURIComponent(url);
    return true;
  } catch {
    return false;
  }
};

/** The largest body each route reads, as the service behind it does: the gateway answers 413 itself. */
const bodyLimitOf = (path: string) =>
  path === DIRECT_UPLOAD_PATH ? SUBSCRIPTION_UPLOAD_MAX_BYTES : JSON_BODY_LIMIT_BYTES;

/**
 * The split topology's front door: each /api route goes to the processes of the service the route
 * table names for it, balanced by @fastify/reply-from (undici's BalancedPool). The gateway does not
 * parse a body: it forwards the bytes it received (the services parse and validate them), up to the
 * route's own limit (a larger one is the gateway's 413: forwarded, the service closed the connection
 * mid-body and the caller got a 503). It tells the services who the client is: X-Forwarded-For is the
 * address the gateway sees (behind a proxy it trusts, the client that proxy names), never what the
 * client wrote there, and the services believe only the gateway (TRUST_PROXY).
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
          bodyLimit: bodyLimitOf(r.path),
          handler: (request, reply) => {
            // reply-from decodes the whole address to look for `..` and would throw (a 500) on a
            // malformed percent-encoding: the gateway refuses it, naming it.
            if (!decodable(request.url)) throw invalid(MESSAGES.malformedAddress);
            return reply.from(request.url, {
              // The bytes as received, with their own content type (not re-encoded as JSON).
              ...(Buffer.isBuffer(request.body)
                ? {
                    body: request.body,
                    contentType: String(request.headers['content-type'] ?? 'application/octet-stream'),
                  }
                : {}),
              rewriteRequestHeaders: (_req, headers) => {
                const { forwarded: _f, 'x-real-ip': _r, ...rest } = headers;
                return {
                  ...rest,
                  'x-forwarded-for': request.ip,
                  'x-forwarded-proto': request.protocol,
                  'x-forwarded-host': request.headers.host ?? '',
                };
              },
              onError: (res, { error }) => {
                request.log.warn({ err: error, service }, 'gateway: service unreachable');
                const body = { errors: 'The service is unavailable; try again shortly.' };
                res
                  .code(503)
                  .header('retry-after', '5')
                  .send(isPartnerApi(request.url) ? partnerErrorBody(body, request.id) : body);
              },
            });
          },
        });
      }
    });
  }
}

/**
 * The gateway's whole app: the partner sandbox (routed first, as in the all-in-one process), security
 * headers, /api forwarded by the route table, GET /health and /ready, and the web app. Not listening yet.
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
  /**
   * Processes behind the gateway that it does not route to but that must be ready before it is (the
   * projections process), by service; the routed services' origins are asked anyway.
   */
  alsoReady?: () => Record<string, readonly string[]>;
}): Promise<{ app: FastifyInstance; sandbox: Sandbox }> {
  const { config, logger } = opts;
  const app = Fastify({
    logger: false,
    // Unique across processes, as the services' are: quoted from an error answer, it finds the request.
    genReqId: () => randomUUID(),
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY ? [...config.TRUST_PROXY] : false,
    routerOptions: ROUTER_OPTIONS,
    frameworkErrors,
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
  // What the gateway itself refuses (an oversized body, a body it cannot read) answers as the service
  // behind it would: the partner API's envelope under /api/v2, the dashboard's elsewhere.
  installErrorHandler(app, (request) => (isPartnerApi(request.url) ? 'partner' : 'dashboard'));
  installSecurityHeaders(app, securityHeaders(opts.billingTokenUrl));
  await registerGateway(app, opts.upstreams);
  registerGatewayHealth(app, () => ({
    command: opts.upstreams.command,
    query: opts.upstreams.query,
    webhooks: opts.upstreams.webhooks,
    ...opts.alsoReady?.(),
  }));
  await serveWeb(app, opts.webDist ?? DEFAULT_WEB_DIST, logger);
  return { app, sandbox };
}
