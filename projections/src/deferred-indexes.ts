import { deferredIndexes, forgetDeferredIndex, type Pool } from '@mrn/platform';
import { exec, one, sql } from '@mrn/platform/typed-sql';
import { z } from 'zod';

/** Creates the indexes a rebuild dropped and has not created again (it ended, or was cut short). */
export async function restoreDeferredIndexes(pool: Pool): Promise<void> {
  const rows = await deferredIndexes(pool);
  if (rows.length === 0) return;
  const client = await pool.connect();
  try {
    // Building an index over millions of rows may take longer than the pool's statement timeout.
    await exec(client, sql.fragment`set statement_timeout = 0`);
    for (const { name, definition } of rows) {
      const { present } = await one(
        client,
        sql.type(z.object({ present: z.boolean() }))`select to_regclass(${name}) is not null as present`,
      );
      // The definition is Postgres's own (pg_get_indexdef, remembered before the drop): run as it is.
      if (!present) await client.query(definition);
      await forgetDeferredIndex(client, name);
    }
  } finally {
    await exec(client, sql.fragment`reset statement_timeout`).catch(() => undefined);
    client.release();
  }
}
