import type { Queryable } from './db.ts';

/**
 * What a replay (projections' rebuild) asks of platform's tables: platform owns
 * `subscription_checkpoints` (migration 0001) and `rebuild_deferred_indexes` (migration 0003), so the
 * statements over them live here (issue 22, one owner per table).
 */

/** Forgets the named consumers' checkpoints, inside the caller's transaction: they start from the log's beginning. */
export async function resetCheckpoints(tx: Queryable, names: readonly string[]): Promise<void> {
  await tx.query('delete from subscription_checkpoints where name = any($1)', [names]);
}

/**
 * Remembers an index's definition before a replay drops it (when it exists and is not remembered
 * already), so that a rebuild cut short has it created again by the next rebuild or start.
 */
export async function rememberDeferredIndex(tx: Queryable, name: string): Promise<void> {
  await tx.query(
    `insert into rebuild_deferred_indexes (name, definition)
     select $1, pg_get_indexdef(to_regclass($1)) where to_regclass($1) is not null
     on conflict (name) do nothing`,
    [name],
  );
}

/** The indexes a replay dropped and has not created again, by name. */
export async function deferredIndexes(db: Queryable): Promise<{ name: string; definition: string }[]> {
  const { rows } = await db.query<{ name: string; definition: string }>(
    'select name, definition from rebuild_deferred_indexes order by name',
  );
  return rows;
}

/** The index exists again: nothing left to restore. */
export async function forgetDeferredIndex(db: Queryable, name: string): Promise<void> {
  await db.query('delete from rebuild_deferred_indexes where name = $1', [name]);
}
