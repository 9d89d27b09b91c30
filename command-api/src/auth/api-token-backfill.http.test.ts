import { routes, streams } from '@mrn/contracts';
import { createLogger, PostgresEventStore } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { allMigrations, type RunningServer, startServer, testConfig } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../credentials/tokens.ts';
import { type LegacyGrants, seedLegacyGrants } from './test-legacy-api-grants.ts';

// Issue 22 item 4: a database from before API tokens were reserved. The product starts on it, reserves
// the tokens still current from the log in the background, and POST /api/v2/token accepts them with
// no read model holding them (the token check used to fall back on read.users).

let db: TestDatabase;
let server: RunningServer;
let grants: LegacyGrants;

beforeAll(async () => {
  db = await createTestDatabase(allMigrations());
  grants = await seedLegacyGrants(new PostgresEventStore(db.pool));
  server = await startServer(testConfig(db.url), { logger: createLogger('silent'), listen: false });
  // From here on no read model moves, and none holds an API token.
  await server.projections.stop();
  await db.pool.query('update read.users set api_token = null, api_granted = false');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

const tokenFor = (token: string, key: string) =>
  server.app.inject({
    method: 'POST',
    url: routes.getApiToken.path,
    payload: { auth: { authentication_token: token, authentication_key: key } },
  });

const typesIn = async (streamId: string) => {
  const out: string[] = [];
  for await (const e of server.store.readStream(streamId)) out.push(e.type);
  return out;
};

describe('API tokens granted before tokens were reserved', () => {
  it('work at start, while the backfill may still be running, and are reserved by it', async () => {
    const { granted, regenerated } = grants;
    expect((await tokenFor(granted.token, granted.key)).statusCode).toBe(200);
    expect((await tokenFor(regenerated.token, regenerated.key)).statusCode).toBe(200);
    expect(await typesIn(streams.apiToken(hashSecret(granted.token)))).toEqual(['ApiTokenAssigned']);
    expect(await typesIn(streams.apiTokenBackfill())).toEqual(['ApiTokensBackfilled']);
  });

  it('are refused once ended before the backfill: a replaced key, a revoked token', async () => {
    const { regenerated, revoked, regranted } = grants;
    expect((await tokenFor(regenerated.token, regenerated.oldKey)).statusCode).toBe(401);
    expect((await tokenFor(revoked.token, revoked.key)).statusCode).toBe(401);
    expect((await tokenFor(regranted.oldToken, regranted.key)).statusCode).toBe(401);
    expect((await tokenFor(regranted.token, regranted.key)).statusCode).toBe(200);
  });
});
