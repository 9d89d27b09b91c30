import {
  databaseProbe,
  type EventStore,
  type Migration,
  migrationsProbe,
  type Pool,
  type Probe,
  runProbes,
} from '@mrn/platform';
import type { ProjectionRunner } from '@mrn/projections';
import type { FastifyInstance } from 'fastify';

interface HealthDeps {
  pool: Pool;
  store: EventStore;
  projections: ProjectionRunner;
  migrations: readonly Migration[];
}

/**
 * GET /health and GET /ready tell the truth about this process (it said "ok" with the database down):
 * - /health (liveness and the operator's first look): 200 `{ status: 'ok' }` only while the database
 *   answers and every projector runs; 503 saying which is not the case (database unreachable, projections
 *   starting, a projector halted at a quarantined event, with the event and its lag).
 * - /ready (readiness: may this process take traffic): database reachable, every migration of this build
 *   applied, projections running and none halted, with each projector's position against the log's head.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  const database = databaseProbe(deps.pool);

  app.get('/health', async (_request, reply) => {
    const { ok, checks } = await runProbes([database]);
    if (!ok) return reply.code(503).send({ status: 'unavailable', database: checks.database });
    if (!deps.projections.isRunning) return reply.code(503).send({ status: 'starting' });
    const halted = deps.projections.quarantined;
    if (halted.length === 0) return reply.send({ status: 'ok' });
    // A halted projector means one read model is behind: say which, at which event, and by how much.
    const head = await deps.store.headPosition();
    return reply.code(503).send({
      status: 'degraded',
      projectors: halted.map((q) => ({
        name: q.projector,
        state: 'halted',
        event: { id: q.eventId, type: q.type, stream_id: q.streamId, position: q.position },
        error: q.error,
        since: q.since.toISOString(),
        lag: {
          applied_through: q.appliedThrough,
          head,
          seconds: Math.max(0, Math.round((Date.now() - q.recordedAt.getTime()) / 1000)),
        },
      })),
    });
  });

  app.get('/ready', async (_request, reply) => {
    const { ok, checks } = await runProbes([
      database,
      migrationsProbe(deps.pool, deps.migrations),
      projectionsProbe(deps),
    ]);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not_ready', checks });
  });
}

function projectionsProbe(deps: HealthDeps): Probe {
  return {
    name: 'projections',
    async check() {
      const head = await deps.store.headPosition();
      const halted = new Set(deps.projections.quarantined.map((q) => q.projector));
      const projectors = [...deps.projections.positions].map(([name, appliedThrough]) => ({
        name,
        state: halted.has(name) ? 'halted' : appliedThrough >= head ? 'live' : 'catching_up',
        applied_through: appliedThrough,
      }));
      return { ok: deps.projections.isRunning && halted.size === 0, head, projectors };
    },
  };
}
