import { setTimeout as sleep } from 'node:timers/promises';
import { streams } from '@mrn/contracts';
import {
  createLogger,
  DomainError,
  type EventStore,
  PostgresEventStore,
  platformMigrations,
  systemClock,
} from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { hashSecret } from '../credentials/tokens.ts';
import { verifyApiCredentials } from './api-credentials.ts';
import { backfillApiTokens, startApiTokenBackfill } from './api-token-backfill.ts';
import { type LegacyGrants, seedLegacyGrants } from './test-legacy-api-grants.ts';

// Issue 22 item 4: the token check decides from the token's reservation and the user's stream, with no
// read model to fall back on; tokens granted before reservations get theirs from the log, once.

const databases: TestDatabase[] = [];
const stores: PostgresEventStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  for (const db of databases) await db.drop();
});

/** A database of its own holding a log from before reservations (`seedLegacyGrants`). */
async function legacyLog(): Promise<{ store: PostgresEventStore; grants: LegacyGrants }> {
  const db = await createTestDatabase(platformMigrations());
  databases.push(db);
  const store = new PostgresEventStore(db.pool);
  stores.push(store);
  return { store, grants: await seedLegacyGrants(store) };
}

const deps = (store: EventStore) => ({ store, clock: systemClock, logger: createLogger('silent') });

async function typesIn(store: EventStore, streamId: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of store.readStream(streamId)) out.push(`${e.type} ${JSON.stringify(e.data)}`);
  return out;
}
const reservation = (store: EventStore, token: string) => typesIn(store, streams.apiToken(hashSecret(token)));
const assigned = (userId: string) => `ApiTokenAssigned ${JSON.stringify({ userId })}`;

const verifies = (store: EventStore, c: { token: string; key: string }) =>
  verifyApiCredentials({ store }, c.token, c.key).then(
    (user) => user.userId,
    (error: unknown) => (error instanceof DomainError ? error.kind : error),
  );

describe('the API token backfill', () => {
  it('reserves each current token once when processes run it at once; ended tokens stay unreserved', async () => {
    const { store, grants } = await legacyLog();
    const { granted, regenerated, revoked, regranted } = grants;
    // Without a reservation and with no backfill running, a token is not found: no read model is asked.
    expect(await verifies(store, granted)).toBe('unauthorized');

    const runs = await Promise.all(Array.from({ length: 4 }, () => backfillApiTokens(deps(store))));
    // A run that found the backfill recorded (another run finished first) answers null.
    expect(runs).toContain(3);
    for (const run of runs) expect([3, null]).toContain(run);

    expect(await reservation(store, granted.token)).toEqual([assigned(granted.userId)]);
    expect(await reservation(store, regenerated.token)).toEqual([assigned(regenerated.userId)]);
    expect(await reservation(store, regranted.token)).toEqual([assigned(regranted.userId)]);
    expect(await reservation(store, revoked.token)).toEqual([]);
    expect(await reservation(store, regranted.oldToken)).toEqual([]);
    expect(await typesIn(store, streams.apiTokenBackfill())).toEqual([
      `ApiTokensBackfilled ${JSON.stringify({ found: 3 })}`,
    ]);

    expect(await verifies(store, granted)).toBe(granted.userId);
    expect(await verifies(store, regenerated)).toBe(regenerated.userId);
    expect(await verifies(store, regranted)).toBe(regranted.userId);
    expect(await verifies(store, { token: regenerated.token, key: regenerated.oldKey })).toBe('unauthorized');
    expect(await verifies(store, revoked)).toBe('unauthorized');
    expect(await verifies(store, { token: regranted.oldToken, key: regranted.key })).toBe('unauthorized');
  });

  it('a later start finds the backfill recorded and reads nothing of the log', async () => {
    const { store } = await legacyLog();
    expect(await backfillApiTokens(deps(store))).toBe(3);
    const readAll = vi.spyOn(store, 'readAll');
    expect(await backfillApiTokens(deps(store))).toBeNull();
    expect(readAll).not.toHaveBeenCalled();
  });

  it('while the backfill runs, the token check waits for it rather than refuse a token granted before', async () => {
    const { store, grants } = await legacyLog();
    // The scan of the log is held until the test lets it go.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: EventStore = {
      appendToStream: (...args) => store.appendToStream(...args),
      appendMany: (batch) => store.appendMany(batch),
      readStream: (streamId, opts) => store.readStream(streamId, opts),
      readAll: async (opts) => {
        await held;
        return store.readAll(opts);
      },
      subscribeToAll: (opts) => store.subscribeToAll(opts),
      headPosition: () => store.headPosition(),
      close: () => store.close(),
    };
    const backfill = startApiTokenBackfill(deps(slow));
    let answered = false;
    const verifying = verifies(slow, grants.granted).finally(() => {
      answered = true;
    });
    await sleep(200);
    expect(answered).toBe(false);
    release();
    expect(await verifying).toBe(grants.granted.userId);
    await backfill.stop();
    // Once it has run, a token with no reservation is refused at once.
    expect(await verifies(slow, grants.revoked)).toBe('unauthorized');
  });
});
