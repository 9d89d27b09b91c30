import {
  type ConsumerLog,
  ensureCheckpoint,
  markReplayed,
  type Pool,
  type Position,
  type RecordedEvent,
  rememberDeferredIndex,
  resetCheckpoints,
  START,
  withTransaction,
} from '@mrn/platform';
import { exec, sql } from '@mrn/platform/typed-sql';
import { restoreDeferredIndexes } from './deferred-indexes.ts';
import { handledTypes, type LogName, logOf, type Projector, REPLAYING, versionOf } from './projector.ts';
import { dispatchBatch } from './runner.ts';

/**
 * Empties the projectors' tables and checkpoints, then replays the log into all of them in one pass:
 * each batch is read once and applied by every projector side by side, while the next batch is
 * already being read. Only events of the types they handle are read; the tables they declare derived
 * are filled, and the indexes they declare deferrable built, once at the end. Returns how many events were applied. Run it while the
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
  // Each log's projectors replay together, the two logs side by side: their figures do not depend on
  // the order in which the logs' batches interleave (DESIGN §1; live, they interleave all the time). One
  // after the other, the search log's replay ran alone at the end with a core mostly idle (a fifth of a
  // rebuild's time at a million merchants).
  const done = new Map<LogName, number>();
  const outcomes = await Promise.allSettled(
    (['events', 'searches'] as const satisfies readonly LogName[]).map(async (log) => {
      const mine = projectors.filter((p) => logOf(p) === log);
      if (mine.length === 0) return 0;
      const reader = log === 'searches' ? deps.searches : deps.store;
      if (!reader) throw new Error(`rebuilding ${mine.map((p) => p.name).join(', ')} needs the search log`);
      return replayLog(deps.pool, reader, mine, opts.batchSize ?? 5000, (n) => {
        done.set(log, n);
        opts.onProgress?.((done.get('events') ?? 0) + (done.get('searches') ?? 0));
      });
    }),
  );
  // A log that fails fails the rebuild, once the other has stopped too (none is left running).
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failure) throw failure.reason;
  const count = outcomes.reduce((sum, o) => sum + (o.status === 'fulfilled' ? o.value : 0), 0);
  // Tables that follow from the others, each filled in one statement (side by side), then every index
  // the replay went without, built once over the whole tables.
  await Promise.all(
    projectors.flatMap((p) => (p.derived?.builds ?? []).map((build) => withTransaction(deps.pool, build))),
  );
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

/** How many batches the fastest projector of a replay may be ahead of the slowest. */
const REPLAY_LOOKAHEAD = 3;

/**
 * One pass over a log: each batch read once and applied by every projector, each projector in its own
 * transaction on a connection of its own, at its own pace up to REPLAY_LOOKAHEAD batches ahead of the
 * slowest. In lockstep (every projector done with a batch before any began the next), this process sat
 * idle while the slowest projector's statements ran, and PostgreSQL while this process made the next
 * batch's rows; apart, the one's work fills the other's gaps on two cores.
 */
async function replayLog(
  pool: Pool,
  reader: ConsumerLog,
  projectors: readonly Projector[],
  batchSize: number,
  onProgress: (events: number) => void,
): Promise<number> {
  const types = [...new Set(projectors.flatMap(handledTypes))];
  // Batches read so far, by number; a batch is dropped once every projector has applied it.
  const batches = new Map<number, Promise<RecordedEvent[]>>();
  const applied = new Map<string, number>(projectors.map((p) => [p.name, 0]));
  const slowest = () => Math.min(...applied.values());
  let failed = false;
  let count = 0;
  let completed = 0;
  // Resolved, and replaced, whenever a batch has been read or applied.
  let notify = () => {};
  let changed = new Promise<void>((resolve) => {
    notify = resolve;
  });
  const signal = () => {
    const resolve = notify;
    changed = new Promise<void>((r) => {
      notify = r;
    });
    resolve();
  };

  const readAhead = async () => {
    let from = START;
    for (let n = 0; !failed; n++) {
      while (!failed && n >= slowest() + REPLAY_LOOKAHEAD) await changed;
      if (failed) return;
      const pending = reader.readAll({ fromPosition: from, maxCount: batchSize, types });
      pending.catch(() => undefined); // awaited by the projectors; its failure is theirs
      batches.set(n, pending);
      signal();
      const events = await pending;
      if (events.length === 0) return;
      from = events[events.length - 1]!.position;
    }
  };

  const follow = async (p: Projector) => {
    const cursors = new Map<string, Position>([[p.name, START]]);
    for (let n = 0; !failed; n++) {
      while (!failed && !batches.has(n)) await changed;
      if (failed) return;
      const events = await batches.get(n)!;
      if (events.length === 0) return;
      await dispatchBatch(pool, [p], cursors, events, REPLAYING);
      applied.set(p.name, n + 1);
      while (slowest() > completed) {
        // Every projector is past this batch: it is counted, and no longer kept.
        count += (await batches.get(completed)!).length;
        batches.delete(completed);
        completed++;
        onProgress(count);
      }
      signal();
    }
  };

  const outcomes = await Promise.allSettled([
    readAhead(),
    ...projectors.map((p) =>
      follow(p).catch((error: unknown) => {
        failed = true;
        signal();
        throw error;
      }),
    ),
  ]);
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failure) throw failure.reason;
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
