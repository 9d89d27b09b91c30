import { createTestDatabase } from '../testing.ts';
import { eventStoreContract } from './contract.ts';
import { PostgresEventStore } from './postgres-event-store.ts';

eventStoreContract('Postgres', async () => {
  const db = await createTestDatabase();
  const store = new PostgresEventStore(db.pool, { listenUrl: db.url, pollIntervalMs: 200 });
  return {
    store,
    dispose: async () => {
      await store.close();
      await db.drop();
    },
  };
});
