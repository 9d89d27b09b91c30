import type { FastifyInstance } from 'fastify';
import type { Metrics } from './registry.ts';

/** Methods kept as they are in the `method` label; anything else is counted as "other". */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Times every request of `app` into `http_request_duration_seconds`. The `route` label is the route's
 * pattern (`/things/:id`), never the raw URL, and "unmatched" when no route matched, so the label set
 * stays bounded whatever callers send. Call it on the root instance: a hook added inside an encapsulated
 * plugin would only see that plugin's routes.
 */
export function timeRequests(app: FastifyInstance, metrics: Metrics): void {
  const histogram = metrics.httpRequestDuration;
  // reply.elapsedTime runs from the request's arrival (before onRequest) to now, so onResponse alone
  // times the whole request without a clock of its own.
  app.addHook('onResponse', async (request, reply) => {
    const method = METHODS.has(request.method) ? request.method : 'other';
    histogram.observe(
      { method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
}

/**
 * Serves the registry at GET /metrics, with no authentication: only on the operations listener
 * (`startOpsListener`, loopback by default), never on a public port (request counts and latencies per
 * route are nobody else's business).
 */
export function serveMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.get('/metrics', async (_request, reply) => {
    const body = await metrics.registry.metrics();
    return reply
      .header('content-type', metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
