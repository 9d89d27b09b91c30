import { executeCommand, loadUser, userDecider } from '@mrn/command-api';
import { buildPath, CONSISTENT_AFTER_HEADER, MESSAGES, routes, streams } from '@mrn/contracts';
import { START } from '@mrn/platform';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ demo: true });
});
afterAll(async () => {
  await server.close();
});

const login = (auth: unknown, headers: Record<string, string> = {}) =>
  server.call({ method: 'POST', url: routes.login.path, payload: { auth }, headers });
const eventCount = async () =>
  Number((await server.db.pool.query('select count(*) as n from events')).rows[0].n);

describe('POST /api/auth/login', () => {
  it('signs the platform administrator in with the session user of core spec §3', async () => {
    const res = await login({ email: TEST_ADMIN.email, password: TEST_ADMIN.password });
    expect(res.status).toBe(200);
    expect(res.body.data.bypass_mfa).toBe(false);
    expect(typeof res.body.data.jwt).toBe('string');
    expect(res.body.data.user).toMatchObject({
      email: TEST_ADMIN.email,
      first_name: 'Platform',
      last_name: 'Administrator',
      is_admin: true,
      is_dm_admin: true,
      active_membership: true,
      plan_level: 'PRO',
      account_total_ninety_days_contribution_percentage: 100,
    });
    expect(res.body.data.user.agreed_to_terms).not.toBeNull();
    expect(res.body.position).toMatch(/^[0-9a-f]{16}-[0-9a-f]{16}$/);
  });

  it('accepts the e-mail in any case and ignores ip/ua claimed in the body', async () => {
    const res = await login({
      email: 'DANA.Whitfield@summitcapital.example',
      password: DEMO_PASSWORD,
      ip: '6.6.6.6',
      ua: 'fake',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({
      account_name: 'Summit Capital Funding',
      is_admin: true,
      is_dm_admin: false,
    });
    const session = await server.db.pool.query(
      'select ip from auth_sessions order by created_at desc limit 1',
    );
    expect(session.rows[0].ip).toBe('127.0.0.1');
  });

  it('refuses a wrong password and an unknown e-mail with the same text', async () => {
    const wrong = await login({ email: 'marco.reyes@summitcapital.example', password: 'nope' });
    const unknown = await login({ email: 'nobody@summitcapital.example', password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.errors).toBe(MESSAGES.invalidCredentials);
    expect(unknown.body.errors).toBe(MESSAGES.invalidCredentials);
  });

  it.each([
    ['missing e-mail', { password: 'x' }, 'auth.email', 'is required'],
    ['missing password', { email: 'a@b.co' }, 'auth.password', 'is required'],
    [
      'e-mail over 64',
      { email: `${'a'.repeat(60)}@b.com`, password: 'x' },
      'auth.email',
      'must be at most 64 characters',
    ],
    [
      'password over 128',
      { email: 'a@b.co', password: 'p'.repeat(129) },
      'auth.password',
      'must be at most 128 characters',
    ],
    [
      'malformed e-mail',
      { email: 'not-an-email', password: 'x' },
      'auth.email',
      'is not a valid email address',
    ],
    ['password not text', { email: 'a@b.co', password: 42 }, 'auth.password', 'must be text'],
  ])('answers 400 naming the field for %s, writing nothing', async (_name, auth, field, message) => {
    const before = await eventCount();
    const res = await login(auth);
    expect(res.status).toBe(400);
    expect(res.body.fields).toContainEqual({ field, message });
    expect(res.body.errors).toContain(`${field}: ${message}`);
    expect(await eventCount()).toBe(before);
  });

  it('answers 400 for a missing auth object and for a body that is not JSON', async () => {
    const noAuth = await server.call({ method: 'POST', url: routes.login.path, payload: {} });
    expect(noAuth.status).toBe(400);
    expect(noAuth.body.fields).toContainEqual({ field: 'auth', message: 'is required' });
    const notJson = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: '{"auth": {',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors).toBe('body: is not valid JSON');
  });
});

describe('sessions', () => {
  it('turns a stored token into the user (auto login) with a fresh token', async () => {
    const token = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const res = await server.call({ method: 'GET', url: routes.autoLogin.path, token });
    expect(res.status).toBe(200);
    expect(res.body.data.user.email).toBe(TEST_ADMIN.email);
    expect(typeof res.body.data.jwt).toBe('string');
  });

  it('refuses auto login without a token or with a forged one', async () => {
    expect((await server.call({ method: 'GET', url: routes.autoLogin.path })).status).toBe(401);
    const forged = await server.call({
      method: 'GET',
      url: routes.autoLogin.path,
      token: 'eyJhbGciOiJIUzI1NiJ9.e30.x',
    });
    expect(forged.status).toBe(401);
    expect(forged.body.errors).toBe(MESSAGES.sessionEnded);
  });

  it('ends the session on logout: the token then gets 401', async () => {
    const token = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
    expect((await server.call({ method: 'POST', url: routes.logout.path, token })).status).toBe(200);
    expect((await server.call({ method: 'GET', url: routes.autoLogin.path, token })).status).toBe(401);
  });

  it("gives 401 to every older token once the user's session version is bumped", async () => {
    const email = 'priya.natarajan@harboradvance.example';
    const older = await server.login(email, DEMO_PASSWORD);
    const userId = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: older })).body.data
      .user.resource_id;
    const bumped = await executeCommand(
      server,
      userDecider,
      streams.user(userId),
      { type: 'RevokeSessions', reason: 'test' },
      { now: new Date() },
      { source: 'system' },
    );
    await server.projections.waitFor(bumped.position!, ['users'], 3000);
    expect((await server.call({ method: 'GET', url: routes.autoLogin.path, token: older })).status).toBe(401);
    const fresh = await server.login(email, DEMO_PASSWORD);
    expect((await server.call({ method: 'GET', url: routes.autoLogin.path, token: fresh })).status).toBe(200);
    expect((await loadUser(server.store, userId)).state).toMatchObject({ sessionVersion: 1 });
  });
});

describe('app settings', () => {
  it('serves defaults to any signed-in user and refuses anonymous callers', async () => {
    const token = await server.login('marco.reyes@summitcapital.example', DEMO_PASSWORD);
    const res = await server.call({ method: 'GET', url: routes.getAppSettings.path, token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      dashboard_message_enabled: false,
      dashboard_message_severity: 'info',
    });
    expect((await server.call({ method: 'GET', url: routes.getAppSettings.path })).status).toBe(401);
  });

  it('lets only a platform administrator change them; a member and an account admin get 403', async () => {
    const payload = {
      app_settings: {
        dashboard_message_enabled: true,
        dashboard_message_severity: 'warning',
        dashboard_message: 'Maintenance tonight',
      },
    };
    for (const email of ['marco.reyes@summitcapital.example', 'dana.whitfield@summitcapital.example']) {
      const token = await server.login(email, DEMO_PASSWORD);
      const refused = await server.call({
        method: 'PUT',
        url: routes.updateAppSettings.path,
        token,
        payload,
      });
      expect(refused.status).toBe(403);
    }
    const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const saved = await server.call({
      method: 'PUT',
      url: routes.updateAppSettings.path,
      token: admin,
      payload,
    });
    expect(saved.status).toBe(200);
    // The call helper sends the write's position as X-Consistent-After: the read sees the write.
    const read = await server.call({ method: 'GET', url: routes.getAppSettings.path, token: admin });
    expect(read.body.data).toEqual({
      dashboard_message_enabled: true,
      dashboard_message_severity: 'warning',
      dashboard_message_title: null,
      dashboard_message: 'Maintenance tonight',
    });
  });

  it('answers 400 naming the field for a bad severity and a missing message', async () => {
    const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const res = await server.call({
      method: 'PUT',
      url: routes.updateAppSettings.path,
      token: admin,
      payload: { app_settings: { dashboard_message_severity: 'loud' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'app_settings.dashboard_message',
      'app_settings.dashboard_message_severity',
    ]);
  });

  it('refuses a malformed X-Consistent-After with 400', async () => {
    const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const res = await server.call({
      method: 'GET',
      url: routes.getAppSettings.path,
      token: admin,
      headers: { 'x-consistent-after': 'soon' },
    });
    expect(res.status).toBe(400);
  });
});

describe('the server around the APIs', () => {
  it('answers /health once projections run, JSON 404 for unknown API paths', async () => {
    expect((await server.call({ method: 'GET', url: '/health' })).status).toBe(200);
    const missing = await server.call({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.status).toBe(404);
    expect(missing.body.errors).toContain('/api/nothing-here');
  });
});

describe('roles at once after signing in (a read model behind the token)', () => {
  it('a member made an admin just before signing in is an admin on her first request, while read.users still says member', async () => {
    const dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
    const marcoLogin = await login({ email: 'marco.reyes@summitcapital.example', password: DEMO_PASSWORD });
    const marcoId = marcoLogin.body.data.user.resource_id as string;
    const summit = marcoLogin.body.data.user.account_resource_id as string;
    const accountAsMarco = (token: string) =>
      server.call({
        method: 'GET',
        url: buildPath(routes.getAccount.path, { id: summit }),
        token,
        // Not waiting for the projections: the users projector is held below.
        headers: { [CONSISTENT_AFTER_HEADER]: START },
      });
    expect((await accountAsMarco(marcoLogin.body.data.jwt)).status).toBe(403);
    // The users projector cannot apply anything to Marco's row until this transaction ends.
    const hold = await server.db.pool.connect();
    let newer = '';
    try {
      await hold.query('begin');
      await hold.query('select 1 from read.users where id = $1 for update', [marcoId]);
      const made = await server.call({
        method: 'PUT',
        url: buildPath(routes.toggleUserAdmin.path, { id: marcoId }),
        token: dana,
      });
      expect(made.status).toBe(200);
      const signedIn = await login({ email: 'marco.reyes@summitcapital.example', password: DEMO_PASSWORD });
      expect(signedIn.body.data.user.is_admin).toBe(true);
      const seen = await server.db.pool.query('select is_admin from read.users where id = $1', [marcoId]);
      expect(seen.rows[0].is_admin).toBe(false);
      newer = signedIn.body.data.jwt;
      expect((await accountAsMarco(newer)).status).toBe(200);
      // A token signed before the change knows nothing newer than the read model: still a member.
      expect((await accountAsMarco(marcoLogin.body.data.jwt)).status).toBe(403);
    } finally {
      await hold.query('rollback');
      hold.release();
    }
    // Made a member again: once the read model has it, the newer token's admin role ends at once.
    const unmade = await server.call({
      method: 'PUT',
      url: buildPath(routes.toggleUserAdmin.path, { id: marcoId }),
      token: dana,
    });
    expect(unmade.status).toBe(200);
    expect(await server.projectedAll(['users'])).toBe(true);
    await expect.poll(async () => (await accountAsMarco(newer)).status).toBe(403);
  });
});
