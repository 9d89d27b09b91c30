import {
  type ConsumerLog,
  ensureCheckpoint,
  markReplayed,
  type Pool,
  type Position,
  rememberDeferredIndex,
  resetCheckpoints,
  START,
  withTransaction,
  writeCheckpoint,
} from '@mrn/platform';
import { exec, sql } from '@mrn/platform/typed-sql';
import { restoreDeferredIndexes } from './deferred-indexes.ts';
import { handledTypes, type LogName, logOf, type Projector, versionOf } from './projector.ts';
import { dispatchBatch } from './runner.ts';

/**
 * Empties the projectors' tables and checkpoints, then replays the log into all of them in one pass:
 * each batch is read once and applied by every projector side by side, while the next batch is
 * already being read. Only events of the types they handle are read, and the indexes they declare
 * deferrable are built once at the end. Returns how many events were applied. Run it while the
 * projectors are stopped.
 */
export async function rebuildProjectors(
  deps: { pool: Pool; store: ConsumerLog; searches?: ConsumerLog },
  projectors: readonly Projector[],
  opts: { batchSize?: number; onProgress?: (events: number) => void } = {},
): Promise<number> {
  await restoreDeferredIndexes(deps.pool);
  await withTransaction(deps.pool, async (tx) => {
    const tables = projectors.flatMap((p) => p.tables);
    if (tables.length > 0) {
      await exec(tx, sql.fragment`truncate ${sql.join(tables.map(qualified), sql.fragment`, `)}`);
    }
    await resetCheckpoints(
      tx,
      projectors.map((p) => p.name),
    );
    // A replay is the operator's retry: the quarantine starts afresh (a poison event still in the log
    // fails the rebuild, naming it, and the running server quarantines it again).
    await exec(
      tx,
      sql.fragment`delete from projection_quarantine where projector = any(${sql.array(
        projectors.map((p) => p.name),
        'text',
      )})`,
    );
    for (const index of projectors.flatMap((p) => p.deferredIndexes ?? [])) {
      await rememberDeferredIndex(tx, index);
      await exec(tx, sql.fragment`drop index if exists ${qualified(index)}`);
    }
  });
  let count = 0;
  // Each log's projectors replay together, one log after the other (their figures do not depend on the
  // other log's order: DESIGN §1).
  for (const log of ['events', 'searches'] as const satisfies readonly LogName[]) {
    const mine = projectors.filter((p) => logOf(p) === log);
    if (mine.length === 0) continue;
    const reader = log === 'searches' ? deps.searches : deps.store;
    if (!reader) throw new Error(`rebuilding ${mine.map((p) => p.name).join(', ')} needs the search log`);
    count += await replayLog(deps.pool, reader, mine, opts.batchSize ?? 5000, (n) =>
      opts.onProgress?.(count + n),
    );
  }
  await restoreDeferredIndexes(deps.pool);
  await withTransaction(deps.pool, async (tx) => {
    for (const p of projectors) {
      // A projector whose log had nothing for it still stands at the log's start, complete.
      await ensureCheckpoint(tx, p.name);
      await markReplayed(tx, p.name, versionOf(p));
    }
  });
  return count;
}

/** One pass over a log: each batch read once and applied by every projector side by side. */
async function replayLog(
  pool: Pool,
  reader: ConsumerLog,
  projectors: readonly Projector[],
  batchSize: number,
  onProgress: (events: number) => void,
): Promise<number> {
  const types = [...new Set(projectors.flatMap(handledTypes))];
  const cursors = new Map<string, Position>(projectors.map((p) => [p.name, START]));
  let count = 0;
  const read = (from: Position) => reader.readAll({ fromPosition: from, maxCount: batchSize, types });
  let next = read(START);
  for (;;) {
    const events = await next;
    if (events.length === 0) break;
    // Reading the next batch overlaps with writing this one: the log and the read models are
    // different work, and on two cores they run at the same time.
    next = read(events[events.length - 1]!.position);
    try {
      await dispatchBatch(pool, projectors, cursors, events);
    } catch (error) {
      await next.catch(() => undefined);
      throw error;
    }
    count += events.length;
    onProgress(count);
  }
  return count;
}

/** A table or index name as projectors declare it (`read.merchants`), quoted part by part. */
const qualified = (name: string) => sql.identifier(name.split('.'));

/** One projector's rebuild: see `rebuildProjectors`. */
export const rebuildProjector = (
  deps: { pool: Pool; store: ConsumerLog; searches?: ConsumerLog },
  p: Projector,
  batchSize = 5000,
) => rebuildProjectors(deps, [p], { batchSize });

export { restoreDeferredIndexes };
