import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool, type Pool } from './db.ts';
import { type Migration, platformMigrations, runMigrations } from './migrations.ts';

export * from './testing/containers.ts';

export interface TestDatabase {
  url: string;
  pool: Pool;
  drop(): Promise<void>;
}

/** A fresh, migrated database on the run's real PostgreSQL, private to the calling test file. */
export async function createTestDatabase(
  migrations: Migration[] = platformMigrations(),
): Promise<TestDatabase> {
  // The server of this file's worker (vitest.global-setup.ts: one per worker).
  const urls = inject('pgAdminUrls');
  const adminUrl = urls[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % urls.length]!;
  return createMigratedDatabase(adminUrl, migrations);
}

/**
 * A new database on the server of `adminUrl` (a connection to its `postgres` database), copied from a
 * template migrated once per server and migration set (`migratedTemplate`) instead of migrated anew by
 * every test file: on the test servers a copy takes about a third of the time of creating and migrating.
 */
export async function createMigratedDatabase(
  adminUrl: string,
  migrations: Migration[],
): Promise<TestDatabase> {
  const template = await migratedTemplate(adminUrl, migrations);
  const name = `test_${randomBytes(6).toString('hex')}`;
  await onServer(adminUrl, (admin) => cloneDatabase(admin, adminUrl, template, name));
  const url = withDatabase(adminUrl, name);
  const pool = createPool(url, 30);
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      await onServer(adminUrl, (admin) =>
        admin.query(`drop database if exists ${ident(name)} with (force)`).catch(() => undefined),
      );
    },
  };
}

/**
 * Template databases are named `tpl_` and a hash of the migrations (ids and SQL) and of the code that
 * applies them, so a changed migration gets a template of its own. Nothing the migrations write differs
 * between databases (schema_migrations' applied_at is the template's time, which nothing reads; the data
 * migrations copy from tables that are empty there; identities start over in each copy), so every copy
 * is what migrating a new database would give. They stay on the server for the next run (the global
 * setup keeps the newest few).
 */
export const TEMPLATE_PREFIX = 'tpl_';

const templates = new Map<string, Promise<string>>();

export function migratedTemplate(adminUrl: string, migrations: Migration[]): Promise<string> {
  const hash = createHash('sha256')
    .update(runMigrations.toString())
    .update(JSON.stringify(migrations.map((m) => [m.id, m.sql])))
    .digest('hex');
  const name = `${TEMPLATE_PREFIX}${hash.slice(0, 24)}`;
  const key = `${adminUrl} ${name}`;
  let template = templates.get(key);
  if (!template) {
    template = buildTemplate(adminUrl, name, BigInt(`0x${hash.slice(0, 15)}`), migrations);
    templates.set(key, template);
    template.catch(() => templates.delete(key));
  }
  return template;
}

async function buildTemplate(
  adminUrl: string,
  name: string,
  lockKey: bigint,
  migrations: Migration[],
): Promise<string> {
  await onServer(adminUrl, async (admin) => {
    // A template appears under its name only once complete (renamed from `…_build`), so finding it
    // needs no lock; building it does, as other workers, files or runs may want the same one now.
    if (await databaseExists(admin, name)) return;
    await admin.query('select pg_advisory_lock($1)', [lockKey.toString()]);
    try {
      if (await databaseExists(admin, name)) return;
      const build = `${name}_build`;
      // Left by a run that died while building.
      await admin.query(`drop database if exists ${ident(build)} with (force)`);
      await admin.query(`create database ${ident(build)}`);
      const pool = createPool(withDatabase(adminUrl, build), 2);
      try {
        await runMigrations(pool, migrations);
      } finally {
        // Copying from a database (or renaming it) fails while anyone is connected to it.
        await pool.end();
      }
      await retryWhileInUse(() => admin.query(`alter database ${ident(build)} rename to ${ident(name)}`));
      // No connections from now on: a stray one would make every copy fail (as template0).
      await admin.query(`alter database ${ident(name)} with is_template true allow_connections false`);
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [lockKey.toString()]).catch(() => undefined);
    }
  });
  return name;
}

/**
 * On a server without fsync (the embedded test servers, vitest.global-setup.ts) the copy is made with
 * FILE_COPY: the template's files copied as they are, after a checkpoint that has nothing to wait for,
 * about half the time of the default WAL_LOG, which writes every page of the copy to the WAL. A durable
 * server (TEST_DATABASE_URL) keeps the default, where that checkpoint would wait for its disk.
 */
const strategies = new Map<string, Promise<string>>();

async function cloneDatabase(
  admin: pg.Client,
  adminUrl: string,
  template: string,
  name: string,
): Promise<void> {
  let strategy = strategies.get(adminUrl);
  if (!strategy) {
    strategy = admin
      .query<{ fast: boolean }>(
        `select current_setting('fsync') = 'off' and current_setting('server_version_num')::int >= 150000 as fast`,
      )
      .then(({ rows }) => (rows[0]?.fast ? ' strategy file_copy' : ''));
    strategies.set(adminUrl, strategy);
  }
  const create = `create database ${ident(name)} template ${ident(template)}${await strategy}`;
  await retryWhileInUse(() => admin.query(create));
}

/**
 * "source database … is being accessed by other users" (55006): a session that has just closed its
 * connection may still be on its way out. PostgreSQL itself waits up to 5 s for that; this waits longer.
 */
async function retryWhileInUse<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
    }
  }
}

async function onServer<T>(adminUrl: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end().catch(() => undefined);
  }
}

async function databaseExists(admin: pg.Client, name: string): Promise<boolean> {
  return Boolean((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount);
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection strings of the run's PostgreSQL servers, one per test worker (vitest.global-setup.ts). */
    pgAdminUrls: string[];
  }
}
