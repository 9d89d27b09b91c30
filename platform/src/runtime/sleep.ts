/**
 * Waits `ms`, or less if `signal` aborts first; never rejects. For loops that pause between attempts or
 * batches and must stop at once when their process stops (node's `timers/promises` rejects instead).
 */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
