import type { FastifyInstance } from 'fastify';
import type { Pool } from '../db.ts';
import { databaseProbe, migrationsProbe, type Probe, runProbes } from '../http/health.ts';
import type { Migration } from '../migrations.ts';

/**
 * GET /health (liveness: the database answers) and GET /ready (readiness: the database answers, this
 * build's migrations are applied, and whatever else the service needs to take traffic) of a service
 * run apart; 503 saying which check failed.
 */
export function registerServiceHealth(
  app: FastifyInstance,
  deps: { pool: Pool; migrations: readonly Migration[]; ready?: readonly Probe[] },
): void {
  const database = databaseProbe(deps.pool);
  app.get('/health', async (_request, reply) => {
    const { ok, checks } = await runProbes([database]);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks });
  });
  app.get('/ready', async (_request, reply) => {
    const { ok, checks } = await runProbes([
      database,
      migrationsProbe(deps.pool, deps.migrations),
      ...(deps.ready ?? []),
    ]);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not_ready', checks });
  });
}
