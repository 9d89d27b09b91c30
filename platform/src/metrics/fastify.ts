import type { FastifyInstance } from 'fastify';
import type { Metrics } from './registry.ts';

export interface InstallMetricsOptions {
  /** Where the exposition is served; default `/metrics`. */
  path?: string;
}

/** Methods kept as they are in the `method` label; anything else is counted as "other". */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Times every request into `http_request_duration_seconds` and serves the registry at GET /metrics
 * (no authentication: it is a plain route, outside the route table that `registerRoutes` guards).
 * The `route` label is the route's pattern (`/things/:id`), never the raw URL, and "unmatched" when no
 * route matched, so the label set stays bounded whatever callers send. /metrics itself is not counted.
 * Call it on the root instance: a hook added inside an encapsulated plugin would only see that plugin's routes.
 */
export function installMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  options: InstallMetricsOptions = {},
): void {
  const path = options.path ?? '/metrics';
  const histogram = metrics.httpRequestDuration;

  // reply.elapsedTime runs from the request's arrival (before onRequest) to now, so onResponse alone
  // times the whole request without a clock of its own.
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route === path) return;
    const method = METHODS.has(request.method) ? request.method : 'other';
    histogram.observe(
      { method, route: route ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get(path, async (_request, reply) => {
    const body = await metrics.registry.metrics();
    return reply
      .header('content-type', metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
