import { API_TEXTS, buildPath, routes } from '@mrn/contracts';
import { encodePosition, type Pool, START } from '@mrn/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo.ts';
import { SANDBOX_FUNDER, SANDBOX_MERCHANT, SANDBOX_NOTES } from '../sandbox/seed.ts';
import { startTestServer, TEST_ADMIN, type TestServer } from '../testing.ts';

// The partner API's sandbox (DESIGN §4, accounts spec §7) over the real product and real Postgres:
// `test_` credentials reach a database of its own, at the sandbox base address and on the
// production one, and nothing written on either side is ever seen on the other.

let server: TestServer;
let admin = '';
let dana = '';
let summit = '';
let danaUser = '';
let production = { authentication_token: '', authentication_key: '' };
let sandboxCredentials = { authentication_token: '', authentication_key: '' };

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: dana });
  summit = me.body.data.user.account_resource_id;
  danaUser = me.body.data.user.resource_id;
  const account = await server.call({
    method: 'PUT',
    url: buildPath(routes.grantAccountApiAccess.path, { id: summit }),
    token: admin,
  });
  expect(account.status).toBe(200);
  const user = await server.call({
    method: 'PUT',
    url: buildPath(routes.grantUserApiAccess.path, { id: danaUser }),
    token: dana,
  });
  expect(user.status).toBe(200);
  production = user.body.data;
  sandboxCredentials = {
    authentication_token: `test_${production.authentication_token}`,
    authentication_key: `test_${production.authentication_key}`,
  };
  expect(await server.projectedAll(undefined, 20_000)).toBe(true);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** A partner call, straight through the production app (no remembered consistency position). */
const api = async (method: 'GET' | 'POST', url: string, token?: string, payload?: object) => {
  const res = await server.app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
};
const tokenAt = async (base: '' | '/sandbox', auth: object) =>
  api('POST', `${base}${routes.getApiToken.path}`, undefined, { auth });
const sandboxToken = async (base: '' | '/sandbox' = '') => {
  const res = await tokenAt(base, sandboxCredentials);
  expect(res.status).toBe(200);
  return res.body.data.token as string;
};
const productionToken = async () => {
  const res = await tokenAt('', production);
  expect(res.status).toBe(200);
  return res.body.data.token as string;
};
const searchPath = (key: string) => buildPath(routes.partnerSearchMerchants.path, { key });
const sandboxPool = (): Pool => server.sandbox.current!.pool;
/**
 * Waits until the sandbox's read models hold everything written to it: the newest committed event's own
 * position, not the store's head, which stops before any transaction still open (a batch of the
 * sandbox's own consumers) and so can leave out the event just written (seen once in CI).
 */
const sandboxSettled = async () => {
  const runtime = server.sandbox.current!;
  const { rows } = await runtime.pool.query<{ tx: string; position: string }>(
    'select transaction_id::text as tx, position from events order by transaction_id desc, position desc limit 1',
  );
  const last = rows[0] ? encodePosition(rows[0].tx, rows[0].position) : START;
  expect(await runtime.projections.waitFor(last, undefined, 10_000)).toBe(true);
};
const productionSettled = async () => expect(await server.projectedAll(undefined, 10_000)).toBe(true);
const count = async (pool: Pool, sql: string, values: unknown[] = []) =>
  (await pool.query<{ n: number }>(`select count(*)::int as n from ${sql}`, values)).rows[0]!.n;

describe('before first use', () => {
  it('no sandbox database exists until a partner calls it; resetting it then creates nothing', async () => {
    const exists = async () =>
      count(server.db.pool, 'pg_database where datname = $1', [
        `${new URL(server.databaseUrl).pathname.slice(1)}_sandbox`,
      ]);
    expect(server.sandbox.current).toBeNull();
    const reset = await server.call({ method: 'POST', url: routes.resetSandbox.path, token: admin });
    expect(reset.status).toBe(200);
    expect(reset.body.data.merchant_fein).toBe(SANDBOX_MERCHANT.fein);
    expect(await exists()).toBe(0);
    await sandboxToken();
    expect(await exists()).toBe(1);
  });
});

describe('tokens', () => {
  it('test_ credentials get a sandbox token on the production base and at /sandbox', async () => {
    const sessions = () => count(sandboxPool(), 'auth_sessions where user_id = $1', [danaUser]);
    const before = await sessions();
    for (const base of ['', '/sandbox'] as const) {
      const res = await tokenAt(base, sandboxCredentials);
      expect(res.status).toBe(200);
      expect(res.body.errors).toEqual([]);
      const claims = JSON.parse(Buffer.from(res.body.data.token.split('.')[1], 'base64url').toString());
      expect(claims).toMatchObject({ iss: 'mrn-sandbox', sub: danaUser, acc: summit, knd: 'api' });
    }
    // The funder and user were mirrored into the sandbox, with the production ids; the session is there.
    expect(await count(sandboxPool(), 'read.users where id = $1', [danaUser])).toBe(1);
    expect(await sessions()).toBe(before + 2);
    // A repeated token request mirrors nothing again.
    expect(await count(sandboxPool(), `events where stream_id = $1`, [`account-${summit}`])).toBe(2);
  });

  it('wrong test_ credentials are a 401, at either base; production credentials open nothing at /sandbox', async () => {
    for (const base of ['', '/sandbox'] as const) {
      for (const auth of [
        { ...sandboxCredentials, authentication_key: 'test_wrong' },
        { ...sandboxCredentials, authentication_token: 'test_mrn_unknown' },
      ]) {
        const res = await tokenAt(base, auth);
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({
          data: null,
          errors: [{ field: null, message: API_TEXTS.badCredentials }],
        });
      }
    }
    const plain = await tokenAt('/sandbox', production);
    expect(plain.status).toBe(401);
    expect(plain.body.errors[0].message).toBe(API_TEXTS.badCredentials);
  });

  it('a production token is refused at /sandbox, a sandbox token never drives production', async () => {
    const prod = await productionToken();
    const refused = await api('GET', `/sandbox${searchPath(SANDBOX_MERCHANT.fein)}`, prod);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ data: null, errors: [{ message: API_TEXTS.tokenExpired }] });
    // A production-signed token claiming the sandbox as issuer is routed there and refused by its key.
    const claims = server.app.jwt.decode<Record<string, unknown>>(prod)!;
    const { exp: _e, iat: _i, ...rest } = claims;
    const forged = server.app.jwt.sign({ ...rest, iss: 'mrn-sandbox' }, { expiresIn: 600 });
    expect((await api('GET', searchPath(SANDBOX_MERCHANT.fein), forged)).status).toBe(401);

    const sandbox = await sandboxToken();
    // The dashboard API, on production and at the sandbox base alike.
    const dashboard = await server.app.inject({
      method: 'GET',
      url: `${routes.searchMerchants.path}?search=451234567`,
      headers: { authorization: `Bearer ${sandbox}` },
    });
    expect(dashboard.statusCode).toBe(401);
    const sandboxDashboard = await api(
      'GET',
      `/sandbox${routes.searchMerchants.path}?search=451234567`,
      sandbox,
    );
    expect(sandboxDashboard.status).toBe(404);
    // A production merchant (demo data) does not exist for the sandbox token.
    expect((await api('GET', searchPath('451234567'), sandbox)).status).toBe(404);
    expect((await api('GET', searchPath('451234567'), prod)).status).toBe(200);
  });
});

describe('over real HTTP', () => {
  it('forwards bodies, the bare token and the answer’s headers both ways into the sandbox', async () => {
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const post = (path: string, body: object, authorization?: string) =>
      fetch(`${address}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(body),
      });
    const issued = await post(`/sandbox${routes.getApiToken.path}`, { auth: sandboxCredentials });
    expect(issued.status).toBe(200);
    const token = ((await issued.json()) as { data: { token: string } }).data.token;
    // On the production base, the bare form of the token, as older integrations send it.
    const note = await post(
      routes.partnerAddMerchant.path,
      {
        fein: '987650009',
        legal_name: 'Over HTTP LLC',
        city: 'Reno',
        state: 'NV',
        note_category: 'Other',
        note: 'Sent over HTTP to the sandbox.',
      },
      token,
    );
    expect(note.status).toBe(201);
    expect(note.headers.get('content-type')).toContain('application/json');
    expect(note.headers.get('x-content-type-options')).toBe('nosniff');
    expect(note.headers.get('ratelimit-limit')).not.toBeNull();
    expect(await count(sandboxPool(), `events where data->>'note' = 'Sent over HTTP to the sandbox.'`)).toBe(
      1,
    );
    expect(await count(server.db.pool, `events where data->>'note' = 'Sent over HTTP to the sandbox.'`)).toBe(
      0,
    );
    const tooBig = await post(
      `/sandbox${routes.partnerAddNote.path}`,
      { note: 'x'.repeat(1_100_000) },
      token,
    );
    expect(tooBig.status).toBe(413);
  });
});

describe('data', () => {
  it('the sandbox holds merchant 01-0000001 with its notes; production does not', async () => {
    for (const base of ['', '/sandbox'] as const) {
      const token = await sandboxToken(base);
      const res = await api('GET', `${base}${searchPath('01-0000001')}`, token);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0]).toMatchObject({
        fein: SANDBOX_MERCHANT.fein,
        legal_name: SANDBOX_MERCHANT.legalName,
      });
      expect(res.body.data[0].notes.map((n: { note_category: string }) => n.note_category).sort()).toEqual(
        SANDBOX_NOTES.map((n) => n.category).sort(),
      );
    }
    expect((await api('GET', searchPath('010000001'), await productionToken())).status).toBe(404);
    // The searches were recorded where they were made: in the sandbox, with source api.
    expect(await count(sandboxPool(), `search_log where term like '%0000001'`)).toBeGreaterThan(0);
    expect(
      await count(
        server.db.pool,
        `search_log where account_id = $1 and term like '%0000001' and source = 'api'`,
        [summit],
      ),
    ).toBe(1);
  });

  it('a merchant and a note added through the sandbox never reach production, and the reverse', async () => {
    const sandbox = await sandboxToken();
    const prod = await productionToken();
    const added = await api('POST', routes.partnerAddMerchant.path, sandbox, {
      fein: '987650001',
      legal_name: 'Only In Sandbox LLC',
      city: 'Reno',
      state: 'NV',
      note_category: 'Slow Pay',
      note: 'Sandbox-only note.',
    });
    expect(added.status).toBe(201);
    const note = await api('POST', `/sandbox${routes.partnerAddNote.path}`, sandbox, {
      fein: SANDBOX_MERCHANT.fein,
      note_category: 'Other',
      note: 'Another sandbox-only note.',
    });
    expect(note.status).toBe(201);
    const prodAdded = await api('POST', routes.partnerAddMerchant.path, prod, {
      fein: '987650002',
      legal_name: 'Only In Production LLC',
      city: 'Boise',
      state: 'ID',
      note_category: 'Default',
      note: 'Production-only note.',
    });
    expect(prodAdded.status).toBe(201);
    await sandboxSettled();
    await productionSettled();

    // Production: neither the sandbox's events nor its rows.
    for (const fein of ['987650001', SANDBOX_MERCHANT.fein]) {
      expect(await count(server.db.pool, `events where data->>'fein' = $1`, [fein])).toBe(0);
      expect(await count(server.db.pool, 'read.merchants where fein = $1', [fein])).toBe(0);
    }
    expect(await count(server.db.pool, `events where data->>'note' like '%sandbox-only note.'`)).toBe(0);
    expect(await count(server.db.pool, `read.notes where note like '%sandbox-only note.'`)).toBe(0);
    expect((await api('GET', searchPath('987650001'), prod)).status).toBe(404);
    // The sandbox: none of production's.
    expect(await count(sandboxPool(), `events where data->>'fein' = '987650002'`)).toBe(0);
    expect(await count(sandboxPool(), `read.merchants where fein = '987650002'`)).toBe(0);
    expect(await count(sandboxPool(), `events where data->>'note' = 'Production-only note.'`)).toBe(0);
    expect((await api('GET', searchPath('987650002'), sandbox)).status).toBe(404);
    // Each side finds its own.
    expect((await api('GET', searchPath('987650001'), sandbox)).status).toBe(200);
    expect((await api('GET', searchPath('987650002'), prod)).status).toBe(200);
    const seeded = await api('GET', searchPath(SANDBOX_MERCHANT.fein), sandbox);
    expect(seeded.body.data[0].notes).toHaveLength(SANDBOX_NOTES.length + 1);
  });

  it('the funder’s production settings follow it into the sandbox at each token request', async () => {
    const before = await sandboxToken();
    const refused = await api('POST', routes.partnerSubscribe.path, before, { fein: SANDBOX_MERCHANT.fein });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].message).toBe(API_TEXTS.subscriptionsOnly);
    expect(
      (await server.setSubscriptionSettings(admin, summit, { merchant_subscription_enabled: true })).status,
    ).toBe(200);
    await productionSettled();
    const after = await sandboxToken();
    const subscribed = await api('POST', routes.partnerSubscribe.path, after, {
      fein: SANDBOX_MERCHANT.fein,
    });
    expect(subscribed.status).toBe(201);
    // The subscription is the sandbox's only: production's dispatcher never hears of it.
    expect(await count(server.db.pool, `events where stream_id = $1`, [`subscriptions-${summit}`])).toBe(0);
    expect(await count(sandboxPool(), `events where stream_id = $1`, [`subscriptions-${summit}`])).toBe(1);
  });
});

describe('reset', () => {
  it('a platform administrator resets the sandbox to only its seed; nobody else may', async () => {
    const token = await sandboxToken();
    expect(
      (
        await api('POST', routes.partnerAddMerchant.path, token, {
          fein: '987650003',
          legal_name: 'Gone After Reset LLC',
          city: 'Reno',
          state: 'NV',
          note_category: 'Other',
          note: 'Will be reset.',
        })
      ).status,
    ).toBe(201);
    const member = await server.call({ method: 'POST', url: routes.resetSandbox.path, token: dana });
    expect(member.status).toBe(403);
    const withApiToken = await api('POST', routes.resetSandbox.path, token);
    expect(withApiToken.status).toBe(401);
    expect((await api('POST', `/sandbox${routes.resetSandbox.path}`, token)).status).toBe(404);

    const reset = await server.call({ method: 'POST', url: routes.resetSandbox.path, token: admin });
    expect(reset.status).toBe(200);
    expect(reset.body.data.merchant_fein).toBe(SANDBOX_MERCHANT.fein);
    expect(Date.now() - Date.parse(reset.body.data.reset_at)).toBeLessThan(60_000);
    // Only the seed: its one merchant and notes, the demo funder, no mirrored funder, no searches.
    expect(await count(sandboxPool(), 'read.merchants')).toBe(1);
    expect(await count(sandboxPool(), 'read.notes')).toBe(SANDBOX_NOTES.length);
    expect(await count(sandboxPool(), 'read.accounts')).toBe(1);
    expect((await sandboxPool().query('select name from read.accounts')).rows[0].name).toBe(
      SANDBOX_FUNDER.name,
    );
    expect(await count(sandboxPool(), 'search_log')).toBe(0);
    // A token from before the reset is gone with its session; new credentials work at once.
    expect((await api('GET', searchPath(SANDBOX_MERCHANT.fein), token)).status).toBe(401);
    const fresh = await sandboxToken();
    expect((await api('GET', searchPath('987650003'), fresh)).status).toBe(404);
    expect((await api('GET', searchPath(SANDBOX_MERCHANT.fein), fresh)).body.data[0].notes).toHaveLength(
      SANDBOX_NOTES.length,
    );
    // Production kept its own.
    expect((await api('GET', searchPath('987650002'), await productionToken())).status).toBe(200);
  });

  it('two resets at once, with partner calls during them, leave a working sandbox', async () => {
    const token = await sandboxToken();
    const [a, b, during] = await Promise.all([
      server.call({ method: 'POST', url: routes.resetSandbox.path, token: admin }),
      server.call({ method: 'POST', url: routes.resetSandbox.path, token: admin }),
      // Arrives while the sandbox is rebuilt: it waits for the sandbox to be back, then answers.
      (async () => {
        await new Promise((r) => setTimeout(r, 50));
        return tokenAt('', sandboxCredentials);
      })(),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(during.status).toBe(200);
    expect(await count(sandboxPool(), 'read.merchants')).toBe(1);
    const after = await sandboxToken('/sandbox');
    const found = await api('GET', `/sandbox${searchPath(SANDBOX_MERCHANT.fein)}`, after);
    expect(found.status).toBe(200);
    expect(found.body.data[0].notes).toHaveLength(SANDBOX_NOTES.length);
    expect(token).not.toBe(after);
  });

  it('the weekly reset happens once the last one is a week old, not before', async () => {
    const token = await sandboxToken();
    const body = {
      fein: '987650004',
      legal_name: 'Weekly Reset LLC',
      city: 'Reno',
      state: 'NV',
      note_category: 'Other',
      note: 'Until the weekly reset.',
    };
    expect((await api('POST', routes.partnerAddMerchant.path, token, body)).status).toBe(201);
    await sandboxSettled();
    await server.sandbox.resetIfDue();
    expect(await count(sandboxPool(), `read.merchants where fein = '987650004'`)).toBe(1);
    await sandboxPool().query(`update sandbox_meta set reset_at = now() - interval '8 days'`);
    await server.sandbox.resetIfDue();
    expect(await count(sandboxPool(), `read.merchants where fein = '987650004'`)).toBe(0);
    expect(await count(sandboxPool(), 'read.merchants')).toBe(1);
  });
});
