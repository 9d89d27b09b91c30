import { totalmem } from 'node:os';
import {
  createPool,
  type EmbeddedPostgresHandle,
  ensureDatabase,
  startEmbeddedPostgres,
} from '@mrn/platform';
import { untilStopped } from './cleanup.ts';

export interface BenchServer {
  /** Connection string of the server's maintenance database, used to create and drop bench databases. */
  adminUrl: string;
  embedded: boolean;
  stop(): Promise<void>;
}

export interface BenchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * The bench database's buffer pool: a quarter of the machine's memory (PostgreSQL's usual advice for a
 * database server), at most 8 GB; `BENCH_SHARED_BUFFERS` to choose. The product's embedded default
 * (512 MB, for a laptop) made the seeded 9 GB database's random index inserts evict dirty pages from
 * the backends themselves: a projection batch of a few dozen commands took hundreds of milliseconds.
 */
function benchSharedBuffers(): string {
  const given = process.env.BENCH_SHARED_BUFFERS;
  if (given) return given;
  return `${Math.max(512, Math.min(8192, Math.floor(totalmem() / 4 / 2 ** 20)))}MB`;
}

/**
 * BENCH_PG_SETTINGS: further settings of the embedded server as `name=value,name=value`, to compare a
 * setting's effect on the same database (e.g. `wal_compression=pglz`, the default before issue 31).
 */
function extraSettings(): Record<string, string> {
  const given = process.env.BENCH_PG_SETTINGS;
  if (!given) return {};
  return Object.fromEntries(
    given.split(',').map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`BENCH_PG_SETTINGS: "${pair}" is not name=value`);
      return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    }),
  );
}

/** DATABASE_URL's server when given, otherwise the embedded binaries in ./.data-bench (port BENCH_PG_PORT, 54331). */
export async function startBenchServer(): Promise<BenchServer> {
  const given = process.env.DATABASE_URL;
  if (given) return { adminUrl: given, embedded: false, stop: async () => undefined };
  const server: EmbeddedPostgresHandle = await startEmbeddedPostgres({
    dataDir: './.data-bench',
    port: Number(process.env.BENCH_PG_PORT ?? 54331),
    settings: { shared_buffers: benchSharedBuffers(), ...extraSettings() },
  });
  return {
    adminUrl: server.url(),
    embedded: true,
    stop: untilStopped(`the embedded PostgreSQL on port ${process.env.BENCH_PG_PORT ?? 54331}`, server.stop),
  };
}

/**
 * A fresh database per run, even on a DATABASE_URL server: the bench writes hundreds of thousands of
 * junk events, which must never land in a database someone uses.
 */
export async function createBenchDatabase(server: BenchServer, suite: string): Promise<BenchDatabase> {
  const name = `bench_${suite}_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  await ensureDatabase(server.adminUrl, name);
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const admin = createPool(server.adminUrl, 1);
      try {
        await admin.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}

const SHOWN_SETTINGS = [
  'synchronous_commit',
  'fsync',
  'wal_level',
  'full_page_writes',
  'wal_compression',
  'commit_delay',
  'shared_buffers',
  'max_wal_size',
  'checkpoint_timeout',
];

/** What the figures depend on, printed above them so two runs can be compared honestly. */
export async function describeServer(url: string): Promise<{ version: string; settings: string }> {
  const pool = createPool(url, 1);
  try {
    const version = (await pool.query<{ v: string }>('select version() as v')).rows[0]!.v;
    const { rows } = await pool.query<{ name: string; value: string }>(
      'select name, current_setting(name) as value from pg_settings where name = any($1) order by name',
      [SHOWN_SETTINGS],
    );
    return { version, settings: rows.map((r) => `${r.name}=${r.value}`).join(', ') };
  } finally {
    await pool.end();
  }
}
