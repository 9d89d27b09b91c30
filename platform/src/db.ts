import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Anything that can run a query: the pool itself or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

// bigint columns come back as strings by default; counts and ids we keep below 2^53 are safe as numbers,
// event positions are handled as strings on purpose.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createPool(
  connectionString: string,
  max = 20,
  opts: {
    asynchronousCommit?: boolean;
    /**
     * Plan every prepared statement once, for any parameters. Only for a pool that runs nothing but
     * named statements whose best plan does not depend on the values (it applies to unnamed ones too).
     */
    genericPlans?: boolean;
  } = {},
): Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    // An open transaction holds back every event-store subscriber (DESIGN §3), so none may idle.
    options: `-c idle_in_transaction_session_timeout=30000 -c statement_timeout=60000${
      opts.asynchronousCommit ? ' -c synchronous_commit=off' : ''
    }${opts.genericPlans ? ' -c plan_cache_mode=force_generic_plan' : ''}`,
  });
  pool.on('error', () => {
    // A dropped idle client is replaced on next checkout; the error is not actionable here.
  });
  // pg-pool listens for errors only on idle clients: a connection lost while a client is checked out (a
  // transaction, a lock held across a call) emitted 'error' with no listener, and that ended the process
  // on every database restart. The query in flight still fails with the error, and the pool drops the
  // broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
