import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from './platform/src/embedded-postgres.ts';
import type {} from './platform/src/testing.ts';

/**
 * One real PostgreSQL for the whole run: TEST_DATABASE_URL when given, otherwise the embedded
 * binaries in ./.test-data. Every test file then gets a database of its own (platform/src/testing.ts).
 */
export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('pgAdminUrl', given);
    return;
  }
  // Each vitest project runs this setup; they share one server.
  const shared = globalThis as {
    __mrnTestPg?: ReturnType<typeof startEmbeddedPostgres>;
    __mrnTestPgUsers?: number;
  };
  const port = Number(process.env.TEST_PG_PORT ?? 54330);
  // Another test run on this machine may hold the shared data folder: then use a private one.
  shared.__mrnTestPg ??= startEmbeddedPostgres({ dataDir: './.test-data', port }).catch(() =>
    startEmbeddedPostgres({
      dataDir: `./.test-data/run-${process.pid}`,
      port: port + 1 + (process.pid % 500),
    }),
  );
  shared.__mrnTestPgUsers = (shared.__mrnTestPgUsers ?? 0) + 1;
  const pg = await shared.__mrnTestPg;
  project.provide('pgAdminUrl', pg.url());
  return async () => {
    shared.__mrnTestPgUsers = (shared.__mrnTestPgUsers ?? 1) - 1;
    if (shared.__mrnTestPgUsers === 0) await pg.stop();
  };
}
