import { randomUUID } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import fastifyJwt from '@fastify/jwt';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Pool } from '../db.ts';
import { frameworkErrors, installErrorHandler } from '../http/error-handler.ts';
import { installStrictJsonBody } from '../http/json-body.ts';
import { installResponseHeaders } from '../http/response-headers.ts';
import { installTokenVerifier } from '../http/token-verifier.ts';
import type { Logger } from '../logger.ts';
import { timeRequests } from '../metrics/fastify.ts';
import type { Metrics } from '../metrics/registry.ts';
import { installSecurityHeaders, securityHeaders } from './security-headers.ts';

export interface HttpShellOptions {
  logger: Logger;
  pool: Pool;
  jwtSecret: string;
  /** The billing test server's token endpoint (the card form posts there), or null with Stripe. */
  billingTokenUrl: string | null;
  metrics?: Metrics;
  /** Behind the gateway: the proxies (the gateway) whose X-Forwarded-For names the client (TRUST_PROXY). */
  trustProxy?: false | readonly string[];
  /** Routing that must see a request before anything else (the partner sandbox in the all-in-one process). */
  first?: (app: FastifyInstance) => void;
  /** The partner sandbox: its tokens carry and require its own issuer. */
  jwtIssuer?: string;
  /** An API that answers only JSON (the sandbox): a CSP that allows nothing at all. */
  jsonOnly?: boolean;
}

/** The largest body a route of the route table reads (a larger one is a 413); the gateway enforces it too. */
export const JSON_BODY_LIMIT_BYTES = 1_048_576;

/**
 * The router options of every Fastify app that routes the route table (this shell, the gateway): a path
 * parameter is bounded by its route's schema (a 400 naming it), never by the router, whose default
 * answers a bare 414 past 100 characters (a broker key may have 2,160, a partner search key 200).
 * Fastify measures a parameter decoded, so it never exceeds a request target within Node's header
 * limit: no parameter that reaches the router is refused for its length.
 */
export const ROUTER_OPTIONS = { maxParamLength: maxHeaderSize } as const;

/** JSON only: nothing may be framed, run or loaded from an answer. */
const JSON_ONLY_HEADERS = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
};

/**
 * The HTTP process every service runs in: error answers, strict JSON bodies, security and cache headers,
 * JWT, and request timing (served by the operations listener, `startOpsListener`) (the partner API's own envelope, bare tokens and rate limits
 * come with its plugin, `registerPartnerApi`). The same shell serves
 * the all-in-one process and each service run apart, so an answer does not depend on the topology.
 */
export async function createHttpShell(opts: HttpShellOptions): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: opts.logger.child({ component: 'http' }) as FastifyBaseLogger,
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // Unique across processes and restarts: it is the correlation id of the events a request writes
    // (the dispatcher folds a merchant's first note into its Merchant Added by it), not only a log tag.
    genReqId: () => randomUUID(),
    trustProxy: opts.trustProxy ? [...opts.trustProxy] : false,
    routerOptions: ROUTER_OPTIONS,
    frameworkErrors,
  });
  opts.first?.(app);
  if (opts.metrics) timeRequests(app, opts.metrics);
  installErrorHandler(app);
  installStrictJsonBody(app);
  installResponseHeaders(app);
  installSecurityHeaders(app, opts.jsonOnly ? JSON_ONLY_HEADERS : securityHeaders(opts.billingTokenUrl));
  // Signing (app.jwt.sign); verification is installTokenVerifier's, with the same secret and issuer.
  await app.register(fastifyJwt, {
    secret: opts.jwtSecret,
    ...(opts.jwtIssuer ? { sign: { iss: opts.jwtIssuer }, verify: { allowedIss: opts.jwtIssuer } } : {}),
  });
  installTokenVerifier(app, {
    secret: opts.jwtSecret,
    ...(opts.jwtIssuer ? { issuer: opts.jwtIssuer } : {}),
  });
  return app;
}
