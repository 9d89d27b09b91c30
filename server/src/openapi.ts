import { createHash } from 'node:crypto';
import { PARTNER_OPENAPI_PATH, partnerOpenApiDocument, type RateLimits } from '@mrn/contracts';
import type { FastifyInstance } from 'fastify';

export interface OpenApiServing {
  productName: string;
  /** The production address: PUBLIC_URL, else the origin the server listens on (known once listening). */
  publicUrl: () => string;
  rateLimits?: RateLimits;
}

/**
 * GET /api/v2/openapi.json: the partner API's OpenAPI 3.1 document, anonymous and cacheable.
 *
 * A plain route, not one of the route table: the document describes the table's partner routes, so as
 * a route of its own it would either list itself or need excluding from the table it is made of; and
 * it has no caller, command or read model for the table's machinery (sessions, plans, response checks)
 * to act on. It is built once; only the addresses depend on where the server ends up listening (tests
 * take port 0), so the text is rebuilt only if that address changes.
 */
export function registerOpenApiDocument(app: FastifyInstance, options: OpenApiServing): void {
  let built: { base: string; body: string; etag: string } | undefined;
  const current = () => {
    const base = options.publicUrl();
    if (built?.base !== base) {
      const body = JSON.stringify(
        partnerOpenApiDocument({
          baseUrl: base,
          productName: options.productName,
          rateLimits: options.rateLimits,
        }),
      );
      built = { base, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    }
    return built;
  };
  current();
  app.get(PARTNER_OPENAPI_PATH, async (request, reply) => {
    const { body, etag } = current();
    // Public and the same for everyone: tools in other origins (API editors, generators) may read it.
    reply
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'public, max-age=300')
      .header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
