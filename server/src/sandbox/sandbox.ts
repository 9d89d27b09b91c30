import type { SandboxControl } from '@mrn/command-api';
import {
  type Clock,
  type Config,
  createPool,
  type EventStore,
  type Logger,
  type Pool,
  unavailable,
} from '@mrn/platform';
import {
  dropSandboxDatabase,
  ensureSandboxDatabase,
  lastReset,
  migrateSandbox,
  recordReset,
  sandboxDatabaseExists,
  sandboxDatabaseUrl,
} from './database.ts';
import { type SandboxRuntime, startSandboxRuntime } from './runtime.ts';
import { SANDBOX_MERCHANT, seedSandbox } from './seed.ts';

/** The sandbox goes back to its seed this often (accounts spec §7: it refreshes weekly). */
export const SANDBOX_RESET_INTERVAL_MS = 7 * 86_400_000;
/** How often the weekly reset is looked for: a restart or a sleeping laptop never skips one for long. */
const RESET_CHECK_MS = 3600_000;
/** How long a reset lets requests already in the sandbox finish before it closes it under them. */
const DRAIN_MS = 10_000;
/** Serialises resets of one sandbox database across every process using it (pg_advisory_lock). */
const RESET_LOCK = 727_012;

export const SANDBOX_TEXTS = {
  unavailable: 'The sandbox is not available right now. Please try again in a minute.',
} as const;

export interface SandboxOptions {
  /** The production database: the sandbox's lives beside it, named `<its name>_sandbox`. */
  productionUrl: string;
  production: { pool: Pool; store: EventStore };
  productionJwtSecret: string;
  config: Config;
  logger: Logger;
  clock: Clock;
}

/**
 * The partner API's sandbox (DESIGN §4): a database of its own with the same migrations, its own
 * event store, projections and partner API, holding the seed merchant 01-0000001. Started on first
 * use, so a process whose partners never call it pays nothing. Start, reset and close run one at a
 * time; a request that arrives meanwhile waits for the sandbox to be back, and a reset waits for
 * the requests already inside to finish.
 */
export class Sandbox implements SandboxControl {
  readonly url: string;
  private runtime: SandboxRuntime | null = null;
  /** Start, reset or close in progress: new requests queue behind it. */
  private busy = false;
  private closed = false;
  private inFlight = 0;
  private drained: (() => void)[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: SandboxOptions) {
    this.url = sandboxDatabaseUrl(opts.productionUrl).url;
  }

  /** Runs `fn` against the live sandbox, starting it first if needed. */
  async use<T>(fn: (runtime: SandboxRuntime) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      if (this.closed) throw unavailable(SANDBOX_TEXTS.unavailable);
      // Checked and counted with no await in between, so a reset cannot start in the gap.
      if (this.runtime && !this.busy) {
        const runtime = this.runtime;
        this.inFlight++;
        try {
          return await fn(runtime);
        } finally {
          this.inFlight--;
          if (this.inFlight === 0) for (const resolve of this.drained.splice(0)) resolve();
        }
      }
      if (attempt >= 3) throw unavailable(SANDBOX_TEXTS.unavailable);
      await this.serial(() => this.start()).catch((error: unknown) => {
        this.opts.logger.error({ err: error }, 'sandbox failed to start');
        throw unavailable(SANDBOX_TEXTS.unavailable);
      });
    }
  }

  /** The live runtime, if started (tests read its records). */
  get current(): SandboxRuntime | null {
    return this.runtime;
  }

  /** Back to only the seed: a fresh database, migrated and seeded, then serving again. */
  reset(): Promise<{ resetAt: Date; merchantFein: string }> {
    return this.serial(async () => {
      // Never created: its first call will create it from the seed; there is nothing to undo.
      if (!this.runtime && !this.closed && !(await sandboxDatabaseExists(this.opts.productionUrl))) {
        return { resetAt: this.opts.clock.now(), merchantFein: SANDBOX_MERCHANT.fein };
      }
      if (!(await this.untouched())) await this.exclusive(() => this.rebuild());
      if (!this.runtime) throw unavailable(SANDBOX_TEXTS.unavailable);
      this.armTimer();
      return { resetAt: (await lastReset(this.runtime.pool))!.at, merchantFein: SANDBOX_MERCHANT.fein };
    });
  }

  /**
   * Nothing written since the seed (every token request, search and write appends to the log): a
   * reset would rebuild the same thing, so it only restarts the week. Two resets at once cost one.
   */
  private async untouched(): Promise<boolean> {
    if (!this.runtime || this.closed) return false;
    const last = await lastReset(this.runtime.pool);
    if (!last || last.seedPosition !== (await this.runtime.store.headPosition())) return false;
    await recordReset(this.runtime.pool, this.opts.clock.now(), last.seedPosition);
    return true;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.serial(async () => {
      this.closed = true;
      await this.exclusive(async () => undefined);
    });
  }

  /** Start-up: reuse the database when it was reset within the week, otherwise reset it now. */
  private async start(): Promise<void> {
    if (this.runtime || this.closed) return;
    await this.exclusive(async () => {
      // A database from an earlier run is kept while its week lasts; a missing or stale one is rebuilt.
      if (await sandboxDatabaseExists(this.opts.productionUrl)) {
        await this.withResetLock(async () => {
          this.runtime = await this.startRuntime();
        });
        const last = await lastReset(this.runtime!.pool);
        if (last && this.opts.clock.now().getTime() - last.at.getTime() < SANDBOX_RESET_INTERVAL_MS) return;
      }
      await this.rebuild();
    });
    this.armTimer();
  }

  private armTimer(): void {
    if (!this.closed) this.timer ??= setInterval(() => void this.resetIfDue(), RESET_CHECK_MS).unref();
  }

  /** The weekly reset, when the last one is a week old (the hourly timer calls it). */
  async resetIfDue(): Promise<void> {
    if (!this.runtime || this.busy || this.closed) return;
    // A failed read is not "never reset": wiping partners' test data on a busy moment would be; the
    // next check tries again.
    let last: Awaited<ReturnType<typeof lastReset>>;
    try {
      last = await lastReset(this.runtime.pool);
    } catch (error) {
      this.opts.logger.warn({ err: error }, 'could not read the sandbox reset time; not resetting now');
      return;
    }
    if (last && this.opts.clock.now().getTime() - last.at.getTime() < SANDBOX_RESET_INTERVAL_MS) return;
    await this.reset().catch((error: unknown) =>
      this.opts.logger.error({ err: error }, 'weekly sandbox reset failed'),
    );
  }

  /** Runs with no request inside the sandbox and none let in until it ends; the runtime is closed. */
  private async exclusive(fn: () => Promise<void>): Promise<void> {
    this.busy = true;
    try {
      if (this.inFlight > 0) {
        await Promise.race([
          new Promise<void>((resolve) => this.drained.push(resolve)),
          new Promise<void>((resolve) => setTimeout(resolve, DRAIN_MS).unref()),
        ]);
      }
      await this.runtime?.close();
      this.runtime = null;
      if (!this.closed) await fn();
    } finally {
      this.busy = false;
    }
  }

  /** Drop, create, migrate, seed, serve. */
  private async rebuild(): Promise<void> {
    await this.runtime?.close();
    this.runtime = null;
    await this.withResetLock(async () => {
      await dropSandboxDatabase(this.opts.productionUrl);
      await ensureSandboxDatabase(this.opts.productionUrl);
      const runtime = await this.startRuntime();
      this.runtime = runtime;
      const position = await seedSandbox(runtime);
      // The first request after a reset must find the seed in the read models.
      await runtime.projections.waitFor(position, undefined, 30_000);
      await recordReset(runtime.pool, this.opts.clock.now(), await runtime.store.headPosition());
    });
    this.opts.logger.info({ database: sandboxDatabaseUrl(this.opts.productionUrl).name }, 'sandbox reset');
  }

  private async startRuntime(): Promise<SandboxRuntime> {
    const { config, logger, clock, production, productionJwtSecret } = this.opts;
    const runtimeOpts = { url: this.url, config, logger, clock, production, productionJwtSecret };
    // Migrations first, on a pool of their own, so the runtime starts on the complete schema.
    const pool = createPool(this.url, 2);
    try {
      await migrateSandbox(pool);
    } finally {
      await pool.end();
    }
    return startSandboxRuntime(runtimeOpts);
  }

  /** Two processes on one database never create, drop or migrate its sandbox at the same time. */
  private async withResetLock(fn: () => Promise<void>): Promise<void> {
    const client = await this.opts.production.pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [RESET_LOCK]);
      await fn();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [RESET_LOCK]).catch(() => undefined);
      client.release();
    }
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(op, op);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
