import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPath, CONSISTENT_AFTER_HEADER, routes } from '@mrn/contracts';
import {
  type Clock,
  createLogger,
  encodePosition,
  loadConfig,
  SearchLogWriter,
  type SearchToRecord,
  START,
} from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { inject } from 'vitest';
import { type RunningServer, startServer } from './app.ts';
import { allMigrations } from './database.ts';
import { createGatewayApp } from './gateway.ts';
import { dropSandboxDatabase } from './sandbox/database.ts';

/**
 * What the product's HTTP tests need besides a server: they sit beside the features they test, in each
 * service's folders, and reach the all-in-one composition only through this module.
 */
export { type RunningServer, startServer } from './app.ts';
export { BILLING_TEST_KEYS_FILE, billingTestKeys } from './billing.ts';
export { allMigrations } from './database.ts';
export { DEMO_PASSWORD } from './demo.ts';
export { SANDBOX_FUNDER, SANDBOX_MERCHANT, SANDBOX_NOTES } from './sandbox/seed.ts';

export const TEST_ADMIN = { email: 'admin@test.example', password: 'correct horse battery staple' };

export interface TestServer extends RunningServer {
  db: TestDatabase;
  /**
   * Where requests enter: the server itself, or (`via: 'gateway'`) the split topology's gateway in front
   * of it, forwarding over real HTTP as in `npm run start:split`. `call` and `login` go through it.
   */
  front: FastifyInstance;
  /** Fastify inject that remembers the last command position and sends it as X-Consistent-After. */
  call(
    options: InjectOptions & { token?: string },
    // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes and assert on them
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  login(email: string, password: string): Promise<string>;
  /**
   * Waits until the projections (`readModels`: those only) have applied every event committed so far;
   * false after `timeoutMs`. Not the store's head: that is the safe head, which stops before any
   * transaction still open (the dispatcher's, a projection batch's) and so can leave out events a test
   * has just appended.
   */
  projectedAll(readModels?: readonly string[], timeoutMs?: number): Promise<boolean>;
  /**
   * Records searches in the search log as the search recorder does (`at`: when made, for windows of
   * time), and answers the position of the last: searches are not events of the event log (issue 31).
   */
  recordSearches(searches: readonly SearchToRecord[]): Promise<string>;
  /**
   * PUT /api/accounts/{id} with the account's current details and these merchant-subscription
   * settings (enabled, notification e-mail, webhook); answers the PUT.
   */
  setSubscriptionSettings(
    token: string,
    accountId: string,
    settings: {
      merchant_subscription_enabled?: boolean;
      merchant_subscription_notification_email?: string | null;
      merchant_subscription_notification_webhook?: string | null;
    },
  ): ReturnType<TestServer['call']>;
}

/** The configuration tests run the product with, on the database at `databaseUrl`. */
export function testConfig(databaseUrl: string, env: Record<string, string> = {}) {
  return loadConfig({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'mrn-test-')),
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256',
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    LOG_LEVEL: 'silent',
    // The HTTP suites run on KurrentDB with TEST_EVENT_STORE=kurrentdb: the server at EVENTSTORE_URL, or
    // one testcontainers starts for the run when a Docker engine answers (vitest.global-setup.ts, which
    // fails the run when there is neither). Not run on the development machine: no Docker engine, and no
    // KurrentDB server can be installed there.
    ...(process.env.TEST_EVENT_STORE === 'kurrentdb'
      ? {
          EVENT_STORE: 'kurrentdb',
          EVENTSTORE_URL: inject('kurrentDbUrl') ?? process.env.EVENTSTORE_URL ?? '',
        }
      : {}),
    ...env,
  });
}

/**
 * The whole product on a fresh database of the run's real PostgreSQL; `listen: true` for real HTTP;
 * `via: 'gateway'` puts the gateway in front (the server then listens, and believes X-Forwarded-For
 * from loopback only, where the gateway is, as the services do in the split topology).
 */
export async function startTestServer(
  opts: {
    listen?: boolean;
    demo?: boolean;
    env?: Record<string, string>;
    clock?: Clock;
    via?: 'server' | 'gateway';
  } = {},
): Promise<TestServer> {
  const db = await createTestDatabase(allMigrations());
  const viaGateway = opts.via === 'gateway';
  const config = testConfig(db.url, { ...(viaGateway ? { TRUST_PROXY: '127.0.0.1' } : {}), ...opts.env });
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const server = await startServer(config, {
    logger,
    listen: viaGateway || (opts.listen ?? false),
    demo: opts.demo,
    clock: opts.clock,
  });
  let gateway: Awaited<ReturnType<typeof createGatewayApp>> | undefined;
  if (viaGateway) {
    const origin = `http://127.0.0.1:${new URL(server.url).port}`;
    gateway = await createGatewayApp({
      // The gateway is the edge: it believes no client's X-Forwarded-For.
      config: { ...config, TRUST_PROXY: false },
      logger,
      production: { pool: db.pool, store: server.store, databaseUrl: db.url },
      jwtSecret: config.JWT_SECRET!,
      billingTokenUrl: null,
      upstreams: { command: [origin], query: [origin], webhooks: [origin] },
    });
    await gateway.app.ready();
  }
  const front = gateway?.app ?? server.app;
  let lastPosition: string | undefined;
  const call: TestServer['call'] = async ({ token, headers, ...rest }) => {
    const res = await front.inject({
      ...rest,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(lastPosition && (rest.method ?? 'GET') === 'GET'
          ? { [CONSISTENT_AFTER_HEADER]: lastPosition }
          : {}),
        ...headers,
      },
    });
    const body = res.headers['content-type']?.toString().includes('json') ? res.json() : res.body;
    if (body && typeof body === 'object' && typeof body.position === 'string') lastPosition = body.position;
    return { status: res.statusCode, body, headers: res.headers };
  };
  return {
    ...server,
    db,
    front,
    call,
    async login(email, password) {
      const res = await call({
        method: 'POST',
        url: '/api/auth/login',
        payload: { auth: { email, password } },
      });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data.jwt as string;
    },
    async projectedAll(readModels, timeoutMs = 20_000) {
      const newest = (table: string) =>
        db.pool
          .query<{ tx: string; position: string }>(
            `select transaction_id::text as tx, position from ${table} order by transaction_id desc, position desc limit 1`,
          )
          .then((r) => (r.rows[0] ? encodePosition(r.rows[0].tx, r.rows[0].position) : START));
      const lastEvent = await newest('events')
        // The log is not in this database (EVENT_STORE=kurrentdb): its head is.
        .catch(() => server.store.headPosition());
      // Searches too (their own log): a position past both is passed by every reader of either.
      const lastSearch = await newest('search_log');
      // biome-ignore lint/complexity/useMathMinMax: positions are strings, compared in log order
      const last = lastSearch > lastEvent ? lastSearch : lastEvent;
      return server.projections.waitFor(last, readModels, timeoutMs);
    },
    async recordSearches(searches) {
      const positions = await new SearchLogWriter(db.pool).append(searches);
      return positions.at(-1) ?? START;
    },
    async setSubscriptionSettings(token, accountId, settings) {
      const url = buildPath(routes.getAccount.path, { id: accountId });
      const { name, website, primary_contact_email } = (await call({ method: 'GET', url, token })).body.data;
      return call({
        method: 'PUT',
        url: buildPath(routes.updateAccount.path, { id: accountId }),
        token,
        payload: { account: { name, website, primary_contact_email, ...settings } },
      });
    },
    async close() {
      await gateway?.app.close();
      await gateway?.sandbox.close();
      await server.close();
      // A test's sandbox (if it used one) goes with its database.
      await dropSandboxDatabase(db.url);
      await db.drop();
    },
  };
}
