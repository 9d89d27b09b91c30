import { randomUUID } from 'node:crypto';
import {
  buildPath,
  CONSISTENT_AFTER_HEADER,
  CONTRIBUTOR_PAGE_SIZES,
  type DomainEvent,
  MESSAGES,
  routes,
  streams,
} from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The platform admins' dashboard widgets over real HTTP (accounts spec §2, §7, §9), on the demo network:
// every figure worked out by hand from the demo data, moved by adds and archives, and refused to
// everyone but platform admins.
//
// Demo network: Summit (PRO, paid through Start Membership; Dana, Marco), Harbor (BASIC, paid; Priya, Tom), Lakeside
// (BASIC, trialing; Alex), and the platform's own account (PRO, active). Merchants, oldest first:
// Sunrise Diner (Summit; Slow Pay by Summit, then Stacking History by Harbor), Keystone Auto
// (Harbor; Suspicious Activity), Blue Harbor Bakery (Summit; Default Account, then Other by Lakeside).

let server: TestServer;
const tokens: Record<string, string> = {};
const accountOf: Record<string, string> = {};
let lastPosition: string | undefined;

// biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes and assert on them
type Answer = { status: number; body: any };

async function http(method: string, url: string, who: string, payload?: object): Promise<Answer> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${tokens[who]}`,
      ...(payload ? { 'content-type': 'application/json' } : {}),
      ...(method === 'GET' && lastPosition ? { [CONSISTENT_AFTER_HEADER]: lastPosition } : {}),
    },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  const body: Answer['body'] = res.headers.get('content-type')?.includes('json')
    ? await res.json()
    : await res.text();
  if (typeof body === 'object' && typeof body?.position === 'string') lastPosition = body.position;
  return { status: res.status, body };
}
const get = (url: string, who = 'admin') => http('GET', url, who);
const data = async (url: string) => {
  const res = await get(url);
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};

beforeAll(async () => {
  server = await startTestServer({ demo: true, listen: true });
  tokens.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries({
    dana: 'dana.whitfield@summitcapital.example',
    priya: 'priya.natarajan@harboradvance.example',
    tom: 'tom.becker@harboradvance.example',
    alex: 'alex.morgan@lakeside.example',
  })) {
    tokens[who] = await server.login(email, DEMO_PASSWORD);
    accountOf[who] = (await get(routes.autoLogin.path, who)).body.data.user.account_resource_id;
  }
  expect(await server.projectedAll(undefined, 20_000)).toBe(true);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const WIDGETS = [
  routes.totalNotes,
  routes.totalMerchants,
  routes.totalMembers,
  routes.totalUsers,
  routes.totalMonthlyRevenue,
  routes.recentMerchantsByCategory,
  routes.topContributors,
  routes.bottomContributors,
  routes.dashboardWidgets,
];

describe('admin widgets: the demo network by hand', () => {
  it('counts merchants and notes, network-wide and per account', async () => {
    expect((await data(routes.totalMerchants.path)).data).toEqual({ total_merchants: 3 });
    expect((await data(routes.totalNotes.path)).data).toEqual({ total_notes: 5 });
    const of = async (who: string) => ({
      merchants: (await data(`${routes.totalMerchants.path}?account_id=${accountOf[who]}`)).data
        .total_merchants,
      notes: (await data(`${routes.totalNotes.path}?account_id=${accountOf[who]}`)).data.total_notes,
    });
    expect(await of('dana')).toEqual({ merchants: 2, notes: 2 });
    expect(await of('tom')).toEqual({ merchants: 1, notes: 2 });
    expect(await of('alex')).toEqual({ merchants: 0, notes: 1 });
  });

  it('counts members with the minus-1 rule, users, and the monthly revenue of paid memberships', async () => {
    // Active or trialing: platform (PRO), Summit (PRO), Harbor (BASIC), Lakeside (BASIC, trial) = 4, 2
    // PRO; the rule takes the platform's account off both: 3 and 1.
    expect((await data(routes.totalMembers.path)).data).toEqual({ count: 3, basic: 2, pro: 1 });
    // Summit 2, Harbor 2, Lakeside 1; the platform's staff are not counted.
    expect((await data(routes.totalUsers.path)).data).toEqual({ total_users: 5 });
    // Summit PRO $945 + Harbor BASIC $695; Lakeside's trial pays nothing.
    expect((await data(routes.totalMonthlyRevenue.path)).data).toEqual({
      total_monthly_revenue: 164_000,
      paying_members: 2,
    });
  });

  it('lists recently reported merchants by their latest note, All and by category, paged', async () => {
    const all = await data(routes.recentMerchantsByCategory.path);
    expect(all.data.map((m: { legal_name: string; category: string }) => [m.legal_name, m.category])).toEqual(
      [
        ['Blue Harbor Bakery LLC', 'Other'],
        ['Keystone Auto Repair LLC', 'Suspicious Activity'],
        ['Sunrise Diner Inc', 'Stacking History'],
      ],
    );
    expect(all.data[0]).toMatchObject({ fein: '673456789', dba: 'Blue Harbor' });
    expect(all.pagination).toEqual({ current_page: 1, per_page: 20, total_pages: 1, total_count: 3 });
    const suspicious = await data(`${routes.recentMerchantsByCategory.path}?category=Suspicious%20Activity`);
    expect(suspicious.data.map((m: { legal_name: string }) => m.legal_name)).toEqual([
      'Keystone Auto Repair LLC',
    ]);
    expect(suspicious.pagination.total_count).toBe(1);
    // Slow Pay was Sunrise's first note, no longer its latest.
    const slow = await data(`${routes.recentMerchantsByCategory.path}?category=Slow%20Pay`);
    expect(slow).toEqual({
      data: [],
      pagination: { current_page: 1, per_page: 20, total_pages: 1, total_count: 0 },
    });
    const second = await data(`${routes.recentMerchantsByCategory.path}?per_page=2&page=2`);
    expect(second.data.map((m: { legal_name: string }) => m.legal_name)).toEqual(['Sunrise Diner Inc']);
    expect(second.pagination).toEqual({ current_page: 2, per_page: 2, total_pages: 2, total_count: 3 });
  });

  it('ranks contributors by merchants + notes added, both ways, paged', async () => {
    const top = await data(routes.topContributors.path);
    expect(top.data).toEqual([
      { resource_id: accountOf.dana, name: 'Summit Capital Funding', merchants_added: 2, notes_added: 2 },
      { resource_id: accountOf.tom, name: 'Harbor Business Advance', merchants_added: 1, notes_added: 2 },
      { resource_id: accountOf.alex, name: 'Lakeside Merchant Partners', merchants_added: 0, notes_added: 1 },
    ]);
    expect(top.pagination).toEqual({ current_page: 1, per_page: 10, total_pages: 1, total_count: 3 });
    const bottom = await data(routes.bottomContributors.path);
    expect(bottom.data.map((c: { name: string }) => c.name)).toEqual([
      'Lakeside Merchant Partners',
      'Harbor Business Advance',
      'Summit Capital Funding',
    ]);
    for (const size of CONTRIBUTOR_PAGE_SIZES) {
      const page = await data(`${routes.topContributors.path}?per_page=${size}`);
      expect(page.pagination.per_page).toBe(size);
      expect(page.data).toHaveLength(3);
    }
    // Past the last page: no rows, the same totals.
    const past = await data(`${routes.bottomContributors.path}?page=2`);
    expect(past).toEqual({
      data: [],
      pagination: { current_page: 2, per_page: 10, total_pages: 1, total_count: 3 },
    });
  });
});

describe('the dashboard’s widgets at once (issue 31)', () => {
  it('answer each widget as its own route answers its first page, in one call', async () => {
    const all = (await data(routes.dashboardWidgets.path)).data;
    expect(all).toEqual({
      total_merchants: await data(routes.totalMerchants.path),
      total_notes: await data(routes.totalNotes.path),
      total_members: await data(routes.totalMembers.path),
      total_users: await data(routes.totalUsers.path),
      total_monthly_revenue: await data(routes.totalMonthlyRevenue.path),
      recent_merchants_by_category: await data(routes.recentMerchantsByCategory.path),
      top_contributors: await data(routes.topContributors.path),
      bottom_contributors: await data(routes.bottomContributors.path),
    });
    // The demo network's figures, as above: not a comparison of two empty answers.
    expect(all.total_notes.data).toEqual({ total_notes: 5 });
    expect(all.total_members.data).toEqual({ count: 3, basic: 2, pro: 1 });
    expect(all.recent_merchants_by_category.pagination).toEqual({
      current_page: 1,
      per_page: 20,
      total_pages: 1,
      total_count: 3,
    });
    expect(all.top_contributors.pagination.per_page).toBe(CONTRIBUTOR_PAGE_SIZES[0]);
    expect(all.bottom_contributors.data).toHaveLength(3);
  });
});

describe('admin widgets follow adds and archives', () => {
  it('moves every figure by exactly the change', async () => {
    // A new funder on a trial is a member; BASIC.
    const funder = await http('POST', routes.createAccount.path, 'admin', {
      account: {
        name: 'Aardvark Widget Funding',
        website: 'aardvark.example',
        primary_contact_email: 'ops@aardvark.example',
      },
    });
    expect(funder.status).toBe(201);
    const funderId = funder.body.data.resource_id as string;
    expect((await data(routes.totalMembers.path)).data).toEqual({ count: 3, basic: 2, pro: 1 });
    expect((await http('PUT', buildPath(routes.startTrial.path, { id: funderId }), 'admin')).status).toBe(
      200,
    );
    expect((await data(routes.totalMembers.path)).data).toEqual({ count: 4, basic: 3, pro: 1 });
    expect((await data(routes.totalMonthlyRevenue.path)).data.total_monthly_revenue).toBe(164_000);
    const user = await http('POST', buildPath(routes.createUser.path, { id: funderId }), 'admin', {
      user: { first_name: 'Ada', last_name: 'Aardvark', email: 'ada@aardvark.example' },
    });
    expect(user.status).toBe(201);
    expect((await data(routes.totalUsers.path)).data).toEqual({ total_users: 6 });
    // The new funder has added nothing: last among the top, first among the bottom (ties by name).
    const bottom = await data(routes.bottomContributors.path);
    expect(bottom.data[0]).toEqual({
      resource_id: funderId,
      name: 'Aardvark Widget Funding',
      merchants_added: 0,
      notes_added: 0,
    });
    expect(bottom.pagination.total_count).toBe(4);

    // Tom (Harbor) reports a merchant; the platform admin adds a Merchant Dispute note on it.
    const added = await http('POST', routes.addMerchant.path, 'tom', {
      merchant: { fein: '87-6543210', legal_name: 'Widget Waffles LLC', city: 'Reno', state: 'NV' },
      note: { category: 'Slow Pay', note: 'Paid late twice.', submission_source: 'in-house' },
    });
    expect(added.status).toBe(201);
    const merchantId = added.body.data.resource_id as string;
    const dispute = await http('POST', buildPath(routes.addNote.path, { id: merchantId }), 'admin', {
      note: {
        category: 'Merchant Dispute',
        note: 'The owner disputes the record.',
        submission_source: 'in-house',
      },
    });
    expect(dispute.status).toBe(201);
    expect((await data(routes.totalMerchants.path)).data.total_merchants).toBe(4);
    // Merchant Dispute notes count: platform admins, the widgets' only readers, see them.
    expect((await data(routes.totalNotes.path)).data.total_notes).toBe(7);
    expect((await data(`${routes.totalNotes.path}?account_id=${accountOf.tom}`)).data.total_notes).toBe(3);
    const recent = await data(routes.recentMerchantsByCategory.path);
    expect(recent.data[0]).toMatchObject({ resource_id: merchantId, category: 'Merchant Dispute' });
    expect(recent.pagination.total_count).toBe(4);
    const disputed = await data(`${routes.recentMerchantsByCategory.path}?category=Merchant%20Dispute`);
    expect(disputed.data.map((m: { resource_id: string }) => m.resource_id)).toEqual([merchantId]);

    // The dispute note archived: the merchant is back under Slow Pay.
    expect(
      (await http('PUT', buildPath(routes.archiveNote.path, { id: dispute.body.data.resource_id }), 'admin'))
        .status,
    ).toBe(200);
    expect((await data(routes.totalNotes.path)).data.total_notes).toBe(6);
    const slow = await data(`${routes.recentMerchantsByCategory.path}?category=Slow%20Pay`);
    expect(slow.data.map((m: { resource_id: string }) => m.resource_id)).toEqual([merchantId]);
    expect(
      (await data(`${routes.recentMerchantsByCategory.path}?category=Merchant%20Dispute`)).pagination
        .total_count,
    ).toBe(0);

    // The merchant archived: it and its remaining note leave every figure; Harbor's contribution stays.
    const archived = await http('PUT', buildPath(routes.archiveMerchant.path, { id: merchantId }), 'admin', {
      delete_merchant: { reason: 'Reported in error.' },
    });
    expect(archived.status).toBe(200);
    expect((await data(routes.totalMerchants.path)).data.total_merchants).toBe(3);
    expect((await data(routes.totalNotes.path)).data.total_notes).toBe(5);
    expect(
      (await data(`${routes.totalMerchants.path}?account_id=${accountOf.tom}`)).data.total_merchants,
    ).toBe(1);
    expect((await data(`${routes.recentMerchantsByCategory.path}?category=Slow%20Pay`)).data).toEqual([]);
    expect((await data(routes.recentMerchantsByCategory.path)).pagination.total_count).toBe(3);
    const harbor = (await data(routes.topContributors.path)).data.find(
      (c: { resource_id: string }) => c.resource_id === accountOf.tom,
    );
    expect(harbor).toMatchObject({ merchants_added: 2, notes_added: 3 });
  });
});

// Issue 21 item 2: the revenue is what is actually paid through the card payment provider.
describe('total monthly revenue counts only memberships paid through billing', () => {
  const revenue = async () => (await data(routes.totalMonthlyRevenue.path)).data;
  const append = async (accountId: string, events: DomainEvent[]) => {
    // Wait for this append's own position: the head excludes it while an older transaction elsewhere
    // (a background writer of the server) is still open.
    const { position } = await server.store.appendToStream(
      streams.account(accountId),
      events.map((e) => ({ id: randomUUID(), ...e })),
      { expectedRevision: 'any' },
    );
    await server.projections.waitFor(position, undefined, 10_000);
  };

  it('leaves out a membership opened active without billing; keeps a renewal being retried; drops a lapsed one until it is paid again', async () => {
    // The demo's Summit (PRO) and Harbor (BASIC) paid through Start Membership.
    expect(await revenue()).toEqual({ total_monthly_revenue: 164_000, paying_members: 2 });
    // Opened "active" by a command, as the demo network used to be: nothing was ever paid.
    const unbilled = randomUUID();
    await append(unbilled, [
      {
        type: 'AccountOpened',
        data: {
          accountId: unbilled,
          name: 'Never Billed Capital',
          website: null,
          primaryContactEmail: 'ops@neverbilled.example',
          planLevel: 'PRO',
          membershipStatus: 'active',
          isPlatform: false,
        },
      },
    ]);
    expect(await revenue()).toEqual({ total_monthly_revenue: 164_000, paying_members: 2 });
    // Summit's renewal failed and is being retried: still counted (README).
    await append(accountOf.dana!, [
      {
        type: 'AccountRenewalFailed',
        data: {
          accountId: accountOf.dana!,
          invoiceId: 'in_widget_failed',
          nextPaymentAttempt: '2099-01-04T00:00:00.000Z',
          invoiceCreatedAt: '2099-01-01T00:00:00.000Z',
        },
      },
    ]);
    expect(await revenue()).toEqual({ total_monthly_revenue: 164_000, paying_members: 2 });
    // Every retry failed: lapsed, not paying; paid again: back.
    await append(accountOf.dana!, [
      {
        type: 'AccountMembershipCanceled',
        data: {
          accountId: accountOf.dana!,
          reason: 'unpaid',
          afterFailedPayment: true,
          providerEndedAt: null,
        },
      },
    ]);
    expect(await revenue()).toEqual({ total_monthly_revenue: 69_500, paying_members: 1 });
    await append(accountOf.dana!, [
      {
        type: 'AccountMembershipReinstated',
        data: { accountId: accountOf.dana!, planLevel: 'PRO', currentPeriodEnd: null },
      },
    ]);
    expect(await revenue()).toEqual({ total_monthly_revenue: 164_000, paying_members: 2 });
  });
});

describe('admin widgets refuse', () => {
  it('every widget to a funder admin and a plain member (403), and answers the platform admin', async () => {
    for (const route of WIDGETS) {
      for (const who of ['priya', 'dana', 'tom']) {
        const res = await get(route.path, who);
        expect(res.status, `${route.path} as ${who}`).toBe(403);
        expect(res.body.errors).toBe(MESSAGES.notAllowed);
      }
      expect((await get(route.path)).status, route.path).toBe(200);
    }
  });

  it('bad parameters with a 400 naming them', async () => {
    const field = async (url: string) => {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      return res.body.fields.map((f: { field: string }) => f.field);
    };
    expect(await field(`${routes.topContributors.path}?per_page=11`)).toEqual(['per_page']);
    expect(await field(`${routes.bottomContributors.path}?per_page=5`)).toEqual(['per_page']);
    expect(await field(`${routes.topContributors.path}?page=0`)).toEqual(['page']);
    expect(await field(`${routes.recentMerchantsByCategory.path}?category=Fraud`)).toEqual(['category']);
    expect(await field(`${routes.recentMerchantsByCategory.path}?per_page=101`)).toEqual(['per_page']);
    expect(await field(`${routes.totalMerchants.path}?account_id=nope`)).toEqual(['account_id']);
    expect(await field(`${routes.totalNotes.path}?account_id=123`)).toEqual(['account_id']);
    // An account that does not exist has nothing: 0, not an error.
    expect(
      (await data(`${routes.totalNotes.path}?account_id=00000000-0000-4000-8000-0000000000ff`)).data,
    ).toEqual({
      total_notes: 0,
    });
  });
});

describe('admin widgets on an empty network', () => {
  it('show zeros: the minus-1 rule takes the platform account off and never goes below 0', async () => {
    const empty = await startTestServer({ listen: true });
    try {
      const token = await empty.login(TEST_ADMIN.email, TEST_ADMIN.password);
      const read = async (url: string) =>
        (
          (await (
            await fetch(`${empty.url}${url}`, { headers: { authorization: `Bearer ${token}` } })
          ).json()) as Answer['body']
        ).data;
      expect(await read(routes.totalMembers.path)).toEqual({ count: 0, basic: 0, pro: 0 });
      expect(await read(routes.totalUsers.path)).toEqual({ total_users: 0 });
      expect(await read(routes.totalMonthlyRevenue.path)).toEqual({
        total_monthly_revenue: 0,
        paying_members: 0,
      });
      expect(await read(routes.totalMerchants.path)).toEqual({ total_merchants: 0 });
      expect(await read(routes.recentMerchantsByCategory.path)).toEqual([]);
      expect(await read(routes.topContributors.path)).toEqual([]);
      const all = await read(routes.dashboardWidgets.path);
      expect(all.total_members.data).toEqual({ count: 0, basic: 0, pro: 0 });
      expect(all.recent_merchants_by_category.data).toEqual([]);
      expect(all.bottom_contributors.data).toEqual([]);
    } finally {
      await empty.close();
    }
  });
});
