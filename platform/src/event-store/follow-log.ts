import type { EventStore, Position, RecordedEvent } from './types.ts';

/**
 * Superseded by the platform `Consumer` (consumer/consumer.ts), which every single-checkpoint consumer
 * now runs on (checkpoint, lease, idle batches, backoff); nothing in the product calls this any more.
 *
 * A consumer's way of following the log: catch up from its checkpoint, then live. `endOfCatchUp` is
 * true for the first batch shorter than a full one, the moment the consumer reached the head: it
 * writes its checkpoint then, whatever its idle interval, so that a restart does not read the log
 * again and tools (the bench) can see it has caught up.
 */
export async function followLog(opts: {
  store: EventStore;
  signal: AbortSignal;
  readCheckpoint: () => Promise<Position>;
  onBatch: (events: RecordedEvent[], endOfCatchUp: boolean) => Promise<void>;
  batchSize?: number;
}): Promise<void> {
  const batchSize = opts.batchSize ?? 1000;
  let caughtUp = false;
  await opts.store.subscribeToAll({
    fromPosition: await opts.readCheckpoint(),
    signal: opts.signal,
    batchSize,
    onBatch: async (events) => {
      const endOfCatchUp = !caughtUp && events.length < batchSize;
      if (endOfCatchUp) caughtUp = true;
      await opts.onBatch(events, endOfCatchUp);
    },
  });
}
