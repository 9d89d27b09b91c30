import { randomUUID } from 'node:crypto';
import { createLogger, PostgresEventStore, platformMigrations, START } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projector } from './projector.ts';
import { applyBatch, ProjectionRunner, readCheckpoint } from './runner.ts';

let db: TestDatabase;
let store: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase(platformMigrations());
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
  it('moves the cursor at once but writes the checkpoint only now and then', async () => {
    const name = `idle-${randomUUID()}`;
    const idle = projector({ name, tables: [], handlers: { NoteArchived: async () => undefined } });
    const runner = new ProjectionRunner({ pool: db.pool, store, logger: createLogger('silent') }, [idle]);
    await runner.start();
    // The first batch is written (nothing written yet), later irrelevant ones within 5 s are not.
    const first = await store.appendToStream('app-settings', [settings('a')], { expectedRevision: 'any' });
    expect(await runner.waitFor(first.position, [name], 5000)).toBe(true);
    const second = await store.appendToStream('app-settings', [settings('b')], { expectedRevision: 'any' });
    expect(await runner.waitFor(second.position, [name], 5000)).toBe(true);
    const stored = await readCheckpoint(db.pool, name);
    expect(stored < second.position).toBe(true);
    await runner.stop();
  });
});
