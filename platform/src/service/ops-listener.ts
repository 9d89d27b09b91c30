import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { serveMetrics } from '../metrics/fastify.ts';
import type { Metrics } from '../metrics/registry.ts';
import { type HealthContract, registerHealthRoutes } from './health-routes.ts';

export interface OpsListener {
  app: FastifyInstance;
  /** Where it listens (`http://127.0.0.1:9464`), or null when not listening (tests that inject). */
  url: string | null;
  close(): Promise<void>;
}

/**
 * A process's operations listener, apart from the port users and partners reach: Prometheus' /metrics
 * and /health and /ready with every detail (the halted projector's event and error, each probe's
 * figures). It listens on METRICS_HOST:METRICS_PORT, loopback by default; `listen: false` builds it
 * for `inject` only.
 */
export async function startOpsListener(opts: {
  config: Pick<Config, 'METRICS_HOST' | 'METRICS_PORT'>;
  metrics: Metrics;
  health: HealthContract;
  logger: Logger;
  listen?: boolean;
}): Promise<OpsListener> {
  const app = Fastify({ logger: false });
  serveMetrics(app, opts.metrics);
  registerHealthRoutes(app, opts.health, { detail: true });
  let url: string | null = null;
  if (opts.listen !== false) {
    url = await app.listen({ host: opts.config.METRICS_HOST, port: opts.config.METRICS_PORT });
    opts.logger.info({ url }, 'operations listener (metrics, detailed health)');
  }
  return { app, url, close: () => app.close() };
}
