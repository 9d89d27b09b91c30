import { type EventStore, type Pool, type Position, START, withTransaction } from '@mrn/platform';
import type { Projector } from './projector.ts';
import { dispatchBatch } from './runner.ts';

/**
 * Empties the projectors' tables and checkpoints, then replays the whole log into all of them in
 * one pass: each batch is read once and applied by every projector side by side, while the next
 * batch is already being read. Returns how many events were read. Run it while they are stopped.
 */
export async function rebuildProjectors(
  deps: { pool: Pool; store: EventStore },
  projectors: readonly Projector[],
  opts: { batchSize?: number; onProgress?: (events: number) => void } = {},
): Promise<number> {
  const batchSize = opts.batchSize ?? 5000;
  await withTransaction(deps.pool, async (tx) => {
    const tables = projectors.flatMap((p) => p.tables);
    if (tables.length > 0) await tx.query(`truncate ${tables.join(', ')}`);
    await tx.query('delete from subscription_checkpoints where name = any($1)', [
      projectors.map((p) => p.name),
    ]);
  });
  const cursors = new Map<string, Position>(projectors.map((p) => [p.name, START]));
  let count = 0;
  let next = deps.store.readAll({ fromPosition: START, maxCount: batchSize });
  for (;;) {
    const events = await next;
    if (events.length === 0) return count;
    // Reading the next batch overlaps with writing this one: the log and the read models are
    // different work, and on two cores they run at the same time.
    next = deps.store.readAll({ fromPosition: events[events.length - 1]!.position, maxCount: batchSize });
    try {
      await dispatchBatch(deps.pool, projectors, cursors, events);
    } catch (error) {
      await next.catch(() => undefined);
      throw error;
    }
    count += events.length;
    opts.onProgress?.(count);
  }
}

/** One projector's rebuild: see `rebuildProjectors`. */
export const rebuildProjector = (deps: { pool: Pool; store: EventStore }, p: Projector, batchSize = 5000) =>
  rebuildProjectors(deps, [p], { batchSize });
