import { type Probe, runProbes } from '@mrn/platform';
import type { FastifyInstance } from 'fastify';

/** How long one process behind the gateway may take to say whether it is ready. */
const READY_TIMEOUT_MS = 2000;

/**
 * The gateway's own health. GET /health is liveness: the gateway process answers; it names nothing
 * behind it (no process, address or port: it is anonymous). GET /ready is ready only when every process
 * behind it is: each origin of each service answers its /ready with 200, asked side by side; while one
 * is not, the answer is a 503 saying which service, in words. Compose's healthcheck and a load balancer
 * in front ask /ready, so traffic comes once the services can serve it.
 */
export function registerGatewayHealth(
  app: FastifyInstance,
  behind: () => Record<string, readonly string[]>,
): void {
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    const probes: Probe[] = Object.entries(behind()).map(([service, origins]) => ({
      name: service,
      failure: `The ${service} service is not ready.`,
      async check() {
        if (origins.length === 0) return { ok: false };
        const answers = await Promise.all(
          origins.map((origin) =>
            fetch(new URL('/ready', origin), { signal: AbortSignal.timeout(READY_TIMEOUT_MS) }).then(
              (res) => res.ok,
              () => false,
            ),
          ),
        );
        return { ok: answers.every(Boolean) };
      },
    }));
    const { ok, checks } = await runProbes(probes, READY_TIMEOUT_MS + 500);
    const words = Object.fromEntries(
      Object.entries(checks).map(([name, c]) => [
        name,
        c.ok ? { ok: true } : { ok: false, problem: c.problem },
      ]),
    );
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not_ready', checks: words });
  });
}
