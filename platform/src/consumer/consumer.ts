import { EventEmitter } from 'node:events';
import { type Pool, type PoolClient, withTransaction } from '../db.ts';
import { pacedBatches } from '../event-store/paced-batches.ts';
import type { EventStore, Position, RecordedEvent } from '../event-store/types.ts';
import type { Logger } from '../logger.ts';
import { sleepUnlessAborted } from '../runtime/sleep.ts';
import { advanceCheckpoint, LeaseLost, readCheckpoint } from './checkpoints.ts';
import { Leases } from './lease.ts';

/** Events read from the log at once. */
export const CONSUMER_BATCH_SIZE = 1000;
/**
 * A batch with nothing for a consumer only moves its checkpoint, and that is written at most this often
 * (the first at once, the last at most this long after it): a commit per batch of other people's events
 * cost a commit per search. Nothing a consumer wrote depends on it, so a restart reads at most this much
 * of the log again for nothing.
 */
export const CONSUMER_IDLE_CHECKPOINT_MS = 1000;
/**
 * After a short batch a consumer reads again no sooner than this after it began (`batchIntervalMs`):
 * under a steady stream of appends each commit wakes every consumer that handles it, and reading at once
 * fetched an event or two each time, a read, a transaction and a notice apiece (issue 31: at 1,000
 * commands/s the followers' re-reads cost more CPU than the projections' own work). Followers whose
 * latency is a target (the projections' live groups) set their own.
 */
export const CONSUMER_BATCH_INTERVAL_MS = 20;
/** A failing batch is tried again after this, doubling each time… */
export const CONSUMER_RETRY_BASE_MS = 250;
/** …up to this, for as long as it fails: a consumer never skips an event. */
export const CONSUMER_RETRY_MAX_MS = 30_000;
/** Failures of a batch after which its events are tried one at a time and the failing one is logged. */
export const CONSUMER_ISOLATE_AFTER = 4;

/** What a consumer's hooks are told about the batch they are given. */
export interface ConsumerBatch {
  /** The checkpoint the batch follows (exclusive): where the fence expects to find it. */
  from: Position;
  /** Where the checkpoint moves once the batch is done: its last event, relevant or not. */
  to: Position;
  /** Every event of the batch, the ones the consumer does not handle included. */
  all: readonly RecordedEvent[];
  /**
   * Aborted when the consumer stops (or loses its lease): work that may be given up can stop at once
   * (a send to an unreachable broker); the checkpoint then stays where it was.
   */
  signal: AbortSignal;
  /** How many times this batch has failed already (0 the first time): a hook may change its way after some. */
  attempt: number;
}

/**
 * What a consumer follows: the event log, or another log of the same position space. `readAll`'s `via`:
 * a client of the caller's, to read inside its transaction (a store that cannot ignores it).
 */
export type ConsumerLog = Pick<EventStore, 'subscribeToAll'> & {
  readAll(
    opts: Parameters<EventStore['readAll']>[0],
    via?: import('../db.ts').Queryable,
  ): ReturnType<EventStore['readAll']>;
};

export interface ConsumerOptions<P = undefined> {
  /** Its row in `subscription_checkpoints`, and its lease. */
  name: string;
  store: ConsumerLog;
  pool: Pool;
  logger: Logger;
  /**
   * With a database URL, the consumer follows the log only while this process holds the lease of its
   * name (lease.ts): one process works, the others stand by and one takes over within a second or so of
   * the holder's death or stop. Without one it always runs, and processes following the same checkpoint
   * at once are kept apart by the checkpoint's fence alone (each batch is committed by one of them).
   */
  leaseUrl?: string;
  /**
   * The event types the consumer handles. A batch with none of them only moves the checkpoint (at most
   * every `idleCheckpointMs`); the hooks are given only the events it handles. Default: every event.
   */
  relevant?(type: string): boolean;
  /**
   * Only these event types are read from the log at all (the others are skipped by the log's own index
   * scan): for a consumer of a few types catching up on a long log. Implies `relevant`.
   */
  types?: readonly string[];
  /**
   * The appends that wake the consumer at once (default: those of `relevant` types). Types it handles
   * but that may wait are read at the poll interval (a second), with whatever else came meanwhile: a
   * stream of small appends then costs a read a second rather than a read each.
   */
  wakeFor?(type: string): boolean;
  /**
   * Before the checkpoint's transaction, outside any: work that must not hold a transaction open (reading
   * streams or read models), or effects that cannot be in one (publishing to a broker, appending events).
   * Effects here are at least once: a crash or a lost fence after them runs them again for the same
   * events, so they must be idempotent or their readers must drop duplicates. Its result is given to
   * `handle`; without `handle`, a number it returns is what the batch counts.
   */
  beforeCommit?(events: RecordedEvent[], batch: ConsumerBatch): Promise<P>;
  /**
   * The consumer's effects, in the transaction that moves its checkpoint from `from` to `to`: exactly
   * once. The checkpoint is moved first, fenced (`advanceCheckpoint`): a second process on the same
   * batch waits for the first, finds the checkpoint moved and rolls back without writing anything.
   * Returns how many things it wrote (a number is what the batch counts, in `runOnce`).
   */
  handle?(tx: PoolClient, events: RecordedEvent[], batch: ConsumerBatch & { prepared: P }): Promise<unknown>;
  /** Once a batch with relevant events is committed (wake whoever works on what it wrote). */
  afterCommit?(count: number, batch: ConsumerBatch): void;
  /**
   * Whenever the consumer's position moves (a batch committed, events it skips, the log's horizon
   * reached with nothing to read), with the new position: what waits for it may go on.
   */
  onPosition?(position: Position): void;
  /** After a read that left nothing visible unread (live only): the consumer stands at `position`. */
  onCaughtUp?(position: Position): void;
  batchSize?: number;
  /**
   * After a batch shorter than a full one, the consumer reads again no sooner than this after it began:
   * under load, reading at once fetched an append or two each time (a search each, for a consumer of
   * searches), a read and a transaction apiece. Adds at most this to its lag. Default
   * `CONSUMER_BATCH_INTERVAL_MS`.
   */
  batchIntervalMs?: number;
  idleCheckpointMs?: number;
  retry?: { baseMs?: number; maxMs?: number; isolateAfter?: number };
  /** How often a standby tries for the lease (lease.ts, one second). */
  leaseRetryMs?: number;
}

/** The checkpoint was moved back by someone else (an operator replaying): read the log again from there. */
class Rewound extends Error {
  constructor() {
    super('checkpoint moved back');
  }
}

/** This process gave its lease up (another moved its checkpoint): stand by. */
class Yielded extends Error {
  constructor() {
    super('lease given up');
  }
}

/** Where one reader of the log is: what is done, and what of it is written. */
class Cursor {
  /** Events up to here are done. */
  position: Position;
  /** The checkpoint as this reader last read or wrote it: the fence's `from`. */
  committed: Position;
  /** When the checkpoint was last written (performance.now()). */
  writtenAt = Number.NEGATIVE_INFINITY;
  /** The write of an idle position, pending. */
  timer: NodeJS.Timeout | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(at: Position) {
    this.position = at;
    this.committed = at;
  }

  /** Runs `fn` after whatever this cursor is doing (a batch, the write of an idle position). */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }
}

interface Mode {
  /** Live: a failing batch is retried with backoff. Once (`runOnce`, `applyBatch`): its error is thrown. */
  live: boolean;
  signal: AbortSignal;
  leases?: Leases;
  /** Live: the subscription, aborted to stand by or read again. */
  subscription?: AbortController;
}

/**
 * A consumer of the log with one checkpoint (issue 22): follows the log from its checkpoint (catch-up,
 * then live), gives each batch's relevant events to its hooks and moves the checkpoint past the batch
 * in the same transaction as its effects, fenced so that a stale holder rolls back. Batches with nothing
 * relevant only move the checkpoint, written at most every `idleCheckpointMs`. A failing batch is tried
 * again with exponential backoff; after repeated failures its events are tried one at a time, and the
 * one that fails is logged and retried at the maximum backoff until it passes: never skipped.
 * Optionally runs only while holding its lease. `stop()` finishes the batch in hand, writes the
 * checkpoint and frees the lease.
 */
export class Consumer<P = undefined> {
  private readonly controller = new AbortController();
  private readonly nudges = new EventEmitter();
  private readonly running = new Set<Promise<void>>();
  private leases: Leases | undefined;
  private live: Cursor | undefined;
  private runs = 0;

  constructor(private readonly opts: ConsumerOptions<P>) {}

  get name(): string {
    return this.opts.name;
  }

  /** Whether this process holds the consumer's lease (always true without `leaseUrl` while running). */
  get holdsLease(): boolean {
    return this.leases ? this.leases.holds(this.opts.name) : this.runs > 0;
  }

  /** How far the running consumer has handled the log (its checkpoint may be up to an idle write behind). */
  get position(): Position | undefined {
    return this.live?.position;
  }

  readCheckpoint(): Promise<Position> {
    return readCheckpoint(this.opts.pool, this.opts.name);
  }

  /** Reads the log again now, even with nothing announced (someone waits for a position past ours). */
  nudge(): void {
    this.nudges.emit('nudge');
  }

  /** Follows the log in the background until `stop()`. */
  start(): this {
    const running = this.run();
    this.running.add(running);
    void running.finally(() => this.running.delete(running));
    return this;
  }

  /** Finishes the batch in hand, writes the checkpoint and frees the lease. */
  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.allSettled([...this.running]);
  }

  /**
   * Follows the log (holding the lease, with `leaseUrl`) until `signal` aborts or `stop()`; never
   * rejects: a failure is logged and the log read again after a pause.
   */
  async run(signal?: AbortSignal): Promise<void> {
    const stop = signal ? AbortSignal.any([signal, this.controller.signal]) : this.controller.signal;
    if (stop.aborted) return;
    const { name, logger } = this.opts;
    let waiting: (() => void) | undefined;
    let subscription: AbortController | undefined;
    const leases = this.opts.leaseUrl
      ? new Leases(
          this.opts.leaseUrl,
          [name],
          {
            acquired: () => {
              logger.info({ consumer: name }, 'consumer lease acquired');
              waiting?.();
            },
            lost: () => {
              logger.warn({ consumer: name }, 'consumer lease lost');
              subscription?.abort();
            },
          },
          { logger, ...(this.opts.leaseRetryMs ? { retryMs: this.opts.leaseRetryMs } : {}) },
        )
      : undefined;
    this.leases = leases;
    this.runs++;
    let failures = 0;
    try {
      await leases?.start();
      while (!stop.aborted) {
        if (leases && !leases.holds(name)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              waiting = undefined;
              stop.removeEventListener('abort', done);
              resolve();
            };
            waiting = done;
            stop.addEventListener('abort', done, { once: true });
          });
          continue;
        }
        subscription = new AbortController();
        const mode: Mode = {
          live: true,
          signal: AbortSignal.any([stop, subscription.signal]),
          subscription,
          ...(leases ? { leases } : {}),
        };
        let cursor: Cursor | undefined;
        try {
          cursor = new Cursor(await this.readCheckpoint());
          this.live = cursor;
          const reading = cursor;
          await this.opts.store.subscribeToAll({
            fromPosition: cursor.position,
            signal: mode.signal,
            batchSize: this.batchSize,
            // Not woken by appends of nothing it handles (the searches, for most consumers): those are
            // read, and the checkpoint moved past them, at the poll interval.
            ...(this.opts.wakeFor || this.relevantType
              ? { wakeFor: this.opts.wakeFor ?? this.relevantType }
              : {}),
            ...(this.opts.types ? { types: this.opts.types } : {}),
            nudges: this.nudges,
            // Caught up: nothing before the horizon is left to read, in this log or any other.
            onCaughtUp: (horizon) =>
              reading.serial(async () => {
                if (horizon > reading.position) await this.idle(reading, horizon, mode);
                try {
                  this.opts.onCaughtUp?.(reading.position);
                } catch (err) {
                  logger.error({ err, consumer: name }, 'consumer onCaughtUp hook failed');
                }
              }),
            onBatch: pacedBatches(
              async (events) => {
                await reading.serial(() => this.process(reading, events, mode));
                failures = 0;
              },
              {
                intervalMs: this.opts.batchIntervalMs ?? CONSUMER_BATCH_INTERVAL_MS,
                batchSize: this.batchSize,
                signal: mode.signal,
                // Someone waits for a position (read-your-writes): the next batch is read now.
                wake: { emitter: this.nudges, events: ['nudge'] },
              },
            ),
          });
        } catch (err) {
          if (stop.aborted) break;
          if (err instanceof Rewound || err instanceof Yielded || subscription.signal.aborted) continue;
          // Reading the log failed (the database is away): read it again from the checkpoint.
          failures++;
          const wait = this.backoff(failures);
          logger.error({ err, consumer: name, retryInMs: wait }, 'consumer failed; reading the log again');
          await sleepUnlessAborted(wait, stop);
        } finally {
          if (cursor) await this.settle(cursor, mode);
        }
      }
    } finally {
      this.runs--;
      if (this.leases === leases) this.leases = undefined;
      await leases?.stop();
    }
  }

  /**
   * For tests and tools: handles the log from the checkpoint to its head now, and writes the checkpoint.
   * A failing batch is not retried: its error is thrown, the checkpoint left before it. Returns the sum
   * of what the batches counted.
   */
  async runOnce(): Promise<number> {
    const cursor = new Cursor(await this.readCheckpoint());
    const mode: Mode = { live: false, signal: this.controller.signal };
    let count = 0;
    for (;;) {
      const events = await this.opts.store.readAll({
        fromPosition: cursor.position,
        maxCount: this.batchSize,
        ...(this.opts.types ? { types: this.opts.types } : {}),
      });
      if (events.length === 0) {
        if (await this.flushOnce(cursor)) return count;
        continue;
      }
      try {
        count += await this.process(cursor, events, mode);
      } catch (err) {
        if (!(err instanceof Rewound)) throw err;
      }
    }
  }

  /**
   * For tests and tools: handles these events (in the log's order) as one batch after the stored
   * checkpoint: those at or before it are skipped. The caller is the one to know that nothing lies
   * between the checkpoint and the first of them.
   */
  async applyBatch(events: readonly RecordedEvent[]): Promise<number> {
    const cursor = new Cursor(await this.readCheckpoint());
    const mode: Mode = { live: false, signal: this.controller.signal };
    let count = 0;
    try {
      count = await this.process(cursor, [...events], mode);
    } catch (err) {
      // Moved back meanwhile: the events after it are the next reader's.
      if (!(err instanceof Rewound)) throw err;
      return count;
    }
    await this.flushOnce(cursor);
    return count;
  }

  private get batchSize(): number {
    return this.opts.batchSize ?? CONSUMER_BATCH_SIZE;
  }

  /** The consumer's own test of relevance, from `relevant` or `types` (undefined: every type). */
  private get relevantType(): ((type: string) => boolean) | undefined {
    if (this.opts.relevant) return this.opts.relevant;
    const types = this.opts.types;
    return types ? (type) => types.includes(type) : undefined;
  }

  private relevant(e: RecordedEvent): boolean {
    return this.relevantType?.(e.type) ?? true;
  }

  private backoff(failures: number): number {
    const base = this.opts.retry?.baseMs ?? CONSUMER_RETRY_BASE_MS;
    const max = this.opts.retry?.maxMs ?? CONSUMER_RETRY_MAX_MS;
    return Math.min(max, base * 2 ** Math.min(failures - 1, 30));
  }

  /**
   * One batch read from the log: its relevant events committed with the checkpoint, or only the
   * checkpoint moved. Live, a failure is retried (see the class); once, it is thrown.
   */
  private async process(cursor: Cursor, events: RecordedEvent[], mode: Mode): Promise<number> {
    const { name, logger } = this.opts;
    const isolateAfter = this.opts.retry?.isolateAfter ?? CONSUMER_ISOLATE_AFTER;
    let count = 0;
    let failures = 0;
    let isolating = false;
    /** The event the batch is stuck at (logged), once it is known. */
    let stuck: RecordedEvent | undefined;
    for (;;) {
      const pending =
        events[0] && events[0].position > cursor.position
          ? events
          : events.filter((e) => e.position > cursor.position);
      if (pending.length === 0) {
        // An idle position not written (the fence found the checkpoint moved under it): written later.
        if (mode.live && cursor.position > cursor.committed) this.schedule(cursor, mode, this.dueIn(cursor));
        return count;
      }
      // Isolating: the events up to the next relevant one, on their own.
      const upTo = isolating ? pending.findIndex((e) => this.relevant(e)) : -1;
      const chunk = upTo >= 0 ? pending.slice(0, upTo + 1) : pending;
      const relevant = chunk.filter((e) => this.relevant(e));
      try {
        if (relevant.length === 0) await this.idle(cursor, chunk[chunk.length - 1]!.position, mode);
        else count += await this.commit(cursor, chunk, relevant, mode, failures);
        if (stuck && stuck.position <= chunk[chunk.length - 1]!.position) {
          logger.info(
            { consumer: name, eventId: stuck.id, attempts: failures + 1 },
            'consumer got past the event',
          );
          stuck = undefined;
          isolating = false;
          failures = 0;
        }
      } catch (err) {
        if (err instanceof LeaseLost) {
          await this.moved(cursor, mode);
          continue;
        }
        if (!mode.live || mode.signal.aborted) throw err;
        failures++;
        if (!isolating && failures >= isolateAfter && pending.filter((e) => this.relevant(e)).length > 1) {
          // What fails may be one event: the events before it are committed, and it is known.
          logger.warn(
            { err, consumer: name, attempts: failures },
            'consumer batch keeps failing; trying its events one at a time',
          );
          isolating = true;
          continue;
        }
        const wait = this.backoff(failures);
        if (failures >= isolateAfter && relevant.length === 1) {
          stuck = relevant[0]!;
          logger.error(
            {
              err,
              consumer: name,
              eventId: stuck.id,
              type: stuck.type,
              streamId: stuck.streamId,
              position: stuck.position,
              attempts: failures,
              retryInMs: wait,
            },
            'consumer cannot handle an event; retrying it (it is not skipped)',
          );
        } else {
          logger.warn(
            { err, consumer: name, attempts: failures, retryInMs: wait },
            'consumer batch failed; retrying',
          );
        }
        await sleepUnlessAborted(wait, mode.signal);
        // Stopping, or standing by: the batch is left to whoever reads it next, the checkpoint before it.
        if (mode.signal.aborted) throw err;
      }
    }
  }

  /** The relevant events' effects and the checkpoint, fenced, in one transaction (see `handle`). */
  private async commit(
    cursor: Cursor,
    chunk: RecordedEvent[],
    relevant: RecordedEvent[],
    mode: Mode,
    attempt: number,
  ): Promise<number> {
    const { pool, name, handle, beforeCommit } = this.opts;
    const batch: ConsumerBatch = {
      from: cursor.committed,
      to: chunk[chunk.length - 1]!.position,
      all: chunk,
      signal: mode.signal,
      attempt,
    };
    const prepared = (beforeCommit ? await beforeCommit(relevant, batch) : undefined) as P;
    let result: unknown = prepared;
    if (handle) {
      result = await withTransaction(pool, async (tx) => {
        await advanceCheckpoint(tx, name, batch.from, batch.to);
        return handle(tx, relevant, { ...batch, prepared });
      });
    } else {
      await advanceCheckpoint(pool, name, batch.from, batch.to);
    }
    this.written(cursor, batch.to);
    const count = typeof result === 'number' ? result : 0;
    try {
      this.opts.afterCommit?.(count, batch);
    } catch (err) {
      this.opts.logger.error({ err, consumer: name }, 'consumer afterCommit hook failed');
    }
    return count;
  }

  private written(cursor: Cursor, at: Position): void {
    const moved = at > cursor.position;
    cursor.position = at;
    cursor.committed = at;
    cursor.writtenAt = performance.now();
    if (cursor.timer) clearTimeout(cursor.timer);
    cursor.timer = undefined;
    if (moved) this.positionMoved(at);
  }

  private positionMoved(at: Position): void {
    try {
      this.opts.onPosition?.(at);
    } catch (err) {
      this.opts.logger.error({ err, consumer: this.opts.name }, 'consumer onPosition hook failed');
    }
  }

  /**
   * A chunk with nothing relevant: only the cursor moves. Live, the checkpoint is written now if the
   * last write is `idleCheckpointMs` old, else once it is; once, at the end (`flushOnce`).
   */
  private async idle(cursor: Cursor, to: Position, mode: Mode): Promise<void> {
    cursor.position = to;
    this.positionMoved(to);
    if (!mode.live) return;
    const due = this.dueIn(cursor);
    if (due > 0) {
      this.schedule(cursor, mode, due);
      return;
    }
    try {
      await this.write(cursor);
    } catch (err) {
      if (err instanceof LeaseLost) throw err;
      // Nothing rests on it: written again later, the batch is not failed for it.
      this.opts.logger.warn({ err, consumer: this.opts.name }, 'consumer checkpoint not written; retrying');
      this.schedule(cursor, mode, this.opts.idleCheckpointMs ?? CONSUMER_IDLE_CHECKPOINT_MS);
    }
  }

  /** When the next idle write is due: `idleCheckpointMs` after the last write. */
  private dueIn(cursor: Cursor): number {
    const every = this.opts.idleCheckpointMs ?? CONSUMER_IDLE_CHECKPOINT_MS;
    return Math.max(0, every - (performance.now() - cursor.writtenAt));
  }

  /** The write of the idle position in `ms`, unless one is pending already. */
  private schedule(cursor: Cursor, mode: Mode, ms: number): void {
    if (cursor.timer || mode.signal.aborted) return;
    cursor.timer = setTimeout(() => {
      cursor.timer = undefined;
      void cursor.serial(() => this.flushLive(cursor, mode));
    }, ms);
    cursor.timer.unref();
  }

  /** Writes an idle position (fenced, as every move: an operator's replay is not undone). */
  private async write(cursor: Cursor): Promise<void> {
    if (cursor.position <= cursor.committed) return;
    await advanceCheckpoint(this.opts.pool, this.opts.name, cursor.committed, cursor.position);
    this.written(cursor, cursor.position);
  }

  private async flushLive(cursor: Cursor, mode: Mode): Promise<void> {
    if (mode.leases && !mode.leases.holds(this.opts.name)) return;
    try {
      await this.write(cursor);
    } catch (err) {
      if (!(err instanceof LeaseLost)) {
        this.opts.logger.warn({ err, consumer: this.opts.name }, 'consumer checkpoint not written; retrying');
        this.schedule(cursor, mode, this.opts.idleCheckpointMs ?? CONSUMER_IDLE_CHECKPOINT_MS);
        return;
      }
      try {
        await this.moved(cursor, mode);
        if (cursor.position > cursor.committed) this.schedule(cursor, mode, this.dueIn(cursor));
      } catch (e) {
        // Moved back or given up: the subscription reads again or stands by.
        mode.subscription?.abort();
        if (!(e instanceof Rewound || e instanceof Yielded)) {
          this.opts.logger.warn({ err: e, consumer: this.opts.name }, 'consumer checkpoint not read');
        }
      }
    }
  }

  /** Once: writes where the reader got to; false if it must read again (the checkpoint moved back). */
  private async flushOnce(cursor: Cursor): Promise<boolean> {
    for (;;) {
      try {
        await this.write(cursor);
        return true;
      } catch (err) {
        if (!(err instanceof LeaseLost)) throw err;
        try {
          await this.moved(cursor, { live: false, signal: this.controller.signal });
        } catch (e) {
          if (e instanceof Rewound) return false;
          throw e;
        }
      }
    }
  }

  /** A subscription ends (stop, lease lost, failure): its idle position is written if still its to write. */
  private async settle(cursor: Cursor, mode: Mode): Promise<void> {
    if (cursor.timer) clearTimeout(cursor.timer);
    cursor.timer = undefined;
    if (this.live === cursor) this.live = undefined;
    if (mode.leases && !mode.leases.holds(this.opts.name)) return;
    await cursor
      .serial(() => this.write(cursor))
      .catch((err: unknown) => {
        if (err instanceof LeaseLost) return;
        this.opts.logger.warn({ err, consumer: this.opts.name }, 'consumer checkpoint not written');
      });
  }

  /**
   * The fence found the checkpoint moved by someone else. Holding a lease, this process must have lost
   * it unawares: it gives it up and stands by. Without one, another process committed the batch: go on
   * from where it is. Moved back (a replay): read the log again from there.
   */
  private async moved(cursor: Cursor, mode: Mode): Promise<void> {
    const { name, logger } = this.opts;
    if (mode.live && mode.leases) {
      logger.warn({ consumer: name }, 'consumer checkpoint moved by another process; standing by');
      await mode.leases.release(name);
      mode.subscription?.abort();
      throw new Yielded();
    }
    const at = await this.readCheckpoint();
    if (at >= cursor.position) {
      cursor.position = at;
      cursor.committed = at;
      return;
    }
    // Between what was written and what was done: only idle events lie past it, still to be written.
    if (at >= cursor.committed) {
      cursor.committed = at;
      return;
    }
    logger.warn({ consumer: name, checkpoint: at }, 'consumer checkpoint moved back; reading the log again');
    cursor.position = at;
    cursor.committed = at;
    throw new Rewound();
  }
}
