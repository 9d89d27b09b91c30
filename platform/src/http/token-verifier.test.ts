import fastifyJwt from '@fastify/jwt';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearerToken, installTokenVerifier, verifiedClaims } from './token-verifier.ts';

const SECRET = 's'.repeat(48);

async function appWith(opts: { secret?: string; issuer?: string } = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(fastifyJwt, {
    secret: opts.secret ?? SECRET,
    ...(opts.issuer ? { sign: { iss: opts.issuer } } : {}),
  });
  installTokenVerifier(app, { secret: SECRET, ...(opts.issuer ? { issuer: opts.issuer } : {}) });
  app.get('/claims', async (request) => {
    try {
      return { sub: verifiedClaims(request).sub };
    } catch {
      return { refused: true };
    }
  });
  await app.ready();
  return app;
}

const claimsOf = async (app: FastifyInstance, authorization: string) =>
  (await app.inject({ url: '/claims', headers: { authorization } })).json();

describe('the bearer token verifier', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appWith();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the claims of a token it signed, every time (the second from its cache)', async () => {
    const token = app.jwt.sign({ sub: 'user-1' }, { expiresIn: 60 });
    expect(await claimsOf(app, `Bearer ${token}`)).toEqual({ sub: 'user-1' });
    expect(await claimsOf(app, `bearer ${token}`)).toEqual({ sub: 'user-1' });
  });

  it('refuses a token once it has expired, though it was verified (and kept) while it held', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-28T12:00:00Z'));
    const token = app.jwt.sign({ sub: 'user-2' }, { expiresIn: 60 });
    expect(await claimsOf(app, `Bearer ${token}`)).toEqual({ sub: 'user-2' });
    vi.setSystemTime(new Date('2026-11-28T12:01:01Z'));
    expect(await claimsOf(app, `Bearer ${token}`)).toEqual({ refused: true });
  });

  it('refuses a token signed with another secret, a changed payload, and another issuer', async () => {
    const other = await appWith({ secret: 'o'.repeat(48) });
    expect(await claimsOf(app, `Bearer ${other.jwt.sign({ sub: 'user-3' })}`)).toEqual({ refused: true });
    const [header, , signature] = app.jwt.sign({ sub: 'user-3' }).split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'admin' })).toString('base64url');
    expect(await claimsOf(app, `Bearer ${header}.${forged}.${signature}`)).toEqual({ refused: true });
    const sandbox = await appWith({ issuer: 'sandbox' });
    expect(await claimsOf(sandbox, `Bearer ${app.jwt.sign({ sub: 'user-3' })}`)).toEqual({ refused: true });
    expect(await claimsOf(sandbox, `Bearer ${sandbox.jwt.sign({ sub: 'user-3' })}`)).toEqual({
      sub: 'user-3',
    });
    await Promise.all([other.close(), sandbox.close()]);
  });

  it('reads only the Bearer form of the header', () => {
    const of = (authorization?: string) =>
      bearerToken({ headers: authorization === undefined ? {} : { authorization } } as never);
    expect(of('Bearer abc')).toBe('abc');
    expect(of(undefined)).toBeUndefined();
    expect(of('Basic abc')).toBeUndefined();
    expect(of('Bearer')).toBeUndefined();
    expect(of('Bearer ')).toBeUndefined();
    expect(of('Bearer a b')).toBeUndefined();
  });
});
