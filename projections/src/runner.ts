import { EventEmitter } from 'node:events';
import { parseEvent } from '@mrn/contracts';
import {
  advanceCheckpoint,
  advanceCheckpointsAndPublish,
  type EventStore,
  LeaseLost,
  Leases,
  type Logger,
  type Pool,
  type Position,
  pacedBatches,
  publishProgress,
  type ReadModelProgress,
  type RecordedEvent,
  readCheckpoint,
  START,
  sleepUnlessAborted,
  withTransaction,
  writeCheckpoint,
} from '@mrn/platform';
import { restoreDeferredIndexes } from './deferred-indexes.ts';
import { applyEvents, handles, type Projector } from './projector.ts';
import { ProjectorHalted, type Quarantined, recordQuarantine, unresolvedProjectors } from './quarantine.ts';

const BATCH_SIZE = 2000;
const BATCH_INTERVAL_MS = 5;
/**
 * Batches up to this size are applied by every projector in one transaction (`applyTogether`): a few
 * searches or commands cost one commit, not one per projector. Bigger ones (catching up, bursts) are
 * applied by the projectors side by side, each on a connection of its own, as PostgreSQL then has the
 * work to spread over its cores.
 */
const TOGETHER_MAX_EVENTS = 200;
/** A failing batch is tried this often (with backoff) before its poison event is looked for. */
const BATCH_ATTEMPTS = 3;
const RETRY_BASE_MS = 100;
/** How often a halted runner looks whether an operator has resolved its quarantine. */
const QUARANTINE_POLL_MS = 2000;

export { readCheckpoint };

/**
 * Each recorded event read through the catalogue once, whichever projectors handle it: the runner and a
 * rebuild hand the same event objects to every projector of a batch, and a note was parsed again by
 * each of the four projectors that handle it. A failure is kept too, so every projector that handles a
 * poison event fails on it as before.
 */
const readEvents = new WeakMap<RecordedEvent, { event: RecordedEvent } | { error: unknown }>();
function readable(e: RecordedEvent): RecordedEvent {
  let read = readEvents.get(e);
  if (!read) {
    try {
      read = { event: parseEvent(e) };
    } catch (error) {
      read = { error };
    }
    readEvents.set(e, read);
  }
  if ('error' in read) throw read.error;
  return read.event;
}

/** The batch as projector `p` is given it: the events it handles read through the catalogue. */
const readFor = (p: Projector, events: readonly RecordedEvent[]): RecordedEvent[] =>
  events.map((e) => (handles(p, e.type) ? readable(e) : e));

/**
 * Applies a batch and moves the checkpoint in one transaction, so a crash never applies an event twice.
 * Given `from` (the runner and a rebuild), the checkpoint moves only if it is still there: a process
 * that lost its lease without noticing rolls back instead of applying the batch a second time.
 * The events a projector handles are read through the event catalogue first (shape checked, upcasted):
 * an event it cannot read fails like one it cannot apply.
 */
export async function applyBatch(
  pool: Pool,
  p: Projector,
  events: RecordedEvent[],
  from?: Position,
): Promise<void> {
  const last = events[events.length - 1];
  if (!last) return;
  await withTransaction(pool, async (tx) => {
    await applyEvents(p, tx, readFor(p, events));
    if (from !== undefined) {
      await advanceCheckpoint(tx, p.name, from, last.position);
      return;
    }
    await writeCheckpoint(tx, p.name, last.position);
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
          await (hooks.apply ? hooks.apply(p, mine, cursor) : applyBatch(pool, p, mine, cursor));
        }
      } catch (error) {
        if (error instanceof CursorMoved) {
          cursors.set(p.name, error.checkpoint);
          return;
        }
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

/** A projector's checkpoint was moved by another process: it goes on from there. */
class CursorMoved extends Error {
  constructor(readonly checkpoint: Position) {
    super('checkpoint moved');
  }
}

/**
 * Keeps every projector's read model up to date from the global log, and tells waiting queries when
 * a position has been passed (read-your-writes, DESIGN §1). One reader tails the log for all of
 * them: with a reader each, every appended search woke seven readers that each queried the log.
 */
export class ProjectionRunner implements ReadModelProgress {
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
  private leases: Leases | undefined;
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
      /**
       * With a database URL, each projector is applied only while this process holds its lease (two
       * projections processes never apply the same batch; a standby takes over within a second or so
       * of the holder's death). Without one, this runner applies every projector.
       */
      leaseUrl?: string;
      /** After each batch: its last event, and whether the log had no more (metrics of lag). */
      onProgress?: (last: RecordedEvent, atHead: boolean) => void;
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
    if (this.deps.leaseUrl) {
      this.leases = new Leases(
        this.deps.leaseUrl,
        this.projectors.map((p) => p.name),
        {
          acquired: (name) => {
            if (!this.running) return;
            // Taken over from another process: go on from where it left the checkpoint.
            void readCheckpoint(this.deps.pool, name)
              .then((position) => {
                this.progress.set(name, position);
                this.deps.logger.info({ projector: name }, 'projector lease acquired');
                this.subscription.abort();
              })
              .catch((err: unknown) => this.deps.logger.error({ err }, 'checkpoint read failed'));
          },
          lost: (name) => this.deps.logger.warn({ projector: name }, 'projector lease lost'),
        },
        { logger: this.deps.logger },
      );
      await this.leases.start();
    }
    this.running = this.run();
  }

  /** Whether this process applies the projector (it holds its lease). */
  private holds(name: string): boolean {
    return !this.leases || this.leases.holds(name);
  }

  private async loadCheckpoints(): Promise<void> {
    for (const p of this.projectors) this.progress.set(p.name, await readCheckpoint(this.deps.pool, p.name));
  }

  /** Where the next subscription starts: the slowest projector that is not halted. */
  private slowest(): Position {
    let min: Position | undefined;
    for (const [name, p] of this.progress) {
      if (this.halted.has(name) || !this.holds(name)) continue;
      if (min === undefined || p < min) min = p;
    }
    return min ?? START;
  }

  /** Where each projector has applied the log through (its cursor in this process). */
  get positions(): ReadonlyMap<string, Position> {
    return this.progress;
  }

  /** The projectors this process applies now (all of them without leases). */
  get applying(): string[] {
    return this.projectors.map((p) => p.name).filter((name) => this.holds(name));
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
        await applyBatch(this.deps.pool, p, events, cursor);
        return;
      } catch (error) {
        if (error instanceof LeaseLost) throw await this.cursorMoved(p);
        lastError = error;
        if (this.controller.signal.aborted) throw error;
        await sleepUnlessAborted(RETRY_BASE_MS * 2 ** attempt, this.controller.signal);
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
        await applyBatch(this.deps.pool, p, [event], appliedThrough);
      } catch (first) {
        if (first instanceof LeaseLost) throw await this.cursorMoved(p);
        try {
          await applyBatch(this.deps.pool, p, [event], appliedThrough);
        } catch (error) {
          if (error instanceof LeaseLost) throw await this.cursorMoved(p);
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

  /**
   * Another process moved the projector's checkpoint (it took the lease over while this one had lost
   * it unawares, or an operator rebuilt it): read the log again from there.
   */
  private async cursorMoved(p: Projector): Promise<CursorMoved> {
    const checkpoint = await readCheckpoint(this.deps.pool, p.name);
    this.deps.logger.warn({ projector: p.name }, 'projector checkpoint moved by another process');
    this.subscription.abort();
    return new CursorMoved(checkpoint);
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
      if (this.applying.length === 0) {
        // A standby: nothing to read the log for until a lease is acquired (which aborts this wait).
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        continue;
      }
      try {
        await this.deps.store.subscribeToAll({
          fromPosition: this.slowest(),
          signal,
          batchSize: BATCH_SIZE,
          // Under load a short pause after each short batch lets the next one fill (pacedBatches).
          onBatch: pacedBatches(
            async (events) => {
              const applied = new Set<string>();
              if (await this.applyTogether(events, applied)) {
                this.changed.emit('progress');
                this.deps.onProgress?.(events[events.length - 1]!, events.length < BATCH_SIZE);
              } else
                try {
                  await dispatchBatch(this.deps.pool, this.projectors, this.progress, events, {
                    // A batch with nothing for a projector only moves its cursor: that is written for all
                    // such projectors at once below, not a commit each (that cost a commit per search).
                    shouldWrite: (_p, relevant) => relevant,
                    onApplied: (p) => {
                      applied.add(p.name);
                      this.deps.onApplied?.(p.name);
                    },
                    apply: (p, mine, cursor) => this.applyGuarded(p, mine, cursor),
                    isHalted: (p) => this.halted.has(p.name) || !this.holds(p.name),
                  });
                } finally {
                  await this.publish(events[events.length - 1]!.position, applied);
                  this.changed.emit('progress');
                  this.deps.onProgress?.(events[events.length - 1]!, events.length < BATCH_SIZE);
                }
            },
            { intervalMs: BATCH_INTERVAL_MS, batchSize: BATCH_SIZE, signal: this.controller.signal },
          ),
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
   * The common case, every projector this process applies at the same cursor: the batch is applied by
   * all of them in one transaction, with their checkpoints (fenced) and the progress notice. A batch of
   * searches cost three transactions and a fourth statement to publish; now one. Returns false, having
   * committed nothing, when the cursors differ or anything fails: the batch then goes projector by
   * projector (`dispatchBatch`), where a failure holds back only its own projector and is retried,
   * isolated and quarantined as before.
   */
  private async applyTogether(events: RecordedEvent[], applied: Set<string>): Promise<boolean> {
    if (events.length > TOGETHER_MAX_EVENTS) return false;
    const last = events[events.length - 1]!.position;
    const active = this.projectors.filter(
      (p) => !this.halted.has(p.name) && this.holds(p.name) && (this.progress.get(p.name) ?? START) < last,
    );
    const cursor = this.progress.get(active[0]?.name ?? '') ?? START;
    if (active.length === 0 || active.some((p) => (this.progress.get(p.name) ?? START) !== cursor))
      return false;
    const mine = events[0]!.position > cursor ? events : events.filter((e) => e.position > cursor);
    const relevant = active.filter((p) => mine.some((e) => handles(p, e.type)));
    const through = this.projectors
      .map((p) => p.name)
      .filter((name) => this.holds(name) && !this.halted.has(name));
    try {
      await withTransaction(this.deps.pool, async (tx) => {
        for (const p of relevant) {
          await applyEvents(p, tx, readFor(p, mine));
        }
        await advanceCheckpointsAndPublish(
          tx,
          active.map((p) => p.name),
          cursor,
          { p: last, n: through, a: relevant.map((p) => p.name) },
        );
      });
    } catch (error) {
      if (!(error instanceof LeaseLost)) {
        this.deps.logger.warn(
          { err: error },
          'projection batch failed together; applying projector by projector',
        );
      }
      return false;
    }
    for (const p of active) this.progress.set(p.name, last);
    for (const p of relevant) {
      applied.add(p.name);
      this.deps.onApplied?.(p.name);
    }
    return true;
  }

  /**
   * Moves the checkpoints of the projectors the batch had nothing for and tells every process where
   * the projectors are (X-Consistent-After in a query process, session caches), in one statement.
   */
  private async publish(last: Position, applied: ReadonlySet<string>): Promise<void> {
    const through = this.projectors
      .map((p) => p.name)
      .filter((name) => this.holds(name) && (this.progress.get(name) ?? START) >= last);
    if (through.length === 0) return;
    await publishProgress(
      this.deps.pool,
      { p: last, n: through, a: [...applied] },
      through.filter((name) => !applied.has(name)),
    ).catch((err: unknown) => this.deps.logger.warn({ err }, 'projection progress not published'));
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

  /** Finishes the batch in hand, then frees the leases so a standby takes over at once. */
  async stop(): Promise<void> {
    if (this.quarantinePoll) clearInterval(this.quarantinePoll);
    this.controller.abort();
    await this.running?.catch(() => undefined);
    await this.leases?.stop();
  }
}
