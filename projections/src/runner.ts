import { EventEmitter } from 'node:events';
import {
  type EventStore,
  type Logger,
  type Pool,
  type Position,
  type RecordedEvent,
  START,
  withTransaction,
} from '@mrn/platform';
import { applyEvents, handles, type Projector } from './projector.ts';
import { restoreDeferredIndexes } from './rebuild.ts';

const IDLE_CHECKPOINT_MS = 5000;
const BATCH_SIZE = 2000;
const BATCH_INTERVAL_MS = 5;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export async function readCheckpoint(pool: Pool, name: string): Promise<Position> {
  const { rows } = await pool.query<{ position: string }>({
    name: 'mrn_read_checkpoint',
    text: 'select position from subscription_checkpoints where name = $1',
    values: [name],
  });
  return rows[0]?.position ?? START;
}

/** Applies a batch and moves the checkpoint in one transaction, so a crash never applies an event twice. */
export async function applyBatch(pool: Pool, p: Projector, events: RecordedEvent[]): Promise<void> {
  const last = events[events.length - 1];
  if (!last) return;
  await withTransaction(pool, async (tx) => {
    await applyEvents(p, tx, events);
    await tx.query({
      name: 'mrn_write_checkpoint',
      text: `insert into subscription_checkpoints (name, position, updated_at) values ($1, $2, now())
       on conflict (name) do update set position = excluded.position, updated_at = now()`,
      values: [p.name, last.position],
    });
  });
}

/**
 * Feeds one batch read from the log to every projector, each from its own cursor and in its own
 * transaction, the projectors side by side. Resolves with the new cursors once all are done; if one
 * fails, the others keep what they committed and the error is thrown after all have finished.
 */
export async function dispatchBatch(
  pool: Pool,
  projectors: readonly Projector[],
  cursors: Map<string, Position>,
  events: RecordedEvent[],
  hooks: {
    shouldWrite?: (p: Projector, relevant: boolean) => boolean;
    /** After a projector committed events it handles. */
    onApplied?: (p: Projector) => void;
  } = {},
): Promise<void> {
  const last = events[events.length - 1];
  if (!last) return;
  const outcomes = await Promise.allSettled(
    projectors.map(async (p) => {
      const cursor = cursors.get(p.name) ?? START;
      if (cursor >= last.position) return;
      const mine = events[0]!.position > cursor ? events : events.filter((e) => e.position > cursor);
      const relevant = mine.some((e) => handles(p, e.type));
      if (hooks.shouldWrite?.(p, relevant) ?? true) await applyBatch(pool, p, mine);
      if (relevant) hooks.onApplied?.(p);
      cursors.set(p.name, last.position);
    }),
  );
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Keeps every projector's read model up to date from the global log, and tells waiting queries when
 * a position has been passed (read-your-writes, DESIGN §1). One reader tails the log for all of
 * them: with a reader each, every appended search woke seven readers that each queried the log.
 */
export class ProjectionRunner {
  private readonly progress = new Map<string, Position>();
  private readonly lastWrite = new Map<string, number>();
  private readonly changed = new EventEmitter();
  private readonly controller = new AbortController();
  private running: Promise<void> | undefined;
  private started = false;

  constructor(
    private readonly deps: {
      pool: Pool;
      store: EventStore;
      logger: Logger;
      /** Told the name of each projector that has just committed events it handles. */
      onApplied?: (projector: string) => void;
    },
    readonly projectors: readonly Projector[],
  ) {
    this.changed.setMaxListeners(0);
  }

  get isRunning(): boolean {
    return this.started && !this.controller.signal.aborted;
  }

  async start(): Promise<void> {
    this.started = true;
    await restoreDeferredIndexes(this.deps.pool);
    await this.loadCheckpoints();
    this.running = this.run();
  }

  private async loadCheckpoints(): Promise<void> {
    for (const p of this.projectors) this.progress.set(p.name, await readCheckpoint(this.deps.pool, p.name));
  }

  private slowest(): Position {
    let min: Position | undefined;
    for (const p of this.progress.values()) if (min === undefined || p < min) min = p;
    return min ?? START;
  }

  private async run(): Promise<void> {
    while (!this.controller.signal.aborted) {
      try {
        await this.deps.store.subscribeToAll({
          fromPosition: this.slowest(),
          signal: this.controller.signal,
          batchSize: BATCH_SIZE,
          onBatch: async (events) => {
            const started = performance.now();
            try {
              await dispatchBatch(this.deps.pool, this.projectors, this.progress, events, {
                shouldWrite: (p, relevant) => this.shouldWrite(p, relevant),
                onApplied: (p) => this.deps.onApplied?.(p.name),
              });
            } finally {
              this.changed.emit('progress');
            }
            // Under load, reading again at once would fetch a few events per batch, each costing a
            // projector a transaction: a short pause lets the next batch fill. It adds at most a few
            // milliseconds of lag, and an idle log is still read the moment something is appended.
            const pause = BATCH_INTERVAL_MS - (performance.now() - started);
            if (events.length < BATCH_SIZE && pause > 0) await sleep(pause, this.controller.signal);
          },
        });
      } catch (error) {
        if (this.controller.signal.aborted) return;
        // The failed batch rolled back with its checkpoint; resume every projector from its last
        // committed one after a pause (the others only skip again what they have already applied).
        this.deps.logger.error({ err: error }, 'projection batch failed; retrying');
        await new Promise((r) => setTimeout(r, 1000));
        await this.loadCheckpoints().catch(() => undefined);
      }
    }
  }

  /**
   * A batch with nothing for a projector only moves its cursor: writing that checkpoint every time
   * cost a commit per search. Re-reading such events after a restart is harmless, so the checkpoint
   * is written at most every few seconds.
   */
  private shouldWrite(p: Projector, relevant: boolean): boolean {
    const now = Date.now();
    if (!relevant && now - (this.lastWrite.get(p.name) ?? 0) < IDLE_CHECKPOINT_MS) return false;
    this.lastWrite.set(p.name, now);
    return true;
  }

  /** Resolves true once every named projector (all when empty) has passed `position`, false on timeout. */
  waitFor(position: Position, names: readonly string[] | undefined, timeoutMs: number): Promise<boolean> {
    const wanted = names && names.length > 0 ? names : this.projectors.map((p) => p.name);
    const passed = () => wanted.every((n) => (this.progress.get(n) ?? START) >= position);
    if (passed()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (value: boolean) => {
        clearTimeout(timer);
        this.changed.off('progress', check);
        resolve(value);
      };
      const check = () => {
        if (passed()) finish(true);
      };
      const timer = setTimeout(() => finish(passed()), timeoutMs);
      this.changed.on('progress', check);
    });
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.running?.catch(() => undefined);
  }
}
