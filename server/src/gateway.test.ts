import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BROKER_NAME_MAX, brokerKey, buildPath, routes } from '@mrn/contracts';
import { createLogger, type EventStore, type Pool } from '@mrn/platform';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayApp } from './gateway.ts';
import type { Sandbox } from './sandbox/sandbox.ts';
import { testConfig } from './testing.ts';

// The gateway's own router (issue 30): a path parameter as long as a broker key can be reaches the
// service, over real HTTP (Fastify's default answered 414 past 100 characters). No database: the
// sandbox starts only when a partner calls it, and the upstream is a stand-in that echoes the path.

let upstream: Server;
let gateway: FastifyInstance;
let sandbox: Sandbox;
let base: string;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url }));
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
      expect(await res.json()).toEqual({ url: path });
    }
  });
});
