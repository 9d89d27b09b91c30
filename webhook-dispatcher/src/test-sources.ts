import { randomUUID } from 'node:crypto';
import type { Logger, Pool, Position, PostgresEventStore, RecordedEvent } from '@mrn/platform';
import {
  type EventBusPublisher,
  EventRelay,
  KafkajsEventBus,
  RELAY_CHECKPOINT,
} from '@mrn/platform/event-bus/index';
import type { ServerForTests } from '@mrn/platform/testing';
import { expect } from 'vitest';
import { CHECKPOINT_NAME, type DispatcherOptions, startDispatcher, WebhookDispatcher } from './dispatcher.ts';
import { HANDLED_TYPES } from './intake/enqueue.ts';
import { kafkaSource } from './intake/sources.ts';

/**
 * "One test suite, two sources": what the delivery tests need from where the dispatcher's events come
 * from. The event store always; Kafka at KAFKA_BROKERS, or in a container testcontainers starts when a
 * Docker engine answers (`kafkaForTests`; neither is available on this machine).
 */
export interface SourceUnderTest {
  name: 'event store' | 'Kafka';
  /** Why the suite cannot run here; it is then reported as skipped. */
  skip?: string;
  /** Starts what the source needs (for Kafka, maybe a container: see CONTAINER_START_TIMEOUT_MS). */
  setup(ctx: { pool: Pool; store: PostgresEventStore; logger: Logger }): Promise<void>;
  teardown(): Promise<void>;
  /** A dispatcher reading from this source (for Kafka, its consumer already running). */
  dispatcher(opts: DispatcherOptions): WebhookDispatcher;
  /** Brings everything appended so far into the outbox, then delivers what is due now. */
  settle(d: WebhookDispatcher): Promise<void>;
  /** Resolves once a running dispatcher has applied everything appended so far. */
  caughtUp(): Promise<void>;
  /** Started as in the server: for Kafka, the relay as well. */
  startLive(opts: DispatcherOptions): { stop(): Promise<void> };
  /** Kafka: publishes these events again, as a relay that died before its checkpoint would. */
  republish?(events: RecordedEvent[]): Promise<void>;
}

export const eventStoreUnderTest: SourceUnderTest = {
  name: 'event store',
  setup: async () => undefined,
  teardown: async () => undefined,
  dispatcher: (opts) => new WebhookDispatcher(opts),
  settle: async (d) => {
    await d.runOnce();
  },
  // Reading the log needs no joining: a started dispatcher is at the head within one read.
  caughtUp: async () => undefined,
  startLive: (opts) => startDispatcher(opts),
};

/** Kafka from `kafkaForTests()` (@mrn/platform/testing): its broker is started, if need be, in `setup`. */
export function kafkaUnderTest(kafka: ServerForTests<{ brokers: string[] }>): SourceUnderTest {
  let ctx: { pool: Pool; store: PostgresEventStore; logger: Logger };
  let bus: KafkajsEventBus;
  let publisher: EventBusPublisher;
  // A topic and a group of this run's own, so that runs never read each other's events.
  const run = randomUUID();
  const group = `webhook-dispatcher-test-${run}`;
  const dispatchers: WebhookDispatcher[] = [];
  let from: Position;

  // Consumed means applied: the dispatcher records each event it handles (intake/kafka-dedupe.ts).
  const caughtUp = async () => {
    const appended = await ctx.store.readAll({
      fromPosition: from,
      maxCount: 100_000,
      types: [...HANDLED_TYPES],
    });
    const ids = appended.map((e) => e.id);
    await expect
      .poll(
        async () =>
          (
            await ctx.pool.query<{ n: number }>(
              'select count(*) as n from webhook_kafka_events where event_id = any($1::uuid[])',
              [ids],
            )
          ).rows[0]?.n,
        { timeout: 30_000, interval: 50 },
      )
      .toBe(ids.length);
  };

  const moveCheckpoint = async (name: string) => {
    await ctx.pool.query(
      `insert into subscription_checkpoints (name, position) values ($1, $2)
       on conflict (name) do update set position = excluded.position`,
      [name, await ctx.store.headPosition()],
    );
  };

  return {
    name: 'Kafka',
    skip: kafka.skip,
    async setup(c) {
      ctx = c;
      const { brokers } = await kafka.start!();
      bus = new KafkajsEventBus({ brokers, logger: c.logger, topic: `mrn.events.test-${run}` });
      publisher = bus.publisher();
      // The relay starts at the head: what the event-store tests wrote before is not this suite's.
      await moveCheckpoint(RELAY_CHECKPOINT);
      from = await c.store.headPosition();
    },
    async teardown() {
      await Promise.all(dispatchers.map((d) => d.stop()));
      await publisher?.close();
      // And the event-store tests after this suite do not read what it wrote.
      if (ctx) await moveCheckpoint(CHECKPOINT_NAME);
      await kafka.stop?.();
    },
    dispatcher(opts) {
      const d = new WebhookDispatcher({ ...opts, source: kafkaSource(bus.consumer(group)), maxInFlight: 0 });
      d.start();
      dispatchers.push(d);
      return d;
    },
    async settle(d) {
      await new EventRelay({ pool: ctx.pool, store: ctx.store, publisher, logger: ctx.logger }).catchUp();
      await caughtUp();
      await d.runOnce();
    },
    caughtUp,
    startLive(opts) {
      const relay = new EventRelay({
        pool: ctx.pool,
        store: ctx.store,
        publisher: bus.publisher(),
        logger: ctx.logger,
      });
      relay.start();
      const running = startDispatcher({ ...opts, source: kafkaSource(bus.consumer(group)) });
      return {
        async stop() {
          await running.stop();
          await relay.stop();
        },
      };
    },
    republish: (events) => publisher.publish(events),
  };
}
