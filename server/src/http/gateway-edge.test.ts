import { request } from 'node:http';
import { routes } from '@mrn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing.ts';

// The product behind the split topology's gateway (issue 30, items 3, 4, 5, 9): the per-IP limits count
// the address the gateway sees, whatever X-Forwarded-For a client writes; the gateway's own health names
// nothing internal; nothing operational is served on the public port; an oversized body is its 413.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ via: 'gateway' });
});
afterAll(async () => {
  await server?.close();
});

const forged = (i: number) => `198.51.100.${i}`;

describe('per-IP limits through the gateway', () => {
  // Clients on private addresses, as every client is behind Docker's bridge network in compose (and
  // loopback on one machine): they were trusted as proxies, so their own X-Forwarded-For was believed.
  const failedSignIns = async (app: TestServer['front'], peer: string) => {
    const statuses: number[] = [];
    for (let i = 1; i <= 25; i++) {
      const res = await app.inject({
        method: 'POST',
        url: routes.login.path,
        payload: { auth: { email: `nobody${i}@forged.example`, password: 'wrong-password' } },
        remoteAddress: peer,
        // A new address each time: before the fix, each one was a new bucket (25 × 401).
        headers: { 'x-forwarded-for': forged(i), forwarded: `for=${forged(i)}`, 'x-real-ip': forged(i) },
      });
      statuses.push(res.statusCode);
    }
    return statuses;
  };

  it('count the caller the gateway sees: 20 failed sign-ins, then 429, whatever X-Forwarded-For says', async () => {
    const statuses = await failedSignIns(server.front, '172.18.0.1');
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
    // Another client of the gateway is not locked out by them.
    const other = await server.front.inject({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email: 'nobody@forged.example', password: 'wrong-password' } },
      remoteAddress: '172.18.0.2',
    });
    expect(other.statusCode).toBe(401);
  });

  it('a service believes X-Forwarded-For from the gateway alone: a caller that reaches it directly is its peer', async () => {
    const statuses = await failedSignIns(server.app, '10.20.30.40');
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
  });

  it('hold for the partner API token: 20 a minute from one caller, forged addresses or not', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 30; i++) {
      const res = await server.front.inject({
        method: 'POST',
        url: routes.getApiToken.path,
        payload: { auth: { authentication_token: `token-${i}`, authentication_key: 'wrong' } },
        remoteAddress: '192.168.7.9',
        headers: { 'x-forwarded-for': forged(i) },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
  });
});

describe('the public port', () => {
  it('gateway /health is liveness naming nothing internal; /ready asks every service behind it', async () => {
    const health = await server.front.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await server.front.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { command: { ok: true }, query: { ok: true }, webhooks: { ok: true } },
    });
  });

  it('serves no /metrics, on the gateway or the server: a 404, not the web app', async () => {
    for (const app of [server.front, server.app]) {
      const res = await app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('http_request_duration_seconds');
      expect(res.headers['content-type']).toMatch(/json/);
    }
    // The operations listener has it.
    const scrape = await server.ops.app.inject({ method: 'GET', url: '/metrics' });
    expect(scrape.statusCode).toBe(200);
    expect(scrape.body).toContain('http_request_duration_seconds');
  });

  it('answers a body over the route’s limit with its own 413 over a real connection, 5 MB or 11 MB', async () => {
    // Real sockets: forwarded, a 5 MB body met a service that answered 413 and closed mid-body (the
    // caller got the gateway's 503), and 11 MB reset the connection before any answer.
    const address = await server.front.listen({ port: 0, host: '127.0.0.1' });
    for (const megabytes of [5, 11]) {
      const answer = await post(`${address}${routes.addMerchant.path}`, megabytes * 1_048_576);
      expect(answer, `${megabytes} MB`).toMatchObject({ status: 413 });
      expect(JSON.parse(answer.body!).errors, `${megabytes} MB`).toBe(
        'The body is larger than 1 MiB: nothing was read.',
      );
    }
  });
});

/**
 * POSTs a body of `bytes` over a real connection as curl does (Expect: 100-continue, the body once the
 * server says go on); the answer, or the socket error if there was none.
 */
function post(url: string, bytes: number): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': bytes, expect: '100-continue' },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode, body }));
      res.on('error', (err) => resolve({ status: res.statusCode, error: err.message }));
    });
    req.on('error', (err) => resolve({ error: `${(err as { code?: string }).code}: ${err.message}` }));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', write);
      }
      req.end();
    };
    req.on('continue', write);
  });
}
