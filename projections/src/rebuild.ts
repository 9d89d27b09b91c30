import { type EventStore, type Pool, START, withTransaction } from '@mrn/platform';
import type { Projector } from './projector.ts';
import { applyBatch } from './runner.ts';

/**
 * Empties the projector's tables and its checkpoint, then replays the whole log into them.
 * Returns how many events were read. Run it while the projector is stopped.
 */
export async function rebuildProjector(
  deps: { pool: Pool; store: EventStore },
  p: Projector,
  batchSize = 5000,
): Promise<number> {
  await withTransaction(deps.pool, async (tx) => {
    if (p.tables.length > 0) await tx.query(`truncate ${p.tables.join(', ')}`);
    await tx.query('delete from subscription_checkpoints where name = $1', [p.name]);
  });
  let cursor = START;
  let count = 0;
  for (;;) {
    const events = await deps.store.readAll({ fromPosition: cursor, maxCount: batchSize });
    if (events.length === 0) return count;
    await applyBatch(deps.pool, p, events);
    count += events.length;
    cursor = events[events.length - 1]!.position;
  }
}
