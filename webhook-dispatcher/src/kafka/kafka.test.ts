import { randomUUID } from 'node:crypto';
import { type Config, createLogger, loadConfig, PostgresEventStore, platformMigrations } from '@mrn/platform';
import { RELAY_CHECKPOINT } from '@mrn/platform/event-bus/index';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKafka } from './kafka.ts';

// No broker can run here: this checks the wiring and that an unreachable broker never holds up the
// server (it starts, and it stops at once). Delivery through a real broker is tested in
// webhook-dispatcher/src/dispatcher.test.ts and platform/src/event-bus/ when KAFKA_BROKERS is set.
let db: TestDatabase;
let store: PostgresEventStore;
const logger = createLogger('silent');

beforeAll(async () => {
  db = await createTestDatabase(platformMigrations());
  store = new PostgresEventStore(db.pool, { pollIntervalMs: 50 });
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

const config = (env: Record<string, string>): Config => loadConfig({ ...env });

describe('KAFKA_BROKERS', () => {
  it('unset: no relay, and the dispatcher reads the event store', async () => {
    const kafka = startKafka(config({}), { pool: db.pool, store, logger });
    expect(kafka.dispatcherSource).toBeUndefined();
    await kafka.stop();
  });

  it('set: the dispatcher reads Kafka; with the broker unreachable the relay keeps its checkpoint and stops at once', async () => {
    // Port 1 on loopback: nothing listens there.
    const kafka = startKafka(config({ KAFKA_BROKERS: '127.0.0.1:1' }), { pool: db.pool, store, logger });
    expect(kafka.dispatcherSource?.name).toBe('kafka');
    const appended = await store.appendToStream(
      `thing-${randomUUID()}`,
      [{ id: randomUUID(), type: 'NoteAdded', data: {} }],
      { expectedRevision: 'any' },
    );
    await new Promise((resolve) => setTimeout(resolve, 300)); // the relay is trying to publish it now
    const started = Date.now();
    await kafka.stop();
    expect(Date.now() - started).toBeLessThan(2000);
    // An idle relay may have written the log's horizon before the event came; never a place past it.
    const { rows } = await db.pool.query<{ position: string }>(
      'select position from subscription_checkpoints where name = $1',
      [RELAY_CHECKPOINT],
    );
    for (const row of rows) expect(row.position < appended.position).toBe(true);
  });

  it('refuses a list that is not host:port', () => {
    expect(() => config({ KAFKA_BROKERS: 'kafka-1' })).toThrow(
      /KAFKA_BROKERS: must be a comma-separated list/,
    );
    expect(config({ KAFKA_BROKERS: ' kafka-1:9092, kafka-2:9092 ' }).KAFKA_BROKERS).toBe(
      'kafka-1:9092, kafka-2:9092',
    );
    expect(config({ KAFKA_BROKERS: '' }).KAFKA_BROKERS).toBeUndefined();
  });
});
