import { API_TEXTS, buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The partner API v2 over HTTP with real API tokens (accounts spec §7): every call, every refusal,
// and that it runs the dashboard's own rules and records (searches with source `api`).

let server: TestServer;
const dashboard: Record<string, string> = {};
const credentials: Record<string, { authentication_token: string; authentication_key: string }> = {};
const accountOf: Record<string, string> = {};
const userOf: Record<string, string> = {};

const USERS = {
  dana: 'dana.whitfield@summitcapital.example', // Summit (PRO) admin
  marco: 'marco.reyes@summitcapital.example', // Summit member
  priya: 'priya.natarajan@harboradvance.example', // Harbor (BASIC) admin
};

beforeAll(async () => {
  // Many token calls from one address: the token call's own limit is tested in partner-rate-limits.test.ts.
  server = await startTestServer({ demo: true, env: { RATE_LIMIT_TOKEN_PER_MINUTE: '1000' } });
  dashboard.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries(USERS)) {
    dashboard[who] = await server.login(email, DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: dashboard[who] });
    accountOf[who] = me.body.data.user.account_resource_id;
    userOf[who] = me.body.data.user.resource_id;
  }
  // A platform admin grants the accounts API access; their admins grant it to members.
  for (const account of [accountOf.dana!, accountOf.priya!]) {
    const granted = await server.call({
      method: 'PUT',
      url: buildPath(routes.grantAccountApiAccess.path, { id: account }),
      token: dashboard.admin,
    });
    expect(granted.status).toBe(200);
  }
  for (const [who, admin] of [
    ['dana', 'dana'],
    ['marco', 'dana'],
    ['priya', 'priya'],
  ] as const) {
    const res = await server.call({
      method: 'PUT',
      url: buildPath(routes.grantUserApiAccess.path, { id: userOf[who]! }),
      token: dashboard[admin],
    });
    expect(res.status).toBe(200);
    credentials[who] = res.body.data;
  }
  await server.setSubscriptionSettings(dashboard.admin!, accountOf.dana!, {
    merchant_subscription_enabled: true,
  });
  expect(await server.projectedAll(undefined, 20_000)).toBe(true);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const tokenFor = async (who: string) => {
  const res = await server.call({
    method: 'POST',
    url: routes.getApiToken.path,
    payload: { auth: credentials[who] },
  });
  expect(res.status).toBe(200);
  return res.body.data.token as string;
};
const api = (
  method: 'GET' | 'POST',
  url: string,
  token: string | undefined,
  payload?: object,
  headers: Record<string, string> = {},
) =>
  server.call({
    method,
    url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    ...(payload ? { payload } : {}),
  });
const firstError = (body: { errors: { field: string | null; message: string }[] }) => body.errors[0];

describe('tokens', () => {
  it('issues a 24-hour API token for valid credentials, in the { errors, data } envelope', async () => {
    const res = await server.call({
      method: 'POST',
      url: routes.getApiToken.path,
      payload: { auth: credentials.dana },
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    const hours = (Date.parse(res.body.data.expires_at) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it('refuses a wrong key or token alike, and a body without credentials naming the field', async () => {
    for (const auth of [
      { ...credentials.dana, authentication_key: 'wrong' },
      { ...credentials.dana, authentication_token: 'mrn_unknown' },
    ]) {
      const res = await server.call({ method: 'POST', url: routes.getApiToken.path, payload: { auth } });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        data: null,
        errors: [{ field: null, message: API_TEXTS.badCredentials }],
      });
    }
    const missing = await server.call({
      method: 'POST',
      url: routes.getApiToken.path,
      payload: { auth: {} },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'auth.authentication_key',
      'auth.authentication_token',
    ]);
  });
});

describe('refusals', () => {
  const search = buildPath(routes.partnerSearchMerchants.path, { key: '451234567' });

  it('no token, a forged one, an expired one, and a dashboard token: 401 saying which', async () => {
    expect(firstError((await api('GET', search, undefined)).body)?.message).toBe(API_TEXTS.tokenMissing);
    expect(firstError((await api('GET', search, 'not.a.jwt')).body)?.message).toBe(API_TEXTS.tokenExpired);
    const real = await tokenFor('dana');
    const claims = server.app.jwt.decode<Record<string, unknown>>(real)!;
    const { exp: _e, iat: _i, ...rest } = claims;
    const expired = server.app.jwt.sign(
      { ...rest, iat: Math.floor(Date.now() / 1000) - 90_000 },
      { expiresIn: 1 },
    );
    const expiredAnswer = await api('GET', search, expired);
    expect(expiredAnswer.status).toBe(401);
    expect(firstError(expiredAnswer.body)?.message).toBe(API_TEXTS.tokenExpired);
    const withDashboardToken = await api('GET', search, dashboard.dana);
    expect(withDashboardToken.status).toBe(401);
    expect(firstError(withDashboardToken.body)?.message).toBe(API_TEXTS.needsApiToken);
  });

  it('an API token does not drive the dashboard', async () => {
    const token = await tokenFor('dana');
    const res = await server.call({
      method: 'GET',
      url: `${routes.searchMerchants.path}?search=451234567`,
      token,
    });
    expect(res.status).toBe(401);
    expect(res.body.errors).toBe(API_TEXTS.dashboardOnly);
  });

  it('BASIC accounts are refused the PRO calls; a bad EIN is a 400 naming fein', async () => {
    const basic = await tokenFor('priya');
    const history = await api(
      'GET',
      buildPath(routes.partnerSearchHistory.path, { fein: '451234567' }),
      basic,
    );
    expect(history.status).toBe(403);
    expect(firstError(history.body)?.message).toBe('This feature is only available to PRO members.');
    const subscribe = await api('POST', routes.partnerSubscribe.path, basic, { fein: '451234567' });
    expect(subscribe.status).toBe(403);
    const pro = await tokenFor('dana');
    const bad = await api('POST', routes.partnerAddNote.path, pro, {
      fein: '12-34',
      note_category: 'Slow Pay',
      note: 'x',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ data: null, errors: [{ field: 'fein', message: 'must be 9 digits' }] });
    const badPath = await api('GET', buildPath(routes.partnerSearchHistory.path, { fein: 'abc' }), pro);
    expect(badPath.status).toBe(400);
    expect(firstError(badPath.body)?.field).toBe('fein');
  });

  it('the dashboard’s BASIC daily search cap holds on the partner API too', async () => {
    const basic = await tokenFor('priya');
    // Harbor has used today's 3,000 searches (on either API: one count).
    await server.db.pool.query(
      `insert into search_quota (account_id, day, used) values ($1, (now() at time zone 'utc')::date, 3000)
       on conflict (account_id, day) do update set used = 3000`,
      [accountOf.priya],
    );
    const res = await api('GET', search, basic);
    expect(res.status).toBe(429);
    expect(firstError(res.body)?.message).toBe(
      'BASIC members can search up to 3,000 times a day. Upgrade to PRO for unlimited searches.',
    );
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    await server.db.pool.query('delete from search_quota where account_id = $1', [accountOf.priya]);
    expect((await api('GET', search, basic)).status).toBe(200);
  });

  it('revoking the user’s API access ends its live tokens at once', async () => {
    const token = await tokenFor('marco');
    expect((await api('GET', search, token)).status).toBe(200);
    const revoked = await server.call({
      method: 'PUT',
      url: buildPath(routes.revokeUserApiAccess.path, { id: userOf.marco! }),
      token: dashboard.dana,
    });
    expect(revoked.status).toBe(200);
    expect(await server.projections.waitFor(revoked.body.position, undefined, 10_000)).toBe(true);
    const after = await api('GET', search, token);
    expect(after.status).toBe(401);
    expect(firstError(after.body)?.message).toBe(API_TEXTS.accessRevoked);
    const again = await server.call({
      method: 'POST',
      url: routes.getApiToken.path,
      payload: { auth: credentials.marco },
    });
    expect(again.status).toBe(401);
  });

  it('revoking the account’s API access ends its members’ tokens and refuses new ones', async () => {
    const token = await tokenFor('priya');
    expect((await api('GET', search, token)).status).toBe(200);
    const revoked = await server.call({
      method: 'PUT',
      url: buildPath(routes.revokeAccountApiAccess.path, { id: accountOf.priya! }),
      token: dashboard.admin,
    });
    expect(revoked.status).toBe(200);
    expect(await server.projections.waitFor(revoked.body.position, undefined, 10_000)).toBe(true);
    const after = await api('GET', search, token);
    expect(after.status).toBe(401);
    expect(firstError(after.body)?.message).toBe(API_TEXTS.accessRevoked);
    const again = await server.call({
      method: 'POST',
      url: routes.getApiToken.path,
      payload: { auth: credentials.priya },
    });
    expect([401, 403]).toContain(again.status);
    expect(again.body.data).toBeNull();
  });
});

describe('calls', () => {
  let token = '';
  beforeAll(async () => {
    token = await tokenFor('dana');
  });

  it('adds a merchant with its first note, once per Idempotency-Key, and finds it by EIN and name', async () => {
    const body = {
      fein: '77-1234567',
      legal_name: 'Partner Pastries LLC',
      city: 'Denver',
      state: 'CO',
      note_category: 'Slow Pay',
      note: 'Paid 30 days late twice.',
    };
    const headers = { 'idempotency-key': 'partner-add-1' };
    const [a, b] = await Promise.all([
      api('POST', routes.partnerAddMerchant.path, token, body, headers),
      api('POST', routes.partnerAddMerchant.path, token, body, headers),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body).toMatchObject({
      errors: [],
      data: {
        fein: '771234567',
        legal_name: 'Partner Pastries LLC',
        added_by: 'Summit Capital Funding',
        notes: [{ note_category: 'Slow Pay', note: 'Paid 30 days late twice.' }],
      },
    });
    const merchants = await server.db.pool.query(
      `select count(*)::int as n from events where type = 'MerchantAdded' and data->>'fein' = '771234567'`,
    );
    expect(merchants.rows[0].n).toBe(1);
    const added = await server.db.pool.query(
      `select metadata->>'source' as source from events where type = 'MerchantAdded' and data->>'fein' = '771234567'`,
    );
    expect(added.rows[0].source).toBe('api');
    // The same EIN again, without the key: the dashboard's rule, in the partner envelope.
    const duplicate = await api('POST', routes.partnerAddMerchant.path, token, body);
    expect(duplicate.status).toBe(409);
    expect(firstError(duplicate.body)?.message).toBe('A merchant with this EIN/BN already exists.');

    await server.projectedAll(undefined, 10_000);
    const byEin = await api(
      'GET',
      buildPath(routes.partnerSearchMerchants.path, { key: '771234567' }),
      token,
    );
    expect(byEin.status).toBe(200);
    expect(byEin.body.data).toHaveLength(1);
    expect(byEin.body.data[0].notes[0]).not.toHaveProperty('submission_source');
    const byName = await api(
      'GET',
      buildPath(routes.partnerSearchMerchants.path, { key: 'partner pastries' }),
      token,
    );
    expect(byName.body.data.map((m: { fein: string }) => m.fein)).toEqual(['771234567']);
    await server.searches.flush();
    const recorded = await server.db.pool.query(
      `select source from search_log where account_id = $1 and term in ('771234567', 'partner pastries')`,
      [accountOf.dana!],
    );
    expect(recorded.rows.map((r) => r.source)).toEqual(['api', 'api']);
    const none = await api('GET', buildPath(routes.partnerSearchMerchants.path, { key: '999999991' }), token);
    expect(none.status).toBe(404);
    expect(firstError(none.body)?.message).toBe('No Merchants Found');
  });

  it('refuses NUL characters, impossible dates and oversized text naming the field, writing nothing', async () => {
    const count = async () =>
      (await server.db.pool.query(`select count(*)::int as n from events`)).rows[0].n as number;
    const before = await count();
    const good = {
      fein: '771234570',
      legal_name: 'Careful Cakes LLC',
      city: 'Denver',
      state: 'CO',
      note_category: 'Slow Pay',
      note: 'Paid late.',
    };
    for (const [field, bad] of [
      ['legal_name', { legal_name: 'Bad\u0000Name' }],
      ['business_startdate', { business_startdate: '2026-02-30' }],
      ['note', { note: 'x'.repeat(100_000) }],
      ['dba', { dba: 'y'.repeat(5_000) }],
    ] as const) {
      const res = await api('POST', routes.partnerAddMerchantWithAdditionalData.path, token, {
        ...good,
        submission_source: 'in-house',
        ...bad,
      });
      expect(res.status, field).toBe(400);
      expect(
        res.body.errors.map((e: { field: string }) => e.field),
        field,
      ).toContain(field);
    }
    const note = await api('POST', routes.partnerAddNote.path, token, {
      fein: '771234567',
      note_category: 'Slow Pay',
      note: 'nul\u0000here',
    });
    expect(note.status).toBe(400);
    expect(firstError(note.body)?.field).toBe('note');
    expect(await count()).toBe(before);
  });

  it('adds notes by EIN, with and without submission sources', async () => {
    const note = await api('POST', routes.partnerAddNote.path, token, {
      fein: '771234567',
      note_category: 'Stacking History',
      note: 'Took a second advance.',
    });
    expect(note.status).toBe(201);
    expect(note.body.data).toMatchObject({ fein: '771234567', note_category: 'Stacking History' });
    const broker = await api('POST', routes.partnerAddNoteWithAdditionalData.path, token, {
      fein: '771234567',
      note_category: 'Default',
      note: 'Defaulted in May.',
      submission_source: 'broker',
    });
    expect(broker.status).toBe(400);
    expect(firstError(broker.body)?.field).toBe('broker_name');
    const sourced = await api('POST', routes.partnerAddNoteWithAdditionalData.path, token, {
      fein: '771234567',
      note_category: 'Default',
      note: 'Defaulted in May.',
      submission_source: 'broker',
      broker_name: 'Main Street Brokers',
    });
    expect(sourced.status).toBe(201);
    expect(sourced.body.data).toMatchObject({
      submission_source: 'broker',
      broker_name: 'Main Street Brokers',
    });
    const unknown = await api('POST', routes.partnerAddNote.path, token, {
      fein: '999999992',
      note_category: 'Default',
      note: 'Nobody reported this one.',
    });
    expect(unknown.status).toBe(404);
    expect(firstError(unknown.body)).toMatchObject({ field: 'fein' });

    const merchant = await api('POST', routes.partnerAddMerchantWithAdditionalData.path, token, {
      fein: '771234568',
      legal_name: 'Sourced Sandwiches Inc',
      city: 'Boise',
      state: 'ID',
      note_category: 'Slow Pay',
      note: 'Slow in the summer.',
      submission_source: 'in-house',
    });
    expect(merchant.status).toBe(201);
    await server.projectedAll(undefined, 10_000);
    const found = await api(
      'GET',
      buildPath(routes.partnerSearchWithAdditionalData.path, { key: '771234567' }),
      token,
    );
    expect(found.status).toBe(200);
    const notes = found.body.data[0].notes as {
      note: string;
      submission_source: string | null;
      broker_name: string | null;
    }[];
    expect(notes.find((n) => n.note === 'Defaulted in May.')).toMatchObject({
      submission_source: 'broker',
      broker_name: 'Main Street Brokers',
    });
  });

  it('lists exactly the note categories a partner may use, and refuses Merchant Dispute with that list', async () => {
    const before = await server.db.pool.query('select count(*)::int as n from events');
    for (const note_category of ['Merchant Dispute', 'Bogus']) {
      const res = await api('POST', routes.partnerAddNote.path, token, {
        fein: '771234567',
        note_category,
        note: 'The owner disputes the default.',
      });
      expect(res.status, note_category).toBe(400);
      const error = firstError(res.body);
      expect(error?.field).toBe('note_category');
      // What the error offers is what is accepted: Merchant Dispute is never listed.
      expect(error?.message).toBe(
        'must be one of: Default Account, Suspicious Activity, Slow Pay, Stacking History, Split Payer, Covid-19 Hardship, Criminal History, Default, Other, Default Satisfied',
      );
    }
    for (const note_category of ['Split Payer', 'Default Satisfied']) {
      const res = await api('POST', routes.partnerAddNote.path, token, {
        fein: '771234567',
        note_category,
        note: `A ${note_category} note.`,
      });
      expect(res.status, note_category).toBe(201);
    }
    const after = await server.db.pool.query('select count(*)::int as n from events');
    expect(after.rows[0].n).toBeGreaterThan(before.rows[0].n);
  });

  it('watches, reports and stops watching an EIN; refused when subscriptions are not enabled', async () => {
    const fein = '771234569';
    const subscribed = await api('POST', routes.partnerSubscribe.path, token, { fein });
    expect(subscribed.status).toBe(201);
    expect(subscribed.body.data).toMatchObject({ fein, subscribed: true });
    expect((await api('POST', routes.partnerSubscribe.path, token, { fein })).status).toBe(200);
    await server.projectedAll(undefined, 10_000);
    const get = await api('GET', buildPath(routes.partnerGetSubscription.path, { fein }), token);
    expect(get.body.data).toMatchObject({ fein, subscribed: true });
    expect(get.body.data.created_at).toBeTruthy();
    const removed = await api('GET', buildPath(routes.partnerDeleteSubscription.path, { fein }), token);
    expect(removed.body.data).toMatchObject({ fein, subscribed: false });
    await server.projectedAll(undefined, 10_000);
    const after = await api('GET', buildPath(routes.partnerGetSubscription.path, { fein }), token);
    expect(after.body.data).toMatchObject({ subscribed: false, created_at: null });

    await server.setSubscriptionSettings(dashboard.admin!, accountOf.dana!, {
      merchant_subscription_enabled: false,
    });
    await server.projectedAll(undefined, 10_000);
    const refused = await api('POST', routes.partnerSubscribe.path, token, { fein });
    expect(refused.status).toBe(403);
    expect(firstError(refused.body)?.message).toBe(API_TEXTS.subscriptionsOnly);
    await server.setSubscriptionSettings(dashboard.admin!, accountOf.dana!, {
      merchant_subscription_enabled: true,
    });
  });

  it('answers the EIN’s searches of the last 6 months, and takes a bare token too', async () => {
    await server.searches.flush();
    await server.projectedAll(undefined, 10_000);
    const res = await server.call({
      method: 'GET',
      url: buildPath(routes.partnerSearchHistory.path, { fein: '771234567' }),
      headers: { authorization: token },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.fein).toBe('771234567');
    expect(res.body.data.searches.length).toBeGreaterThanOrEqual(3);
    for (const s of res.body.data.searches)
      expect(Date.now() - Date.parse(s.created_at)).toBeLessThan(3600_000);
  });

  it('an unknown /api/v2 path answers in the partner envelope', async () => {
    const res = await api('GET', '/api/v2/nothing-here', token);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ data: null, errors: [{ field: null }] });
  });
});
