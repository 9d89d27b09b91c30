import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing.ts';
import { isDatabaseUnreachable } from './unreachable.ts';

// Real driver errors, each produced the way a stopped, restarting or overloaded server produces it:
// the classification must know every one (a unix socket's ENOENT answered 500 before), and nothing else.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

async function errorOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

const connectTo = (config: pg.ClientConfig) =>
  errorOf(async () => {
    const client = new pg.Client({ ...config, connectionTimeoutMillis: 2000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
    } finally {
      await client.end().catch(() => undefined);
    }
  });

describe('a database that cannot serve us now', () => {
  it('is a unix socket that is gone (embedded PostgreSQL stopped or restarting)', async () => {
    const error = await connectTo({
      host: '/tmp/mrn-no-such-socket-dir',
      port: 5432,
      user: 'x',
      database: 'x',
    });
    expect((error as { code: string }).code).toBe('ENOENT');
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it('is a TCP port nobody listens on', async () => {
    const error = await connectTo({ host: '127.0.0.1', port: 1, user: 'x', database: 'x' });
    expect((error as { code: string }).code).toBe('ECONNREFUSED');
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it('is a session the server ended (an administrator, a shutdown)', async () => {
    const victim = new pg.Client({ connectionString: db.url });
    victim.on('error', () => undefined);
    await victim.connect();
    const { rows } = await victim.query<{ pid: number }>('select pg_backend_pid() as pid');
    await db.pool.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    const error = await errorOf(() => victim.query('select 1'));
    await victim.end().catch(() => undefined);
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it('is a server with too many clients (53300)', async () => {
    const role = `limited_${process.pid}`;
    await db.pool.query(`create role ${role} login password 'p' connection limit 1`);
    try {
      const url = new URL(db.url);
      url.username = role;
      url.password = 'p';
      const first = new pg.Client({ connectionString: url.toString() });
      await first.connect();
      const error = await connectTo({ connectionString: url.toString() });
      await first.end();
      expect((error as { code: string }).code).toBe('53300');
      expect(isDatabaseUnreachable(error)).toBe(true);
    } finally {
      await db.pool.query(`drop role ${role}`);
    }
  });

  it('is a pool that has been ended, and an error wrapped by a library', async () => {
    const pool = new pg.Pool({ connectionString: db.url });
    await pool.end();
    const ended = await errorOf(() => pool.query('select 1'));
    expect(isDatabaseUnreachable(ended)).toBe(true);
    const refused = await connectTo({ host: '127.0.0.1', port: 1, user: 'x', database: 'x' });
    expect(isDatabaseUnreachable(new Error('query failed', { cause: refused }))).toBe(true);
    expect(isDatabaseUnreachable(new AggregateError([refused], 'all addresses refused'))).toBe(true);
  });
});

describe('an error that is ours or the caller’s', () => {
  it('is not unreachability: bad SQL, a broken constraint, a missing file, a plain error', async () => {
    expect(isDatabaseUnreachable(await errorOf(() => db.pool.query('selec 1')))).toBe(false);
    const client = await db.pool.connect();
    try {
      await client.query('create temp table t (id int primary key)');
      await client.query('insert into t values (1)');
      expect(isDatabaseUnreachable(await errorOf(() => client.query('insert into t values (1)')))).toBe(
        false,
      );
    } finally {
      client.release();
    }
    expect(isDatabaseUnreachable(await errorOf(() => readFile('/no/such/file')))).toBe(false);
    expect(isDatabaseUnreachable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnreachable('ECONNREFUSED')).toBe(false);
  });
});
