import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPath, routes } from '@mrn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo.ts';
import { startTestServer, TEST_ADMIN, type TestServer } from '../testing.ts';

// Every route of the table is called by a test that checks what it answered or what it changed. The
// matrix and the fuzz test call every route generically; they do not count here.
describe('route coverage', () => {
  it('names every route of the table in a behavioural HTTP or browser test', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const generic = new Set(['authorization-matrix.test.ts', 'fuzz.test.ts']);
    // The product's HTTP tests: those of the whole product here, each feature's beside it in its
    // service (`*.http.test.ts`), and the browser tests.
    const behavioural = (dir: string, f: string) =>
      dir === 'server/src/http' || dir === 'e2e/src' ? f.endsWith('.test.ts') : f.endsWith('.http.test.ts');
    const sources = [
      'server/src/http',
      'e2e/src',
      'command-api/src',
      'query-api/src',
      'webhook-dispatcher/src',
    ]
      .flatMap((dir) =>
        readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
          .filter((f) => behavioural(dir, f) && !generic.has(f.split('/').at(-1)!))
          .map((f) => readFileSync(join(root, dir, f), 'utf8')),
      )
      .join('\n');
    const uncalled = Object.keys(routes).filter((name) => !new RegExp(`routes\\.${name}\\b`).test(sources));
    expect(uncalled).toEqual([]);
  });
});

let server: TestServer;
let admin: string;
const tokens: Record<string, string> = {};
const accountOf: Record<string, string> = {};
const userOf: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries({
    tom: 'tom.becker@harboradvance.example',
    priya: 'priya.natarajan@harboradvance.example',
  })) {
    const res = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email, password: DEMO_PASSWORD } },
    });
    tokens[who] = res.body.data.jwt;
    accountOf[who] = res.body.data.user.account_resource_id;
    userOf[who] = res.body.data.user.resource_id;
  }
});
afterAll(async () => {
  await server.close();
});

const call = (method: 'GET' | 'PUT' | 'POST', url: string, token: string, payload?: object) =>
  server.call({ method, url, token, ...(payload ? { payload } : {}) });
const eventsOf = async (stream: string) =>
  (
    await server.db.pool.query('select type, data from events where stream_id = $1 order by revision', [
      stream,
    ])
  ).rows;

async function newFunder(name: string) {
  const created = await call('POST', routes.createAccount.path, admin, {
    account: {
      name,
      website: `${name.toLowerCase().replace(/\W+/g, '')}.example`,
      primary_contact_email: `ops@${name.toLowerCase().replace(/\W+/g, '')}.example`,
    },
  });
  return created.body.data.resource_id as string;
}

describe('archiveAccount', () => {
  it('archives a funder: its members are signed out at once and it shows as canceled', async () => {
    const funder = await newFunder('Closing Capital');
    await call('PUT', buildPath(routes.startTrial.path, { id: funder }), admin);
    const user = await call('POST', buildPath(routes.createUser.path, { id: funder }), admin, {
      user: { first_name: 'Cleo', last_name: 'Closing', email: 'cleo@closingcapital.example' },
    });
    const cleoId = user.body.data.resource_id;
    await call('PUT', buildPath(routes.adminChangePassword.path, { id: cleoId }), admin, {
      new_password: 'Closing-pass-2026',
      confirm_password: 'Closing-pass-2026',
    });
    const cleo = await server.login('cleo@closingcapital.example', 'Closing-pass-2026');
    expect((await call('GET', routes.autoLogin.path, cleo)).status).toBe(200);

    expect(
      (await call('PUT', buildPath(routes.archiveAccount.path, { id: funder }), tokens.priya!)).status,
    ).toBe(403);
    const archived = await call('PUT', buildPath(routes.archiveAccount.path, { id: funder }), admin);
    expect(archived.status).toBe(200);
    expect(archived.body.data.resource_id).toBe(funder);
    expect((await call('GET', routes.autoLogin.path, cleo)).status).toBe(401);
    const login = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email: 'cleo@closingcapital.example', password: 'Closing-pass-2026' } },
    });
    expect(login.status).toBe(401);
    const account = await call('GET', buildPath(routes.getAccount.path, { id: funder }), admin);
    expect(account.body.data.archived_at).not.toBeNull();
    const canceled = await call(
      'GET',
      `${routes.listAccounts.path}?membership_filter=canceled&search=closing`,
      admin,
    );
    expect(canceled.body.data.map((a: { resource_id: string }) => a.resource_id)).toEqual([funder]);
    const members = await call('GET', routes.listMemberFunders.path, tokens.tom!);
    expect(members.body.data.map((a: { name: string }) => a.name)).not.toContain('Closing Capital');
  });
});

describe('listMemberFunders', () => {
  it('lists active and trialing funders to members, by name, paged; not the platform or canceled ones', async () => {
    const trialing = await newFunder('Aardvark Trial Funding');
    await call('PUT', buildPath(routes.startTrial.path, { id: trialing }), admin);
    await newFunder('Aardvark Never Active'); // membership none
    const page = await call('GET', `${routes.listMemberFunders.path}?per_page=2&page=1`, tokens.tom!);
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(2);
    expect(page.body.data[0]).toMatchObject({ resource_id: trialing, name: 'Aardvark Trial Funding' });
    expect(Object.keys(page.body.data[0]).sort()).toEqual(['name', 'plan_level', 'resource_id', 'website']);
    const all = await call('GET', `${routes.listMemberFunders.path}?per_page=100`, tokens.tom!);
    const names = all.body.data.map((a: { name: string }) => a.name);
    const active = await call(
      'GET',
      `${routes.listAccounts.path}?membership_filter=active&per_page=25`,
      admin,
    );
    expect(names).toEqual(active.body.data.map((a: { name: string }) => a.name));
    expect(names).not.toContain('Aardvark Never Active');
    expect(all.body.pagination.total_count ?? all.body.pagination.total).toBe(names.length);
    expect((await server.call({ method: 'GET', url: routes.listMemberFunders.path })).status).toBe(401);
  });
});

describe('getDeletedMerchant', () => {
  it('shows an archived merchant to platform admins; a live one is not among the deleted', async () => {
    const added = await call('POST', routes.addMerchant.path, tokens.tom!, {
      merchant: { fein: '55-1234567', legal_name: 'Gone Bakery LLC', city: 'Tampa', state: 'FL' },
      note: { category: 'Slow Pay', note: 'Late.', submission_source: 'in-house' },
    });
    const id = added.body.data.resource_id;
    const url = buildPath(routes.getDeletedMerchant.path, { id });
    expect((await call('GET', url, admin)).status).toBe(404);
    await call('PUT', buildPath(routes.archiveMerchant.path, { id }), admin, {
      delete_merchant: { reason: 'duplicate' },
    });
    const deleted = await call('GET', url, admin);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({
      resource_id: id,
      legal_name: 'Gone Bakery LLC',
      fein: '551234567',
    });
    expect((await call('GET', url, tokens.priya!)).status).toBe(403);
  });
});

describe('API access', () => {
  it('regenerates a key (the old one stops matching), revokes a user and then the account', async () => {
    const harbor = accountOf.priya!;
    const tom = userOf.tom!;
    expect(
      (await call('PUT', buildPath(routes.grantAccountApiAccess.path, { id: harbor }), admin)).status,
    ).toBe(200);
    const granted = await call('PUT', buildPath(routes.grantUserApiAccess.path, { id: tom }), tokens.priya!);
    expect(granted.status).toBe(200);
    const first = granted.body.data;

    const regenerated = await call(
      'PUT',
      buildPath(routes.regenerateApiKey.path, { id: tom }),
      tokens.priya!,
    );
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.data.authentication_token).toBe(first.authentication_token);
    expect(regenerated.body.data.authentication_key).not.toBe(first.authentication_key);
    const hashes = (await eventsOf(`user-${tom}`))
      .filter((e) => e.type === 'UserApiAccessGranted' || e.type === 'UserApiKeyRegenerated')
      .map((e) => e.data.keyHash);
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).not.toBe(hashes[1]);
    expect(JSON.stringify(hashes)).not.toContain(regenerated.body.data.authentication_key);

    const revokedUser = await call(
      'PUT',
      buildPath(routes.revokeUserApiAccess.path, { id: tom }),
      tokens.priya!,
    );
    expect(revokedUser.status).toBe(200);
    const credentials = await call(
      'GET',
      buildPath(routes.getApiCredentials.path, { id: tom }),
      tokens.priya!,
    );
    expect(credentials.body.data).toEqual({ authentication_token: null, key_hint: null });
    expect(
      (await call('GET', buildPath(routes.getUser.path, { id: tom }), tokens.priya!)).body.data.api_granted,
    ).toBe(false);

    const revokedAccount = await call(
      'PUT',
      buildPath(routes.revokeAccountApiAccess.path, { id: harbor }),
      admin,
    );
    expect(revokedAccount.status).toBe(200);
    expect(
      (await call('GET', buildPath(routes.getAccount.path, { id: harbor }), admin)).body.data.can_access_api,
    ).toBe(false);
    const refused = await call('PUT', buildPath(routes.grantUserApiAccess.path, { id: tom }), tokens.priya!);
    expect(refused.status).toBe(409);
    expect(
      (await call('PUT', buildPath(routes.revokeAccountApiAccess.path, { id: harbor }), tokens.priya!))
        .status,
    ).toBe(403);
  });
});

describe('dashboardUpdates', () => {
  it('answers the signed-in user as they stand now (a role change shows without signing in again)', async () => {
    const before = await call('POST', routes.dashboardUpdates.path, tokens.tom!, {});
    expect(before.status).toBe(200);
    expect(before.body.data.user).toMatchObject({
      resource_id: userOf.tom,
      email: 'tom.becker@harboradvance.example',
      account_name: 'Harbor Business Advance',
      is_admin: false,
    });
    await call('PUT', buildPath(routes.toggleUserAdmin.path, { id: userOf.tom! }), tokens.priya!);
    const after = await call('POST', routes.dashboardUpdates.path, tokens.tom!, {});
    expect(after.body.data.user.is_admin).toBe(true);
    expect(
      (await server.call({ method: 'POST', url: routes.dashboardUpdates.path, payload: {} })).status,
    ).toBe(401);
  });
});
