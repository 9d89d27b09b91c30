import { randomUUID } from 'node:crypto';
import { PostgresEventStore, platformMigrations } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { projector } from '../projector.ts';
import { expectRebuildEqualsIncremental } from './replay-equality.ts';

// The helper every projector's replay test relies on must itself fail on one differing row.

let db: TestDatabase;
let store: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
  store = new PostgresEventStore(db.pool);
  await db.pool.query('create table helper_rows (message text primary key, batch_size int not null)');
  await store.appendToStream(
    'app-settings',
    ['a', 'b', 'c', 'd', 'e', 'f'].map((message) => ({
      id: randomUUID(),
      type: 'AppSettingsChanged',
      data: {
        dashboardMessageEnabled: true,
        dashboardMessageSeverity: 'info',
        dashboardMessageTitle: null,
        dashboardMessage: message,
      },
    })),
    { expectedRevision: 'any' },
  );
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

/** Writes each message with either 1 or the size of the batch it came in. */
const rows = (name: string, recordBatchSize: boolean) =>
  projector({
    name,
    tables: ['helper_rows'],
    bulk: {
      order: ['AppSettingsChanged'],
      handlers: {
        AppSettingsChanged: async (tx, events) => {
          for (const e of events) {
            await tx.query('insert into helper_rows (message, batch_size) values ($1, $2)', [
              e.data.dashboardMessage,
              recordBatchSize && e.data.dashboardMessage === 'f' ? events.length : 1,
            ]);
          }
        },
      },
    },
  });

describe('expectRebuildEqualsIncremental', () => {
  it('passes for a projector whose rows do not depend on how the log was batched', async () => {
    await db.pool.query('truncate helper_rows');
    const result = await expectRebuildEqualsIncremental({ pool: db.pool, store }, rows('steady', false));
    expect(result.helper_rows).toHaveLength(6);
  });

  it('fails when one column of one row differs between live batches and a rebuild', async () => {
    await db.pool.query('truncate helper_rows');
    // Same number of rows both ways; only the batch size written for 'f' differs.
    await expect(
      expectRebuildEqualsIncremental({ pool: db.pool, store }, rows('batch-dependent', true)),
    ).rejects.toThrow();
  });
});
