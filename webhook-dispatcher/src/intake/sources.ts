import type { RecordedEvent } from '@mrn/platform';
import type { EventBusConsumer } from '@mrn/platform/event-bus/index';

/** What a source feeds: the dispatcher's intake (intake.ts), with its two ways of applying events. */
export interface SourceTarget {
  /**
   * Follows the log from the intake's position checkpoint (the platform `Consumer`: catch-up, then live,
   * failures retried) until `signal` aborts.
   */
  followLog(signal: AbortSignal): Promise<void>;
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

/** The log itself, from the dispatcher's position checkpoint: catch-up, then live. */
export function eventStoreSource(): DispatcherSource {
  return {
    name: 'event-store',
    follow: (target, signal) => target.followLog(signal),
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
