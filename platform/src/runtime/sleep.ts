import type { EventEmitter } from 'node:events';

/** Something that may end a wait early: any of `events` on `emitter`, when `accept` (if given) says so. */
export interface WakeUp {
  emitter: EventEmitter;
  events: readonly string[];
  accept?: () => boolean;
}

/**
 * Waits `ms`, or less if `signal` aborts first (or has already: a stop that came while the caller was
 * busy must not cost it the whole wait), or a `wake` comes; never rejects. For loops that pause between
 * attempts, batches or polls and must stop at once when their process stops (node's `timers/promises`
 * rejects instead).
 */
export function sleepUnlessAborted(ms: number, signal: AbortSignal, wake?: WakeUp): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      for (const event of wake?.events ?? []) wake!.emitter.off(event, check);
      resolve();
    };
    const check = () => {
      if (!wake?.accept || wake.accept()) done();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    for (const event of wake?.events ?? []) wake!.emitter.on(event, check);
  });
}
