import {
  buildPath,
  type OpenApiDocument,
  type OpenApiOperation,
  openApiPath,
  PARTNER_OPENAPI_PATH,
  partnerRoutes,
  type RouteSpec,
  routes,
} from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Status conformance of the partner API v2: every route of the route table (`partnerRoutes`, so a new
// route is covered without a line here) is called on the real server with valid input and with each
// kind of invalid input, and every answer must have a status that the served OpenAPI document declares
// for that operation, a body that matches the schema declared for that status, and the headers declared
// with it. What a route may answer is declared in the route table and the document generator, never here.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The per-API-user limit of this server: low enough to reach, above what one user spends below. */
const LIMIT = 100;

let server: TestServer;
let doc: OpenApiDocument;
let bodyLimit: number;
const tokens: Record<string, string> = {};
const credentials: Record<string, { authentication_token: string; authentication_key: string }> = {};

const USERS = {
  dana: 'dana.whitfield@summitcapital.example', // Summit (PRO) admin: the caller of every valid call
  marco: 'marco.reyes@summitcapital.example', // Summit member: spends his rate limit
  priya: 'priya.natarajan@harboradvance.example', // Harbor (BASIC) admin: refused the PRO calls
};

beforeAll(async () => {
  server = await startTestServer({
    demo: true,
    env: { RATE_LIMIT_API_PER_MINUTE: String(LIMIT), RATE_LIMIT_TOKEN_PER_MINUTE: '1000' },
  });
  bodyLimit = server.app.initialConfig.bodyLimit!;
  const served = await server.app.inject({ method: 'GET', url: PARTNER_OPENAPI_PATH });
  expect(served.statusCode).toBe(200);
  doc = served.json();
  const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const dashboard: Record<string, string> = {};
  const accountOf: Record<string, string> = {};
  const userOf: Record<string, string> = {};
  for (const [who, email] of Object.entries(USERS)) {
    dashboard[who] = await server.login(email, DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: dashboard[who] });
    accountOf[who] = me.body.data.user.account_resource_id;
    userOf[who] = me.body.data.user.resource_id;
  }
  for (const account of new Set(Object.values(accountOf))) {
    const granted = await server.call({
      method: 'PUT',
      url: buildPath(routes.grantAccountApiAccess.path, { id: account }),
      token: admin,
    });
    expect(granted.status).toBe(200);
  }
  for (const [who, by] of [
    ['dana', 'dana'],
    ['marco', 'dana'],
    ['priya', 'priya'],
  ] as const) {
    const res = await server.call({
      method: 'PUT',
      url: buildPath(routes.grantUserApiAccess.path, { id: userOf[who]! }),
      token: dashboard[by],
    });
    expect(res.status).toBe(200);
    credentials[who] = res.body.data;
  }
  await server.setSubscriptionSettings(admin, accountOf.dana!, { merchant_subscription_enabled: true });
  expect(await server.projectedAll(undefined, 20_000)).toBe(true);
  for (const who of Object.keys(USERS)) {
    const res = await server.app.inject({
      method: 'POST',
      url: routes.getApiToken.path,
      payload: { auth: credentials[who] },
    });
    expect(res.statusCode).toBe(200);
    tokens[who] = res.json().data.token;
  }
  tokens.dashboard = dashboard.priya!;
}, 60_000);
afterAll(async () => {
  await server?.close();
});

// --- the document's side -------------------------------------------------------------------------

const operationOf = (spec: RouteSpec): OpenApiOperation =>
  doc.paths[openApiPath(spec.path)]![spec.method.toLowerCase()]!;

/** A schema with the document's `#/…` references put in place (ajv knows JSON Schema, not OpenAPI). */
function inlined(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inlined);
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc);
    return inlined(target);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inlined(v)]));
}

const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
const validators = new Map<string, ValidateFunction>();
const validatorFor = (key: string, schema: unknown) => {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(inlined(schema) as object);
    validators.set(key, validate);
  }
  return validate;
};

// --- the calls -----------------------------------------------------------------------------------

interface Answer {
  route: string;
  case: string;
  status: number;
}
const answers: Answer[] = [];
/** What the calls of the running test found wrong. */
const problems: string[] = [];
beforeEach(() => {
  problems.length = 0;
});

/**
 * Calls a route and checks the answer against the document: its status is declared for the
 * operation, its body is JSON that matches the schema declared for that status, and every header
 * declared with it is there. Problems are collected, so one run lists them all.
 */
async function call(
  name: string,
  what: string,
  options: InjectOptions,
): Promise<LightMyRequestResponse & { body: string }> {
  const spec = (partnerRoutes as Record<string, RouteSpec>)[name]!;
  const res = await server.app.inject(options);
  answers.push({ route: name, case: what, status: res.statusCode });
  const at = `${name} (${spec.method} ${spec.path}), ${what}: ${res.statusCode}`;
  const declared = operationOf(spec).responses[String(res.statusCode)];
  if (!declared) {
    problems.push(`${at} is not declared (${res.body.slice(0, 200)})`);
    return res;
  }
  const content = declared.content?.['application/json'];
  if (!String(res.headers['content-type']).startsWith('application/json') || !content?.schema) {
    problems.push(`${at}: ${res.headers['content-type']} where application/json is declared`);
    return res;
  }
  const validate = validatorFor(`${name} ${res.statusCode}`, content.schema);
  if (!validate(res.json())) {
    problems.push(
      `${at}: the body ${res.body.slice(0, 300)} breaks its schema: ${ajv.errorsText(validate.errors)}`,
    );
  }
  for (const [header, { required }] of Object.entries(declared.headers ?? {})) {
    if (required && res.headers[header.toLowerCase()] === undefined)
      problems.push(`${at}: no ${header} header`);
  }
  return res;
}

/** A new EIN for each use: nothing has been reported, watched or searched with it yet. */
let einCount = 0;
const freshEin = () => String(730_000_000 + ++einCount);
const EIN_LIKE = /^\d{2}-?\d{7}$/;

/** The example with every EIN in it replaced by `ein`. */
function withEin<T>(value: T, ein: string): T {
  if (typeof value === 'string') return (EIN_LIKE.test(value) ? ein : value) as T;
  if (Array.isArray(value)) return value.map((v) => withEin(v, ein)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withEin(v, ein)])) as T;
  }
  return value;
}

/** Reports a merchant with this EIN from the dashboard (another funder), and waits until it is readable. */
async function reportMerchant(ein: string) {
  const res = await server.app.inject({
    method: 'POST',
    url: routes.addMerchant.path,
    headers: { authorization: `Bearer ${tokens.dashboard}` },
    payload: {
      merchant: { fein: ein, legal_name: `Conformance Merchant ${ein}`, city: 'Austin', state: 'TX' },
      note: { category: 'Slow Pay', note: 'Paid late.' },
      proxied_creator: null,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(await server.projections.waitFor(res.json().position, undefined, 10_000)).toBe(true);
}

/** A valid request of a route: its documented example, about a new EIN, with real credentials. */
function validRequest(name: string, spec: RouteSpec, ein: string) {
  const example = spec.docs?.example ?? {};
  // A screening's calls ask about the screening this run started (the example's id is made up).
  const params = withEin(
    example.params?.id && screeningId ? { ...example.params, id: screeningId } : (example.params ?? {}),
    ein,
  );
  // The token call's example credentials are made up: a valid call sends real ones.
  const body = spec.access === 'anonymous' ? { auth: credentials.dana } : withEin(example.body, ein);
  const headers: Record<string, string> = {};
  for (const p of operationOf(spec).parameters) {
    // A documented header with its example, made unique per route (an Idempotency-Key binds one request).
    if (p.in === 'header' && p.example !== undefined) headers[p.name] = `${String(p.example)}-${name}`;
  }
  return {
    method: spec.method,
    url: buildPath(spec.path, params),
    params,
    body,
    headers,
  };
}

const withToken = (token: string | undefined, headers: Record<string, string> = {}) =>
  token ? { ...headers, authorization: `Bearer ${token}` } : headers;

const table = Object.entries(partnerRoutes as Record<string, RouteSpec>);
/** The screening `partnerCreateScreening` started, for the calls about it that come after it. */
let screeningId: string | undefined;

describe('every partner route answers only what the OpenAPI document declares', () => {
  it('with valid input, once and again', async () => {
    for (const [name, spec] of table) {
      const ein = freshEin();
      const request = validRequest(name, spec, ein);
      const send = (what: string) =>
        call(name, what, {
          method: request.method,
          url: request.url,
          headers: withToken(spec.access === 'anonymous' ? undefined : tokens.dana, request.headers),
          ...(request.body !== undefined ? { payload: request.body as object } : {}),
        });
      let first = await send('valid');
      // A call about a merchant that must already be reported: report it, then call again.
      if (first.statusCode === 404) {
        await reportMerchant(ein);
        first = await send('valid, the merchant reported');
      }
      expect(first.statusCode, `${name}: ${first.body}`).toBeLessThan(300);
      if (name === 'partnerCreateScreening') screeningId = first.json().data.resource_id;
      // The same call again: a repeat or a retry with the same Idempotency-Key.
      await send('valid, repeated');
    }
    expect(problems).toEqual([]);
    // Every route reached its success, and the repeats reached the 200 of the creates.
    expect(new Set(answers.filter((a) => a.status < 300).map((a) => a.route))).toEqual(
      new Set(Object.keys(partnerRoutes)),
    );
    expect(
      answers.filter((a) => a.case === 'valid, repeated' && a.status === 200).map((a) => a.route),
    ).toEqual(expect.arrayContaining(['partnerSubscribe', 'partnerAddMerchant', 'partnerAddNote']));
  });

  it('with invalid input: params, query, body, token, plan, content type and size', async () => {
    const expectations: [string, string, number, number][] = [];
    const expectStatus = (name: string, what: string, res: { statusCode: number }, status: number) =>
      expectations.push([name, what, res.statusCode, status]);
    for (const [name, spec] of table) {
      const request = validRequest(name, spec, freshEin());
      const secured = spec.access !== 'anonymous';
      const token = secured ? tokens.dana : undefined;
      const payload = request.body !== undefined ? { payload: request.body as object } : {};
      const send = (what: string, options: Partial<InjectOptions>) =>
        call(name, what, {
          method: request.method,
          url: request.url,
          headers: withToken(token, request.headers),
          ...payload,
          ...options,
        } as InjectOptions);

      for (const param of Object.keys(request.params)) {
        const url = buildPath(spec.path, { ...request.params, [param]: 'x' });
        expectStatus(name, `bad ${param}`, await send(`bad path parameter ${param}`, { url }), 400);
      }
      // A NUL character is refused in any part of any request (a query the route does not read too).
      const shape = (spec.query as { shape?: Record<string, unknown> } | undefined)?.shape;
      const fields = shape ? Object.keys(shape) : ['unexpected'];
      const query = `?${fields.map((f) => `${f}=%00`).join('&')}`;
      expectStatus(name, 'bad query', await send('bad query', { url: `${request.url}${query}` }), 400);
      if (secured) {
        const anonymous = await send('no token', { headers: request.headers });
        expectStatus(name, 'no token', anonymous, 401);
        const dashboardToken = await send('a dashboard token', {
          headers: withToken(tokens.dashboard, request.headers),
        });
        expectStatus(name, 'a dashboard token', dashboardToken, 401);
      }
      if (spec.plan === 'PRO') {
        const basic = await send('a BASIC account', { headers: withToken(tokens.priya, request.headers) });
        expectStatus(name, 'a BASIC account', basic, 403);
      }
      if (spec.body) {
        const json = { ...request.headers, 'content-type': 'application/json' };
        expectStatus(name, 'empty body', await send('an empty object', { payload: {} }), 400);
        expectStatus(name, 'array body', await send('an array', { payload: [] }), 400);
        const malformed = await send('malformed JSON', {
          headers: withToken(token, json),
          payload: '{"fein": ',
        });
        expectStatus(name, 'malformed JSON', malformed, 400);
        // A type the server does not read is 415; text it reads as a string, which no body schema takes.
        const xml = await send('an application/xml body', {
          headers: withToken(token, { ...request.headers, 'content-type': 'application/xml' }),
          payload: '<fein>123456789</fein>',
        });
        expectStatus(name, 'application/xml', xml, 415);
        const text = await send('a text/plain body', {
          headers: withToken(token, { ...request.headers, 'content-type': 'text/plain' }),
          payload: JSON.stringify(request.body),
        });
        expectStatus(name, 'text/plain', text, 400);
        const oversized = await send('a body over the limit', {
          headers: withToken(token, json),
          payload: JSON.stringify({ ...(request.body as object), note: 'x'.repeat(bodyLimit) }),
        });
        expectStatus(name, 'oversized', oversized, 413);
      }
    }
    expect(problems).toEqual([]);
    expect(
      expectations
        .filter(([, , got, want]) => got !== want)
        .map(([n, w, got, want]) => `${n} ${w}: ${got}, not ${want}`),
    ).toEqual([]);
  });

  it('over the rate limit: 429 with RateLimit and Retry-After headers', async () => {
    // One API user spends its limit on one call (the first secured GET of the table).
    const [name, spec] = table.find(([, s]) => s.access !== 'anonymous' && s.method === 'GET')!;
    const request = validRequest(name, spec, freshEin());
    const statuses: number[] = [];
    for (let sent = 0; sent <= LIMIT; sent += 20) {
      const batch = Array.from({ length: Math.min(20, LIMIT + 1 - sent) }, () =>
        call(name, 'over the rate limit', {
          method: request.method,
          url: request.url,
          headers: withToken(tokens.marco, request.headers),
        }),
      );
      statuses.push(...(await Promise.all(batch)).map((r) => r.statusCode));
    }
    expect(statuses.length).toBe(LIMIT + 1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('would notice a body off its declared schema', () => {
    const [name, spec] = table.find(([, s]) => s.access !== 'anonymous')!;
    const { responses } = operationOf(spec);
    const success = Object.keys(responses).find((s) => s.startsWith('2'))!;
    const refusal = validatorFor(`${name} 401`, responses['401']!.content!['application/json']!.schema);
    const answer = validatorFor(
      `${name} ${success}`,
      responses[success]!.content!['application/json']!.schema,
    );
    expect(refusal({ errors: [{ field: null, message: 'No token.' }], data: null })).toBe(true);
    expect(refusal({ errors: [], data: null })).toBe(false);
    expect(refusal({ errors: [{ field: null }], data: null })).toBe(false);
    expect(answer({ errors: [{ field: null, message: 'No token.' }], data: null })).toBe(false);
  });

  it('stayed within a bounded number of calls, each of the document’s operations called', () => {
    expect(answers.length).toBeLessThan(400);
    const called = new Set(answers.map((a) => a.route));
    const operations = Object.values(doc.paths).flatMap((byMethod) =>
      Object.values(byMethod).map((o) => o.operationId),
    );
    expect([...called].sort()).toEqual(operations.sort());
  });
});
