import {
  type OpenApiDocument,
  openApiMismatches,
  PARTNER_OPENAPI_PATH,
  partnerRoutes,
  pathParamNames,
  routes,
} from '@mrn/contracts';
import { startTestServer, type TestServer } from '@mrn/server/testing';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The partner API's OpenAPI document as served: valid OpenAPI 3.1, and describing exactly the partner
// routes the server has registered, each at its path, method and parameter names.

let server: TestServer;
let doc: OpenApiDocument;

beforeAll(async () => {
  server = await startTestServer({ env: { PUBLIC_URL: 'https://risk.funders.test' } });
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

/**
 * What Redocly's recommended ruleset finds in a document, plus `info-contact`, which Spectral's
 * recommended OpenAPI ruleset raises and Redocly's leaves off; and an address in `info` that is not
 * absolute, which Spectral's OpenAPI 3.1 schema check refuses.
 */
async function lintProblems(document: OpenApiDocument): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended'], rules: { 'info-contact': 'error' } });
  const problems = await lintFromString({
    source: JSON.stringify(document),
    absoluteRef: 'openapi.json',
    config,
  });
  const relative = [document.info.contact?.url, document.info.license?.url].filter(
    (url) => url !== undefined && !URL.canParse(url),
  );
  return [
    ...problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`),
    ...relative.map((url) => `info: ${url} is not an absolute URL`),
  ];
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

  it('passes the recommended lint rules (Redocly’s, and Spectral’s info-contact): no error, no warning', async () => {
    expect(await lintProblems(doc)).toEqual([]);
    expect(doc.info.license).toEqual({
      name: 'Merchant Risk Network Terms of Use',
      url: 'https://risk.funders.test/terms_of_use',
    });
    expect(doc.info.contact).toEqual({
      name: 'Merchant Risk Network developer guide',
      url: 'https://risk.funders.test/developers',
    });
    // And the lint does look: without a license or a contact it warns.
    const bare = structuredClone(doc);
    delete bare.info.license;
    delete bare.info.contact;
    expect(await lintProblems(bare)).toEqual([
      'error info-contact: Info object should contain `contact` field. at #/info/contact',
      'warn info-license: Info object should contain `license` field. at #/info',
    ]);
  });

  it('declares the answers every call may give besides its own: limits, body refusals, our failures', () => {
    for (const { operation } of operationsOf(doc)) {
      const { responses, requestBody } = operation;
      const statuses = Object.keys(responses);
      expect(statuses, operation.operationId).toEqual(
        expect.arrayContaining(['400', '401', '429', '500', '503']),
      );
      // Only a call that reads a body can find it too large or of a type it does not read.
      expect(statuses.includes('413'), operation.operationId).toBe(requestBody !== undefined);
      expect(statuses.includes('415'), operation.operationId).toBe(requestBody !== undefined);
      expect(responses['413']?.description ?? '1 MiB', operation.operationId).toContain('1 MiB');
      // Every answer carries the rate limit headers; a 429 also says when to call again.
      for (const [status, answer] of Object.entries(responses)) {
        expect(Object.keys(answer.headers ?? {}), `${operation.operationId} ${status}`).toEqual(
          expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
        );
      }
      expect(responses['429']?.headers?.['Retry-After']?.required).toBe(true);
    }
  });

  it('declares 200 beside 201 where a call records nothing new: a repeat, or a retry with its Idempotency-Key', () => {
    const twice = operationsOf(doc)
      .filter(({ operation }) => operation.responses['201'] && operation.responses['200'])
      .map(({ operation }) => operation.operationId)
      .sort();
    expect(twice).toEqual([
      'partnerAddMerchant',
      'partnerAddMerchantWithAdditionalData',
      'partnerAddNote',
      'partnerAddNoteWithAdditionalData',
      'partnerCreateScreening',
      'partnerSubscribe',
    ]);
    const subscribe = doc.paths['/api/v2/merchant_subscriptions']!.post!.responses;
    expect(subscribe['200']!.content).toEqual(subscribe['201']!.content);
  });

  it('names the production address from PUBLIC_URL and the sandbox under /sandbox', () => {
    expect(doc.servers).toEqual([
      { url: 'https://risk.funders.test', description: 'Production' },
      { url: 'https://risk.funders.test/sandbox', description: 'Sandbox' },
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
  it('names no host: its addresses are relative to where it is fetched, so they are right from anywhere', async () => {
    const listening = await startTestServer({ listen: true });
    try {
      const documentUrl = `${listening.url}${PARTNER_OPENAPI_PATH}`;
      const res = await fetch(documentUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const text = await res.text();
      const served = JSON.parse(text) as OpenApiDocument;
      expect(served.servers).toEqual([
        { url: '/', description: 'Production (the site this document was fetched from)' },
        { url: '/sandbox', description: 'Sandbox' },
      ]);
      // Not the address the server happened to listen on, anywhere in the document.
      const { host } = new URL(listening.url);
      expect(text).not.toContain(host);
      expect(text).not.toMatch(/localhost|127\.0\.0\.1/);
      // A client resolves them against the document's address (OpenAPI 3.1, RFC 3986).
      expect(served.servers.map((s) => new URL(s.url, documentUrl).href)).toEqual([
        `${listening.url}/`,
        `${listening.url}/sandbox`,
      ]);
      // The API is there: the production address, resolved, joined with a path of the document.
      const production = new URL(served.servers[0]!.url, documentUrl).href.replace(/\/$/, '');
      const token = await fetch(`${production}${routes.getApiToken.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ auth: { authentication_token: 'mrn_unknown', authentication_key: 'wrong' } }),
      });
      expect(token.status).toBe(401);
      expect(await new Validator().validate(structuredClone(served))).toMatchObject({ valid: true });
      expect(await lintProblems(served)).toEqual([]);
    } finally {
      await listening.close();
    }
  });
});
