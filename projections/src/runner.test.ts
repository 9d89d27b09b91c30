import { randomUUID } from 'node:crypto';
import {
  CheckpointProgress,
  createLogger,
  LeaseLost,
  PgNotifications,
  PostgresEventStore,
  platformMigrations,
  START,
} from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionMigrations } from './migrations.ts';
import { applyEvents, projector } from './projector.ts';
import { applyBatch, ProjectionRunner, readCheckpoint } from './runner.ts';

let db: TestDatabase;
let store: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
  await db.pool.query('create table seen (event_id uuid primary key, type text not null)');
  store = new PostgresEventStore(db.pool, { listenUrl: db.url, pollIntervalMs: 100 });
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

const recording = (name: string, failOn?: string) =>
  projector({
    name,
    tables: ['seen'],
    handlers: {
      AppSettingsChanged: async (tx, e) => {
        if (e.data.dashboardMessage === failOn) throw new Error('boom');
        await tx.query('insert into seen (event_id, type) values ($1, $2)', [e.id, e.type]);
      },
    },
  });

const settings = (message: string) => ({
  id: randomUUID(),
  type: 'AppSettingsChanged',
  data: {
    dashboardMessageEnabled: true,
    dashboardMessageSeverity: 'info',
    dashboardMessageTitle: null,
    dashboardMessage: message,
  },
});

describe('projection runner', () => {
  it('applies a batch and its checkpoint in one transaction: a failure leaves neither', async () => {
    await store.appendToStream('app-settings', [settings('one'), settings('two'), settings('bad')], {
      expectedRevision: 'any',
    });
    const events = await store.readAll({ fromPosition: START, maxCount: 10 });
    await expect(applyBatch(db.pool, recording('failing', 'bad'), events)).rejects.toThrow('boom');
    expect((await db.pool.query('select count(*)::int as n from seen')).rows[0].n).toBe(0);
    expect(await readCheckpoint(db.pool, 'failing')).toBe(START);
  });

  it('tails live appends from its checkpoint and reports when a position is passed', async () => {
    await db.pool.query('truncate seen');
    const runner = new ProjectionRunner({ pool: db.pool, store, logger: createLogger('silent') }, [
      recording('live'),
    ]);
    await runner.start();
    const { position } = await store.appendToStream('app-settings', [settings('three')], {
      expectedRevision: 'any',
    });
    expect(await runner.waitFor(position, ['live'], 5000)).toBe(true);
    expect(await readCheckpoint(db.pool, 'live')).toBe(position);
    const { rows } = await db.pool.query<{ n: number }>('select count(*)::int as n from seen');
    expect(rows[0]!.n).toBe(4);
    await runner.stop();
  });
});

describe('checkpoints of batches a projector has nothing to do with', () => {
  it('are moved for every idle projector at once, and another process hears where they are', async () => {
    const name = `idle-${randomUUID()}`;
    const idle = projector({ name, tables: [], handlers: { NoteArchived: async () => undefined } });
    const runner = new ProjectionRunner({ pool: db.pool, store, logger: createLogger('silent') }, [idle]);
    // A query process: it knows only PostgreSQL.
    const notifications = new PgNotifications(db.url);
    const elsewhere = new CheckpointProgress(db.pool, notifications);
    await runner.start();
    try {
      const first = await store.appendToStream('app-settings', [settings('a')], { expectedRevision: 'any' });
      expect(await runner.waitFor(first.position, [name], 5000)).toBe(true);
      expect(await readCheckpoint(db.pool, name)).toBe(first.position);
      const waiting = elsewhere.waitFor(first.position, [name], 5000);
      const second = await store.appendToStream('app-settings', [settings('b')], { expectedRevision: 'any' });
      expect(await waiting).toBe(true);
      const started = performance.now();
      expect(await elsewhere.waitFor(second.position, [name], 5000)).toBe(true);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(await readCheckpoint(db.pool, name)).toBe(second.position);
      // Nothing passes a position the projector has not reached.
      expect(await elsewhere.waitFor(`${second.position}0`, [name], 200)).toBe(false);
    } finally {
      await runner.stop();
      await notifications.close();
    }
  });
});

describe('two projections processes', () => {
  const counter = (n: string) =>
    projector({
      name: n,
      tables: [],
      handlers: {
        AppSettingsChanged: async (tx, e) => {
          await tx.query('insert into applied_once (projector, event_id) values ($1, $2)', [n, e.id]);
        },
      },
    });

  it('never apply the same batch twice, and a standby takes over when the holder stops', async () => {
    // No primary key: a second application of an event would show as a second row.
    await db.pool.query('create table if not exists applied_once (projector text, event_id uuid)');
    const name = `leased-${randomUUID()}`;
    const logger = createLogger('silent');
    const start = () =>
      new ProjectionRunner({ pool: db.pool, store, logger, leaseUrl: db.url }, [counter(name)]);
    const [a, b] = [start(), start()];
    await Promise.all([a.start(), b.start()]);
    const appends = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.appendToStream(`app-settings-${i}`, [settings(`m${i}`)], { expectedRevision: 'any' }),
      ),
    );
    const last = appends
      .map((r) => r.position)
      .sort()
      .at(-1)!;
    const notifications = new PgNotifications(db.url);
    const progress = new CheckpointProgress(db.pool, notifications);
    expect(await progress.waitFor(last, [name], 5000)).toBe(true);
    await notifications.close();
    const holder = (await a.waitFor(last, [name], 100)) ? a : b;
    await holder.stop();
    const standby = holder === a ? b : a;
    const after = await store.appendToStream('app-settings', [settings('after')], {
      expectedRevision: 'any',
    });
    const started = performance.now();
    expect(await standby.waitFor(after.position, [name], 5000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(5000);
    await standby.stop();
    const { rows } = await db.pool.query<{ n: number; distinct: number }>(
      'select count(*)::int as n, count(distinct event_id)::int as distinct from applied_once where projector = $1',
      [name],
    );
    const total = (await store.readAll({ fromPosition: START, maxCount: 10_000 })).filter(
      (e) => e.type === 'AppSettingsChanged',
    ).length;
    expect(rows[0]).toEqual({ n: total, distinct: total });
  });

  it('a batch of a process whose checkpoint was moved under it rolls back (the fence)', async () => {
    const name = `fenced-${randomUUID()}`;
    await db.pool.query('create table if not exists applied_once (projector text, event_id uuid)');
    const events = await store.readAll({ fromPosition: START, maxCount: 3 });
    await applyBatch(db.pool, counter(name), events.slice(0, 1), START);
    // A second process believing it is still at START:
    await expect(applyBatch(db.pool, counter(name), events.slice(0, 2), START)).rejects.toBeInstanceOf(
      LeaseLost,
    );
    const { rows } = await db.pool.query<{ n: number }>(
      'select count(*)::int as n from applied_once where projector = $1',
      [name],
    );
    expect(rows[0]!.n).toBe(1);
  });
});

describe('one reader for every projector', () => {
  it('feeds projectors at different checkpoints each event once, and a failing one holds back only itself', async () => {
    await db.pool.query(
      'create table if not exists seen_by (projector text, event_id uuid, primary key (projector, event_id))',
    );
    const name = (n: string) => `${n}-${randomUUID()}`;
    const counting = (n: string, failOn?: string) =>
      projector({
        name: n,
        tables: [],
        handlers: {
          AppSettingsChanged: async (tx, e) => {
            if (e.data.dashboardMessage === failOn) throw new Error('boom');
            await tx.query('insert into seen_by (projector, event_id) values ($1, $2)', [n, e.id]);
          },
        },
      });
    const behind = counting(name('behind'));
    const ahead = counting(name('ahead'));
    const failing = counting(name('failing'), 'poison');
    const first = await store.appendToStream('app-settings', [settings('x1'), settings('x2')], {
      expectedRevision: 'any',
    });
    // `ahead` has already applied everything up to `first`.
    await db.pool.query(
      'insert into subscription_checkpoints (name, position, updated_at) values ($1, $2, now())',
      [ahead.name, first.position],
    );
    const logger = createLogger('silent');
    const runner = new ProjectionRunner({ pool: db.pool, store, logger }, [behind, ahead, failing]);
    await runner.start();
    const second = await store.appendToStream('app-settings', [settings('x3'), settings('poison')], {
      expectedRevision: 'any',
    });
    expect(await runner.waitFor(second.position, [behind.name, ahead.name], 5000)).toBe(true);
    expect(await runner.waitFor(second.position, [failing.name], 300)).toBe(false);
    await runner.stop();

    const seen = async (n: string) =>
      (await db.pool.query<{ n: number }>('select count(*)::int as n from seen_by where projector = $1', [n]))
        .rows[0]!.n;
    const total = (await store.readAll({ fromPosition: START, maxCount: 10_000 })).filter(
      (e) => e.type === 'AppSettingsChanged',
    ).length;
    expect(await seen(behind.name)).toBe(total);
    expect(await seen(ahead.name)).toBe(2);
    // The failing projector committed nothing of the batch with the poison event.
    expect(await readCheckpoint(db.pool, failing.name)).not.toBe(second.position);
  });
});

describe('projectors at one cursor', () => {
  it('apply a batch in one transaction, with their checkpoints and the progress notice', async () => {
    await db.pool.query(
      'create table if not exists applied_in (projector text, event_id uuid, tx xid8, primary key (projector, event_id))',
    );
    const inTransaction = (n: string) =>
      projector({
        name: n,
        tables: [],
        handlers: {
          AppSettingsChanged: async (tx, e) => {
            await tx.query('insert into applied_in values ($1, $2, pg_current_xact_id())', [n, e.id]);
          },
        },
      });
    const [one, two] = [inTransaction(`one-${randomUUID()}`), inTransaction(`two-${randomUUID()}`)];
    const head = await store.headPosition();
    for (const p of [one, two])
      await db.pool.query(
        'insert into subscription_checkpoints (name, position, updated_at) values ($1, $2, now())',
        [p.name, head],
      );
    const notifications = new PgNotifications(db.url);
    const elsewhere = new CheckpointProgress(db.pool, notifications);
    const runner = new ProjectionRunner({ pool: db.pool, store, logger: createLogger('silent') }, [one, two]);
    await runner.start();
    try {
      const { position } = await store.appendToStream('app-settings', [settings('t1'), settings('t2')], {
        expectedRevision: 'any',
      });
      expect(await elsewhere.waitFor(position, [one.name, two.name], 5000)).toBe(true);
      const { rows } = await db.pool.query<{ n: number; txs: number }>(
        'select count(*)::int as n, count(distinct tx)::int as txs from applied_in where projector = any($1)',
        [[one.name, two.name]],
      );
      expect(rows[0]).toEqual({ n: 4, txs: 1 });
      expect(await readCheckpoint(db.pool, one.name)).toBe(position);
      expect(await readCheckpoint(db.pool, two.name)).toBe(position);
    } finally {
      await runner.stop();
      await notifications.close();
    }
  });
});

describe("projectors' statements", () => {
  it('are prepared once per connection (named), whatever name-less text a handler sends', async () => {
    await store.appendToStream('app-settings', [settings('prepared')], { expectedRevision: 'any' });
    const events = await store.readAll({ fromPosition: START, maxCount: 10_000 });
    const client = await db.pool.connect();
    try {
      await client.query('begin');
      await applyEvents(recording(`prepared-${randomUUID()}`), client, events.slice(-1));
      const { rows } = await client.query<{ statement: string }>(
        "select statement from pg_prepared_statements where name like 'mrn_projection_%'",
      );
      expect(rows.map((r) => r.statement)).toContain('insert into seen (event_id, type) values ($1, $2)');
      await client.query('rollback');
    } finally {
      client.release();
    }
  });
});
