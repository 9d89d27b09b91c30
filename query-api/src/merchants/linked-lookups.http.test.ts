import { randomUUID } from 'node:crypto';
import { buildPath, LINKED_TEXTS, routes, streams } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_TEXTS } from '../search/search-handlers.ts';

// Linked merchants are what a search answers (issue 30, item 6): both look-ups answered for any merchant
// without recording a search, so they skipped the daily cap and the contribution lock. The partner API's
// look-up by EIN is now a search of that EIN; the merchant page's list is offered for a merchant the
// account found by a search in the last 90 days, while it may search.

let server: TestServer;
let admin = '';
const token: Record<string, string> = {};
const accountOf: Record<string, string> = {};
const userOf: Record<string, string> = {};
const api: Record<string, string> = {};
const PEOPLE = {
  priya: 'priya.natarajan@harboradvance.example', // Harbor (BASIC) admin
  tom: 'tom.becker@harboradvance.example', // Harbor member
  dana: 'dana.whitfield@summitcapital.example', // Summit (PRO) admin
  alex: 'alex.morgan@lakeside.example', // Lakeside (BASIC) admin
} as const;
const FEIN = { a: '884000001', b: '884000002', unknown: '884000099' };
let merchantA = '';
let merchantB = '';

beforeAll(async () => {
  server = await startTestServer({ demo: true, env: { RATE_LIMIT_TOKEN_PER_MINUTE: '1000' } });
  admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries(PEOPLE)) {
    token[who] = await server.login(email, DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: token[who] });
    accountOf[who] = me.body.data.user.account_resource_id;
    userOf[who] = me.body.data.user.resource_id;
  }
  // Lakeside reports two EINs sharing a phone.
  const report = async (fein: string, name: string) => {
    const res = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: token.alex,
      payload: {
        merchant: { fein, legal_name: name, business_phone: '(405) 555-0161', city: 'Tulsa', state: 'OK' },
        note: { category: 'Default', note: 'Stopped paying.' },
        proxied_creator: null,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.resource_id as string;
  };
  merchantA = await report(FEIN.a, 'Linked Look-up One LLC');
  merchantB = await report(FEIN.b, 'Linked Look-up Two LLC');
  for (const who of ['priya', 'dana'] as const) {
    const granted = await server.call({
      method: 'PUT',
      url: buildPath(routes.grantAccountApiAccess.path, { id: accountOf[who]! }),
      token: admin,
    });
    expect(granted.status).toBe(200);
    const credentials = await server.call({
      method: 'PUT',
      url: buildPath(routes.grantUserApiAccess.path, { id: userOf[who]! }),
      token: token[who],
    });
    expect(credentials.status).toBe(200);
    const issued = await server.call({
      method: 'POST',
      url: routes.getApiToken.path,
      payload: { auth: credentials.body.data },
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    api[who] = issued.body.data.token;
  }
  expect(await server.projectedAll()).toBe(true);
}, 90_000);
afterAll(async () => {
  await server?.close();
});

const linked = (id: string, who: string) =>
  server.call({ method: 'GET', url: buildPath(routes.listLinkedMerchants.path, { id }), token: who });
const partnerLinked = (fein: string, who: string) =>
  server.call({
    method: 'GET',
    url: buildPath(routes.partnerLinkedMerchants.path, { fein }),
    headers: { authorization: `Bearer ${who}` },
  });
/** The searches of an EIN each account made, as a platform administrator sees them. */
async function searchesOf(fein: string): Promise<string[]> {
  expect(await server.projectedAll()).toBe(true);
  const res = await server.call({
    method: 'GET',
    url: `${routes.searchCounts.path}?search=${fein}`,
    token: admin,
  });
  expect(res.status).toBe(200);
  return res.body.data.entries.map((e: { added_by_account_id: string }) => e.added_by_account_id);
}

describe('the merchant page’s linked merchants', () => {
  it('are offered for a merchant the account found by a search; other funders are sent to search first', async () => {
    const refused = await linked(merchantA, token.tom!);
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toBe(LINKED_TEXTS.searchFirst);

    const searched = await server.call({
      method: 'GET',
      url: `${routes.searchMerchants.path}?search=${FEIN.a}`,
      token: token.tom,
    });
    expect(searched.status).toBe(200);
    // Read at once after the search (X-Consistent-After): the account's find is there.
    const shown = await linked(merchantA, token.tom!);
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body.data.map((m: { resource_id: string }) => m.resource_id)).toEqual([merchantB]);
    // The same account's other member, and a platform administrator, see it; another funder does not.
    expect((await linked(merchantA, token.priya!)).status).toBe(200);
    expect((await linked(merchantA, admin)).status).toBe(200);
    expect((await linked(merchantA, token.dana!)).status).toBe(403);
    // Found B? No: A's list named B, which opens B's page, not B's list.
    expect((await linked(merchantB, token.tom!)).status).toBe(403);
  });
});

describe('the partner API’s linked merchants', () => {
  it('are a search of the EIN: recorded, a miss too', async () => {
    const before = await searchesOf(FEIN.a);
    const res = await partnerLinked(FEIN.a, api.dana!);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((m: { fein: string }) => m.fein)).toEqual([FEIN.b]);
    expect(await searchesOf(FEIN.a)).toEqual([accountOf.dana, ...before]);

    expect((await partnerLinked(FEIN.unknown, api.dana!)).status).toBe(404);
    expect(await searchesOf(FEIN.unknown)).toEqual([accountOf.dana]);
  });

  it('count toward the BASIC daily cap of 3,000 searches: refused once it is used up', async () => {
    await server.db.pool.query(
      `insert into search_quota (account_id, day, used) values ($1, (now() at time zone 'utc')::date, 3000)
       on conflict (account_id, day) do update set used = 3000`,
      [accountOf.priya],
    );
    try {
      const res = await partnerLinked(FEIN.a, api.priya!);
      expect(res.status).toBe(429);
      expect(res.body.errors[0].message).toBe(
        'BASIC members can search up to 3,000 times a day. Upgrade to PRO for unlimited searches.',
      );
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await server.db.pool.query('delete from search_quota where account_id = $1', [accountOf.priya]);
    }
    expect((await partnerLinked(FEIN.a, api.priya!)).status).toBe(200);
  });
});

describe('an account locked from search for its contribution', () => {
  it('gets neither list, however recently it found the merchant', async () => {
    const harbor = accountOf.priya!;
    // Harbor below 0.50 %: distinct merchants searched far beyond 200 × its records, warned and locked.
    const standing = await server.call({
      method: 'GET',
      url: buildPath(routes.getAccountContribution.path, { id: harbor }),
      token: token.priya,
    });
    const { contribution_records_added: added, contribution_merchants_searched: searched } =
      standing.body.data;
    await server.recordSearches(
      Array.from({ length: 203 * added - searched }, () => ({
        accountId: harbor,
        userId: userOf.tom!,
        source: 'web' as const,
        term: '123456789',
        einSearch: true,
        merchantIds: [randomUUID()],
        hit: true,
      })),
    );
    await server.store.appendToStream(
      streams.account(harbor),
      [
        {
          id: randomUUID(),
          type: 'AccountContributionWarningIssued',
          data: {
            accountId: harbor,
            percent: 0.49,
            issuedAt: new Date(Date.now() - 15 * 86_400_000).toISOString(),
            expiresAt: new Date(Date.now() - 86_400_000).toISOString(),
          },
          metadata: { source: 'system' },
        },
        {
          id: randomUUID(),
          type: 'AccountContributionLocked',
          data: { accountId: harbor, percent: 0.49 },
          metadata: { source: 'system' },
        },
      ],
      { expectedRevision: 'any' },
    );
    expect(await server.projectedAll()).toBe(true);

    const page = await linked(merchantA, token.tom!);
    expect(page.status).toBe(403);
    expect(page.body.errors).toBe(SEARCH_TEXTS.lowContribution);
    const partner = await partnerLinked(FEIN.a, api.priya!);
    expect(partner.status).toBe(403);
    expect(partner.body.errors[0].message).toBe(SEARCH_TEXTS.lowContribution);
  });
});
