import { randomUUID } from 'node:crypto';
import { buildPath, CONSISTENT_AFTER_HEADER, routes, streams } from '@mrn/contracts';
import { createLogger } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../app.ts';
import { allMigrations } from '../database.ts';
import { startPostgresProxy, type TcpProxy } from '../tcp-proxy.ts';
import { TEST_ADMIN, testConfig } from '../testing.ts';

// The server reaches its database through a relay the test can cut: /health and /ready must say when
// the database is gone (they answered "ok" while every sign-in failed), and requests fail as 503s.

let db: TestDatabase;
let proxy: TcpProxy;
let server: RunningServer;
beforeAll(async () => {
  db = await createTestDatabase(allMigrations());
  proxy = await startPostgresProxy(db.url);
  server = await startServer(testConfig(proxy.url, { CONSISTENCY_TIMEOUT_MS: '1500' }), {
    logger: createLogger('silent'),
    listen: false,
  });
});
afterAll(async () => {
  await proxy.restore().catch(() => undefined);
  await server.close();
  await proxy.close();
  await db.drop();
});

// The public port (anyone) and the operations listener (loopback: operators).
const get = async (url: string, headers: Record<string, string> = {}, app = server.app) => {
  const started = performance.now();
  const res = await app.inject({ method: 'GET', url, headers });
  return {
    status: res.statusCode,
    body: res.json(),
    headers: res.headers,
    ms: performance.now() - started,
  };
};
const ops = (url: string) => get(url, {}, server.ops.app);
/** What an anonymous caller must never read in a health answer: ids, positions, SQL, internal addresses. */
const INTERNAL =
  /merchant-[0-9a-f]{8}|stream|position|applied_through|select |insert |postgres|127\.0\.0\.1|ECONN|ENOENT|\.s\.PGSQL/i;
const signIn = () =>
  server.app.inject({
    method: 'POST',
    url: routes.login.path,
    payload: { auth: { email: TEST_ADMIN.email, password: TEST_ADMIN.password } },
  });

describe('/health and /ready', () => {
  it('are ok and ready with the database up, every migration applied and every projector live', async () => {
    expect(await get('/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { database: { ok: true }, projections: { ok: true }, migrations: { ok: true } },
    });
    // The operations listener has the figures.
    const detail = await ops('/ready');
    expect(detail.status).toBe(200);
    expect(detail.body.checks.migrations).toEqual({ ok: true, applied: allMigrations().length });
    expect(detail.body.checks.projections.ok).toBe(true);
    expect(detail.body.checks.projections.projectors.map((p: { name: string }) => p.name)).toContain(
      'merchants',
    );
  });

  it('say the database is unreachable (503) while it is down, and sign-in is a 503, not a 500', async () => {
    await proxy.cut();
    try {
      const health = await get('/health');
      expect(health.status).toBe(503);
      expect(health.body).toEqual({ status: 'unavailable', problems: ['The database does not answer.'] });
      expect(health.ms).toBeLessThan(3000);
      const ready = await get('/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('not_ready');
      expect(ready.body.checks.database).toEqual({ ok: false, problem: 'The database does not answer.' });
      expect(JSON.stringify(ready.body)).not.toMatch(INTERNAL);
      // Operators see the driver's error.
      const detail = await ops('/health');
      expect(detail.body.checks.database.error).toMatch(/ECONN|terminated|timeout|no answer/i);
      const login = await signIn();
      expect(login.statusCode).toBe(503);
      expect(login.json().errors).toMatch(/temporarily unavailable/);
      expect(login.headers['retry-after']).toBeDefined();
    } finally {
      await proxy.restore();
    }
    let health = await get('/health');
    for (let i = 0; i < 100 && health.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      health = await get('/health');
    }
    expect(health.body).toEqual({ status: 'ok' });
    expect((await signIn()).statusCode).toBe(200);
  });

  it('503 naming a projector halted at a poison event; answers that do not read it do not wait for it', async () => {
    const merchantId = randomUUID();
    // Past the API, which refuses it: a date the merchants read model cannot store.
    const { position } = await server.store.appendToStream(
      streams.merchant(merchantId),
      [
        {
          id: randomUUID(),
          type: 'MerchantAdded',
          data: {
            merchantId,
            fein: '900000001',
            legalName: 'Poison Pill LLC',
            dba: null,
            street1: null,
            street2: null,
            city: 'Tampa',
            state: 'FL',
            businessPhone: null,
            businessStartdate: '2023-02-31',
            industry: null,
            accountId: randomUUID(),
            userId: randomUUID(),
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    let answer = await get('/health');
    for (let i = 0; i < 200 && answer.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 25));
      answer = await get('/health');
    }
    expect(answer.status).toBe(503);
    // Anyone reads what is wrong in words: which read model, since when; no event, stream or SQL.
    expect(answer.body).toEqual({
      status: 'degraded',
      problems: [
        expect.stringMatching(
          /^The merchants read model stopped (less than a minute|a minute|\d+ minutes) ago at a change it could not apply; the other read models are current\.$/,
        ),
      ],
    });
    expect(JSON.stringify(answer.body)).not.toMatch(INTERNAL);
    expect(JSON.stringify(answer.body)).not.toContain(merchantId);
    // Operators read the event, the error and the lag on the operations listener.
    const detail = await ops('/health');
    expect(detail.status).toBe(503);
    const halted = detail.body.checks.projections.halted;
    expect(halted).toHaveLength(1);
    expect(halted[0]).toMatchObject({
      name: 'merchants',
      event: { type: 'MerchantAdded', stream_id: streams.merchant(merchantId), position },
    });
    expect(halted[0].error).toMatch(/date|range|invalid/i);
    expect(halted[0].lag.head >= position).toBe(true);
    expect(halted[0].lag.applied_through < position).toBe(true);
    expect(typeof halted[0].lag.seconds).toBe('number');
    const ready = await get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.projections).toEqual({ ok: false, problem: answer.body.problems[0] });
    expect((await ops('/ready')).body.checks.projections.projectors).toContainEqual(
      expect.objectContaining({ name: 'merchants', state: 'halted' }),
    );

    // Issue 20, item 10: a write after the poison event, then reads that ask to see it.
    const login = (await signIn()).json();
    const token = login.data.jwt as string;
    const userId = login.data.user.resource_id as string;
    const written = await server.app.inject({
      method: 'PUT',
      url: buildPath(routes.updateUser.path, { id: userId }),
      headers: { authorization: `Bearer ${token}` },
      payload: { user: { first_name: 'Platform', last_name: 'Renamed', email: TEST_ADMIN.email } },
    });
    expect(written.statusCode).toBe(200);
    const after = { authorization: `Bearer ${token}`, [CONSISTENT_AFTER_HEADER]: written.json().position };
    const user = await get(buildPath(routes.getUser.path, { id: userId }), after);
    expect(user.status).toBe(200);
    expect(user.body.data.last_name).toBe('Renamed');
    expect(user.headers['x-consistency']).toBeUndefined();
    expect(user.ms).toBeLessThan(1000);
    // What does read the halted model still waits, and says it may be behind.
    const merchants = await get(routes.listMerchants.path, after);
    expect(merchants.status).toBe(200);
    expect(merchants.headers['x-consistency']).toBe('timeout');
    expect(merchants.ms).toBeGreaterThanOrEqual(1400);
  });
});
