import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from './platform/src/embedded-postgres.ts';
import type {} from './platform/src/testing.ts';
import { TEST_WORKERS } from './vitest.workers.ts';

/**
 * Real PostgreSQL for the run: TEST_DATABASE_URL when given, otherwise one embedded server per test
 * worker (./.test-data/w1, w2…). Every test file then gets a database of its own (platform/src/testing.ts)
 * on its worker's server. One server per worker, not one for all: a reader of the event log sees nothing
 * past the oldest write transaction still open on its server (DESIGN §3, gap-free tailing), and that
 * horizon is the whole server's, so a test holding a transaction open in its own database would hold
 * back every other file's reads.
 */
export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('pgAdminUrls', [given]);
    return;
  }
  // Each vitest project runs this setup; they share the servers.
  const shared = globalThis as {
    __mrnTestPg?: Promise<Awaited<ReturnType<typeof startEmbeddedPostgres>>[]>;
    __mrnTestPgUsers?: number;
  };
  const base = Number(process.env.TEST_PG_PORT ?? 54330);
  shared.__mrnTestPg ??= Promise.all(
    Array.from({ length: TEST_WORKERS }, (_, i) => {
      const port = base + i * 7;
      // Another test run on this machine may hold the shared data folder: then use a private one.
      return startEmbeddedPostgres({ dataDir: `./.test-data/w${i + 1}`, port }).catch(() =>
        startEmbeddedPostgres({
          dataDir: `./.test-data/run-${process.pid}-w${i + 1}`,
          port: port + 1 + (process.pid % 500) * 7,
        }),
      );
    }),
  );
  shared.__mrnTestPgUsers = (shared.__mrnTestPgUsers ?? 0) + 1;
  const servers = await shared.__mrnTestPg;
  project.provide(
    'pgAdminUrls',
    servers.map((pg) => pg.url()),
  );
  return async () => {
    shared.__mrnTestPgUsers = (shared.__mrnTestPgUsers ?? 1) - 1;
    if (shared.__mrnTestPgUsers === 0) await Promise.all(servers.map((pg) => pg.stop()));
  };
}
