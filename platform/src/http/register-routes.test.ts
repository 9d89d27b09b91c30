import fastifyJwt from '@fastify/jwt';
import { dataEnvelope, requiredText, route } from '@mrn/contracts';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Pool } from '../db.ts';
import { conflict } from '../errors.ts';
import { installErrorHandler } from './error-handler.ts';
import { registerRoutes } from './register-routes.ts';

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
const guarded = route({
  method: 'GET',
  path: '/api/guarded',
  service: 'query',
  access: 'member',
  response: z.object({}),
});

// Anonymous routes never touch the database; the guarded one fails before the query without a token.
const noDatabase = {} as Pool;

async function app() {
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  await app.register(fastifyJwt, { secret: 'x'.repeat(32) });
  registerRoutes(
    app,
    { echo, fails, refuses, guarded },
    {
      echo: async (req) => ({ data: { said: `${req.params.id}:${req.query.mode}:${req.body.thing.name}` } }),
      fails: async () => {
        throw new Error('database on fire');
      },
      refuses: async () => {
        throw conflict('Merchant already exists.', { resource_id: 'm-1' });
      },
      guarded: async () => ({}),
    },
    { pool: noDatabase },
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

  it('refuses to start when a declared route has no handler', () => {
    const app = Fastify();
    expect(() =>
      registerRoutes(app, { echo, fails }, { echo: async () => ({ data: { said: '' } }) } as never, {
        pool: noDatabase,
      }),
    ).toThrow(/Route fails .* has no handler/);
  });
});
