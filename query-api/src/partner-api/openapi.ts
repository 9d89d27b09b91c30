import { createHash } from 'node:crypto';
import { PARTNER_OPENAPI_PATH, partnerOpenApiDocument, type RateLimits } from '@mrn/contracts';
import type { FastifyInstance } from 'fastify';

export interface OpenApiServing {
  productName: string;
  /**
   * The production address to publish: PUBLIC_URL. Unset, the document names no host (its servers are
   * `/` and `/sandbox`, relative to where it was fetched): the address the server happens to listen on
   * is right only on the machine it runs on, not behind a proxy or for a partner elsewhere.
   */
  publicUrl?: string;
  rateLimits?: RateLimits;
}

/**
 * GET /api/v2/openapi.json: the partner API's OpenAPI 3.1 document, anonymous and cacheable.
 *
 * A plain route, not one of the route table: the document describes the table's partner routes, so as
 * a route of its own it would either list itself or need excluding from the table it is made of; and
 * it has no caller, command or read model for the table's machinery (sessions, plans, response checks)
 * to act on. It depends only on the configuration, so it is built once.
 */
export function registerOpenApiDocument(app: FastifyInstance, options: OpenApiServing): void {
  const body = JSON.stringify(
    partnerOpenApiDocument({
      baseUrl: options.publicUrl,
      productName: options.productName,
      rateLimits: options.rateLimits,
      // What the 413 answer says: the limit this server reads bodies up to.
      bodyLimitBytes: app.initialConfig.bodyLimit,
    }),
  );
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  app.get(PARTNER_OPENAPI_PATH, async (request, reply) => {
    // Public and the same for everyone: tools in other origins (API editors, generators) may read it.
    reply
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'public, max-age=300')
      .header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
