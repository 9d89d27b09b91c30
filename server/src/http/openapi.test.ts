import {
  type OpenApiDocument,
  openApiMismatches,
  PARTNER_OPENAPI_PATH,
  partnerRoutes,
  pathParamNames,
} from '@mrn/contracts';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing.ts';

// The partner API's OpenAPI document as served: valid OpenAPI 3.1, and describing exactly the partner
// routes the server has registered, each at its path, method and parameter names.

let server: TestServer;
let doc: OpenApiDocument;

beforeAll(async () => {
  server = await startTestServer({ env: { PUBLIC_URL: 'https://risk.example.com' } });
  const res = await server.call({ method: 'GET', url: PARTNER_OPENAPI_PATH });
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(async () => {
  await server?.close();
});

/** `/a/{id}` → `/a/:id`, as Fastify spells it. */
const fastifyPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/**
 * Every route Fastify has registered, as `METHOD /path` with its parameter names, read from its
 * route tree (`printRoutes` nests shared prefixes: each level indents by four characters).
 */
function registeredRoutes(app: FastifyInstance): Set<string> {
  const out = new Set<string>();
  const prefixAt: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (depth > 0 ? prefixAt[depth - 1]! : '') + match[2]!;
    prefixAt[depth] = path;
    for (const method of match[3]?.split(', ') ?? []) out.add(`${method} ${path}`);
  }
  return out;
}

const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({ path, method, operation })),
  );

describe('GET /api/v2/openapi.json', () => {
  it('is valid OpenAPI 3.1 by an independent validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // And it does look inside: an optional path parameter is not OpenAPI.
    const broken = structuredClone(doc);
    broken.paths['/api/v2/merchants/{key}']!.get!.parameters[0]!.required = false;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('is anonymous and cacheable, revalidated by its ETag', async () => {
    const res = await server.call({ method: 'GET', url: PARTNER_OPENAPI_PATH });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await server.call({
      method: 'GET',
      url: PARTNER_OPENAPI_PATH,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('names the production address from PUBLIC_URL and the sandbox under /sandbox', () => {
    expect(doc.servers).toEqual([
      { url: 'https://risk.example.com', description: 'Production' },
      { url: 'https://risk.example.com/sandbox', description: 'Sandbox' },
    ]);
    expect(doc['x-rate-limits']).toEqual({ perApiKeyPerMinute: 600, tokenPerMinute: 20 });
  });

  it('has exactly one operation for each partner route, with the path’s own parameters', () => {
    expect(openApiMismatches(doc, partnerRoutes)).toEqual([]);
    for (const { path, operation } of operationsOf(doc)) {
      const inPath = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      expect(inPath, operation.operationId).toEqual(pathParamNames(path));
    }
  });

  it('documents every /api/v2 route Fastify serves, and only those', () => {
    const registered = registeredRoutes(server.app);
    // Sanity of the reading: the table's dashboard routes are there too, with their parameter names.
    expect(registered).toContain('GET /api/merchants/:id/notes');
    expect(registered).toContain('POST /api/merchants/:id/notes');
    const served = [...registered]
      .filter((r) => /^(GET|POST|PUT|DELETE|PATCH) \/api\/v2\//.test(r))
      .filter((r) => r !== `GET ${PARTNER_OPENAPI_PATH}`)
      .sort();
    const documented = operationsOf(doc)
      .map(({ path, method }) => `${method.toUpperCase()} ${fastifyPath(path)}`)
      .sort();
    expect(documented).toEqual(served);
    for (const entry of documented) {
      const [method, url] = entry.split(' ') as ['GET', string];
      expect(server.app.hasRoute({ method, url }), entry).toBe(true);
    }
  });

  it('would notice an operation the server does not serve, or one under another parameter name', () => {
    const registered = registeredRoutes(server.app);
    expect(registered.has('GET /api/v2/merchants/:key')).toBe(true);
    // The same path with another parameter name is another spelling, not the registered route.
    expect(registered.has('GET /api/v2/merchants/:ein')).toBe(false);
    expect(registered.has('DELETE /api/v2/merchants/:key')).toBe(false);
  });
});

describe('the served document without PUBLIC_URL', () => {
  it('names the address the server listens on', async () => {
    const listening = await startTestServer({ listen: true });
    try {
      const res = await fetch(`${listening.url}${PARTNER_OPENAPI_PATH}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const served = (await res.json()) as OpenApiDocument;
      expect(served.servers.map((s) => s.url)).toEqual([listening.url, `${listening.url}/sandbox`]);
    } finally {
      await listening.close();
    }
  });
});
