import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createTestDatabase, type TestDatabase } from '../testing.ts';
import { KurrentDbEventStore } from './kurrentdb-event-store.ts';
import { openEventStore } from './open.ts';
import { PostgresEventStore } from './postgres-event-store.ts';

describe('openEventStore', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('opens PostgreSQL by default, with the append timing hook', async () => {
    const timings: Array<[string, number]> = [];
    const opened = await openEventStore(
      { EVENT_STORE: 'postgres', EVENTSTORE_URL: undefined },
      { pool: db.pool, databaseUrl: db.url, onAppend: (kind, seconds) => timings.push([kind, seconds]) },
    );
    expect(opened.kind).toBe('postgres');
    expect(opened.store).toBeInstanceOf(PostgresEventStore);
    const [a, b] = [`open-${randomUUID()}`, `open-${randomUUID()}`];
    const ev = () => ({ id: randomUUID(), type: 'Opened', data: {} });
    await opened.store.appendToStream(a, [ev(), ev()], { expectedRevision: 'no_stream' });
    await expect(opened.store.appendToStream(a, [ev()], { expectedRevision: 'no_stream' })).rejects.toThrow();
    const many = await opened.store.appendMany([
      { streamId: a, events: [ev()], expectedRevision: 1n },
      { streamId: b, events: [ev()], expectedRevision: 'no_stream' },
    ]);
    expect(timings.map(([kind]) => kind)).toEqual(['single', 'single', 'many']);
    for (const [, seconds] of timings) expect(seconds).toBeGreaterThanOrEqual(0);
    // The head is the safe head: it stops before any transaction still open in the test cluster (another
    // file's), so it passes the appends once those have ended, not necessarily at once (seen in CI).
    await expect
      .poll(
        async () => {
          const head = await opened.store.headPosition();
          return many.every((r) => head >= r.position);
        },
        { timeout: 20_000, interval: 50 },
      )
      .toBe(true);
    await opened.close();
  });

  it('opens KurrentDB at EVENTSTORE_URL without connecting, and refuses to without it', async () => {
    // Port 1 on loopback: nothing listens there; the client connects on first use only.
    const opened = await openEventStore(
      { EVENT_STORE: 'kurrentdb', EVENTSTORE_URL: 'kurrentdb://127.0.0.1:1?tls=false' },
      { pool: db.pool, databaseUrl: db.url },
    );
    expect(opened.kind).toBe('kurrentdb');
    expect(opened.store).toBeInstanceOf(KurrentDbEventStore);
    await opened.close();
    // Without onAppend, and from a full configuration as loadConfig gives it.
    const plain = await openEventStore(
      loadConfig({ EVENT_STORE: 'kurrentdb', EVENTSTORE_URL: 'kurrentdb://127.0.0.1:1?tls=false' }),
      { pool: db.pool, databaseUrl: db.url },
    );
    expect(plain.store).toBeInstanceOf(KurrentDbEventStore);
    await plain.close();
    await expect(
      openEventStore(
        { EVENT_STORE: 'kurrentdb', EVENTSTORE_URL: undefined },
        { pool: db.pool, databaseUrl: '' },
      ),
    ).rejects.toThrow(/EVENTSTORE_URL/);
  });

  it('loads the KurrentDB client only when KurrentDB is chosen', async () => {
    // A fresh process, so nothing else has loaded the client: import the whole platform, open
    // PostgreSQL-less KurrentDB, and look in the CommonJS module cache before and after.
    const index = fileURLToPath(new URL('../index.ts', import.meta.url));
    const script = `
      import { createRequire } from 'node:module';
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('kurrentdb-client'));
      const platform = await import(${JSON.stringify(index)});
      const before = loaded();
      const opened = await platform.openEventStore(
        { EVENT_STORE: 'kurrentdb', EVENTSTORE_URL: 'kurrentdb://127.0.0.1:1?tls=false' },
        { pool: {}, databaseUrl: '' },
      );
      await opened.close();
      console.log(JSON.stringify({ before, after: loaded() }));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: fileURLToPath(new URL('../..', import.meta.url)), timeout: 50_000 },
    );
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ before: false, after: true });
  }, 60_000);
});
