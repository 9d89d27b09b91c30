import { deferredIndexes, forgetDeferredIndex, type Pool } from '@mrn/platform';

/** Creates the indexes a rebuild dropped and has not created again (it ended, or was cut short). */
export async function restoreDeferredIndexes(pool: Pool): Promise<void> {
  const rows = await deferredIndexes(pool);
  if (rows.length === 0) return;
  const client = await pool.connect();
  try {
    // Building an index over millions of rows may take longer than the pool's statement timeout.
    await client.query('set statement_timeout = 0');
    for (const { name, definition } of rows) {
      const exists = (await client.query('select to_regclass($1) is not null as e', [name])).rows[0]?.e;
      if (!exists) await client.query(definition);
      await forgetDeferredIndex(client, name);
    }
  } finally {
    await client.query('reset statement_timeout').catch(() => undefined);
    client.release();
  }
}
