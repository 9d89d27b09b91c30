// Types only: kafkajs itself is loaded when a bus first connects (`client()`), not by every process and
// test file that imports the event-bus module (the server always does, Kafka or not).
import type { Consumer, EachBatchPayload, Kafka, LogEntry, logLevel, Producer } from 'kafkajs';
import type { RecordedEvent } from '../event-store/types.ts';
import type { Logger } from '../logger.ts';
import { type ConsumeOptions, EVENTS_TOPIC, type EventBusConsumer, type EventBusPublisher } from './port.ts';
import { chunkBySize, fromWireValue, toWireMessage } from './wire.ts';

export interface KafkajsEventBusOptions {
  brokers: string[];
  logger: Logger;
  clientId?: string;
  /** Tests use a topic of their own; everything else uses `mrn.events`. */
  topic?: string;
  /** Upper bound of one produce request's keys and values (below the broker's `message.max.bytes`). */
  maxSendBytes?: number;
}

const DEFAULT_MAX_SEND_BYTES = 512 * 1024;

/** The kafkajs adapter of the event-bus port (DESIGN §4, §9): one client, a publisher and consumers. */
export class KafkajsEventBus {
  readonly topic: string;
  private kafka: Promise<Kafka> | undefined;
  private topicReady: Promise<void> | undefined;

  constructor(private readonly opts: KafkajsEventBusOptions) {
    this.topic = opts.topic ?? EVENTS_TOPIC;
  }

  /** The one kafkajs client of this bus, made (and kafkajs loaded) on first use. */
  client(): Promise<Kafka> {
    this.kafka ??= import('kafkajs').then(
      ({ Kafka, logLevel }) =>
        new Kafka({
          clientId: this.opts.clientId ?? 'mrn',
          brokers: this.opts.brokers,
          logLevel: logLevel.WARN,
          logCreator: () => (entry) => logTo(this.opts.logger, entry, logLevel),
        }),
    );
    return this.kafka;
  }

  /**
   * Creates the topic with one partition unless it exists. The dispatcher matches an event against
   * state written by other streams (watches, accounts, merchants), so it needs the log's order across
   * streams, and Kafka keeps order only within a partition: with one, the relay's order (the log's) is
   * the order consumed. A topic made by hand with more partitions still works, but then a watch and a
   * note written at nearly the same moment may be matched in the other order: said once, as a warning.
   */
  ensureTopic(): Promise<void> {
    this.topicReady ??= (async () => {
      const admin = (await this.client()).admin();
      await admin.connect();
      try {
        try {
          await admin.createTopics({
            topics: [{ topic: this.topic, numPartitions: 1 }],
            waitForLeaders: true,
          });
        } catch (err) {
          // A cluster where we may not create topics (ACLs): the topic is then provisioned by its
          // operators, and whether it exists shows just below.
          this.opts.logger.warn({ err, topic: this.topic }, 'could not create the event topic');
        }
        const { topics } = await admin.fetchTopicMetadata({ topics: [this.topic] });
        const partitions = topics[0]?.partitions.length ?? 0;
        if (partitions === 0) throw new Error(`Topic ${this.topic} does not exist`);
        if (partitions > 1) {
          this.opts.logger.warn(
            { topic: this.topic, partitions },
            'event topic has several partitions: order across streams is not kept',
          );
        }
      } finally {
        await admin.disconnect();
      }
    })().catch((err: unknown) => {
      this.topicReady = undefined;
      throw err;
    });
    return this.topicReady;
  }

  publisher(): EventBusPublisher {
    return new KafkajsPublisher(this, this.opts.maxSendBytes ?? DEFAULT_MAX_SEND_BYTES);
  }

  consumer(groupId: string): EventBusConsumer {
    return {
      consume: (opts) => this.consume(groupId, opts),
    };
  }

  private async consume(groupId: string, { onBatch, signal }: ConsumeOptions): Promise<void> {
    // Before any await, so that an abort while connecting is not missed.
    const stopped = new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    if (signal.aborted) return;
    const consumer = (await this.client()).consumer({ groupId });
    // Reaching an unreachable broker takes kafkajs seconds of retries; a stop does not wait for them.
    const ready = (async () => {
      await this.ensureTopic();
      await consumer.connect();
    })();
    await Promise.race([ready, stopped]);
    if (signal.aborted) {
      void ready.then(() => consumer.disconnect()).catch(() => undefined);
      return;
    }
    let crashed: (err: Error) => void = () => undefined;
    const crash = new Promise<void>((_, reject) => {
      crashed = reject;
    });
    // A crash after this run ended (stopped first) has no one left to tell.
    crash.catch(() => undefined);
    // kafkajs restarts itself after retriable failures; one it gives up on ends this run, and the
    // caller's loop starts a new consumer.
    consumer.on(consumer.events.CRASH, (e) => {
      if (!e.payload.restart) crashed(e.payload.error);
    });
    // The batch being applied when asked to stop: it is finished and committed before disconnecting, so
    // a stop (a deploy) does not make the next consumer read it again.
    let inFlight: Promise<void> = Promise.resolve();
    try {
      // A new group starts at the beginning of the topic: the relay may have published before the
      // dispatcher first joined, and nothing may be skipped.
      const running = (async () => {
        await consumer.subscribe({ topics: [this.topic], fromBeginning: true });
        // Resolves once the group is joined (seconds), not when consuming ends.
        await consumer.run({
          // Offsets are committed here, after `onBatch` resolved, never before: at least once.
          autoCommit: false,
          eachBatchAutoResolve: false,
          eachBatch: (payload) => {
            const applying = this.applyBatch(consumer, payload, onBatch);
            inFlight = applying.catch(() => undefined);
            return applying;
          },
        });
      })();
      running.catch(() => undefined);
      await Promise.race([running.then(() => Promise.race([stopped, crash])), stopped]);
      await inFlight;
    } finally {
      await consumer.disconnect().catch(() => undefined);
    }
  }

  private async applyBatch(
    consumer: Consumer,
    { batch, resolveOffset, heartbeat }: EachBatchPayload,
    onBatch: ConsumeOptions['onBatch'],
  ): Promise<void> {
    const events: RecordedEvent[] = [];
    for (const m of batch.messages) {
      try {
        events.push(fromWireValue(m.value));
      } catch (err) {
        // Not a message of the relay (a tool wrote to the topic): it can never be applied, and stopping
        // on it would stop every notification behind it.
        this.opts.logger.warn(
          { err, topic: batch.topic, partition: batch.partition, offset: m.offset },
          'skipping a message that is not an event',
        );
      }
    }
    if (events.length > 0) await onBatch(events);
    resolveOffset(batch.lastOffset());
    await consumer.commitOffsets([
      {
        topic: batch.topic,
        partition: batch.partition,
        offset: (BigInt(batch.lastOffset()) + 1n).toString(),
      },
    ]);
    await heartbeat();
  }
}

class KafkajsPublisher implements EventBusPublisher {
  private producer: Producer | undefined;
  private connecting: Promise<Producer> | undefined;

  constructor(
    private readonly bus: KafkajsEventBus,
    private readonly maxSendBytes: number,
  ) {}

  async publish(events: readonly RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const producer = await this.connect();
    // Sent one after the other, each waiting for its acknowledgement, so the topic gets them in the
    // order given (the log's order) even when a send is retried.
    for (const messages of chunkBySize(events.map(toWireMessage), this.maxSendBytes)) {
      await producer.send({ topic: this.bus.topic, acks: -1, messages });
    }
  }

  async close(): Promise<void> {
    const { producer, connecting } = this;
    this.producer = undefined;
    this.connecting = undefined;
    if (producer) {
      await producer.disconnect().catch(() => undefined);
      return;
    }
    // A connect still trying an unreachable broker (seconds of kafkajs retries) is not waited for: a
    // stopping server goes on, and the producer is let go once the attempt ends.
    void connecting?.then((p) => p.disconnect()).catch(() => undefined);
  }

  private connect(): Promise<Producer> {
    if (this.producer) return Promise.resolve(this.producer);
    this.connecting ??= (async () => {
      await this.bus.ensureTopic();
      // Idempotent with one request in flight: a retried send neither duplicates nor reorders messages
      // within the partition. Duplicates can still come from the relay itself (after a crash).
      const producer = (await this.bus.client()).producer({ idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();
      this.producer = producer;
      return producer;
    })().catch((err: unknown) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }
}

// kafkajs logs every retry of a connection as an error; the relay and the dispatcher log the failure
// that counts (once per attempt of theirs), so its own lines go in as warnings.
function logTo(logger: Logger, entry: LogEntry, levels: typeof logLevel): void {
  const { message, ...extra } = entry.log;
  const fields = { component: 'kafkajs', namespace: entry.namespace, ...extra };
  if (entry.level === levels.ERROR || entry.level === levels.WARN) logger.warn(fields, message);
  else if (entry.level === levels.INFO) logger.info(fields, message);
  else logger.debug(fields, message);
}
