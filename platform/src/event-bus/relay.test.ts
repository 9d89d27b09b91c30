import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PostgresEventStore } from '../event-store/postgres-event-store.ts';
import type { RecordedEvent } from '../event-store/types.ts';
import { createLogger } from '../logger.ts';
import { platformMigrations } from '../migrations.ts';
import { createTestDatabase, type TestDatabase } from '../testing.ts';
import type { EventBusPublisher } from './port.ts';
import { EventRelay, RELAY_CHECKPOINT } from './relay.ts';

// No Kafka broker can run on this machine (DESIGN §9): the relay is tested against its port, with a
// publisher that records what it is given and can be told to fail like an unreachable broker. The
// kafkajs adapter behind the same port has its own contract test (kafkajs-event-bus.test.ts).
class RecordingPublisher implements EventBusPublisher {
  readonly published: RecordedEvent[] = [];
  /** Sends that fail before reaching the broker. */
  unreachable = 0;
  /** Sends the broker acknowledges but whose answer the relay never sees (it dies in between). */
  lostAcks = 0;
  closed = false;
  async publish(events: readonly RecordedEvent[]): Promise<void> {
    if (this.unreachable > 0) {
      this.unreachable--;
      throw new Error('broker unreachable');
    }
    this.published.push(...events);
    if (this.lostAcks > 0) {
      this.lostAcks--;
      throw new Error('connection lost before the acknowledgement');
    }
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

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
beforeEach(async () => {
  // Each test starts the relay at the head of the log: earlier tests' events are not its business.
  await db.pool.query(
    `insert into subscription_checkpoints (name, position) values ($1, $2)
     on conflict (name) do update set position = excluded.position`,
    [RELAY_CHECKPOINT, await store.headPosition()],
  );
});

async function append(type: string, data: Record<string, unknown> = {}, streamId = `thing-${randomUUID()}`) {
  const id = randomUUID();
  const { position } = await store.appendToStream(streamId, [{ id, type, data }], {
    expectedRevision: 'any',
  });
  return { id, position };
}

const relayWith = (publisher: EventBusPublisher, batchSize?: number) =>
  new EventRelay({ pool: db.pool, store, publisher, logger, batchSize });

describe('the Kafka relay', () => {
  it('publishes the log in order without the secret-bearing events, and moves its checkpoint past all', async () => {
    const publisher = new RecordingPublisher();
    const relay = relayWith(publisher, 2);
    const a = await append('NoteAdded', { n: 1 });
    await append('UserMfaEnabled', { userId: 'u', secret: 'JBSWY3DPEHPK3PXP' });
    const b = await append('MerchantAdded', { n: 2 });
    await append('UserPasswordChanged', { userId: 'u', passwordHash: '$argon2id$...' });
    const last = await append('UserApiKeyRegenerated', { userId: 'u', keyHash: 'h' });
    expect(await relay.catchUp()).toBe(2);
    expect(publisher.published.map((e) => e.id)).toEqual([a.id, b.id]);
    expect(JSON.stringify(publisher.published.map((e) => e.data))).not.toMatch(/JBSWY3DPEHPK3PXP|argon2id/);
    // The last event was left out, and still the relay will not read it again.
    expect(await relay.readCheckpoint()).toBe(last.position);
    expect(await relay.catchUp()).toBe(0);
  });

  it('keeps its checkpoint when the broker is unreachable, and publishes the batch once it is back', async () => {
    const publisher = new RecordingPublisher();
    const first = await append('NoteAdded');
    await relayWith(publisher).catchUp();
    const before = await relayWith(publisher).readCheckpoint();
    expect(before).toBe(first.position);

    const c = await append('NoteAdded');
    const d = await append('NoteUpdated');
    publisher.unreachable = 1;
    await expect(relayWith(publisher).catchUp()).rejects.toThrow(/unreachable/);
    expect(await relayWith(publisher).readCheckpoint()).toBe(before);

    // A relay started again (after a restart) goes on from the checkpoint.
    await relayWith(publisher).catchUp();
    expect(publisher.published.map((e) => e.id)).toEqual([first.id, c.id, d.id]);
    expect(await relayWith(publisher).readCheckpoint()).toBe(d.position);
  });

  it('publishes a batch again when the acknowledgement was lost: at least once, so duplicates reach consumers', async () => {
    const publisher = new RecordingPublisher();
    const c = await append('NoteAdded');
    const d = await append('NoteUpdated');
    publisher.lostAcks = 1;
    await expect(relayWith(publisher).catchUp()).rejects.toThrow(/acknowledgement/);
    await relayWith(publisher).catchUp();
    expect(publisher.published.map((e) => e.id)).toEqual([c.id, d.id, c.id, d.id]);
  });

  it('never moves its checkpoint backwards (a second relay lagging behind)', async () => {
    const publisher = new RecordingPublisher();
    const old = await append('NoteAdded');
    const newer = await append('NoteAdded');
    const events = await store.readAll({
      fromPosition: await relayWith(publisher).readCheckpoint(),
      maxCount: 10,
    });
    await relayWith(publisher).relay(events);
    expect(await relayWith(publisher).readCheckpoint()).toBe(newer.position);
    await relayWith(publisher).relay(events.filter((e) => e.id === old.id));
    expect(await relayWith(publisher).readCheckpoint()).toBe(newer.position);
  });

  it('running, publishes an append within moments, outlives an unreachable broker, and closes its publisher', async () => {
    const publisher = new RecordingPublisher();
    const relay = relayWith(publisher);
    relay.start();
    try {
      const a = await append('NoteAdded');
      await expect
        .poll(() => publisher.published.map((e) => e.id), { timeout: 5000, interval: 20 })
        .toEqual([a.id]);
      publisher.unreachable = 1;
      const b = await append('NoteAdded');
      // Retried after a back-off of a second.
      await expect
        .poll(() => publisher.published.map((e) => e.id), { timeout: 5000, interval: 50 })
        .toEqual([a.id, b.id]);
      await expect.poll(() => relay.readCheckpoint()).toBe(b.position);
    } finally {
      await relay.stop();
    }
    expect(publisher.closed).toBe(true);
  });
});
