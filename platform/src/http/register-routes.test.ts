import fastifyJwt from '@fastify/jwt';
import { dataEnvelope, requiredText, route } from '@mrn/contracts';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Pool } from '../db.ts';
import { conflict } from '../errors.ts';
import { installErrorHandler } from './error-handler.ts';
import { installStrictJsonBody } from './json-body.ts';
import { type RegisterOptions, registerRoutes } from './register-routes.ts';
import { installTokenVerifier } from './token-verifier.ts';

const echo = route({
  method: 'POST',
  path: '/api/echo/:id',
  service: 'command',
  access: 'anonymous',
  params: z.object({
    id: z.coerce.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }),
  }),
  query: z.object({ mode: z.enum(['plain', 'loud']).default('plain') }),
  body: z.object({ thing: z.object({ name: requiredText(5) }, { error: 'is required' }) }),
  response: dataEnvelope(z.object({ said: z.string() })),
});
const fails = route({
  method: 'GET',
  path: '/api/fails',
  service: 'query',
  access: 'anonymous',
  response: z.object({}),
});
const refuses = route({
  method: 'GET',
  path: '/api/refuses',
  service: 'query',
  access: 'anonymous',
  response: z.object({}),
});
const misanswers = route({
  method: 'GET',
  path: '/api/misanswers',
  service: 'query',
  access: 'anonymous',
  response: dataEnvelope(z.object({ count: z.number() })),
});
const guarded = route({
  method: 'GET',
  path: '/api/guarded',
  service: 'query',
  access: 'member',
  response: z.object({}),
});
const guardedPost = route({
  method: 'POST',
  path: '/api/guarded',
  service: 'command',
  access: 'member',
  body: z.object({ name: z.string() }),
  response: z.object({}),
});

// Anonymous routes never touch the database; the guarded one fails before the query without a token.
const noDatabase = {} as Pool;

async function app(options: Partial<RegisterOptions> = {}) {
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  installStrictJsonBody(app);
  await app.register(fastifyJwt, { secret: 'x'.repeat(32) });
  installTokenVerifier(app, { secret: 'x'.repeat(32) });
  registerRoutes(
    app,
    { echo, fails, refuses, misanswers, guarded, guardedPost },
    {
      echo: async (req) => ({ data: { said: `${req.params.id}:${req.query.mode}:${req.body.thing.name}` } }),
      fails: async () => {
        throw new Error('database on fire');
      },
      refuses: async () => {
        throw conflict('Merchant already exists.', { resource_id: 'm-1' });
      },
      // The declared answer has a number; this handler's bug answers text.
      misanswers: async () => ({ data: { count: 'three' } }) as never,
      guarded: async () => ({}),
      guardedPost: async () => ({}),
    },
    { pool: noDatabase, ...options },
  );
  return app;
}

describe('routes registered from the route table', () => {
  it('parses params, query and body with their schemas before the handler runs', async () => {
    const res = await (await app()).inject({
      method: 'POST',
      url: '/api/echo/7?mode=loud',
      payload: { thing: { name: ' Ann ' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { said: '7:loud:Ann' } });
  });

  it('answers 400 naming every bad field of every part', async () => {
    const res = await (await app()).inject({
      method: 'POST',
      url: '/api/echo/x?mode=shout',
      payload: { thing: { name: 'toolong' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { field: string }) => f.field)).toEqual(['id', 'mode', 'thing.name']);
    expect(res.json().fields[0]).toEqual({ field: 'id', message: 'must be a whole number' });
    expect(res.json().fields[2]).toEqual({ field: 'thing.name', message: 'must be at most 5 characters' });
    const missing = await (await app()).inject({ method: 'POST', url: '/api/echo/1', payload: {} });
    expect(missing.json()).toMatchObject({
      errors: 'thing: is required',
      fields: [{ field: 'thing', message: 'is required' }],
    });
  });

  it('answers a domain refusal with its status, text and resource id', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/api/refuses' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errors: 'Merchant already exists.', resource_id: 'm-1' });
  });

  it('answers anything unexpected with 500 and the request id, without leaking the error', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/api/fails' });
    expect(res.statusCode).toBe(500);
    expect(res.json().request_id).toBeTruthy();
    expect(res.json().errors).toContain(res.json().request_id);
    expect(res.body).not.toContain('database on fire');
  });

  it('refuses a member route without a token with 401', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/api/guarded' });
    expect(res.statusCode).toBe(401);
  });

  it('checks access before the body is read: a malformed or oversized body without a token is refused with 401', async () => {
    const server = await app();
    const malformed = await server.inject({
      method: 'POST',
      url: '/api/guarded',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(401);
    const huge = await server.inject({
      method: 'POST',
      url: '/api/guarded',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(401);
    // The same malformed body from an anonymous route's caller is read, and refused as malformed.
    const anonymous = await server.inject({
      method: 'POST',
      url: '/api/echo/1',
      headers: { 'content-type': 'application/json' },
      payload: '{"thing": ',
    });
    expect(anonymous.statusCode).toBe(400);
  });

  it('refuses NUL and lone surrogates in any string of any part with 400 naming the field', async () => {
    const res = await (await app()).inject({
      method: 'POST',
      url: '/api/echo/1?mode=plain&extra=%00',
      payload: { thing: { name: 'A\u0000' }, other: ['ok', '\uD800'] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      { field: 'extra', message: 'contains characters that are not allowed' },
      { field: 'thing.name', message: 'contains characters that are not allowed' },
      { field: 'other.1', message: 'contains characters that are not allowed' },
    ]);
  });

  it('refuses a body that is not valid UTF-8 with 400, and still refuses prototype poisoning', async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]); // {"t":"\xff"}
    const res = await (await app()).inject({
      method: 'POST',
      url: '/api/echo/1',
      headers: { 'content-type': 'application/json' },
      payload: bytes,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ field: 'body', message: 'is not valid UTF-8' }]);
    const poisoned = await (await app()).inject({
      method: 'POST',
      url: '/api/echo/1',
      headers: { 'content-type': 'application/json' },
      payload: '{"thing":{"name":"Ann"},"__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
    const fine = await (await app()).inject({
      method: 'POST',
      url: '/api/echo/1',
      headers: { 'content-type': 'application/json' },
      payload: Buffer.from(JSON.stringify({ thing: { name: 'Zoë' } })),
    });
    expect(fine.json()).toEqual({ data: { said: '1:plain:Zoë' } });
  });

  it('checks answers against the declared response schema when asked: a mismatch is our 500', async () => {
    const checked = await (await app({ validateResponses: true })).inject({
      method: 'GET',
      url: '/api/misanswers',
    });
    expect(checked.statusCode).toBe(500);
    const unchecked = await (await app({ validateResponses: false })).inject({
      method: 'GET',
      url: '/api/misanswers',
    });
    expect(unchecked.json()).toEqual({ data: { count: 'three' } });
    const fine = await (await app({ validateResponses: true })).inject({
      method: 'POST',
      url: '/api/echo/1',
      payload: { thing: { name: 'Ann' } },
    });
    expect(fine.statusCode).toBe(200);
  });

  it('verifies the token before the pre-handler wait: a forged or missing token is refused without waiting', async () => {
    let waited = 0;
    const slow = await app({
      beforeHandler: async () => {
        waited += 1;
      },
    });
    const forged = await slow.inject({
      method: 'GET',
      url: '/api/guarded',
      headers: { authorization: 'Bearer x.y.z' },
    });
    const missing = await slow.inject({ method: 'GET', url: '/api/guarded' });
    expect([forged.statusCode, missing.statusCode]).toEqual([401, 401]);
    expect(waited).toBe(0);
    await slow.inject({ method: 'GET', url: '/api/refuses' });
    expect(waited).toBe(1);
  });

  it('refuses to start when a declared route has no handler', () => {
    const app = Fastify();
    expect(() =>
      registerRoutes(app, { echo, fails }, { echo: async () => ({ data: { said: '' } }) } as never, {
        pool: noDatabase,
      }),
    ).toThrow(/Route fails .* has no handler/);
  });
});
