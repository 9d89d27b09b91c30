import type { ConsumerLog, Pool, RecordedEvent } from '@mrn/platform';
import { START } from '@mrn/platform';
import { expect } from 'vitest';
import { logOf, type Projector } from '../projector.ts';
import { rebuildProjector } from '../rebuild.ts';
import { applyBatch } from '../runner.ts';

/** Every row of the projector's tables, in a stable order, for comparison. */
export async function snapshotTables(pool: Pool, p: Projector): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of p.tables) {
    const { rows } = await pool.query(`select * from ${table}`);
    out[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

/**
 * Feeds the log to the projector incrementally in uneven small batches (as live tailing would),
 * then rebuilds it from zero, and asserts both produced exactly the same rows. Returns the rows.
 */
export async function expectRebuildEqualsIncremental(
  deps: { pool: Pool; store: ConsumerLog; searches?: ConsumerLog },
  p: Projector,
): Promise<Record<string, unknown[]>> {
  let cursor = START;
  const sizes = [1, 3, 2, 7];
  const log = logOf(p) === 'searches' ? deps.searches : deps.store;
  if (!log) throw new Error(`${p.name} reads the search log: pass it`);
  for (let i = 0; ; i++) {
    const batch: RecordedEvent[] = await log.readAll({
      fromPosition: cursor,
      maxCount: sizes[i % sizes.length]!,
    });
    if (batch.length === 0) break;
    await applyBatch(deps.pool, p, batch);
    cursor = batch[batch.length - 1]!.position;
  }
  const incremental = await snapshotTables(deps.pool, p);
  await rebuildProjector(deps, p);
  const rebuilt = await snapshotTables(deps.pool, p);
  expect(rebuilt).toEqual(incremental);
  return incremental;
}
