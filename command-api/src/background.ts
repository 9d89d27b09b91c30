import type { Logger } from '@mrn/platform';

const running = new Set<Promise<void>>();

/**
 * Work a request starts but does not wait for (e.g. the reset e-mail of forgot_password: answering
 * first makes a known and an unknown address take the same time). Failures are logged, never shown to
 * the caller; `settleBackground` lets shutdown wait for what is still running.
 */
export function runInBackground(logger: Logger, what: string, work: () => Promise<unknown>): void {
  const task = (async () => {
    try {
      await work();
    } catch (err) {
      logger.error({ err, what }, 'background work failed');
    }
  })();
  running.add(task);
  void task.finally(() => running.delete(task));
}

export async function settleBackground(): Promise<void> {
  while (running.size > 0) await Promise.all([...running]);
}
