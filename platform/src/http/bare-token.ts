import type { FastifyInstance } from 'fastify';

/**
 * Older partner integrations send the API token bare (`Authorization: <token>`), as the first
 * version of the API documented; the partner API accepts it as `Bearer <token>`. The dashboard API
 * keeps to the standard form. Installed inside the partner API plugin, so it sees only its routes.
 */
export function installBareTokenSupport(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const value = request.headers.authorization;
    if (value && !value.includes(' ')) {
      request.headers.authorization = `Bearer ${value}`;
    }
  });
}
