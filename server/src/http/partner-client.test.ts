import { readFileSync } from 'node:fs';
import { buildPath, PARTNER_SANDBOX_ANSWER_EXAMPLES, routes } from '@mrn/contracts';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo.ts';
import { PARTNER_CLIENT_TYPES, partnerClientTypes } from '../generate-partner-client.ts';
import type { paths } from '../generated/partner-api.d.ts';
import { startTestServer, TEST_ADMIN, type TestServer } from '../testing.ts';

// A partner's view of the API: types generated from the published OpenAPI document by a third-party
// generator (openapi-typescript) and a third-party client (openapi-fetch) calling the real server over
// HTTP. If the document and the server disagreed, the typed calls would fail here (or not compile).

let server: TestServer;
let credentials: { authentication_token: string; authentication_key: string };

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  // Summit (PRO) is granted API access, and its admin Dana her credentials, as on the dashboard.
  const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: dana });
  const { account_resource_id: account, resource_id: user } = me.body.data.user;
  const granted = await server.call({
    method: 'PUT',
    url: buildPath(routes.grantAccountApiAccess.path, { id: account }),
    token: admin,
  });
  expect(granted.status).toBe(200);
  const issued = await server.call({
    method: 'PUT',
    url: buildPath(routes.grantUserApiAccess.path, { id: user }),
    token: dana,
  });
  expect(issued.status).toBe(200);
  credentials = issued.body.data;
  await caughtUp();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** The read side has applied every write so far (reads are eventually consistent, by milliseconds). */
async function caughtUp() {
  await server.searches.flush();
  // The safe head leaves out what committed after a transaction still open elsewhere (a projection
  // batch, a search being recorded): wait for it, then look again until it stands still.
  let target: string | undefined;
  for (;;) {
    const head = await server.store.headPosition();
    const searched = server.searches.lastRecorded;
    const next = searched !== undefined && searched > head ? searched : head;
    if (next === target) return;
    target = next;
    expect(await server.projections.waitFor(target, undefined, 20_000)).toBe(true);
  }
}

describe('the generated partner client', () => {
  it('is what openapi-typescript makes of the document today', async () => {
    // Stale after a route or schema change: run `npm run generate:partner-client` and commit the file.
    expect(readFileSync(PARTNER_CLIENT_TYPES, 'utf8')).toBe(await partnerClientTypes());
  });

  it('gets a token, adds a merchant, finds it by EIN and by name, adds a note and reads the search history', async () => {
    const anonymous = createClient<paths>({ baseUrl: server.url });
    const issued = await anonymous.POST('/api/v2/token', { body: { auth: credentials } });
    expect(issued.response.status).toBe(200);
    expect(issued.error).toBeUndefined();
    const token: string = issued.data!.data.token;
    expect(Date.parse(issued.data!.data.expires_at)).toBeGreaterThan(Date.now() + 23 * 3600_000);

    const api = createClient<paths>({ baseUrl: server.url, headers: { Authorization: `Bearer ${token}` } });
    const added = await api.POST('/api/v2/merchants', {
      params: { header: { 'Idempotency-Key': 'generated-client-add-1' } },
      body: {
        fein: '62-4400017',
        legal_name: 'Typed Client Bakery LLC',
        city: 'Boise',
        state: 'ID',
        industry: 'Bakery',
        note_category: 'Slow Pay',
        note: 'Paid the last two weeks late.',
      },
    });
    expect(added.response.status).toBe(201);
    expect(added.data?.errors).toEqual([]);
    expect(added.data?.data).toMatchObject({
      fein: '624400017',
      legal_name: 'Typed Client Bakery LLC',
      added_by: 'Summit Capital Funding',
      notes: [{ note_category: 'Slow Pay', note: 'Paid the last two weeks late.' }],
    });
    await caughtUp();

    const byEin = await api.GET('/api/v2/merchants/{key}', { params: { path: { key: '624400017' } } });
    expect(byEin.response.status).toBe(200);
    expect(byEin.data?.data.map((m) => m.legal_name)).toEqual(['Typed Client Bakery LLC']);
    const byName = await api.GET('/api/v2/merchants/{key}', {
      params: { path: { key: 'typed client bakery' } },
    });
    expect(byName.data?.data.map((m) => m.fein)).toEqual(['624400017']);

    const note = await api.POST('/api/v2/notes', {
      body: { fein: '624400017', note_category: 'Stacking History', note: 'Took a second advance.' },
    });
    expect(note.response.status).toBe(201);
    expect(note.data?.data).toMatchObject({
      fein: '624400017',
      note_category: 'Stacking History',
      added_by: 'Summit Capital Funding',
    });
    await caughtUp();
    const withNote = await api.GET('/api/v2/merchants/{key}', { params: { path: { key: '624400017' } } });
    expect(withNote.data?.data[0]?.notes.map((n) => n.note).sort()).toEqual([
      'Paid the last two weeks late.',
      'Took a second advance.',
    ]);

    // Searches are recorded asynchronously: the history is read once the last one is projected.
    await caughtUp();
    const history = await api.GET('/api/v2/search_history/{fein}', {
      params: { path: { fein: '62-4400017' } },
    });
    expect(history.response.status).toBe(200);
    expect(history.data?.data.fein).toBe('624400017');
    // The three searches above, newest first, all just now.
    const times = history.data!.data.searches.map((s) => Date.parse(s.created_at));
    expect(times).toHaveLength(3);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const t of times) expect(Date.now() - t).toBeLessThan(600_000);
  });

  it('works against the sandbox address the document lists, whose merchant is the sandbox search example', async () => {
    const sandbox = createClient<paths>({ baseUrl: `${server.url}/sandbox` });
    const issued = await sandbox.POST('/api/v2/token', {
      body: {
        auth: {
          authentication_token: `test_${credentials.authentication_token}`,
          authentication_key: `test_${credentials.authentication_key}`,
        },
      },
    });
    expect(issued.response.status).toBe(200);
    const found = await sandbox.GET('/api/v2/merchants/{key}', {
      params: { path: { key: '01-0000001' } },
      headers: { Authorization: `Bearer ${issued.data!.data.token}` },
    });
    expect(found.response.status).toBe(200);
    // The answer the guide shows for the sandbox (production's names a made-up merchant).
    const example = PARTNER_SANDBOX_ANSWER_EXAMPLES.partnerSearchMerchants!.data[0]!;
    expect(found.data?.data[0]).toMatchObject({
      fein: example.fein,
      legal_name: example.legal_name,
      dba: example.dba,
      city: example.city,
      state: example.state,
      industry: example.industry,
    });
    expect(found.data?.data[0]?.notes.map((n) => n.note)).toContain(example.notes[0]!.note);
  }, 60_000);

  it('reads a refusal as the documented error, naming the field', async () => {
    const anonymous = createClient<paths>({ baseUrl: server.url });
    const refused = await anonymous.POST('/api/v2/token', {
      body: { auth: { ...credentials, authentication_key: 'wrong' } },
    });
    expect(refused.response.status).toBe(401);
    expect(refused.data).toBeUndefined();
    expect(refused.error).toMatchObject({
      data: null,
      errors: [{ field: null, message: 'The authentication token or key is not valid.' }],
    });
    const bad = await anonymous.GET('/api/v2/merchants/{key}', { params: { path: { key: '624400017' } } });
    expect(bad.response.status).toBe(401);
    expect(bad.error?.errors.length).toBeGreaterThan(0);
  });
});
