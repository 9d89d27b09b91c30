import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Pool } from '../db.ts';
import { installBareTokenSupport } from './bare-token.ts';
import { installErrorHandler, PARTNER_API_PREFIX, partnerErrorBody } from './error-handler.ts';
import { installPartnerRateLimits } from './partner-rate-limits.ts';

export interface PartnerApiOptions {
  pool: Pool;
  rateLimits: { perKeyPerMinute: number; tokenPerMinute: number };
  /** Rate-limit counters' namespace (`partner` by default; the sandbox counts apart). */
  rateLimitScope?: string;
  /** The answer's text for a path under /api/v2 that names no route (the sandbox says so). */
  notFoundSuffix?: string;
}

/** The partner API's rate limits, from the configuration. */
export const partnerRateLimits = (config: Config): PartnerApiOptions['rateLimits'] => ({
  perKeyPerMinute: config.RATE_LIMIT_API_PER_MINUTE,
  tokenPerMinute: config.RATE_LIMIT_TOKEN_PER_MINUTE,
});

/** Mounts routes in the partner API's scope; `registerRoutes` takes its paths relative to the prefix. */
export type PartnerApiMount = (v2: FastifyInstance) => void | Promise<void>;

/**
 * The partner API (accounts spec §7) as one encapsulated Fastify plugin under /api/v2: its own
 * envelope for every refusal (`{ errors, data: null }`), bare API tokens, rate limits and 404s, none of
 * which leak onto the dashboard API. Each service mounts its share of the partner routes in it; the
 * all-in-one process and the sandbox mount both shares in one plugin.
 */
export async function registerPartnerApi(
  app: FastifyInstance,
  opts: PartnerApiOptions,
  ...mounts: PartnerApiMount[]
): Promise<void> {
  await app.register(
    async (v2) => {
      installErrorHandler(v2, 'partner');
      installBareTokenSupport(v2);
      await installPartnerRateLimits(v2, {
        pool: opts.pool,
        ...opts.rateLimits,
        ...(opts.rateLimitScope ? { scope: opts.rateLimitScope } : {}),
      });
      v2.setNotFoundHandler((request, reply) => {
        const path = request.url.split('?')[0] ?? '';
        const errors = `No route ${request.method} ${path}${opts.notFoundSuffix ?? ''}`;
        return reply.code(404).send(partnerErrorBody({ errors }, request.id));
      });
      for (const mount of mounts) await mount(v2);
    },
    { prefix: PARTNER_API_PREFIX },
  );
}
