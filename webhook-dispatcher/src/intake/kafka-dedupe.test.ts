import { randomUUID } from 'node:crypto';
import {
  createLogger,
  ManualClock,
  type Position,
  type PostgresEventStore,
  type RecordedEvent,
  withTransaction,
} from '@mrn/platform';
import type { TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHECKPOINT_NAME, WebhookDispatcher } from '../dispatcher.ts';
import {
  addMerchant,
  addNote,
  closeDispatcherDatabase,
  openAccount,
  openDispatcherDatabase,
  RecordingMailer,
  randomEin,
  watch,
} from '../test-helpers.ts';
import { claimUnseen } from './kafka-dedupe.ts';

// The Kafka path's de-duplication, without a broker (none can run here): events are handed to the
// dispatcher the way the consumer hands them, from the real log on a real PostgreSQL.
let db: TestDatabase;
let store: PostgresEventStore;
const logger = createLogger('silent');

beforeAll(async () => {
  ({ db, store } = await openDispatcherDatabase());
});
afterAll(() => closeDispatcherDatabase({ db, store }));
beforeEach(async () => {
  await db.pool.query('truncate webhook_deliveries, webhook_attempts');
});

const dispatcher = () =>
  new WebhookDispatcher({
    pool: db.pool,
    store,
    mailer: new RecordingMailer(),
    clock: new ManualClock(new Date()),
    logger,
    publicUrl: 'https://mrn.example',
    allowLoopback: true,
  });

const since = (from: Position) => store.readAll({ fromPosition: from, maxCount: 1000 });
const deliveries = async () =>
  (
    await db.pool.query<{ target: string; event_id: string }>(
      'select target, event_id from webhook_deliveries',
    )
  ).rows;

const fakeEvent = (): RecordedEvent => ({
  id: randomUUID(),
  streamId: 'thing-1',
  revision: 0n,
  position: `${'0'.repeat(15)}1-${'0'.repeat(15)}1`,
  type: 'NoteAdded',
  data: {},
  metadata: {},
  recordedAt: new Date(),
});

describe('claimUnseen', () => {
  it('gives each event once, in order, even when it comes twice in one batch', async () => {
    const [a, b, c] = [fakeEvent(), fakeEvent(), fakeEvent()];
    const first = await withTransaction(db.pool, (tx) => claimUnseen(tx, [b!, a!, b!]));
    expect(first.map((e) => e.id)).toEqual([b!.id, a!.id]);
    const second = await withTransaction(db.pool, (tx) => claimUnseen(tx, [a!, c!, b!]));
    expect(second.map((e) => e.id)).toEqual([c!.id]);
  });

  it('forgets what a rolled-back batch claimed: the redelivered batch is applied then', async () => {
    const events = [fakeEvent(), fakeEvent()];
    await expect(
      withTransaction(db.pool, async (tx) => {
        await claimUnseen(tx, events);
        throw new Error('the batch failed half way');
      }),
    ).rejects.toThrow(/half way/);
    const again = await withTransaction(db.pool, (tx) => claimUnseen(tx, events));
    expect(again).toHaveLength(2);
  });

  it('gives an event to only one of two consumers claiming it at once (a rebalance)', async () => {
    const events = Array.from({ length: 20 }, fakeEvent);
    const [x, y] = await Promise.all([
      withTransaction(db.pool, (tx) => claimUnseen(tx, events)),
      withTransaction(db.pool, (tx) => claimUnseen(tx, [...events].reverse())),
    ]);
    expect(x.length + y.length).toBe(20);
    expect(new Set([...x, ...y].map((e) => e.id)).size).toBe(20);
  });
});

describe('events delivered at least once (the Kafka path)', () => {
  it('a redelivered batch enqueues nothing twice', async () => {
    const d = dispatcher();
    try {
      const from = await store.headPosition();
      const fein = randomEin();
      const watcher = await openAccount(store, 'Watcher', { webhook: 'https://hooks.example/a' });
      const actor = await openAccount(store, 'Actor');
      const merchantId = await addMerchant(store, actor, fein);
      await watch(store, watcher, fein);
      await addNote(store, actor, merchantId);
      const events = await since(from);
      expect(await d.applyDelivered(events)).toBe(1); // the note (Merchant Added came before the watch)
      expect(await d.applyDelivered(events)).toBe(0);
      // A consumer that crashed before committing reads a suffix again, with new events behind it.
      await addNote(store, actor, merchantId);
      const more = await since(from);
      expect(await d.applyDelivered([...events.slice(3), ...more.slice(events.length)])).toBe(1);
      expect(await deliveries()).toHaveLength(2);
    } finally {
      await d.stop();
    }
  });

  it('an old event delivered again after newer ones does not undo them (a second relay lagging behind)', async () => {
    const d = dispatcher();
    try {
      const from = await store.headPosition();
      const fein = randomEin();
      const watcher = await openAccount(store, 'Watcher', { webhook: 'https://hooks.example/old' });
      const actor = await openAccount(store, 'Actor');
      await watch(store, watcher, fein);
      const merchantId = await addMerchant(store, actor, fein);
      const first = await since(from);
      await d.applyDelivered(first);
      const mark = await store.headPosition();
      await store.appendToStream(
        `account-${watcher}`,
        [
          {
            id: randomUUID(),
            type: 'AccountUpdated',
            data: {
              accountId: watcher,
              name: 'Watcher',
              website: null,
              primaryContactEmail: `${watcher}@example.com`,
              merchantSubscriptionEnabled: true,
              merchantSubscriptionNotificationEmail: null,
              merchantSubscriptionNotificationWebhook: 'https://hooks.example/new',
            },
          },
        ],
        { expectedRevision: 'any' },
      );
      await d.applyDelivered(await since(mark));
      // A second relay, behind the first, publishes the first batch (the old URL among it) again: it
      // arrives after the change of URL. Read again, it would set the old URL back for the next note.
      await db.pool.query('truncate webhook_deliveries, webhook_attempts');
      expect(await d.applyDelivered(first)).toBe(0);
      const beforeNote = await store.headPosition();
      await addNote(store, actor, merchantId);
      expect(await d.applyDelivered(await since(beforeNote))).toBe(1);
      expect((await deliveries()).map((r) => r.target)).toEqual(['https://hooks.example/new']);
    } finally {
      await d.stop();
    }
  });

  it('skips what the event-store source applied before KAFKA_BROKERS was set, and records only handled types', async () => {
    const d = dispatcher();
    try {
      const from = await store.headPosition();
      // The event-store source was running until now (the tests above fed the other path).
      await db.pool.query(
        `insert into subscription_checkpoints (name, position) values ($1, $2)
         on conflict (name) do update set position = excluded.position`,
        [CHECKPOINT_NAME, from],
      );
      const fein = randomEin();
      const watcher = await openAccount(store, 'Watcher', { webhook: 'https://hooks.example/a' });
      const actor = await openAccount(store, 'Actor');
      await watch(store, watcher, fein);
      await addMerchant(store, actor, fein);
      expect(await d.pump()).toBe(1);
      const history = await since(from);
      // The topic starts with the whole history: nothing of it is sent again.
      expect(await d.applyDelivered(history)).toBe(0);
      const recorded = await db.pool.query(
        'select 1 from webhook_kafka_events where event_id = any($1::uuid[])',
        [history.map((e) => e.id)],
      );
      expect(recorded.rowCount).toBe(0);

      const mark = await store.headPosition();
      await store.appendToStream(
        `thing-${randomUUID()}`,
        [{ id: randomUUID(), type: 'UserSignedIn', data: {} }],
        {
          expectedRevision: 'any',
        },
      );
      const unhandled = await since(mark);
      expect(await d.applyDelivered(unhandled)).toBe(0);
      const none = await db.pool.query('select 1 from webhook_kafka_events where event_id = $1', [
        unhandled[0]!.id,
      ]);
      expect(none.rowCount).toBe(0);
    } finally {
      await d.stop();
    }
  });
});
