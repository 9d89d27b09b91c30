import { sleepUnlessAborted, type WakeUp } from '../runtime/sleep.ts';
import type { RecordedEvent } from './types.ts';

/**
 * A subscriber's `onBatch` that, after a batch shorter than a full one, lets the next read wait until
 * `intervalMs` after this batch began. Under load, reading again at once fetched an append or two each
 * time (a search each), and every batch costs its subscriber a transaction; a short pause lets the next
 * batch fill. It adds at most `intervalMs` of lag, and an idle log is still read the moment something
 * is appended: the pause follows a batch, it never precedes one. Any event store, any subscriber.
 */
export function pacedBatches(
  onBatch: (events: RecordedEvent[]) => Promise<void>,
  /** `wake`: what ends the pause early (someone waiting for a position nudges the subscriber). */
  opts: { intervalMs: number; batchSize: number; signal: AbortSignal; wake?: WakeUp },
): (events: RecordedEvent[]) => Promise<void> {
  const { wake } = opts;
  return async (events) => {
    const started = performance.now();
    // A wake-up while the batch is handled counts too: the pause that follows is skipped.
    let woken = false;
    const onWake = () => {
      if (!wake?.accept || wake.accept()) woken = true;
    };
    for (const event of wake?.events ?? []) wake!.emitter.on(event, onWake);
    try {
      await onBatch(events);
    } finally {
      for (const event of wake?.events ?? []) wake!.emitter.off(event, onWake);
    }
    const pause = opts.intervalMs - (performance.now() - started);
    if (!woken && pause > 0 && events.length < opts.batchSize)
      await sleepUnlessAborted(pause, opts.signal, wake);
  };
}
