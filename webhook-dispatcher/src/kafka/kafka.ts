import { type Config, type EventStore, kafkaBrokers, type Logger, type Pool } from '@mrn/platform';
import { EventRelay, KafkajsEventBus } from '@mrn/platform/event-bus/index';
import { type DispatcherSource, KAFKA_CONSUMER_GROUP, kafkaSource } from '../intake/sources.ts';

/**
 * With KAFKA_BROKERS set (DESIGN §4): the relay publishes the log to `mrn.events` and the dispatcher
 * reads it from there as the `webhook-dispatcher` consumer group. Unset: nothing starts, and the
 * dispatcher reads the event store directly. Neither waits for the broker: both retry in the background.
 */
export function startKafka(
  config: Config,
  deps: { pool: Pool; store: EventStore; logger: Logger },
): { dispatcherSource: DispatcherSource | undefined; stop(): Promise<void> } {
  const brokers = kafkaBrokers(config);
  if (!brokers) return { dispatcherSource: undefined, stop: async () => undefined };
  const bus = new KafkajsEventBus({ brokers, logger: deps.logger.child({ component: 'kafka' }) });
  const relay = new EventRelay({
    pool: deps.pool,
    store: deps.store,
    publisher: bus.publisher(),
    logger: deps.logger.child({ component: 'kafka-relay' }),
  });
  relay.start();
  return {
    dispatcherSource: kafkaSource(bus.consumer(KAFKA_CONSUMER_GROUP)),
    stop: () => relay.stop(),
  };
}
