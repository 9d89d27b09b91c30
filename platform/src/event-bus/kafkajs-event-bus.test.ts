import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePosition } from '../event-store/position.ts';
import type { RecordedEvent } from '../event-store/types.ts';
import { createLogger } from '../logger.ts';
import { CONTAINER_START_TIMEOUT_MS, kafkaForTests } from '../testing/containers.ts';
import { KafkajsEventBus } from './kafkajs-event-bus.ts';
import type { EventBusPublisher } from './port.ts';

// The contract of the kafkajs adapter needs a real Kafka broker (platform/src/testing/containers.ts):
// - KAFKA_BROKERS when set:
//     KAFKA_BROKERS=localhost:9092 npx vitest run platform/src/event-bus/kafkajs-event-bus.test.ts
// - otherwise, when a Docker engine answers, a one-node KRaft broker testcontainers starts before the
//   suite and stops after it (never run on the development machine: it has no Docker engine, and no
//   broker can run there otherwise: DESIGN §9);
// - otherwise the suite shows in the report as skipped, with the reason.
// Each run uses a topic and groups of its own.
const kafka = await kafkaForTests();
const logger = createLogger('silent');

let sequence = 0;
const event = (streamId: string, type = 'NoteAdded'): RecordedEvent => {
  sequence++;
  return {
    id: randomUUID(),
    streamId,
    revision: BigInt(sequence),
    position: encodePosition(1000n + BigInt(sequence), sequence),
    type,
    data: { n: sequence, text: `note ${sequence} “quoted”` },
    metadata: { actorAccountId: 'a', correlationId: `c-${sequence}` },
    recordedAt: new Date(Date.UTC(2026, 10, 24, 12, 0, sequence)),
  };
};

/** Consumes in `group` until `until` holds for what arrived (or the time runs out), then stops. */
async function consumeUntil(
  bus: KafkajsEventBus,
  group: string,
  until: (received: RecordedEvent[]) => boolean,
  opts: { failFirstBatch?: boolean; timeoutMs?: number } = {},
): Promise<{ received: RecordedEvent[]; batches: number; failed: number }> {
  const received: RecordedEvent[] = [];
  const controller = new AbortController();
  let batches = 0;
  let failed = 0;
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? 20_000);
  const running = bus.consumer(group).consume({
    signal: controller.signal,
    onBatch: async (events) => {
      batches++;
      if (opts.failFirstBatch && failed === 0) {
        failed++;
        throw new Error('the database is down');
      }
      received.push(...events);
      if (until(received)) controller.abort();
    },
  });
  await running;
  clearTimeout(timer);
  return { received, batches, failed };
}

describe.skipIf(kafka.skip !== undefined)(
  `kafkajs event bus contract${kafka.skip ? ` (skipped: ${kafka.skip})` : ''}`,
  () => {
    const topic = `mrn.events.test-${randomUUID()}`;
    let brokers: string[];
    let bus: KafkajsEventBus;
    let publisher: EventBusPublisher;

    beforeAll(async () => {
      ({ brokers } = await kafka.start!());
      bus = new KafkajsEventBus({ brokers, logger, topic, clientId: 'mrn-contract-test' });
      publisher = bus.publisher();
    }, CONTAINER_START_TIMEOUT_MS);
    afterAll(async () => {
      await publisher?.close();
      await kafka.stop?.();
    }, CONTAINER_START_TIMEOUT_MS);

    it('publishes keyed by stream and a consumer group reads every event back, equal and in order', async () => {
      const events = [event('merchant-1'), event('merchant-2'), event('account-1'), event('merchant-1')];
      await publisher.publish(events);
      const group = `g-${randomUUID()}`;
      const { received } = await consumeUntil(bus, group, (r) => r.length >= events.length);
      expect(received).toEqual(events);
    });

    it('commits what was consumed: the same group goes on after it, a new group starts at the beginning', async () => {
      const group = `g-${randomUUID()}`;
      const first = [event('merchant-3'), event('merchant-3')];
      await publisher.publish(first);
      const one = await consumeUntil(bus, group, (r) => r.some((e) => e.id === first[1]!.id));
      expect(one.received.map((e) => e.id)).toContain(first[1]!.id);

      const next = [event('merchant-4')];
      await publisher.publish(next);
      const two = await consumeUntil(bus, group, (r) => r.some((e) => e.id === next[0]!.id));
      expect(two.received.map((e) => e.id)).toEqual([next[0]!.id]);

      const fresh = await consumeUntil(bus, `g-${randomUUID()}`, (r) => r.some((e) => e.id === next[0]!.id));
      expect(fresh.received.map((e) => e.id)).toEqual(expect.arrayContaining([first[0]!.id, next[0]!.id]));
    });

    it('delivers a batch again when its handler failed: nothing is committed before the handler resolved', async () => {
      const group = `g-${randomUUID()}`;
      // Everything already on the topic is read first, so only the events of this test are checked.
      const events = [event('merchant-5'), event('merchant-6')];
      await publisher.publish(events);
      const { received, failed } = await consumeUntil(
        bus,
        group,
        (r) => events.every((e) => r.some((x) => x.id === e.id)),
        { failFirstBatch: true, timeoutMs: 60_000 },
      );
      expect(failed).toBe(1);
      for (const e of events) expect(received.filter((x) => x.id === e.id)).toHaveLength(1);
    });

    it('a batch published twice (a relay that died before its checkpoint) arrives twice, for the consumer to drop', async () => {
      const group = `g-${randomUUID()}`;
      const events = [event('merchant-7')];
      await publisher.publish(events);
      await publisher.publish(events);
      const { received } = await consumeUntil(
        bus,
        group,
        (r) => r.filter((x) => x.id === events[0]!.id).length >= 2,
      );
      expect(received.filter((x) => x.id === events[0]!.id)).toHaveLength(2);
    });

    it('refuses to publish a secret-bearing event', async () => {
      await expect(publisher.publish([event('user-1', 'UserMfaEnabled')])).rejects.toThrow(/never published/);
    });

    it('sends a batch larger than one produce request in order', async () => {
      const small = new KafkajsEventBus({ brokers, logger, topic, maxSendBytes: 600 });
      const p = small.publisher();
      try {
        const events = Array.from({ length: 12 }, () => event('merchant-8'));
        await p.publish(events);
        const { received } = await consumeUntil(bus, `g-${randomUUID()}`, (r) =>
          events.every((e) => r.some((x) => x.id === e.id)),
        );
        const ids = new Set(events.map((e) => e.id));
        expect(received.filter((e) => ids.has(e.id)).map((e) => e.id)).toEqual(events.map((e) => e.id));
      } finally {
        await p.close();
      }
    });
  },
);

// This much runs everywhere: with nothing listening, the adapter gives up (kafkajs retries for some
// seconds first) instead of hanging, so the relay and the dispatcher can log, back off and try again.
describe('kafkajs event bus without a broker', () => {
  it('rejects publishing and consuming when no broker is reachable', async () => {
    // Port 1 on loopback: nothing listens there.
    const bus = new KafkajsEventBus({ brokers: ['127.0.0.1:1'], logger });
    const publisher = bus.publisher();
    const controller = new AbortController();
    const [published, consumed] = await Promise.allSettled([
      publisher.publish([event('merchant-9')]),
      bus.consumer('nobody').consume({ signal: controller.signal, onBatch: async () => undefined }),
    ]);
    expect(published).toMatchObject({ status: 'rejected', reason: { message: /ECONNREFUSED/ } });
    expect(consumed).toMatchObject({ status: 'rejected', reason: { message: /ECONNREFUSED/ } });
    await publisher.close();
  });

  it('stops at once when asked to while still trying to reach the broker', async () => {
    const bus = new KafkajsEventBus({ brokers: ['127.0.0.1:1'], logger });
    const controller = new AbortController();
    const consuming = bus
      .consumer('nobody')
      .consume({ signal: controller.signal, onBatch: async () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    controller.abort();
    await consuming;
    expect(Date.now() - started).toBeLessThan(500);
  });
});
