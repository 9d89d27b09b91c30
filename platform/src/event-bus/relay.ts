import { Consumer } from '../consumer/consumer.ts';
import type { Pool } from '../db.ts';
import type { EventStore, Position, RecordedEvent } from '../event-store/types.ts';
import type { Logger } from '../logger.ts';
import type { EventBusPublisher } from './port.ts';
import { isPublished } from './unpublished.ts';

/** The relay's row in `subscription_checkpoints`. */
export const RELAY_CHECKPOINT = 'kafka-relay';

export interface EventRelayOptions {
  pool: Pool;
  store: EventStore;
  publisher: EventBusPublisher;
  logger: Logger;
  batchSize?: number;
  /** With a database URL, one relay process publishes at a time (the others stand by): consumer.ts. */
  leaseUrl?: string;
}

/**
 * Publishes the log to the bus (DESIGN §4, Kafka), at least once: a batch is published, and only once
 * the broker has acknowledged it does the relay's checkpoint move past it (the platform `Consumer`, its
 * effects before the checkpoint). A crash in between publishes the batch again on restart, so consumers
 * drop duplicates by event id. Secret-bearing events are left out (unpublished.ts) but still moved past.
 * A broker that is down is retried with backoff up to 30 s.
 */
export class EventRelay {
  private readonly consumer: Consumer<number>;

  constructor(private readonly opts: EventRelayOptions) {
    this.consumer = new Consumer<number>({
      name: RELAY_CHECKPOINT,
      pool: opts.pool,
      store: opts.store,
      logger: opts.logger,
      batchSize: opts.batchSize ?? 500,
      relevant: isPublished,
      ...(opts.leaseUrl ? { leaseUrl: opts.leaseUrl } : {}),
      beforeCommit: async (events, batch) => {
        await untilAborted(this.opts.publisher.publish(events), batch.signal);
        return events.length;
      },
    });
  }

  start(): void {
    this.consumer.start();
  }

  /** Stops following the log and closes the publisher it was given. */
  async stop(): Promise<void> {
    await this.consumer.stop();
    await this.opts.publisher.close().catch(() => undefined);
  }

  readCheckpoint(): Promise<Position> {
    return this.consumer.readCheckpoint();
  }

  /**
   * Publishes one batch of the log (the events after the checkpoint), then moves the checkpoint past it;
   * returns how many were published. Never backwards: events at or before the checkpoint (a second relay
   * got there first) are neither published again nor moved back to.
   */
  relay(events: readonly RecordedEvent[]): Promise<number> {
    return this.consumer.applyBatch(events);
  }

  /** For tests and tools: publishes everything from the checkpoint to the head of the log now. */
  catchUp(): Promise<number> {
    return this.consumer.runOnce();
  }
}

/**
 * A send to an unreachable broker takes kafkajs several seconds to give up; a stopping server does not
 * wait for it. The checkpoint is not moved, so the batch is published (again) by the next relay.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(new Error('relay stopped'));
  }
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new Error('relay stopped'));
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}
