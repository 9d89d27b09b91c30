import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 24's first signals over HTTP, on the real server and database: inquiry velocity on the search
// answer, the merchant page and the partner API (figures for PRO, an upgrade path for BASIC; the
// viewer's own account and platform administrators never counted), and linked merchants.

let server: TestServer;
const token: Record<string, string> = {};
let admin = '';
let apiToken = '';

const FUNDERS = {
  dana: 'dana.whitfield@summitcapital.example', // Summit, PRO
  marco: 'marco.reyes@summitcapital.example', // Summit, PRO (dana's colleague)
  priya: 'priya.natarajan@harboradvance.example', // Harbor, BASIC
  alex: 'alex.morgan@lakeside.example', // Lakeside, BASIC
} as const;

beforeAll(async () => {
  server = await startTestServer({ demo: true, env: { RATE_LIMIT_TOKEN_PER_MINUTE: '1000' } });
  admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries(FUNDERS)) token[who] = await server.login(email, DEMO_PASSWORD);
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: token.dana });
  const { account_resource_id: account, resource_id: user } = me.body.data.user;
  expect(
    (
      await server.call({
        method: 'PUT',
        url: buildPath(routes.grantAccountApiAccess.path, { id: account }),
        token: admin,
      })
    ).status,
  ).toBe(200);
  const credentials = await server.call({
    method: 'PUT',
    url: buildPath(routes.grantUserApiAccess.path, { id: user }),
    token: token.dana,
  });
  expect(credentials.status).toBe(200);
  await settle();
  const issued = await server.call({
    method: 'POST',
    url: routes.getApiToken.path,
    payload: { auth: credentials.body.data },
  });
  expect(issued.status).toBe(200);
  apiToken = issued.body.data.token;
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const settle = async () => expect(await server.projectedAll(undefined, 20_000)).toBe(true);

let einCount = 0;
const freshEin = () => String(830_000_000 + ++einCount);

async function report(
  who: string,
  merchant: { fein: string; legal_name: string; business_phone?: string; street1?: string; city?: string },
): Promise<string> {
  const res = await server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: token[who],
    payload: {
      merchant: { city: 'Tulsa', state: 'OK', ...merchant },
      note: { category: 'Default', note: 'Stopped paying.' },
      proxied_creator: null,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.resource_id;
}

const searchAs = (tokenValue: string, term: string) =>
  server.call({ method: 'GET', url: `${routes.searchMerchants.path}?search=${term}`, token: tokenValue });
const merchantAs = async (tokenValue: string, id: string) => {
  const res = await server.call({
    method: 'GET',
    url: buildPath(routes.getMerchant.path, { id }),
    token: tokenValue,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  routes.getMerchant.response.parse(res.body);
  return res.body.data;
};
const figures = (last7: number, last30 = last7, last90 = last30) => ({
  available: true,
  last_7_days: last7,
  last_30_days: last30,
  last_90_days: last90,
});
const LOCKED = { available: false, last_7_days: null, last_30_days: null, last_90_days: null };

describe('inquiry velocity', () => {
  it('counts distinct other funders searching at once, never the viewer’s own account or an administrator', async () => {
    const fein = freshEin();
    const id = await report('alex', { fein, legal_name: `Shopping Cart ${fein} LLC` });
    // Searches arriving at once: Harbor twice, Lakeside, Summit (marco), and a platform administrator.
    const answers = await Promise.all(
      [token.priya!, token.priya!, token.alex!, token.marco!, admin].map((t) => searchAs(t, fein)),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    await settle();

    // Summit (PRO) sees Harbor and Lakeside: its own account's search (marco) and the administrator's do not count.
    expect((await merchantAs(token.dana!, id)).inquiries).toEqual(figures(2));
    // The administrator (counted as no funder) sees the three funders.
    expect((await merchantAs(admin, id)).inquiries).toEqual(figures(3));
    // BASIC sees that the signal exists, not the figures, on the page and in a search.
    expect((await merchantAs(token.priya!, id)).inquiries).toEqual(LOCKED);
    const basic = await searchAs(token.priya!, fein);
    expect(basic.body.data[0].inquiries).toEqual(LOCKED);

    // The search answer carries the same figures (recorded after the figures were read: Harbor counts once).
    const pro = await searchAs(token.dana!, fein);
    expect(pro.status).toBe(200);
    routes.searchMerchants.response.parse(pro.body);
    expect(pro.body.data[0].inquiries).toEqual(figures(2));
    // Summit's own searches (dana just now) are counted for Lakeside, which reported it.
    await settle();
    const lakesideView = await server.call({
      method: 'GET',
      url: buildPath(routes.getMerchant.path, { id }),
      token: admin,
    });
    expect(lakesideView.body.data.inquiries.last_7_days).toBe(3);

    // The audit explains the administrator's figure from the searches, naming no funder.
    const audit = await server.call({
      method: 'GET',
      url: buildPath(routes.merchantInquiryAudit.path, { id }),
      token: admin,
    });
    expect(audit.status, JSON.stringify(audit.body)).toBe(200);
    routes.merchantInquiryAudit.response.parse(audit.body);
    const explained = audit.body.data;
    expect([explained.last_7_days, explained.last_30_days, explained.last_90_days]).toEqual([3, 3, 3]);
    expect(explained.windows[0]).toEqual({ days: 7, funders: ['Funder 1', 'Funder 2', 'Funder 3'] });
    // Harbor three times, Lakeside, Summit twice, and the administrator: seven searches, six counted.
    expect(explained.searches).toHaveLength(7);
    expect(explained.searches.filter((s: { counted: boolean }) => s.counted)).toHaveLength(6);
    expect(explained.searches.find((s: { counted: boolean }) => !s.counted)).toMatchObject({
      funder: 'Platform administrator',
      why: 'A platform administrator’s search: not counted',
    });
    expect(JSON.stringify(audit.body)).not.toMatch(/Harbor|Lakeside|Summit|harbor|lakeside|summit/);
    // For platform administrators only.
    for (const who of [token.dana!, token.priya!]) {
      const refused = await server.call({
        method: 'GET',
        url: buildPath(routes.merchantInquiryAudit.path, { id }),
        token: who,
      });
      expect(refused.status).toBe(403);
    }
  });

  it('a keyword search that lists several merchants looks none of them up', async () => {
    const word = `Zorvane${freshEin()}`;
    const first = await report('alex', { fein: freshEin(), legal_name: `${word} Alpha LLC` });
    await report('alex', { fein: freshEin(), legal_name: `${word} Beta LLC` });
    await settle();
    expect((await searchAs(token.priya!, word)).body.data).toHaveLength(2);
    // One found alone by its name counts as a look-up.
    expect((await searchAs(token.alex!, `${word} alpha`)).body.data).toHaveLength(1);
    await settle();
    expect((await merchantAs(token.dana!, first)).inquiries).toEqual(figures(1));
    const audit = await server.call({
      method: 'GET',
      url: buildPath(routes.merchantInquiryAudit.path, { id: first }),
      token: admin,
    });
    expect(
      audit.body.data.searches.map((s: { counted: boolean; why: string }) => [s.counted, s.why]),
    ).toEqual([
      [true, 'Looked it up (by EIN, or a name that found only it)'],
      [false, 'Listed among other merchants by a name search: not a look-up'],
    ]);
  });

  it('is in the partner API’s search answers, checked against their schemas', async () => {
    const fein = freshEin();
    await report('alex', { fein, legal_name: `Partner View ${fein} LLC` });
    expect((await searchAs(token.priya!, fein)).status).toBe(200);
    await settle();
    for (const route of [routes.partnerSearchMerchants, routes.partnerSearchWithAdditionalData]) {
      const res = await server.call({
        method: 'GET',
        url: buildPath(route.path, { key: fein }),
        headers: { authorization: `Bearer ${apiToken}` },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      route.response.parse(res.body);
      expect(res.body.data[0].inquiries).toEqual(figures(1));
    }
  });
});

describe('linked merchants', () => {
  it('lists other EINs sharing the phone or the street address, newest first, and drops an archived one', async () => {
    const base = { city: 'Tulsa' };
    const firstEin = freshEin();
    const first = await report('alex', {
      ...base,
      fein: firstEin,
      legal_name: 'Old Shell Co LLC',
      business_phone: '(918) 555-0142',
      street1: '200 West Main Street',
    });
    const samePhone = await report('priya', {
      ...base,
      fein: freshEin(),
      legal_name: 'New Shell Co LLC',
      business_phone: '918.555.0142',
      street1: '9 Elm Ave',
    });
    const sameBoth = await report('priya', {
      ...base,
      fein: freshEin(),
      legal_name: 'Newest Shell Co LLC',
      business_phone: '+1 918 555 0142',
      street1: '200 W. Main St. Suite 4',
    });
    await report('priya', {
      ...base,
      fein: freshEin(),
      legal_name: 'Unrelated LLC',
      business_phone: '918 555 0177',
    });
    await settle();

    const linked = async (id: string, who = token.priya!) => {
      const res = await server.call({
        method: 'GET',
        url: buildPath(routes.listLinkedMerchants.path, { id }),
        token: who,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      routes.listLinkedMerchants.response.parse(res.body);
      return res.body.data as { resource_id: string; shared: string[]; last_note_category: string | null }[];
    };
    // A search's answer (issue 30, item 6): offered once the viewer's account has found the merchant.
    for (const who of [token.priya!, token.dana!]) expect((await searchAs(who, firstEin)).status).toBe(200);
    // Any member sees them (BASIC too): what they share, and their latest note's category.
    expect((await linked(first)).map((m) => [m.resource_id, m.shared, m.last_note_category])).toEqual([
      [sameBoth, ['address', 'phone'], 'Default'],
      [samePhone, ['phone'], 'Default'],
    ]);

    const archived = await server.call({
      method: 'PUT',
      url: buildPath(routes.archiveMerchant.path, { id: sameBoth }),
      token: admin,
      payload: { delete_merchant: { reason: 'Duplicate of another record.' } },
    });
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    await settle();
    expect((await linked(first, token.dana)).map((m) => m.resource_id)).toEqual([samePhone]);
    // An archived merchant has no page, and no list.
    const gone = await server.call({
      method: 'GET',
      url: buildPath(routes.listLinkedMerchants.path, { id: sameBoth }),
      token: token.dana,
    });
    expect(gone.status).toBe(404);
  });

  it('answers the partner API by EIN, and refuses a bad or unknown EIN clearly', async () => {
    const fein = freshEin();
    await report('alex', { fein, legal_name: 'Partner Shell LLC', business_phone: '(539) 555-0123' });
    const other = freshEin();
    await report('priya', {
      fein: other,
      legal_name: 'Partner Shell Two LLC',
      business_phone: '539-555-0123',
    });
    await settle();
    const call = (value: string) =>
      server.call({
        method: 'GET',
        url: buildPath(routes.partnerLinkedMerchants.path, { fein: value }),
        headers: { authorization: `Bearer ${apiToken}` },
      });
    const res = await call(fein);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    routes.partnerLinkedMerchants.response.parse(res.body);
    expect(res.body.data).toEqual([
      expect.objectContaining({ fein: other, legal_name: 'Partner Shell Two LLC', shared: ['phone'] }),
    ]);
    expect(res.body.data[0]).not.toHaveProperty('resource_id');

    const bad = await call('12-34');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'fein', message: 'must be 9 digits' }]);
    const unknown = await call('999999998');
    expect(unknown.status).toBe(404);
  });
});
