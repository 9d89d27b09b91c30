import { randomUUID } from 'node:crypto';
import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The platform administrators' paged lists sorted on the server (issue 32 item 5.2): Funders, Merchants,
// Deleted Merchants and Reported Notes take `sort` (a column key of the list) and `direction` (asc or
// desc); anything else is a 400 naming the field, never SQL. Pages of a sorted list follow each other
// without a row twice or missed. The development mailbox is paged and searched on the server.

let server: TestServer;
const token: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  token.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  token.marco = await server.login('marco.reyes@summitcapital.example', DEMO_PASSWORD);
  token.tom = await server.login('tom.becker@harboradvance.example', DEMO_PASSWORD);
  token.dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
  token.priya = await server.login('priya.natarajan@harboradvance.example', DEMO_PASSWORD);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const get = (url: string, who = 'admin') => server.call({ method: 'GET', url, token: token[who] });

/** A 400 naming `field` (and only it). */
async function refused(url: string, field: string) {
  const res = await get(url);
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(400);
  expect(res.body.fields.map((f: { field: string }) => f.field)).toEqual([field]);
  return res.body.fields[0].message as string;
}

let einCount = 0;
async function addMerchant(
  who: string,
  name: string,
  fein = String(720_000_000 + ++einCount),
  category = 'Slow Pay',
  proxiedCreator: string | null = null,
) {
  const res = await server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: token[who],
    payload: {
      merchant: { fein, legal_name: name, city: 'Tampa', state: 'FL' },
      note: { category, note: `About ${name}.`, submission_source: 'in-house' },
      proxied_creator: proxiedCreator,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.resource_id as string, noteId: res.body.data.note_id as string, fein };
}

/** Every row of a list, page after page (`per_page` rows each), in the order the pages give them. */
async function allPages<T>(url: (page: number) => string): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const res = await get(url(page));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...(res.body.data as T[]));
    if (page >= res.body.pagination.total_pages) return rows;
  }
}

describe('the funders list sorted on the server', () => {
  const funders: Record<string, string> = {};

  beforeAll(async () => {
    // Three funders whose name, merchant count and last addition disagree on the order.
    for (const name of ['Zephyr Sortwell Capital', 'alder Sortwell Funding', 'Maple Sortwell Advance']) {
      const res = await server.call({
        method: 'POST',
        url: routes.createAccount.path,
        token: token.admin,
        payload: {
          account: {
            name,
            website: `${name.split(' ')[0]!.toLowerCase()}.example`,
            primary_contact_email: `ops@${name.split(' ')[0]!.toLowerCase()}.example`,
          },
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      funders[name.split(' ')[0]!.toLowerCase()] = res.body.data.resource_id;
    }
    // Added on their behalf by a platform administrator: Maple one merchant, then Zephyr two.
    await addMerchant('admin', 'Sortwell Maple Client LLC', undefined, 'Slow Pay', funders.maple!);
    await addMerchant('admin', 'Sortwell Zephyr Client One LLC', undefined, 'Slow Pay', funders.zephyr!);
    await addMerchant('admin', 'Sortwell Zephyr Client Two LLC', undefined, 'Slow Pay', funders.zephyr!);
  });

  const names = async (query: string) => {
    const res = await get(`${routes.listAccounts.path}?search=sortwell&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((a: { name: string }) => a.name);
  };

  it('sorts by name (any case) either way, by name when asked for nothing', async () => {
    const az = ['alder Sortwell Funding', 'Maple Sortwell Advance', 'Zephyr Sortwell Capital'];
    expect(await names('')).toEqual(az);
    expect(await names('sort=name')).toEqual(az);
    expect(await names('sort=name&direction=asc')).toEqual(az);
    expect(await names('sort=name&direction=desc')).toEqual([...az].reverse());
  });

  it('sorts by merchants added, most first by default, ties by name', async () => {
    expect(await names('sort=merchants_added')).toEqual([
      'Zephyr Sortwell Capital',
      'Maple Sortwell Advance',
      'alder Sortwell Funding',
    ]);
    expect(await names('sort=merchants_added&direction=asc')).toEqual([
      'alder Sortwell Funding',
      'Maple Sortwell Advance',
      'Zephyr Sortwell Capital',
    ]);
  });

  it('sorts by the last merchant added, newest first by default; a funder that never added one comes last either way', async () => {
    expect(await names('sort=last_added')).toEqual([
      'Zephyr Sortwell Capital',
      'Maple Sortwell Advance',
      'alder Sortwell Funding',
    ]);
    expect(await names('sort=last_added&direction=asc')).toEqual([
      'Maple Sortwell Advance',
      'Zephyr Sortwell Capital',
      'alder Sortwell Funding',
    ]);
  });

  it('sorts by the 90-day contribution, lowest first by default, over every funder', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      const res = await get(`${routes.listAccounts.path}?sort=contribution&direction=${direction}`);
      expect(res.status).toBe(200);
      const figures = res.body.data.map(
        (a: { total_ninety_days_contribution_percentage: number }) =>
          a.total_ninety_days_contribution_percentage,
      );
      const sorted = [...figures].sort((a, b) => (direction === 'asc' ? a - b : b - a));
      expect(figures).toEqual(sorted);
    }
  });

  it('refuses a sort it does not have, or a direction other than asc or desc, naming the field', async () => {
    expect(await refused(`${routes.listAccounts.path}?sort=primary_contact_email`, 'sort')).toBe(
      'must be one of name, merchants_added, last_added, contribution',
    );
    expect(await refused(`${routes.listAccounts.path}?sort=name&direction=up`, 'direction')).toBe(
      'must be asc or desc',
    );
    await refused(
      `${routes.listAccounts.path}?sort=${encodeURIComponent('name; drop table read.accounts')}`,
      'sort',
    );
    await refused(
      `${routes.listAccounts.path}?sort=name&direction=${encodeURIComponent('desc, a.id')}`,
      'direction',
    );
    await refused(`${routes.listAccounts.path}?sort=NAME`, 'sort');
    // Nothing happened to the funders.
    expect(await names('')).toHaveLength(3);
    expect((await get(`${routes.listAccounts.path}?sort=name`, 'dana')).status).toBe(403);
  });
});

describe('the merchants lists sorted on the server', () => {
  // Name order, EIN order and the order of addition all differ; mixed case proves the name order ignores it.
  const MERCHANTS = [
    { name: 'Sortline charlie LLC', fein: '733000002' },
    { name: 'Sortline Alpha LLC', fein: '733000003' },
    { name: 'Sortline echo LLC', fein: '733000001' },
    { name: 'Sortline Bravo LLC', fein: '733000005' },
    { name: 'Sortline Delta LLC', fein: '733000004' },
  ];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    for (const m of MERCHANTS) ids[m.name] = (await addMerchant('marco', m.name, m.fein)).id;
    // Two of them deleted, the later one first.
    for (const name of ['Sortline Delta LLC', 'Sortline Alpha LLC']) {
      const res = await server.call({
        method: 'PUT',
        url: buildPath(routes.archiveMerchant.path, { id: ids[name]! }),
        token: token.admin,
        payload: { delete_merchant: { reason: 'Duplicate record.' } },
      });
      expect(res.status).toBe(200);
    }
  });

  const live = async (query: string) => {
    const res = await get(`${routes.listMerchants.path}?search=sortline&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((m: { legal_name: string }) => m.legal_name);
  };
  const deleted = async (query: string) => {
    const res = await get(`${routes.listDeletedMerchants.path}?search=sortline&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((m: { legal_name: string }) => m.legal_name);
  };

  it('sorts live merchants by date added (newest first by default), name or EIN, either way', async () => {
    const added = ['Sortline charlie LLC', 'Sortline echo LLC', 'Sortline Bravo LLC'];
    expect(await live('')).toEqual([...added].reverse());
    expect(await live('sort=added')).toEqual([...added].reverse());
    expect(await live('sort=added&direction=asc')).toEqual(added);
    const byName = ['Sortline Bravo LLC', 'Sortline charlie LLC', 'Sortline echo LLC'];
    expect(await live('sort=name')).toEqual(byName);
    expect(await live('sort=name&direction=desc')).toEqual([...byName].reverse());
    const byEin = ['Sortline echo LLC', 'Sortline charlie LLC', 'Sortline Bravo LLC'];
    expect(await live('sort=ein')).toEqual(byEin);
    expect(await live('sort=ein&direction=desc')).toEqual([...byEin].reverse());
  });

  it('pages a sorted list of every merchant without a row twice or missed', async () => {
    // Enough merchants for pages, some with equal names (the id decides between them).
    for (let i = 0; i < 24; i++) await addMerchant('tom', `Pageline ${i % 8} LLC`);
    const total = (await get(`${routes.listMerchants.path}?per_page=25`)).body.pagination.total_count;
    expect(total).toBeGreaterThan(25);
    for (const sort of ['name', 'ein', 'added'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const rows = await allPages<{ resource_id: string; legal_name: string; fein: string }>(
          (page) =>
            `${routes.listMerchants.path}?per_page=25&page=${page}&sort=${sort}&direction=${direction}`,
        );
        expect(rows).toHaveLength(total);
        expect(new Set(rows.map((r) => r.resource_id)).size).toBe(total);
        if (sort === 'ein') {
          const feins = rows.map((r) => r.fein);
          const sorted = [...feins].sort();
          expect(feins).toEqual(direction === 'asc' ? sorted : sorted.reverse());
        }
        if (sort === 'name') {
          // Plain ASCII letters, digits and spaces compare the same in any collation.
          const pagelines = rows.map((r) => r.legal_name).filter((n) => n.startsWith('Pageline'));
          const sorted = [...pagelines].sort();
          expect(pagelines).toEqual(direction === 'asc' ? sorted : sorted.reverse());
        }
      }
    }
  });

  it('sorts deleted merchants by date deleted (newest first by default), name or EIN', async () => {
    expect(await deleted('')).toEqual(['Sortline Alpha LLC', 'Sortline Delta LLC']);
    expect(await deleted('sort=deleted&direction=asc')).toEqual(['Sortline Delta LLC', 'Sortline Alpha LLC']);
    expect(await deleted('sort=name')).toEqual(['Sortline Alpha LLC', 'Sortline Delta LLC']);
    expect(await deleted('sort=name&direction=desc')).toEqual(['Sortline Delta LLC', 'Sortline Alpha LLC']);
    expect(await deleted('sort=ein')).toEqual(['Sortline Alpha LLC', 'Sortline Delta LLC']);
    expect(await deleted('sort=ein&direction=desc')).toEqual(['Sortline Delta LLC', 'Sortline Alpha LLC']);
  });

  it("refuses another list's sort, an unknown one or a bad direction, naming the field", async () => {
    expect(await refused(`${routes.listMerchants.path}?sort=deleted`, 'sort')).toBe(
      'must be one of name, ein, added',
    );
    expect(await refused(`${routes.listDeletedMerchants.path}?sort=added`, 'sort')).toBe(
      'must be one of name, ein, deleted',
    );
    await refused(`${routes.listMerchants.path}?sort=legal_name`, 'sort');
    await refused(`${routes.listMerchants.path}?sort=${encodeURIComponent('m.fein desc')}`, 'sort');
    await refused(`${routes.listMerchants.path}?sort=name&direction=descending`, 'direction');
    await refused(`${routes.listDeletedMerchants.path}?direction=sideways`, 'direction');
    expect((await get(`${routes.listMerchants.path}?sort=name`, 'marco')).status).toBe(403);
  });
});

describe('the reported notes sorted on the server', () => {
  const mine: string[] = [];

  beforeAll(async () => {
    // Summit's notes reported by Dana, Harbor's by Priya; categories and names in other orders again.
    const notes = [
      { who: 'marco', admin: 'dana', name: 'Reportline Yankee LLC', category: 'Stacking History' },
      { who: 'tom', admin: 'priya', name: 'Reportline Xray LLC', category: 'Default' },
      { who: 'marco', admin: 'dana', name: 'Reportline Zulu LLC', category: 'Other' },
    ];
    for (const n of notes) {
      const { noteId } = await addMerchant(n.who, n.name, undefined, n.category);
      const res = await server.call({
        method: 'PUT',
        url: buildPath(routes.requestNoteDeletion.path, { id: noteId }),
        token: token[n.admin],
        payload: { note: { reason: 'Settled in full.' } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      mine.push(noteId);
    }
  });

  /** The order of this file's reported notes in the whole list. */
  const order = async (query: string) => {
    const res = await get(`${routes.listReportedNotes.path}?per_page=100&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data
      .filter((n: { id: string }) => mine.includes(n.id))
      .map((n: { merchant: { legal_name: string } }) => n.merchant.legal_name);
  };

  it('sorts by date reported (newest first by default), name, category or reporter, either way', async () => {
    expect(await order('')).toEqual(['Reportline Zulu LLC', 'Reportline Xray LLC', 'Reportline Yankee LLC']);
    expect(await order('sort=reported&direction=asc')).toEqual([
      'Reportline Yankee LLC',
      'Reportline Xray LLC',
      'Reportline Zulu LLC',
    ]);
    expect(await order('sort=name')).toEqual([
      'Reportline Xray LLC',
      'Reportline Yankee LLC',
      'Reportline Zulu LLC',
    ]);
    expect(await order('sort=name&direction=desc')).toEqual([
      'Reportline Zulu LLC',
      'Reportline Yankee LLC',
      'Reportline Xray LLC',
    ]);
    // Default, Other, Stacking History.
    expect(await order('sort=category')).toEqual([
      'Reportline Xray LLC',
      'Reportline Zulu LLC',
      'Reportline Yankee LLC',
    ]);
    // Dana's two (newest first among them), then Priya's; the other way, Priya's first.
    expect(await order('sort=reported_by')).toEqual([
      'Reportline Zulu LLC',
      'Reportline Yankee LLC',
      'Reportline Xray LLC',
    ]);
    expect(await order('sort=reported_by&direction=desc')).toEqual([
      'Reportline Xray LLC',
      'Reportline Zulu LLC',
      'Reportline Yankee LLC',
    ]);
  });

  it('refuses a sort it does not have and a bad direction, naming the field', async () => {
    expect(await refused(`${routes.listReportedNotes.path}?sort=note`, 'sort')).toBe(
      'must be one of name, ein, reported, category, reported_by',
    );
    await refused(`${routes.listReportedNotes.path}?sort=reported&direction=1`, 'direction');
  });
});

describe('the development mailbox, paged and searched on the server', () => {
  beforeAll(async () => {
    // 30 messages a second apart, the newest last; every third to another address.
    for (let i = 1; i <= 30; i++) {
      await server.db.pool.query(
        `insert into dev_mailbox (id, mail_from, mail_to, subject, body_text, received_at)
         values ($1, 'no-reply@merchantrisk.local', $2, $3, $4, now() + make_interval(secs => $5))`,
        [
          randomUUID(),
          i % 3 === 0 ? 'ledger@pagingtest.example' : 'inbox@pagingtest.example',
          `Paging probe ${String(i).padStart(2, '0')}`,
          i === 7 ? 'Your code is 100% ready_now.' : `Body of probe ${i}.`,
          i,
        ],
      );
    }
  });

  const subjects = (res: { body: { data: { subject: string }[] } }) => res.body.data.map((m) => m.subject);

  it('answers a page at a time, newest first, with the count of the whole mailbox', async () => {
    const first = await get(`${routes.listDevMailbox.path}?per_page=25`);
    expect(first.status).toBe(200);
    expect(first.body.pagination).toMatchObject({ current_page: 1, per_page: 25 });
    const total = first.body.pagination.total_count;
    expect(total).toBeGreaterThanOrEqual(30);
    expect(subjects(first).slice(0, 3)).toEqual(['Paging probe 30', 'Paging probe 29', 'Paging probe 28']);
    const everything = await allPages<{ id: string }>(
      (page) => `${routes.listDevMailbox.path}?per_page=25&page=${page}`,
    );
    expect(everything).toHaveLength(total);
    expect(new Set(everything.map((m) => m.id)).size).toBe(total);
  });

  it('searches the address, subject and text in any case, taking % and _ literally', async () => {
    const bySubject = await get(`${routes.listDevMailbox.path}?search=PAGING%20PROBE&per_page=25`);
    expect(bySubject.body.pagination).toMatchObject({ total_count: 30, total_pages: 2 });
    const second = await get(`${routes.listDevMailbox.path}?search=paging%20probe&per_page=25&page=2`);
    expect(subjects(second)).toEqual([
      'Paging probe 05',
      'Paging probe 04',
      'Paging probe 03',
      'Paging probe 02',
      'Paging probe 01',
    ]);
    const byAddress = await get(`${routes.listDevMailbox.path}?search=ledger@pagingtest&per_page=25`);
    expect(byAddress.body.pagination.total_count).toBe(10);
    expect(byAddress.body.data.every((m: { to: string }) => m.to === 'ledger@pagingtest.example')).toBe(true);
    const byText = await get(`${routes.listDevMailbox.path}?search=${encodeURIComponent('100% ready_now')}`);
    expect(subjects(byText)).toEqual(['Paging probe 07']);
    const literal = await get(`${routes.listDevMailbox.path}?search=${encodeURIComponent('probe_0%')}`);
    expect(literal.body.data).toEqual([]);
    const none = await get(`${routes.listDevMailbox.path}?search=nothing-like-this`);
    expect(none.body).toMatchObject({ data: [], pagination: { total_count: 0, total_pages: 1 } });
  });

  it('refuses a page size it does not offer, naming it, and anyone but a platform administrator', async () => {
    await refused(`${routes.listDevMailbox.path}?per_page=7`, 'per_page');
    await refused(`${routes.listDevMailbox.path}?page=0`, 'page');
    expect((await get(routes.listDevMailbox.path, 'dana')).status).toBe(403);
  });
});
