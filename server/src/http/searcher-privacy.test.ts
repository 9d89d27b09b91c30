import { buildPath, type RouteSpec, routes } from '@mrn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo.ts';
import { startTestServer, TEST_ADMIN, type TestServer } from '../testing.ts';

// The network's first rule: no funder is identified to another as having searched (issue 30, item 1).
// Every read route of the route table is walked as every kind of caller from another funder, before and
// after one funder (Lakeside) searches a merchant every way there is (dashboard EIN and name searches, a
// miss, the partner API's searches and linked look-up); an answer that names the searcher more often
// after its searches than before fails. Platform administrators see who searched (the inquiry audit),
// and so does the searcher's own account: both are checked to see it, so the walk is not vacuous.

type RouteName = keyof typeof routes;
/** Routes that read (GET): the answers a caller gets without changing anything. */
type ReadRoute = { [K in RouteName]: (typeof routes)[K]['method'] extends 'GET' ? K : never }[RouteName];
interface Fixture {
  params?: Record<string, string>;
  query?: Record<string, string>;
}
interface Scene {
  merchant: string;
  fein: string;
  missedFein: string;
  name: string;
  /** The searcher's (Lakeside's) account and its admin, the caller's own. */
  searcherAccount: string;
  searcherUser: string;
  ownAccount: string;
  ownUser: string;
}

const ZERO = '00000000-0000-4000-8000-0000000000aa';
const merchantId = (s: Scene) => [{ params: { id: s.merchant } }];
const byEin = (s: Scene) => [{ params: { fein: s.fein } }, { params: { fein: s.missedFein } }];
const byKey = (s: Scene) => [{ params: { key: s.fein } }, { params: { key: s.name } }];
/** An account's records: the caller's own, and the searcher's (another funder's, to be refused). */
const accounts = (s: Scene) => [{ params: { id: s.ownAccount } }, { params: { id: s.searcherAccount } }];
const users = (s: Scene) => [{ params: { id: s.ownUser } }, { params: { id: s.searcherUser } }];
const none = () => [{}];
const widget = (s: Scene) => [{}, { query: { account_id: s.searcherAccount } }];

/** What each read route is asked; a read route missing here fails the walk, so new ones are walked too. */
const FIXTURES: Record<ReadRoute, (s: Scene) => Fixture[]> = {
  autoLogin: none,
  getAppSettings: none,
  getBillingConfig: none,
  otpNew: none,
  searchMerchants: (s) => [{ query: { search: s.fein } }, { query: { search: s.name } }],
  merchantCheckExists: (s) => [{ query: { search: s.fein } }],
  searchCounts: (s) => [{ query: { search: s.fein } }, { query: { search: s.missedFein } }],
  listMerchants: none,
  getMerchant: merchantId,
  listLinkedMerchants: merchantId,
  merchantInquiryAudit: merchantId,
  listBrokers: none,
  getBroker: () => [{ params: { key: 'privacy brokers' } }],
  merchantHistory: merchantId,
  listMerchantNotes: merchantId,
  listDeletedMerchants: none,
  getDeletedMerchant: merchantId,
  listDeletedNotes: merchantId,
  listReportedNotes: none,
  recentNotes: none,
  listAccounts: none,
  getAccount: accounts,
  getAccountContribution: accounts,
  previewPlanChange: (s) => accounts(s).map((f) => ({ ...f, query: { plan: 'PRO' } })),
  listInvoices: accounts,
  exportContacts: none,
  listMemberFunders: none,
  listAccountUsers: accounts,
  getUser: users,
  getApiCredentials: users,
  listDisputes: none,
  getDispute: () => [{ params: { id: ZERO } }],
  listDevMailbox: none,
  listMerchantSubscriptions: accounts,
  exportMerchantSubscriptions: accounts,
  toggleMerchantSubscription: () => [],
  listSubscriptionImports: accounts,
  listWebhookDeliveries: accounts,
  getWebhookDelivery: (s) => accounts(s).map((f) => ({ params: { ...f.params, delivery_id: ZERO } })),
  downloadSubscriptionImportResults: (s) =>
    accounts(s).map((f) => ({ params: { ...f.params, import_id: ZERO } })),
  searchesByDay: widget,
  additionsByDay: widget,
  searchesBySource: widget,
  hitsByCategory: widget,
  totalNotes: none,
  totalMerchants: none,
  totalMembers: none,
  totalUsers: none,
  totalMonthlyRevenue: none,
  recentMerchantsByCategory: none,
  topContributors: none,
  bottomContributors: none,
  dashboardWidgets: none,
  partnerSearchMerchants: byKey,
  partnerSearchWithAdditionalData: byKey,
  partnerGetSubscription: byEin,
  // A GET that writes (the spec's path): it changes the caller's own watches only, and names nothing.
  partnerDeleteSubscription: () => [],
  partnerSearchHistory: byEin,
  partnerLinkedMerchants: byEin,
  // Screenings are the caller's account's own (another's id answers 404, as one that does not exist).
  listScreenings: none,
  getScreening: () => [{ params: { id: ZERO } }],
  listScreeningRows: () => [{ params: { id: ZERO } }],
  downloadScreeningCsv: () => [{ params: { id: ZERO } }],
  downloadScreeningPdf: () => [{ params: { id: ZERO } }],
  listScreeningHits: () => [{ params: { id: ZERO } }],
  partnerGetScreening: () => [{ params: { id: ZERO } }],
  partnerScreeningResults: () => [{ params: { id: ZERO } }],
};

/** Who walks: every kind of caller from another funder, through the dashboard and the partner API. */
const WALKERS = {
  anonymous: { email: undefined, api: false },
  basicMember: { email: 'tom.becker@harboradvance.example', api: false },
  basicAdmin: { email: 'priya.natarajan@harboradvance.example', api: false },
  proMember: { email: 'marco.reyes@summitcapital.example', api: false },
  proAdmin: { email: 'dana.whitfield@summitcapital.example', api: false },
  proPartner: { email: 'dana.whitfield@summitcapital.example', api: true },
} as const;
type Walker = keyof typeof WALKERS;
const SEARCHER = 'alex.morgan@lakeside.example';

let server: TestServer;
let admin = '';
let searcher = '';
let searcherApi = '';
const tokens: Partial<Record<Walker, string>> = {};
const scenes: Partial<Record<Walker, Scene>> = {};
let identifiers: string[] = [];

async function signIn(email: string, password = DEMO_PASSWORD) {
  const res = await server.call({
    method: 'POST',
    url: routes.login.path,
    payload: { auth: { email, password } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const user = res.body.data.user;
  return {
    token: res.body.data.jwt as string,
    user: user.resource_id as string,
    account: user.account_resource_id as string,
  };
}

/** API credentials for an admin's own user (its account's access granted by a platform admin first). */
async function apiTokenOf(who: { token: string; user: string; account: string }) {
  const grant = await server.call({
    method: 'PUT',
    url: buildPath(routes.grantAccountApiAccess.path, { id: who.account }),
    token: admin,
  });
  expect(grant.status, JSON.stringify(grant.body)).toBe(200);
  const credentials = await server.call({
    method: 'PUT',
    url: buildPath(routes.grantUserApiAccess.path, { id: who.user }),
    token: who.token,
  });
  expect(credentials.status, JSON.stringify(credentials.body)).toBe(200);
  const issued = await server.call({
    method: 'POST',
    url: routes.getApiToken.path,
    payload: { auth: credentials.body.data },
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  return issued.body.data.token as string;
}

const send = (route: RouteSpec, fixture: Fixture, token: string | undefined) =>
  server.call({
    method: route.method,
    url:
      buildPath(route.path, fixture.params ?? {}) +
      (fixture.query ? `?${new URLSearchParams(fixture.query)}` : ''),
    ...(token ? { token } : {}),
  });

/** How often each identifier of the searcher appears in an answer (lower case: names in any spelling). */
const mentions = (body: unknown): number[] => {
  const text = (typeof body === 'string' ? body : JSON.stringify(body)).toLowerCase();
  return identifiers.map((id) => text.split(id.toLowerCase()).length - 1);
};

type Walk = Map<string, { mentions: number[]; status: number }>;

async function walk(): Promise<Walk> {
  const seen: Walk = new Map();
  for (const walker of Object.keys(WALKERS) as Walker[]) {
    const scene = scenes[walker]!;
    for (const name of Object.keys(FIXTURES) as ReadRoute[]) {
      const route = routes[name] as RouteSpec;
      for (const [i, fixture] of FIXTURES[name](scene).entries()) {
        const res = await send(route, fixture, tokens[walker]);
        seen.set(`${name}#${i} as ${walker}`, { mentions: mentions(res.body), status: res.status });
      }
    }
  }
  return seen;
}

let before: Walk;

beforeAll(async () => {
  server = await startTestServer({ demo: true, env: { RATE_LIMIT_TOKEN_PER_MINUTE: '1000' } });
  admin = (await signIn(TEST_ADMIN.email, TEST_ADMIN.password)).token;
  const lakeside = await signIn(SEARCHER);
  searcher = lakeside.token;
  const dana = await signIn(WALKERS.proAdmin.email);

  // The merchant: reported by Summit, with a second EIN at its phone (a linked merchant).
  const fein = '861000001';
  const name = 'Privacy Quarry';
  const add = async (ein: string) => {
    const res = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: dana.token,
      payload: {
        merchant: {
          fein: ein,
          legal_name: `${name} ${ein} LLC`,
          business_phone: '(212) 555-0188',
          city: 'Tulsa',
          state: 'OK',
        },
        note: {
          category: 'Stacking History',
          note: 'Took three advances in a week.',
          submission_source: 'broker',
          broker_name: 'Privacy Brokers',
        },
        proxied_creator: null,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.resource_id as string;
  };
  const merchant = await add(fein);
  await add('861000002');

  for (const walker of Object.keys(WALKERS) as Walker[]) {
    const { email, api } = WALKERS[walker];
    const who = email ? await signIn(email) : undefined;
    if (who) tokens[walker] = api ? await apiTokenOf(who) : who.token;
    scenes[walker] = {
      merchant,
      fein,
      missedFein: '861000099',
      name,
      searcherAccount: lakeside.account,
      searcherUser: lakeside.user,
      ownAccount: who?.account ?? ZERO,
      ownUser: who?.user ?? ZERO,
    };
  }
  searcherApi = await apiTokenOf(lakeside);
  identifiers = [
    lakeside.account,
    lakeside.user,
    'Lakeside Merchant Partners',
    'Alex Morgan',
    'Morgan',
    SEARCHER,
  ];
  expect(await server.projectedAll()).toBe(true);
  before = await walk();

  // Lakeside searches the merchant every way there is.
  const searches: { route: RouteSpec; fixture: Fixture; token: string }[] = [
    { route: routes.searchMerchants, fixture: { query: { search: fein } }, token: searcher },
    { route: routes.searchMerchants, fixture: { query: { search: `${name} ${fein}` } }, token: searcher },
    { route: routes.searchMerchants, fixture: { query: { search: '861000099' } }, token: searcher },
    { route: routes.partnerSearchMerchants, fixture: { params: { key: fein } }, token: searcherApi },
    { route: routes.partnerLinkedMerchants, fixture: { params: { fein } }, token: searcherApi },
    { route: routes.listLinkedMerchants, fixture: { params: { id: merchant } }, token: searcher },
  ];
  for (const s of searches) {
    const res = await send(s.route, s.fixture, s.token);
    expect([200, 404], `${s.route.path}: ${JSON.stringify(res.body)}`).toContain(res.status);
  }
  expect(await server.projectedAll()).toBe(true);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('no funder is identified to another as having searched', () => {
  it('walks every read route of the route table', () => {
    const reads = (Object.entries(routes) as [RouteName, RouteSpec][])
      .filter(([, r]) => r.method === 'GET')
      .map(([n]) => n);
    expect(Object.keys(FIXTURES).sort()).toEqual(reads.sort());
  });

  it('no answer to another funder names the searcher more often after its searches than before', async () => {
    const after = await walk();
    const leaks: string[] = [];
    for (const [key, { mentions: now, status }] of after) {
      const then = before.get(key)!.mentions;
      const grew = identifiers.filter((_, i) => now[i]! > then[i]!);
      if (grew.length > 0) leaks.push(`${key} (${status}): ${grew.join(', ')}`);
    }
    expect(leaks).toEqual([]);
    // The walk reached the answers that carry searches: these callers saw them.
    for (const walker of ['proMember', 'proAdmin'] as const)
      expect(after.get(`searchCounts#0 as ${walker}`)!.status).toBe(200);
    expect(after.get('partnerSearchHistory#0 as proPartner')!.status).toBe(200);
  });

  it('shows search counts with the caller’s own account’s searches named, and all of them to staff', async () => {
    const { searcherAccount: lakeside, fein } = scenes.proAdmin!;
    const summit = scenes.proAdmin!.ownAccount;
    // Summit searches too: its own entry names it, Lakeside's does not.
    expect((await send(routes.searchMerchants, { query: { search: fein } }, tokens.proMember)).status).toBe(
      200,
    );
    expect(await server.projectedAll()).toBe(true);
    const counts = await send(routes.searchCounts, { query: { search: fein } }, tokens.proAdmin);
    expect(counts.status).toBe(200);
    const named = counts.body.data.entries.map(
      (e: { added_by_account_id: string | null }) => e.added_by_account_id,
    );
    expect(named).toContain(summit);
    expect(named).toContain(null);
    expect(named).not.toContain(lakeside);
    expect(counts.body.data.total).toBe(named.length);

    const staff = await send(routes.searchCounts, { query: { search: fein } }, admin);
    const all = staff.body.data.entries.map(
      (e: { added_by_account_id: string | null }) => e.added_by_account_id,
    );
    expect(all).toContain(lakeside);
    expect(all).toContain(summit);
    expect(all).not.toContain(null);
  });
});
