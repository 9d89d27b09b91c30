import fastifyJwt from '@fastify/jwt';
import { dataEnvelope, route } from '@mrn/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conflict } from '../errors.ts';
import { createTestDatabase, type TestDatabase } from '../testing.ts';
import { installErrorHandler } from './error-handler.ts';
import { registerPartnerApi } from './partner-api.ts';
import { registerRoutes } from './register-routes.ts';
import { installTokenVerifier } from './token-verifier.ts';

const dashboardRefuses = route({
  method: 'GET',
  path: '/api/refuses',
  service: 'query',
  access: 'anonymous',
  response: z.object({}),
});
const partnerRefuses = route({
  method: 'GET',
  path: '/api/v2/refuses',
  service: 'query',
  access: 'anonymous',
  response: z.object({}),
});
/** Echoes the Authorization header the handler sees. */
const partnerEcho = route({
  method: 'GET',
  path: '/api/v2/echo',
  service: 'query',
  access: 'anonymous',
  response: dataEnvelope(z.object({ authorization: z.string().nullable() })),
});
const dashboardEcho = route({ ...partnerEcho, path: '/api/echo' });

let db: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  installErrorHandler(app);
  await app.register(fastifyJwt, { secret: 'x'.repeat(32) });
  installTokenVerifier(app, { secret: 'x'.repeat(32) });
  const refuse = async () => {
    throw conflict('Merchant already exists.');
  };
  const echo = async (req: { request: { headers: { authorization?: string } } }) => ({
    data: { authorization: req.request.headers.authorization ?? null },
  });
  const options = { pool: db.pool };
  registerRoutes(
    app,
    { dashboardRefuses, dashboardEcho },
    { dashboardRefuses: refuse, dashboardEcho: echo },
    options,
  );
  await registerPartnerApi(
    app,
    {
      pool: db.pool,
      rateLimits: { perKeyPerMinute: 3, tokenPerMinute: 3 },
      rateLimitScope: `t${Date.now()}`,
    },
    (v2) => registerRoutes(v2, { partnerRefuses }, { partnerRefuses: refuse }, options),
    (v2) => registerRoutes(v2, { partnerEcho }, { partnerEcho: echo }, options),
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

describe('the partner API plugin under /api/v2', () => {
  it('answers refusals in the partner envelope there, and in the dashboard one outside it', async () => {
    const partner = await app.inject({ method: 'GET', url: '/api/v2/refuses' });
    expect(partner.statusCode).toBe(409);
    expect(partner.json()).toMatchObject({
      errors: [{ field: null, message: 'Merchant already exists.' }],
      data: null,
    });
    const dashboard = await app.inject({ method: 'GET', url: '/api/refuses' });
    expect(dashboard.statusCode).toBe(409);
    expect(dashboard.json()).toMatchObject({ errors: 'Merchant already exists.' });
  });

  it('answers a path it does not know with a 404 in its envelope', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v2/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      errors: [{ field: null, message: 'No route GET /api/v2/nothing-here' }],
      data: null,
    });
  });

  it('takes a bare API token as a bearer token, and leaves the dashboard API as it is', async () => {
    const partner = await app.inject({
      method: 'GET',
      url: '/api/v2/echo',
      headers: { authorization: 'abc' },
    });
    expect(partner.json().data.authorization).toBe('Bearer abc');
    const dashboard = await app.inject({
      method: 'GET',
      url: '/api/echo',
      headers: { authorization: 'abc' },
    });
    expect(dashboard.json().data.authorization).toBe('abc');
  });

  it('limits its own routes, however the path is spelt, and not the dashboard API', async () => {
    // A caller of its own: the other tests' calls count per IP too (no valid token).
    const call = (url: string) => app.inject({ method: 'GET', url, remoteAddress: '203.0.113.9' });
    const answers = [];
    for (const url of ['/api/v2/echo', '/api/%762/echo', '/api/v2/echo']) answers.push(await call(url));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers[0]!.headers['ratelimit-limit']).toBe('3');
    const fourth = await call('/api/v2/echo');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().data).toBeNull();
    const dashboard = await call('/api/echo');
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.headers['ratelimit-limit']).toBeUndefined();
  });

  it('refuses to mount a route of the table outside its prefix', () => {
    const other = Fastify({ logger: false });
    return expect(
      registerPartnerApi(
        other,
        { pool: db.pool, rateLimits: { perKeyPerMinute: 1, tokenPerMinute: 1 } },
        (v2) =>
          registerRoutes(v2, { dashboardRefuses }, { dashboardRefuses: async () => ({}) }, { pool: db.pool }),
      ),
    ).rejects.toThrow('Route dashboardRefuses (/api/refuses) is outside /api/v2');
  });
});

describe('the partner rate limit under a burst', () => {
  it("counts one key's calls that come together in fewer statements, each call with a count of its own", async () => {
    // The store's statements over the real pool, counted.
    let takes = 0;
    const counted = new Proxy(db.pool, {
      get(pool, property, receiver) {
        if (property !== 'query') return Reflect.get(pool, property, receiver);
        return (config: unknown, ...rest: unknown[]) => {
          if ((config as { name?: string }).name === 'mrn_rate_limit_take') takes++;
          return (pool.query as (...args: unknown[]) => unknown).call(pool, config, ...rest);
        };
      },
    });
    const burst = Fastify({ logger: false });
    installErrorHandler(burst);
    await burst.register(fastifyJwt, { secret: 'x'.repeat(32) });
    installTokenVerifier(burst, { secret: 'x'.repeat(32) });
    await registerPartnerApi(
      burst,
      {
        pool: counted,
        rateLimits: { perKeyPerMinute: 25, tokenPerMinute: 3 },
        rateLimitScope: `b${Date.now()}`,
      },
      (v2) =>
        registerRoutes(
          v2,
          { partnerEcho },
          { partnerEcho: async () => ({ data: { authorization: null } }) },
          { pool: db.pool },
        ),
    );
    await burst.ready();
    try {
      const answers = await Promise.all(
        Array.from({ length: 30 }, () =>
          burst.inject({ method: 'GET', url: '/api/v2/echo', remoteAddress: '203.0.113.77' }),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(25);
      expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(5);
      // Each call answered was given its own count: 24 left, 23 left, … 0 left.
      const remaining = answers
        .filter((a) => a.statusCode === 200)
        .map((a) => Number(a.headers['ratelimit-remaining']))
        .sort((a, b) => b - a);
      expect(remaining).toEqual(Array.from({ length: 25 }, (_, i) => 24 - i));
      expect(takes).toBeLessThan(30);
    } finally {
      await burst.close();
    }
  });
});
