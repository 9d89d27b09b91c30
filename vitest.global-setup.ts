import { rmSync } from 'node:fs';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from './platform/src/embedded-postgres.ts';
import { kurrentDbForRun } from './platform/src/testing/containers.ts';
import { TEMPLATE_PREFIX } from './platform/src/testing.ts';
import { TEST_WORKERS } from './vitest.workers.ts';

/**
 * The test servers trade durability for speed: their databases are thrown away, and without fsync a
 * commit or a checkpoint does not wait for the disk. A process that dies loses nothing (the data is in
 * the kernel's page cache); only a machine that crashes can leave a damaged data folder, and then the
 * next run starts on a private one (below). MRN_TEST_PG_DURABLE=1 runs them as in production.
 */
const TEST_SETTINGS: Record<string, string> =
  process.env.MRN_TEST_PG_DURABLE === '1'
    ? {}
    : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

/** Migrated templates kept per server (platform/src/testing.ts): each changed migration leaves one. */
const KEEP_TEMPLATES = 20;

/**
 * Real PostgreSQL for the run: TEST_DATABASE_URL when given, otherwise one embedded server per test
 * worker (./.test-data/w1, w2…). Every test file then gets a database of its own (platform/src/testing.ts)
 * on its worker's server. One server per worker, not one for all: a reader of the event log sees nothing
 * past the oldest write transaction still open on its server (DESIGN §3, gap-free tailing), and that
 * horizon is the whole server's, so a test holding a transaction open in its own database would hold
 * back every other file's reads.
 */
export default async function setup(project: TestProject) {
  const stopKurrentDb = await provideKurrentDb(project);
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('pgAdminUrls', [given]);
    return stopKurrentDb;
  }
  // Each vitest project runs this setup; they share the servers.
  const shared = globalThis as {
    __mrnTestPg?: Promise<{ url: string; stop: () => Promise<void> }[]>;
    __mrnTestPgUsers?: number;
  };
  const base = Number(process.env.TEST_PG_PORT ?? 54330);
  shared.__mrnTestPg ??= Promise.all(
    Array.from({ length: TEST_WORKERS }, async (_, i) => {
      const port = base + i * 7;
      try {
        const server = await startEmbeddedPostgres({
          dataDir: `./.test-data/w${i + 1}`,
          port,
          settings: TEST_SETTINGS,
        });
        // This run holds the folder (PostgreSQL locks it): whatever test databases are on it were left
        // by runs that ended before their files could drop them.
        await tidy(server.url());
        return { url: server.url(), stop: server.stop };
      } catch {
        // Another test run on this machine holds the shared data folder: a private one, removed after.
        const dataDir = `./.test-data/run-${process.pid}-w${i + 1}`;
        const server = await startEmbeddedPostgres({
          dataDir,
          port: port + 1 + (process.pid % 500) * 7,
          settings: TEST_SETTINGS,
        });
        return {
          url: server.url(),
          stop: async () => {
            await server.stop();
            rmSync(dataDir, { recursive: true, force: true });
          },
        };
      }
    }),
  );
  shared.__mrnTestPgUsers = (shared.__mrnTestPgUsers ?? 0) + 1;
  const servers = await shared.__mrnTestPg;
  project.provide(
    'pgAdminUrls',
    servers.map((server) => server.url),
  );
  return async () => {
    shared.__mrnTestPgUsers = (shared.__mrnTestPgUsers ?? 1) - 1;
    if (shared.__mrnTestPgUsers === 0) await Promise.all(servers.map((server) => server.stop()));
    await stopKurrentDb?.();
  };
}

/**
 * TEST_EVENT_STORE=kurrentdb runs the whole-product HTTP suites on KurrentDB (server/src/testing.ts): the
 * server at EVENTSTORE_URL, or one KurrentDB container for the run, shared by the projects, that
 * testcontainers starts when a Docker engine answers; with neither the run fails (kurrentDbForRun). Not
 * run on the development machine (no Docker engine there).
 */
async function provideKurrentDb(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TEST_EVENT_STORE !== 'kurrentdb') return undefined;
  const shared = globalThis as {
    __mrnTestKurrentDb?: Promise<{ url: string; stop: () => Promise<void> } | undefined>;
    __mrnTestKurrentDbUsers?: number;
  };
  shared.__mrnTestKurrentDb ??= kurrentDbForRun();
  shared.__mrnTestKurrentDbUsers = (shared.__mrnTestKurrentDbUsers ?? 0) + 1;
  const server = await shared.__mrnTestKurrentDb;
  project.provide('kurrentDbUrl', server?.url);
  return async () => {
    shared.__mrnTestKurrentDbUsers = (shared.__mrnTestKurrentDbUsers ?? 1) - 1;
    if (shared.__mrnTestKurrentDbUsers === 0) await server?.stop();
  };
}

/** Drops left-over test databases and all but the newest migrated templates of a server of this run's own. */
async function tidy(adminUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string; template: boolean }>(
      `select datname, datistemplate as template from pg_database
        where datname like 'test\\_%'
           or (datname like $1 and oid not in (
                 select oid from pg_database where datname like $1 order by oid desc limit $2))`,
      [`${TEMPLATE_PREFIX.replace(/_/g, '\\_')}%`, KEEP_TEMPLATES],
    );
    for (const { datname, template } of rows) {
      const ident = `"${datname.replace(/"/g, '""')}"`;
      if (template) await admin.query(`alter database ${ident} with is_template false`);
      await admin.query(`drop database if exists ${ident} with (force)`);
    }
  } finally {
    await admin.end();
  }
}
