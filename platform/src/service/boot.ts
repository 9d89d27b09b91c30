import type { FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '../config.ts';
import { PgNotifications } from '../consumer/notifications.ts';
import { followSessionChanges } from '../consumer/session-invalidation.ts';
import { createPool, type Pool } from '../db.ts';
import { openEventStore } from '../event-store/open.ts';
import type { EventStore } from '../event-store/types.ts';
import type { Probe } from '../http/health.ts';
import { type PartnerApiMount, partnerRateLimits, registerPartnerApi } from '../http/partner-api.ts';
import { createLogger, type Logger } from '../logger.ts';
import { createMetrics, type Metrics } from '../metrics/registry.ts';
import { type Migration, runMigrations } from '../migrations.ts';
import { healthContract, registerHealthRoutes } from './health-routes.ts';
import { createHttpShell } from './http-shell.ts';
import { type OpsListener, startOpsListener } from './ops-listener.ts';
import { resolveJwtSecret } from './secrets.ts';

/** What every service process starts with. */
export interface ServiceProcess {
  config: Config;
  logger: Logger;
  databaseUrl: string;
  pool: Pool;
  store: EventStore;
  metrics: Metrics;
  /** The migrations this process ships (its readiness checks they are applied). */
  migrations: readonly Migration[];
  /** This process's one LISTEN connection (progress notices, ended sessions). */
  notifications: PgNotifications;
  /** Closes what `bootService` opened, last to first. */
  close(): Promise<void>;
}

/**
 * Opens what a service run apart needs: configuration from the environment, its database (DATABASE_URL
 * is required: the services share one PostgreSQL), the migrations it ships (under the migration lock,
 * so replicas starting at once apply them once), the event store EVENT_STORE names, metrics, and the
 * session cache following other processes' changes.
 */
export async function bootService(service: string, migrations: Migration[]): Promise<ServiceProcess> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL).child({ service });
  const databaseUrl = config.DATABASE_URL;
  if (!databaseUrl)
    throw new Error(`${service}: DATABASE_URL is required (the services share one PostgreSQL)`);
  const pool = createPool(databaseUrl);
  await runMigrations(pool, migrations);
  const metrics = createMetrics(service);
  const events = await openEventStore(config, { pool, databaseUrl, onAppend: metrics.observeAppend });
  const notifications = new PgNotifications(databaseUrl, logger);
  await followSessionChanges(notifications);
  return {
    config,
    logger,
    databaseUrl,
    pool,
    store: events.store,
    metrics,
    migrations,
    notifications,
    async close() {
      await notifications.close();
      await events.close();
      await pool.end();
    },
  };
}

/**
 * The one health contract on a service's public port (`app`: /health and /ready in words) and its
 * operations listener (/metrics, the same answers with every detail), with the service's own probes.
 */
export function serviceHealth(
  boot: ServiceProcess,
  app: FastifyInstance,
  probes: { live?: readonly Probe[]; ready?: readonly Probe[] } = {},
): Promise<OpsListener> {
  const health = healthContract({ pool: boot.pool, migrations: boot.migrations, ...probes });
  registerHealthRoutes(app, health, { detail: false });
  return startOpsListener({ config: boot.config, metrics: boot.metrics, health, logger: boot.logger });
}

/** The partner API plugin of a service run apart, with its share of the partner routes. */
export const servicePartnerApi = (app: FastifyInstance, boot: ServiceProcess, mount: PartnerApiMount) =>
  registerPartnerApi(app, { pool: boot.pool, rateLimits: partnerRateLimits(boot.config) }, mount);

/**
 * The HTTP shell of a service run apart, from its configuration: the installation's JWT secret, the
 * one Content-Security-Policy (billing test mode's token endpoint when the
 * launcher runs the test server), its metrics, and client addresses from the gateway.
 */
export function serviceShell(
  boot: ServiceProcess,
  billingTokenUrl?: string | null,
): Promise<FastifyInstance> {
  const { config } = boot;
  return createHttpShell({
    logger: boot.logger,
    pool: boot.pool,
    jwtSecret: resolveJwtSecret(config.JWT_SECRET, config.DATA_DIR),
    billingTokenUrl:
      billingTokenUrl !== undefined
        ? billingTokenUrl
        : config.BILLING_TEST_URL
          ? new URL('/v1/tokens', config.BILLING_TEST_URL).toString()
          : null,
    metrics: boot.metrics,
    trustProxy: config.TRUST_PROXY,
  });
}
