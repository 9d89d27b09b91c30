import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { type BillingTestServer, startBillingTestServer, stripeClientOptions } from './index.ts';

/** Helpers for tests that drive the server through the pinned SDK (used by this package's tests). */

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status codes to answer with, one per request, then 200. */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

/** A tiny HTTP server that keeps every request's raw body, for webhooks and portal redirects. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.statusCode = statuses.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNext: (...s) => statuses.push(...s),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Harness {
  server: BillingTestServer;
  stripe: Stripe;
  prices: { basic: Stripe.Price; pro: Stripe.Price };
  /** A call to one of the server's `/_test/` helpers, with the secret key. */
  testHelper(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }>;
  close(): Promise<void>;
}

export async function startHarness(
  opts: Parameters<typeof startBillingTestServer>[0] = {},
): Promise<Harness> {
  const server = await startBillingTestServer(opts);
  // No SDK retries: a test must see the first answer.
  const stripe = new Stripe(server.secretKey, { ...stripeClientOptions(server), maxNetworkRetries: 0 });
  const found = await stripe.prices.list({ lookup_keys: ['basic_monthly', 'pro_monthly'] });
  const byKey = (key: string) => found.data.find((p) => p.lookup_key === key)!;
  return {
    server,
    stripe,
    prices: { basic: byKey('basic_monthly'), pro: byKey('pro_monthly') },
    async testHelper(method, path, body) {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${server.secretKey}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, json: await response.json() };
    },
    close: () => server.stop(),
  };
}

/** 2026-01-01T00:00:00Z: a 31-day first period makes hand-computed prorations easy to follow. */
export const JAN_1_2026 = Date.UTC(2026, 0, 1) / 1000;
export const DAY = 86_400;
export const HOUR = 3_600;

/** A customer on a new test clock frozen at `frozenTime`, paying with a ready-made token. */
export async function clockCustomer(stripe: Stripe, token = 'tok_visa', frozenTime = JAN_1_2026) {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: frozenTime });
  const customer = await stripe.customers.create({
    email: `${Math.random().toString(36).slice(2)}@example.test`,
    source: token,
    test_clock: clock.id,
  });
  return { clock, customer };
}
