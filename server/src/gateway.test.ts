import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BROKER_NAME_MAX, brokerKey, buildPath, routes } from '@mrn/contracts';
import { createLogger, type EventStore, type Pool } from '@mrn/platform';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayApp } from './gateway.ts';
import type { Sandbox } from './sandbox/sandbox.ts';
import { testConfig } from './testing.ts';

// The gateway alone (issue 30), over real HTTP, in front of a stand-in service that echoes what it was
// sent and answers /ready as told: no database (the sandbox starts only when a partner calls it).

let upstream: Server;
let gateway: FastifyInstance;
let sandbox: Sandbox;
let base: string;
/** What the stand-in answers on /ready. */
let upstreamReady = 200;
let projectionsDown = false;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    if (req.url === '/ready') return void res.writeHead(upstreamReady).end();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ url: req.url, headers: req.headers }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  ({ app: gateway, sandbox } = await createGatewayApp({
    config: testConfig('postgres://nobody@127.0.0.1:1/none'),
    logger: createLogger('silent'),
    production: {
      pool: undefined as unknown as Pool,
      store: undefined as unknown as EventStore,
      databaseUrl: 'postgres://nobody@127.0.0.1:1/none',
    },
    jwtSecret: 'test-secret-that-is-long-enough-for-hs256',
    billingTokenUrl: null,
    upstreams: { command: [origin], query: [origin], webhooks: [origin] },
    // A process behind it that is not listening: the gateway is not ready while it is down.
    alsoReady: (): Record<string, string[]> =>
      projectionsDown ? { projections: ['http://127.0.0.1:1'] } : {},
    webDist: '/nonexistent',
  }));
  base = await gateway.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await gateway?.close();
  await sandbox?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe('gateway', () => {
  it('forwards a broker record however long its key: a 120-character name of any script', async () => {
    for (const name of [
      'Société Crédit Agrícola ブローカー・サービス '.repeat(4).slice(0, BROKER_NAME_MAX),
      // The longest key of all (2,160 characters, 11,880 in the URL): each character decomposes into 18.
      '\uFDFA'.repeat(BROKER_NAME_MAX),
    ]) {
      const path = buildPath(routes.getBroker.path, { key: brokerKey(name) });
      const res = await fetch(`${base}${path}`);
      expect(res.status, `${path.length} characters`).toBe(200);
      expect(((await res.json()) as { url: string }).url).toBe(path);
    }
  });

  it('refuses an address with a malformed percent-encoding with a 400 naming it, in the caller’s envelope', async () => {
    // reply-from decoded it to look for `..` and threw: a 500 (found by the fuzz through the gateway).
    for (const [path, envelope] of [
      [`${routes.searchMerchants.path}?search=%ED%A0%80`, 'dashboard'],
      [`/api/v2/merchants/%E0%A4%A`, 'partner'],
    ] as const) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as { errors: unknown };
      const message = 'The address is not valid: it has a malformed percent-encoding (%XX).';
      expect(body.errors, `${path} ${JSON.stringify(body)}`).toEqual(
        envelope === 'partner' ? [{ field: null, message }] : message,
      );
    }
  });

  it('tells the service the address it sees, never what the client wrote (issue 30, item 3)', async () => {
    const res = await fetch(`${base}${routes.getAppSettings.path}`, {
      headers: {
        'x-forwarded-for': '198.51.100.1',
        forwarded: 'for=198.51.100.2',
        'x-real-ip': '198.51.100.3',
      },
    });
    const { headers } = (await res.json()) as { headers: Record<string, string> };
    expect(headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(headers.forwarded).toBeUndefined();
    expect(headers['x-real-ip']).toBeUndefined();
  });

  it('/health is liveness naming nothing behind it; /ready only when every process behind it is (item 4)', async () => {
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`);
      return { status: res.status, body: await res.json() };
    };
    expect(await get('/ready')).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: { command: { ok: true }, query: { ok: true }, webhooks: { ok: true } },
      },
    });
    upstreamReady = 503;
    projectionsDown = true;
    try {
      expect(await get('/health')).toEqual({ status: 200, body: { status: 'ok' } });
      const ready = await get('/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({
        status: 'not_ready',
        checks: {
          command: { ok: false, problem: 'The command service is not ready.' },
          query: { ok: false, problem: 'The query service is not ready.' },
          webhooks: { ok: false, problem: 'The webhooks service is not ready.' },
          projections: { ok: false, problem: 'The projections service is not ready.' },
        },
      });
    } finally {
      upstreamReady = 200;
      projectionsDown = false;
    }
    // /metrics is no screen of the web app here either.
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
  });
});
