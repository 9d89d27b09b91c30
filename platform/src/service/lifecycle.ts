import type { Logger } from '../logger.ts';

/**
 * Runs a service process until SIGINT or SIGTERM, then shuts it down gracefully (the HTTP server drains
 * in-flight requests, consumers finish their batch and free their leases) and exits; a second signal
 * or a shutdown longer than `graceMs` exits at once.
 */
export function stopOnSignal(logger: Logger, stop: () => Promise<void>, graceMs = 15_000): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      logger.info({ signal }, 'shutting down');
      setTimeout(() => {
        logger.error('shutdown took too long; exiting');
        process.exit(1);
      }, graceMs).unref();
      stop()
        .then(() => process.exit(0))
        .catch((error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        });
    });
  }
}
