import { API_TEXTS, buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// API credentials are something a user was just given: they must work at once, whatever a read model
// has applied (issue 20, item 5: the token check read `read.users`, 401 about one time in five), one
// grant wins when several are sent together, and a regenerated key ends the old key's tokens.

let server: TestServer;
let admin = '';
let dana = '';
let summit = '';
const members: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ demo: true, env: { RATE_LIMIT_TOKEN_PER_MINUTE: '1000' } });
  admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: dana });
  summit = me.body.data.user.account_resource_id;
  for (const n of [1, 2, 3]) {
    const created = await server.call({
      method: 'POST',
      url: buildPath(routes.createUser.path, { id: summit }),
      token: dana,
      payload: {
        user: { first_name: 'Api', last_name: `User ${n}`, email: `api.user${n}@summitcapital.example` },
      },
    });
    expect(created.status).toBe(201);
    members.push(created.body.data.resource_id);
  }
  const granted = await server.call({
    method: 'PUT',
    url: buildPath(routes.grantAccountApiAccess.path, { id: summit }),
    token: admin,
  });
  expect(granted.status).toBe(200);
  expect(await server.projectedAll(undefined, 20_000)).toBe(true);
  // From here on no read model moves: whatever works below works from the event store alone.
  await server.projections.stop();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

type Credentials = { authentication_token: string; authentication_key: string };
const put = (route: { path: string }, id: string) =>
  server.app.inject({
    method: 'PUT',
    url: buildPath(route.path, { id }),
    headers: { authorization: `Bearer ${dana}` },
  });
const tokenFor = (auth: Credentials) =>
  server.app.inject({ method: 'POST', url: routes.getApiToken.path, payload: { auth } });
const search = (token: string) =>
  server.app.inject({
    method: 'GET',
    url: buildPath(routes.partnerSearchMerchants.path, { key: '123456789' }),
    headers: { authorization: `Bearer ${token}` },
  });

describe('API credentials', () => {
  it('of ten grants sent at once, one wins, and its credentials work at once with no read model moving', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => put(routes.grantUserApiAccess, members[0]!)),
    );
    const won = answers.filter((a) => a.statusCode === 200);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((a) => a.statusCode !== 200)) {
      expect(lost.statusCode).toBe(409);
      expect(lost.json().errors).toBe(
        'This member already has API access. Regenerate the key to issue a new one.',
      );
    }
    const credentials = won[0]!.json().data as Credentials;
    const tokens = await Promise.all(Array.from({ length: 10 }, () => tokenFor(credentials)));
    for (const t of tokens) expect(t.statusCode).toBe(200);
    const found = await search(tokens[0]!.json().data.token);
    expect([200, 404]).toContain(found.statusCode);
    expect(found.json().errors.map((e: { message: string }) => e.message)).not.toContain(
      API_TEXTS.accessRevoked,
    );
  });

  it('a regenerated key ends the tokens issued under the old one, at once; the new key works at once', async () => {
    const granted = (await put(routes.grantUserApiAccess, members[1]!)).json().data as Credentials;
    const oldToken = (await tokenFor(granted)).json().data.token as string;
    expect((await search(oldToken)).statusCode).not.toBe(401);
    const regenerated = await put(routes.regenerateApiKey, members[1]!);
    expect(regenerated.statusCode).toBe(200);
    const fresh = regenerated.json().data as Credentials;
    expect(fresh.authentication_token).toBe(granted.authentication_token);
    const refused = await search(oldToken);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors[0].message).toBe(API_TEXTS.accessRevoked);
    expect((await tokenFor(granted)).statusCode).toBe(401);
    const newToken = await tokenFor(fresh);
    expect(newToken.statusCode).toBe(200);
    expect((await search(newToken.json().data.token)).statusCode).not.toBe(401);
  });

  it('of regenerations sent at once, exactly one key works', async () => {
    await put(routes.grantUserApiAccess, members[2]!);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => put(routes.regenerateApiKey, members[2]!)),
    );
    const issued = answers.filter((a) => a.statusCode === 200).map((a) => a.json().data as Credentials);
    expect(issued.length).toBeGreaterThanOrEqual(1);
    for (const a of answers) expect([200, 409]).toContain(a.statusCode);
    const working = [];
    for (const credentials of issued)
      if ((await tokenFor(credentials)).statusCode === 200) working.push(credentials);
    expect(working).toHaveLength(1);
  });

  it('revoking a member’s API access ends their tokens at once', async () => {
    const credentials = (await put(routes.regenerateApiKey, members[0]!)).json().data as Credentials;
    const token = (await tokenFor(credentials)).json().data.token as string;
    expect((await put(routes.revokeUserApiAccess, members[0]!)).statusCode).toBe(200);
    const refused = await search(token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors[0].message).toBe(API_TEXTS.accessRevoked);
    expect((await tokenFor(credentials)).statusCode).toBe(401);
  });
});

describe('an archived funder', () => {
  it("ends its members' dashboard sessions and API tokens at once, on a data route, with no read model moving", async () => {
    const granted = (await put(routes.grantUserApiAccess, members[1]!)).statusCode;
    expect([200, 409]).toContain(granted);
    const credentials = (await put(routes.regenerateApiKey, members[1]!)).json().data as Credentials;
    const apiToken = (await tokenFor(credentials)).json().data.token as string;
    const recent = () =>
      server.app.inject({
        method: 'GET',
        url: routes.recentNotes.path,
        headers: { authorization: `Bearer ${dana}` },
      });
    expect((await recent()).statusCode).toBe(200);
    expect((await search(apiToken)).statusCode).not.toBe(401);
    const archived = await server.app.inject({
      method: 'PUT',
      url: buildPath(routes.archiveAccount.path, { id: summit }),
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(archived.statusCode).toBe(200);
    expect((await recent()).statusCode).toBe(401);
    expect((await search(apiToken)).statusCode).toBe(401);
    expect((await tokenFor(credentials)).statusCode).toBe(401);
  });
});
