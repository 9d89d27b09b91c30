import type { EventStore, Position, RecordedEvent } from '@mrn/platform';
import type { EventBusConsumer } from '@mrn/platform/event-bus/index';

/** What a source feeds: the dispatcher's two ways of applying events. */
export interface SourceTarget {
  readCheckpoint(): Promise<Position>;
  /** Events in the log's order, skipped up to the position checkpoint; `force` writes the checkpoint. */
  applyBatch(events: RecordedEvent[], force?: boolean): Promise<number>;
  /** Events at least once and in no global order, skipped when already applied (by id). */
  applyDelivered(events: RecordedEvent[]): Promise<number>;
}

/**
 * Where the dispatcher's events come from (DESIGN §1, §4): the event store directly, or the Kafka topic
 * the relay publishes to when KAFKA_BROKERS is set. Both deliver the same webhooks.
 */
export interface DispatcherSource {
  readonly name: 'event-store' | 'kafka';
  /** Feeds `target` until `signal` aborts; after a failure the dispatcher calls it again. */
  follow(target: SourceTarget, signal: AbortSignal): Promise<void>;
}

const CATCH_UP_BATCH = 1000;

/** The log itself, from the dispatcher's position checkpoint: catch-up, then live. */
export function eventStoreSource(store: EventStore): DispatcherSource {
  return {
    name: 'event-store',
    async follow(target, signal) {
      // The first short batch ends the catch-up: its checkpoint is written at once (not after the
      // idle interval), so a restart does not read the log again and tools can see it caught up.
      let caughtUp = false;
      await store.subscribeToAll({
        fromPosition: await target.readCheckpoint(),
        signal,
        batchSize: CATCH_UP_BATCH,
        onBatch: async (events) => {
          const endOfCatchUp = !caughtUp && events.length < CATCH_UP_BATCH;
          if (endOfCatchUp) caughtUp = true;
          await target.applyBatch(events, endOfCatchUp);
        },
      });
    },
  };
}

/** The consumer group that reads `mrn.events`; it commits a batch only after it was applied. */
export const KAFKA_CONSUMER_GROUP = 'webhook-dispatcher';

export function kafkaSource(consumer: EventBusConsumer): DispatcherSource {
  return {
    name: 'kafka',
    follow: (target, signal) =>
      consumer.consume({
        signal,
        onBatch: async (events) => {
          await target.applyDelivered(events);
        },
      }),
  };
}
