import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Pool, withTransaction } from './db.ts';

export interface Migration {
  /** Globally unique and ordered within its package, e.g. `platform/0001_event_store`. */
  id: string;
  sql: string;
}

/** Reads `NNNN_name.sql` files of a folder in name order, ids prefixed with the package's scope. */
export function loadMigrations(scope: string, dir: string | URL): Migration[] {
  const path = dir instanceof URL ? fileURLToPath(dir) : dir;
  return readdirSync(path)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => ({ id: `${scope}/${f.replace(/\.sql$/, '')}`, sql: readFileSync(join(path, f), 'utf8') }));
}

const LOCK_KEY = 727_001; // any constant; serialises concurrent migrators on one database

/** Applies, in order and each in its own transaction, the migrations not yet recorded as applied. */
export async function runMigrations(pool: Pool, migrations: Migration[]): Promise<string[]> {
  const applied: string[] = [];
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    await lock.query(
      'create table if not exists schema_migrations (id text primary key, applied_at timestamptz not null default now())',
    );
    const done = new Set(
      (await lock.query<{ id: string }>('select id from schema_migrations')).rows.map((r) => r.id),
    );
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await withTransaction(pool, async (tx) => {
        await tx.query(m.sql);
        await tx.query('insert into schema_migrations (id) values ($1)', [m.id]);
      });
      applied.push(m.id);
    }
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    lock.release();
  }
  return applied;
}

export const platformMigrations = (): Migration[] =>
  loadMigrations('platform', new URL('../migrations/', import.meta.url));
