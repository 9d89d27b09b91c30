import {
  type Clock,
  Consumer,
  type EventStore,
  type Logger,
  type Pool,
  type PoolClient,
  type Position,
  type RecordedEvent,
  readCheckpoint,
  sleepUnlessAborted,
  withTransaction,
} from '@mrn/platform';
import { CHECKPOINT_NAME } from '../checkpoint.ts';
import { type ApplyContext, applyEvent, HANDLED_TYPES, SHOPPED_TYPES } from './enqueue.ts';
import { claimUnseen } from './kafka-dedupe.ts';
import { isUnreadable, quarantineEvent } from './quarantine.ts';
import { setQuietMerchantsApart, storeQuietCopies } from './quiet-merchants.ts';
import { judgedLookups } from './shopped-alerts.ts';
import { type DispatcherSource, eventStoreSource, type SourceTarget } from './sources.ts';

/** An unreachable broker stays so for a while: the Kafka source is retried with backoff up to this. */
const MAX_SOURCE_BACKOFF_MS = 30_000;

export interface IntakeOptions {
  pool: Pool;
  store: EventStore;
  clock: Clock;
  logger: Logger;
  /** Base of the merchant links in payloads (PUBLIC_URL); a function when it is known only once listening. */
  publicUrl: string | (() => string);
  /** Where events come from: the event store (default) or the Kafka topic (sources.ts). */
  source?: DispatcherSource;
  /** With a database URL, one process reads the log at a time, the others stand by (consumer.ts). */
  leaseUrl?: string;
  /** After a transaction wrote outbox rows: the delivery loop wakes. */
  onEnqueued(count: number): void;
}

interface Context {
  publicUrl: string;
  now: Date;
}

/**
 * The dispatcher's intake (DESIGN §1, §5): events → the dispatcher's own state (accounts, watches,
 * merchants) and outbox rows. From the event store it is the platform `Consumer` (consumer.ts): the
 * rows and the position checkpoint in one transaction, the checkpoint fenced, so two dispatchers never
 * apply an event twice (exactly-once enqueue); batches with no event it handles only move the
 * checkpoint; a failing batch is retried with backoff. From Kafka, events are applied once by id.
 */
export class DispatcherIntake implements SourceTarget {
  readonly source: DispatcherSource;
  private readonly consumer: Consumer;

  constructor(private readonly opts: IntakeOptions) {
    this.source = opts.source ?? eventStoreSource();
    this.consumer = new Consumer({
      name: CHECKPOINT_NAME,
      store: opts.store,
      pool: opts.pool,
      logger: opts.logger,
      ...(opts.leaseUrl ? { leaseUrl: opts.leaseUrl } : {}),
      relevant: (type) => HANDLED_TYPES.has(type),
      handle: (tx, events) => this.applyInOrder(tx, events, this.context()),
      afterCommit: (enqueued) => {
        if (enqueued > 0) opts.onEnqueued(enqueued);
      },
    });
  }

  readCheckpoint(): Promise<Position> {
    return this.consumer.readCheckpoint();
  }

  /** Reads the log from the checkpoint to its head now; returns the outbox rows written. */
  pump(): Promise<number> {
    return this.consumer.runOnce();
  }

  /**
   * One batch of the log (the events after the checkpoint; those at or before it are skipped): the
   * dispatcher's state, the outbox rows and the checkpoint in one transaction. Returns the rows written.
   */
  applyBatch(events: RecordedEvent[]): Promise<number> {
    return this.consumer.applyBatch(events);
  }

  followLog(signal: AbortSignal): Promise<void> {
    return this.consumer.run(signal);
  }

  /**
   * Events from Kafka (sources.ts): at least once, in the order of their partition, not the log's. Each
   * is applied only if its id was not applied before (kafka-dedupe.ts), in the same transaction as
   * what it writes, so a redelivered message enqueues nothing twice. Events at or before the position
   * checkpoint were applied by the event-store source before KAFKA_BROKERS was set: switching sources sends
   * nothing twice and nothing from history.
   */
  async applyDelivered(events: RecordedEvent[]): Promise<number> {
    const handled = events.filter((e) => HANDLED_TYPES.has(e.type));
    if (handled.length === 0) return 0;
    const ctx = this.context();
    const enqueued = await withTransaction(this.opts.pool, async (tx) => {
      const done = await readCheckpoint(tx, CHECKPOINT_NAME);
      const fresh = await claimUnseen(
        tx,
        handled.filter((e) => e.position > done),
      );
      return this.applyInOrder(tx, fresh, ctx);
    });
    if (enqueued > 0) this.opts.onEnqueued(enqueued);
    return enqueued;
  }

  /**
   * Live: follows the source until `signal` aborts. The event-store source retries on its own (the
   * consumer); a Kafka source that fails (an unreachable broker) is followed again after a backoff.
   */
  async follow(signal: AbortSignal): Promise<void> {
    let failures = 0;
    // A batch applied ends a run of failures, so the backoff starts small again.
    const target: SourceTarget = {
      followLog: (s) => this.followLog(s),
      applyDelivered: async (events) => {
        const n = await this.applyDelivered(events);
        failures = 0;
        return n;
      },
    };
    while (!signal.aborted) {
      try {
        await this.source.follow(target, signal);
      } catch (err) {
        if (signal.aborted) return;
        failures++;
        this.opts.logger.error(
          { err, source: this.source.name },
          'webhook dispatcher batch failed; retrying',
        );
        await sleepUnlessAborted(
          Math.min(MAX_SOURCE_BACKOFF_MS, 1000 * 2 ** Math.min(failures - 1, 5)),
          signal,
        );
      }
    }
  }

  private context(): Context {
    const { publicUrl } = this.opts;
    return {
      publicUrl: typeof publicUrl === 'function' ? publicUrl() : publicUrl,
      now: this.opts.clock.now(),
    };
  }

  /**
   * A batch's events inside its transaction: the changes of merchants nobody watches as one upsert of
   * the dispatcher's copies (quiet-merchants.ts), every other event one by one in order. A batch that
   * may judge a being-shopped alert takes the judgements' lock first, before it writes anything
   * (shopped-alerts.ts): the look-ups reader's batches and this one are judged one after the other.
   */
  private async applyInOrder(tx: PoolClient, events: RecordedEvent[], base: Context): Promise<number> {
    let judged: Promise<Position> | undefined;
    const ctx: ApplyContext = {
      ...base,
      judgedLookups: () => (judged ??= judgedLookups(tx)),
      readStream: (streamId) => this.opts.store.readStream(streamId),
    };
    if (events.some((e) => SHOPPED_TYPES.has(e.type))) await ctx.judgedLookups();
    const { eventByEvent, quietCopies } = await setQuietMerchantsApart(tx, events);
    await storeQuietCopies(tx, quietCopies);
    let count = 0;
    for (const e of eventByEvent) count += await this.applyOne(tx, e, ctx);
    return count;
  }

  /**
   * One event inside a batch transaction. An event whose data fails its schema would fail its batch on
   * every retry and stop all notifications behind it: it is quarantined instead, and the batch goes on.
   * `applyEvent` reads the event before it writes anything, so nothing of it is half applied.
   */
  private async applyOne(tx: PoolClient, e: RecordedEvent, ctx: ApplyContext): Promise<number> {
    try {
      return await applyEvent(tx, e, ctx);
    } catch (err) {
      if (!isUnreadable(err)) throw err;
      await quarantineEvent(tx, e, err.message);
      this.opts.logger.warn(
        { eventId: e.id, type: e.type, streamId: e.streamId, position: e.position, reason: err.message },
        'webhook dispatcher quarantined an event it cannot read (webhook_quarantine)',
      );
      return 0;
    }
  }
}
