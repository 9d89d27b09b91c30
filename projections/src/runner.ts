import { EventEmitter } from 'node:events';
import { parseEvent } from '@mrn/contracts';
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
import { ProjectorHalted, type Quarantined, recordQuarantine, unresolvedProjectors } from './quarantine.ts';
import { restoreDeferredIndexes } from './rebuild.ts';

const IDLE_CHECKPOINT_MS = 5000;
const BATCH_SIZE = 2000;
const BATCH_INTERVAL_MS = 5;
/** A failing batch is tried this often (with backoff) before its poison event is looked for. */
const BATCH_ATTEMPTS = 3;
const RETRY_BASE_MS = 100;
/** How often a halted runner looks whether an operator has resolved its quarantine. */
const QUARANTINE_POLL_MS = 2000;

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

/**
 * Applies a batch and moves the checkpoint in one transaction, so a crash never applies an event twice.
 * The events a projector handles are read through the event catalogue first (shape checked, upcasted):
 * an event it cannot read fails like one it cannot apply.
 */
export async function applyBatch(pool: Pool, p: Projector, events: RecordedEvent[]): Promise<void> {
  const last = events[events.length - 1];
  if (!last) return;
  const readable = events.map((e) => (handles(p, e.type) ? parseEvent(e) : e));
  await withTransaction(pool, async (tx) => {
    await applyEvents(p, tx, readable);
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
    /** Instead of `applyBatch` (the runner's bounded retries and quarantine). */
    apply?: (p: Projector, events: RecordedEvent[], cursor: Position) => Promise<void>;
    /** A halted projector is left where it stopped. */
    isHalted?: (p: Projector) => boolean;
  } = {},
): Promise<void> {
  const last = events[events.length - 1];
  if (!last) return;
  const outcomes = await Promise.allSettled(
    projectors.map(async (p) => {
      if (hooks.isHalted?.(p)) return;
      const cursor = cursors.get(p.name) ?? START;
      if (cursor >= last.position) return;
      const mine = events[0]!.position > cursor ? events : events.filter((e) => e.position > cursor);
      const relevant = mine.some((e) => handles(p, e.type));
      try {
        if (hooks.shouldWrite?.(p, relevant) ?? true) {
          await (hooks.apply ? hooks.apply(p, mine, cursor) : applyBatch(pool, p, mine));
        }
      } catch (error) {
        if (!(error instanceof ProjectorHalted)) throw error;
        cursors.set(p.name, error.appliedThrough);
        if (relevant) hooks.onApplied?.(p);
        return;
      }
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
  /**
   * Projectors stopped at a quarantined event. A halted projector does not skip it: a read model that
   * silently lacks one merchant change shows underwriters wrong data with no sign of it, while a halted
   * one is visibly behind (/health 503, X-Consistency: timeout) and complete again after the fix.
   * Every other projector keeps running on its own cursor.
   */
  private readonly halted = new Map<string, Quarantined>();
  private subscription = new AbortController();
  private quarantinePoll: NodeJS.Timeout | undefined;
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

  /** Where the next subscription starts: the slowest projector that is not halted. */
  private slowest(): Position {
    let min: Position | undefined;
    for (const [name, p] of this.progress) {
      if (this.halted.has(name)) continue;
      if (min === undefined || p < min) min = p;
    }
    return min ?? START;
  }

  /** Where each projector has applied the log through (its cursor in this process). */
  get positions(): ReadonlyMap<string, Position> {
    return this.progress;
  }

  /** Projectors halted at a quarantined event, and where each stopped. */
  get quarantined(): (Quarantined & { appliedThrough: Position })[] {
    return [...this.halted.values()].map((q) => ({
      ...q,
      appliedThrough: this.progress.get(q.projector) ?? START,
    }));
  }

  /**
   * A failing batch is retried with backoff (a lost connection or a deadlock passes); if it still
   * fails, its events are applied one by one to find the one that cannot be applied, which is
   * quarantined, and the projector halts after everything before it.
   */
  private async applyGuarded(p: Projector, events: RecordedEvent[], cursor: Position): Promise<void> {
    let lastError: unknown;
    for (let attempt = 0; attempt < BATCH_ATTEMPTS; attempt++) {
      try {
        await applyBatch(this.deps.pool, p, events);
        return;
      } catch (error) {
        lastError = error;
        if (this.controller.signal.aborted) throw error;
        await sleep(RETRY_BASE_MS * 2 ** attempt, this.controller.signal);
      }
    }
    this.deps.logger.warn(
      { err: lastError, projector: p.name },
      'projection batch keeps failing; isolating the event',
    );
    let appliedThrough = cursor;
    for (const event of events) {
      if (!handles(p, event.type)) continue;
      try {
        await applyBatch(this.deps.pool, p, [event]);
      } catch {
        try {
          await applyBatch(this.deps.pool, p, [event]);
        } catch (error) {
          const q = await recordQuarantine(this.deps.pool, p.name, event, error, BATCH_ATTEMPTS + 2);
          this.halted.set(p.name, q);
          this.deps.logger.error(
            { projector: p.name, eventId: event.id, type: event.type, streamId: event.streamId, err: error },
            'projector halted: event quarantined (fix, then `npm run projections -- retry <name>` or `npm run rebuild -- <name>`)',
          );
          this.watchQuarantine();
          throw new ProjectorHalted(q, appliedThrough);
        }
      }
      appliedThrough = event.position;
    }
  }

  /** While a projector is halted, look for an operator's retry; then resume it from its checkpoint. */
  private watchQuarantine(): void {
    if (this.quarantinePoll) return;
    this.quarantinePoll = setInterval(() => {
      void this.resumeResolved().catch((err) => this.deps.logger.error({ err }, 'quarantine check failed'));
    }, QUARANTINE_POLL_MS);
    this.quarantinePoll.unref();
  }

  private async resumeResolved(): Promise<void> {
    const waiting = await unresolvedProjectors(this.deps.pool);
    let resumed = false;
    for (const name of [...this.halted.keys()]) {
      if (waiting.has(name)) continue;
      this.progress.set(name, await readCheckpoint(this.deps.pool, name));
      this.halted.delete(name);
      resumed = true;
      this.deps.logger.info({ projector: name }, 'projector resumed after its quarantine was resolved');
    }
    if (this.halted.size === 0 && this.quarantinePoll) {
      clearInterval(this.quarantinePoll);
      this.quarantinePoll = undefined;
    }
    // Read the log again from the resumed projector's position (the others skip what they have).
    if (resumed) this.subscription.abort();
  }

  private async run(): Promise<void> {
    while (!this.controller.signal.aborted) {
      this.subscription = new AbortController();
      const signal = AbortSignal.any([this.controller.signal, this.subscription.signal]);
      try {
        await this.deps.store.subscribeToAll({
          fromPosition: this.slowest(),
          signal,
          batchSize: BATCH_SIZE,
          onBatch: async (events) => {
            const started = performance.now();
            try {
              await dispatchBatch(this.deps.pool, this.projectors, this.progress, events, {
                shouldWrite: (p, relevant) => this.shouldWrite(p, relevant),
                onApplied: (p) => this.deps.onApplied?.(p.name),
                apply: (p, mine, cursor) => this.applyGuarded(p, mine, cursor),
                isHalted: (p) => this.halted.has(p.name),
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
        if (this.subscription.signal.aborted) continue;
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
    if (this.quarantinePoll) clearInterval(this.quarantinePoll);
    this.controller.abort();
    await this.running?.catch(() => undefined);
  }
}
