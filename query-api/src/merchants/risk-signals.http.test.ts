import { buildPath, PartnerSearchedMerchantWithSource, routes, SearchedMerchantView } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Risk signals (issue 32) on the real server and database: on a search's answer and the merchant page for
// every plan, in the partner API, the linked merchants' worst category for PRO; an archived note leaves
// them and a dispute filed against the EIN counts as open. The windows' edges are contracts' unit tests.

let server: TestServer;
let admin = '';
const dashboard: Record<string, string> = {};
const accountOf: Record<string, string> = {};
let apiToken = '';

beforeAll(async () => {
  server = await startTestServer({ demo: true, env: { RATE_LIMIT_TOKEN_PER_MINUTE: '1000' } });
  admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries({
    dana: 'dana.whitfield@summitcapital.example', // Summit (PRO) admin
    priya: 'priya.natarajan@harboradvance.example', // Harbor (BASIC) admin
  })) {
    dashboard[who] = await server.login(email, DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: dashboard[who] });
    accountOf[who] = me.body.data.user.account_resource_id;
  }
  const granted = await server.call({
    method: 'PUT',
    url: buildPath(routes.grantAccountApiAccess.path, { id: accountOf.dana! }),
    token: admin,
  });
  expect(granted.status).toBe(200);
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: dashboard.dana });
  const credentials = await server.call({
    method: 'PUT',
    url: buildPath(routes.grantUserApiAccess.path, { id: me.body.data.user.resource_id }),
    token: dashboard.dana,
  });
  expect(credentials.status).toBe(200);
  const token = await server.call({
    method: 'POST',
    url: routes.getApiToken.path,
    payload: { auth: credentials.body.data },
  });
  expect(token.status).toBe(200);
  apiToken = token.body.data.token;
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const FEIN = '771000001';
const LINKED_FEIN = '771000002';
const PHONE = '(512) 555-0142';

async function addMerchant(token: string, fein: string, category: string): Promise<string> {
  const res = await server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token,
    payload: {
      merchant: {
        fein,
        legal_name: `Signal Test ${fein} LLC`,
        city: 'Austin',
        state: 'TX',
        business_phone: PHONE,
      },
      note: { category, note: 'First report.', submission_source: 'in-house' },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.resource_id;
}
async function addNote(token: string, merchantId: string, category: string): Promise<string> {
  const res = await server.call({
    method: 'POST',
    url: buildPath(routes.addNote.path, { id: merchantId }),
    token,
    payload: { note: { category, note: `${category} reported.`, submission_source: 'in-house' } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.resource_id;
}
const search = async (token: string, term: string) => {
  const res = await server.call({
    method: 'GET',
    url: `${routes.searchMerchants.path}?search=${term}`,
    token,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return SearchedMerchantView.array().parse(res.body.data);
};

describe('risk signals', () => {
  let merchant = '';
  let stacking = '';

  it('counts distinct funders and each group, worst first, and a cured default, for BASIC and PRO alike', async () => {
    merchant = await addMerchant(dashboard.priya!, FEIN, 'Default');
    stacking = await addNote(dashboard.dana!, merchant, 'Stacking History');
    await addNote(dashboard.dana!, merchant, 'Stacking History');
    await addNote(dashboard.priya!, merchant, 'Default Satisfied');
    expect(await server.projectedAll(undefined, 20_000)).toBe(true);

    for (const who of ['dana', 'priya']) {
      const [found] = await search(dashboard[who]!, FEIN);
      expect(found!.signals).toMatchObject({
        funders: 2,
        disputes: { open: 0, resolved: 0 },
        categories: [
          {
            group: 'default',
            label: 'Default / Default Account',
            last_90_days: 1,
            last_12_months: 1,
            ever: 1,
          },
          {
            group: 'stacking_history',
            label: 'Stacking History',
            last_90_days: 2,
            last_12_months: 2,
            ever: 2,
          },
        ],
      });
      expect(found!.signals.cured_at).not.toBeNull();
      const page = await server.call({
        method: 'GET',
        url: buildPath(routes.getMerchant.path, { id: merchant }),
        token: dashboard[who],
      });
      expect(page.body.data.signals).toEqual(found!.signals);
    }
  });

  it('answers the same signals in the partner API, in its documented shape', async () => {
    const res = await server.front.inject({
      method: 'GET',
      url: buildPath(routes.partnerSearchWithAdditionalData.path, { key: FEIN }),
      headers: { authorization: `Bearer ${apiToken}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [found] = PartnerSearchedMerchantWithSource.array().parse(res.json().data);
    expect(found!.signals.funders).toBe(2);
    expect(found!.signals.categories.map((c) => c.group)).toEqual(['default', 'stacking_history']);
  });

  it('gives each linked merchant its worst category, for PRO', async () => {
    const linked = await addMerchant(dashboard.dana!, LINKED_FEIN, 'Slow Pay');
    await addNote(dashboard.priya!, linked, 'Suspicious Activity');
    expect(await server.projectedAll(undefined, 20_000)).toBe(true);
    await search(dashboard.dana!, FEIN);
    const res = await server.call({
      method: 'GET',
      url: buildPath(routes.listLinkedMerchants.path, { id: merchant }),
      token: dashboard.dana,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject([{ fein: LINKED_FEIN, worst_category: 'suspicious_activity' }]);
    // BASIC sees the linked merchant, not its worst category (PRO's, as inquiry velocity is).
    await search(dashboard.priya!, FEIN);
    const basic = await server.call({
      method: 'GET',
      url: buildPath(routes.listLinkedMerchants.path, { id: merchant }),
      token: dashboard.priya,
    });
    expect(basic.body.data).toMatchObject([{ fein: LINKED_FEIN, worst_category: null }]);
  });

  it('drops an archived note from the counts and counts a dispute filed against the EIN as open', async () => {
    const archived = await server.call({
      method: 'PUT',
      url: buildPath(routes.archiveNote.path, { id: stacking }),
      token: admin,
    });
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    const filed = await server.call({
      method: 'POST',
      url: routes.createDispute.path,
      payload: {
        dispute: {
          first_name: 'Ann',
          last_name: 'Owner',
          email: 'ann.owner@example.com',
          fein: '77-1000001',
          legal_name: 'Signal Test LLC',
          city: 'Austin',
          state: 'TX',
          reason: 'We never took an advance from this funder.',
        },
      },
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    expect(await server.projectedAll(undefined, 20_000)).toBe(true);
    const [found] = await search(dashboard.dana!, FEIN);
    expect(found!.signals.categories.find((c) => c.group === 'stacking_history')).toMatchObject({ ever: 1 });
    expect(found!.signals.disputes).toEqual({ open: 1, resolved: 0 });
  });
});
