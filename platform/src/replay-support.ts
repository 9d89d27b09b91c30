import { z } from 'zod';
import { exec, many, sql } from './db/typed-sql.ts';
import type { Queryable } from './db.ts';

/**
 * What a replay (projections' rebuild) asks of platform's tables: platform owns
 * `subscription_checkpoints` (migration 0001) and `rebuild_deferred_indexes` (migration 0003), so the
 * statements over them live here (issue 22, one owner per table). Run once per rebuild or start, not per
 * event: slonik tokens with zod rows (issue 22 item 9).
 */

/** Forgets the named consumers' checkpoints, inside the caller's transaction: they start from the log's beginning. */
export async function resetCheckpoints(tx: Queryable, names: readonly string[]): Promise<void> {
  await exec(
    tx,
    sql.fragment`delete from subscription_checkpoints where name = any(${sql.array(names, 'text')})`,
  );
}

/**
 * After a replay: the consumer's output is complete and made by code of `version` (the projections
 * runner builds again an output whose version differs).
 */
export async function markReplayed(tx: Queryable, name: string, version: number): Promise<void> {
  await exec(
    tx,
    sql.fragment`update subscription_checkpoints set building = false, version = ${version} where name = ${name}`,
  );
}

/**
 * Remembers an index's definition before a replay drops it (when it exists and is not remembered
 * already), so that a rebuild cut short has it created again by the next rebuild or start.
 */
export async function rememberDeferredIndex(tx: Queryable, name: string): Promise<void> {
  await exec(
    tx,
    sql.fragment`insert into rebuild_deferred_indexes (name, definition)
     select ${name}, pg_get_indexdef(to_regclass(${name})) where to_regclass(${name}) is not null
     on conflict (name) do nothing`,
  );
}

const DeferredIndex = z.object({ name: z.string(), definition: z.string() });

/** The indexes a replay dropped and has not created again, by name. */
export async function deferredIndexes(db: Queryable): Promise<{ name: string; definition: string }[]> {
  return many(
    db,
    sql.type(DeferredIndex)`select name, definition from rebuild_deferred_indexes order by name`,
  );
}

/** The index exists again: nothing left to restore. */
export async function forgetDeferredIndex(db: Queryable, name: string): Promise<void> {
  await exec(db, sql.fragment`delete from rebuild_deferred_indexes where name = ${name}`);
}
