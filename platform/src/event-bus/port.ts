import type { RecordedEvent } from '../event-store/types.ts';

/** The topic the relay writes the log to (DESIGN §4, Kafka). */
export const EVENTS_TOPIC = 'mrn.events';

/**
 * Publishes events of the log to the bus. Kept this small so that the relay and the dispatcher depend
 * on it and not on kafkajs, which is in maintenance mode upstream (DESIGN §9) and may be swapped.
 */
export interface EventBusPublisher {
  /**
   * Resolves only once the broker has acknowledged every event, in the order given. Rejects if any was
   * not acknowledged: the caller publishes the whole batch again (duplicates are the consumer's to drop).
   */
  publish(events: readonly RecordedEvent[]): Promise<void>;
  close(): Promise<void>;
}

export interface ConsumeOptions {
  /**
   * Called with the events of one batch in their order on the bus. The batch counts as consumed only
   * once this resolves; if it rejects (or the process dies first) the batch is delivered again.
   */
  onBatch(events: RecordedEvent[]): Promise<void>;
  /** Aborting stops consuming; `consume` then resolves. */
  signal: AbortSignal;
}

/** Reads the bus as one member of a consumer group: each event reaches the group at least once. */
export interface EventBusConsumer {
  /** Runs until `signal` aborts; rejects if the bus cannot be reached (the caller retries). */
  consume(opts: ConsumeOptions): Promise<void>;
}
