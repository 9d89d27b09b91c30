import type { FastifyInstance } from 'fastify';
import type { Pool } from '../db.ts';
import { databaseProbe, migrationsProbe, type Probe, type ProbeResult, runProbes } from '../http/health.ts';
import type { Migration } from '../migrations.ts';

/**
 * What every process answers on /health and /ready (the all-in-one server, each service run apart):
 * - /health (liveness, the operator's first look): 200 `{ status: 'ok' }` while the process does its
 *   work: the database answers, and whatever it runs is running (projectors: none halted); 503 otherwise.
 * - /ready (readiness: may it take traffic): the same, and this build's migrations applied, and the
 *   process's own conditions.
 */
export interface HealthContract {
  live: readonly Probe[];
  ready: readonly Probe[];
}

export function healthContract(deps: {
  pool: Pool;
  migrations: readonly Migration[];
  /** Beside the database: what must hold for the process to be doing its work. */
  live?: readonly Probe[];
  /** Beside liveness and the migrations: what must hold before it takes traffic. */
  ready?: readonly Probe[];
}): HealthContract {
  const live = [databaseProbe(deps.pool), ...(deps.live ?? [])];
  return { live, ready: [...live, migrationsProbe(deps.pool, deps.migrations), ...(deps.ready ?? [])] };
}

/** What anyone may read of a probe: whether it holds and, if not, what is wrong in words. */
const inWords = ({ ok, problem }: ProbeResult) => (ok ? { ok } : { ok, problem });

/**
 * /health and /ready. On a public port (`detail: false`) the answers say what is wrong in words only:
 * no stream ids, positions, SQL errors or internal addresses. The operations listener (`detail: true`,
 * loopback) adds every probe's detail for operators.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  contract: HealthContract,
  opts: { detail: boolean },
): void {
  const answer = async (probes: readonly Probe[]) => {
    const { ok, checks } = await runProbes(probes);
    const failed = Object.values(checks).filter((c) => !c.ok);
    return {
      ok,
      failed,
      checks: opts.detail
        ? checks
        : Object.fromEntries(Object.entries(checks).map(([name, c]) => [name, inWords(c)])),
    };
  };
  app.get('/health', async (_request, reply) => {
    const { ok, failed, checks } = await answer(contract.live);
    if (ok) return reply.send({ status: 'ok' });
    return reply.code(503).send({
      status: failed.find((c) => c.status)?.status ?? 'unavailable',
      problems: failed.map((c) => c.problem),
      ...(opts.detail ? { checks } : {}),
    });
  });
  app.get('/ready', async (_request, reply) => {
    const { ok, checks } = await answer(contract.ready);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not_ready', checks });
  });
}
