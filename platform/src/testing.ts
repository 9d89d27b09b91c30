import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool, type Pool } from './db.ts';
import { ensureDatabase } from './embedded-postgres.ts';
import { type Migration, platformMigrations, runMigrations } from './migrations.ts';

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
  const name = `test_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(adminUrl, name);
  const url = withDatabase(adminUrl, name);
  const pool = createPool(url, 30);
  await runMigrations(pool, migrations);
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists "${name}" with (force)`).catch(() => undefined);
      await admin.end();
    },
  };
}

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
