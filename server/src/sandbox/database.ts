import { createPool, type Pool, runMigrations } from '@mrn/platform';
import { allMigrations } from '../database.ts';

/** The sandbox's database: the production one's name with this suffix, on the same server. */
export const SANDBOX_DATABASE_SUFFIX = '_sandbox';

export function sandboxDatabaseUrl(productionUrl: string): { url: string; name: string } {
  const u = new URL(productionUrl);
  const name = `${decodeURIComponent(u.pathname.slice(1))}${SANDBOX_DATABASE_SUFFIX}`;
  u.pathname = `/${encodeURIComponent(name)}`;
  return { url: u.toString(), name };
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Statements on the server as a whole (create, drop), run from a connection to the production database. */
async function onServer<T>(productionUrl: string, fn: (client: Pool) => Promise<T>): Promise<T> {
  const client = createPool(productionUrl, 1);
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Creates the sandbox database when missing. A role without CREATEDB (a managed DATABASE_URL) gets an
 * error saying what to create by hand: the sandbox never falls back to a schema in the production
 * database, where one wrong search_path would mix the two datasets.
 */
export async function ensureSandboxDatabase(productionUrl: string): Promise<void> {
  const { name } = sandboxDatabaseUrl(productionUrl);
  await onServer(productionUrl, async (client) => {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount) return;
    try {
      await client.query(`create database ${ident(name)}`);
    } catch (error) {
      const code = (error as { code?: string }).code;
      // 42P04: another process created it a moment ago.
      if (code === '42P04') return;
      if (code === '42501') {
        throw new Error(
          `The partner API sandbox needs its own database "${name}" and this role may not create databases. Create it (owned by this role) and restart.`,
          { cause: error },
        );
      }
      throw error;
    }
  });
}

export async function sandboxDatabaseExists(productionUrl: string): Promise<boolean> {
  const { name } = sandboxDatabaseUrl(productionUrl);
  return onServer(productionUrl, async (client) =>
    Boolean((await client.query('select 1 from pg_database where datname = $1', [name])).rowCount),
  );
}

/** Drops the sandbox database, disconnecting whoever still uses it. */
export async function dropSandboxDatabase(productionUrl: string): Promise<void> {
  const { name } = sandboxDatabaseUrl(productionUrl);
  await onServer(productionUrl, (client) =>
    client.query(`drop database if exists ${ident(name)} with (force)`),
  );
}

/** The same migrations as production: the sandbox runs the same code on the same tables. */
export async function migrateSandbox(pool: Pool): Promise<void> {
  await runMigrations(pool, allMigrations());
  // When the sandbox was last reset to its seed (the weekly reset reads it), and where the log stood
  // then (a reset of an untouched sandbox has nothing to undo); dropped with the data.
  await pool.query(
    `create table if not exists sandbox_meta (
       id int primary key default 1 check (id = 1),
       reset_at timestamptz not null,
       seed_position text not null)`,
  );
}

export async function lastReset(pool: Pool): Promise<{ at: Date; seedPosition: string } | null> {
  const { rows } = await pool.query<{ reset_at: Date; seed_position: string }>(
    'select reset_at, seed_position from sandbox_meta where id = 1',
  );
  const row = rows[0];
  return row ? { at: row.reset_at, seedPosition: row.seed_position } : null;
}

export async function recordReset(pool: Pool, at: Date, seedPosition: string): Promise<void> {
  await pool.query(
    `insert into sandbox_meta (id, reset_at, seed_position) values (1, $1, $2)
     on conflict (id) do update set reset_at = excluded.reset_at, seed_position = excluded.seed_position`,
    [at, seedPosition],
  );
}
