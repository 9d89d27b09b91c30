import { createHash } from 'node:crypto';
import { buildPath, routes, streams } from '@mrn/contracts';
import { createLogger } from '@mrn/platform';
import {
  DEMO_PASSWORD,
  type RunningServer,
  startServer,
  startTestServer,
  TEST_ADMIN,
  type TestServer,
  testConfig,
} from '@mrn/server/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// An import cut off by a crash is taken up again when a process starts and within seconds by a running
// one (a run holds its import with an advisory lock that dies with its connection; a 5-minute lease made
// it wait), by exactly one process however many look at once; nothing the funder uploaded is lost.

let server: TestServer;
let dana = '';
let summit = '';

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
  summit = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: dana })).body.data.user
    .account_resource_id;
  expect(
    (await server.setSubscriptionSettings(admin, summit, { merchant_subscription_enabled: true })).status,
  ).toBe(200);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** An upload queued for import whose run died after starting it. */
async function interruptedImport(
  csv: Buffer,
  beforeQueued: (uploadId: string) => Promise<void> = async () => undefined,
): Promise<string> {
  const presigned = await server.call({
    method: 'POST',
    url: routes.createPresignedUrl.path,
    token: dana,
    payload: {
      file: {
        filename: 'cut-off.csv',
        byte_size: csv.length,
        checksum: createHash('md5').update(csv).digest('base64'),
        content_type: 'text/csv',
      },
    },
  });
  const put = await server.call({
    method: 'PUT',
    url: presigned.body.direct_upload.url,
    payload: csv,
    headers: { 'content-type': 'text/csv' },
  });
  expect(put.status).toBe(204);
  const { rows } = await server.db.pool.query<{ id: string }>(
    `select id from direct_uploads where filename = 'cut-off.csv' and attached_at is null`,
  );
  const importId = rows[0]!.id;
  await beforeQueued(importId);
  await server.db.pool.query('update direct_uploads set attached_at = now() where id = $1', [importId]);
  await server.store.appendToStream(
    streams.subscriptions(summit),
    [
      {
        id: crypto.randomUUID(),
        type: 'SubscriptionImportQueued',
        data: { accountId: summit, importId, fileName: 'cut-off.csv', fileSize: csv.length },
      },
      { id: crypto.randomUUID(), type: 'SubscriptionImportStarted', data: { accountId: summit, importId } },
    ],
    { expectedRevision: 'any' },
  );
  return importId;
}

const importEvents = async (importId: string) =>
  (
    await server.db.pool.query<{ type: string }>(
      `select type from events where stream_id = $1 and data->>'importId' = $2 order by revision`,
      [streams.subscriptions(summit), importId],
    )
  ).rows.map((r) => r.type);

describe('interrupted imports', () => {
  it('two processes starting at once finish it once, with its counts and results', async () => {
    const csv = Buffer.from('ein\n31-4159265\n271828182\nnot-an-ein\n');
    const importId = await interruptedImport(csv);

    // Two more processes of the product start on the same database at the same moment.
    const logger = createLogger('silent');
    const started: RunningServer[] = await Promise.all([
      startServer(testConfig(server.databaseUrl), { logger }),
      startServer(testConfig(server.databaseUrl), { logger }),
    ]);
    try {
      await expect
        .poll(() => importEvents(importId), { timeout: 20_000, interval: 200 })
        .toContain('SubscriptionImportFinished');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await importEvents(importId)).toEqual([
        'SubscriptionImportQueued',
        'SubscriptionImportStarted',
        'SubscriptionImportFinished',
      ]);
      expect(await server.projectedAll(undefined, 20_000)).toBe(true);
      const list = await server.call({
        method: 'GET',
        url: buildPath(routes.listSubscriptionImports.path, { id: summit }),
        token: dana,
      });
      expect(list.body.data.find((i: { id: string }) => i.id === importId)).toMatchObject({
        status: 'done',
        imported: 2,
        errors: 1,
      });
      const results = await server.call({
        method: 'GET',
        url: buildPath(routes.downloadSubscriptionImportResults.path, { id: summit, import_id: importId }),
        token: dana,
      });
      expect(results.body.trim().split('\n')).toEqual([
        'row,input,outcome',
        '2,31-4159265,imported',
        '3,271828182,imported',
        '4,not-an-ein,"error: must be 9 digits, as 12-3456789"',
      ]);
      // Done: the file is dropped, so no later look takes it up again.
      const { rows } = await server.db.pool.query('select data from direct_uploads where id = $1', [
        importId,
      ]);
      expect(rows[0].data).toBeNull();
    } finally {
      await Promise.all(started.map((s) => s.close()));
    }
  }, 90_000);

  it('leaves an import whose run still holds it alone, and takes it up within seconds once that run dies', async () => {
    const csv = Buffer.from('ein\n16-1803398\n');
    // A run in another process: the session that holds its import's lock.
    const run = new pg.Client({ connectionString: server.databaseUrl });
    await run.connect();
    run.on('error', () => undefined);
    const importId = await interruptedImport(csv, async (id) => {
      await run.query('select pg_advisory_lock(hashtextextended($1, 727020))', [id]);
    });
    const other = await startServer(testConfig(server.databaseUrl), { logger: createLogger('silent') });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await importEvents(importId)).toEqual(['SubscriptionImportQueued', 'SubscriptionImportStarted']);
      // The run's process dies (kill -9): PostgreSQL sees its connection close and the lock goes with it.
      const { rows } = await run.query<{ pid: number }>('select pg_backend_pid() as pid');
      await server.db.pool.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      const died = performance.now();
      await expect
        .poll(() => importEvents(importId), { timeout: 15_000, interval: 100 })
        .toContain('SubscriptionImportFinished');
      // Taken up at the next look of a running process (every 5 s), not after a lease of minutes.
      expect(performance.now() - died).toBeLessThan(8000);
    } finally {
      await other.close();
      await run.end().catch(() => undefined);
    }
  }, 60_000);
});
