import { buildPath, routes } from '@mrn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo.ts';
import { startTestServer, TEST_ADMIN, type TestServer } from '../testing.ts';

// Rules at their spec boundaries and at every place they apply (core spec §5–§6, accounts spec §1, §5).

let server: TestServer;
const tokens: Record<string, string> = {};
const accountOf: Record<string, string> = {};
const userOf: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  tokens.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries({
    tom: 'tom.becker@harboradvance.example', // Harbor (BASIC) member
    priya: 'priya.natarajan@harboradvance.example', // Harbor admin
    dana: 'dana.whitfield@summitcapital.example', // Summit (PRO) admin
    marco: 'marco.reyes@summitcapital.example', // Summit member
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

const search = (who: string, term = 'sunrise') =>
  server.call({
    method: 'GET',
    url: `${routes.searchMerchants.path}?search=${encodeURIComponent(term)}`,
    token: tokens[who],
  });
/** The day's count of a capped (BASIC) account's searches: it lives in search_quota alone (issue 31). */
const searchesToday = async (accountId: string) =>
  Number(
    (
      await server.db.pool.query(
        `select coalesce(sum(used), 0) as n from search_quota where account_id = $1 and day = (now() at time zone 'utc')::date`,
        [accountId],
      )
    ).rows[0].n,
  );
/** Searches already admitted today: the count a day of searching leaves (the cap counts admissions). */
const admittedToday = (accountId: string, n: number) =>
  server.db.pool.query(
    `insert into search_quota (account_id, day, used) values ($1, (now() at time zone 'utc')::date, $2)
     on conflict (account_id, day) do update set used = excluded.used`,
    [accountId, n],
  );
/** Waits until every search recorded so far is in the read models. */
const settle = async () => {
  await server.searches.flush();
  await server.projectedAll(['merchant_searches'], 5000);
};

describe('daily searches', () => {
  it("adds every search to its own account's count for the day", async () => {
    await settle();
    const harbor = await searchesToday(accountOf.tom!);
    const summit = await searchesToday(accountOf.marco!);
    await search('tom');
    await search('priya', 'zzzz-nothing');
    await settle();
    expect(await searchesToday(accountOf.tom!)).toBe(harbor + 2);
    expect(await searchesToday(accountOf.marco!)).toBe(summit);
  });

  it('lets a BASIC funder make its 3,000th search of the day and refuses the 3,001st', async () => {
    await settle();
    const already = await searchesToday(accountOf.tom!);
    // Searches already admitted today.
    expect(already).toBeLessThan(2999);
    await admittedToday(accountOf.tom!, 2999);
    expect(await searchesToday(accountOf.tom!)).toBe(2999);
    const threeThousandth = await search('tom');
    expect(threeThousandth.status).not.toBe(429);
    await settle();
    const refused = await search('priya');
    expect(refused.status).toBe(429);
    expect(refused.body.errors).toContain('3,000');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // PRO has no cap.
    expect((await search('marco')).status).not.toBe(429);
  });
});

describe('the daily cap under concurrency', () => {
  it('admits exactly the 10 searches left of 3,000 when 20 arrive at once', async () => {
    const funder = await server.call({
      method: 'POST',
      url: routes.createAccount.path,
      token: tokens.admin,
      payload: {
        account: {
          name: 'Busy Basic Funding',
          website: 'busybasic.example',
          primary_contact_email: 'ops@busybasic.example',
        },
      },
    });
    const accountId = funder.body.data.resource_id;
    await server.call({
      method: 'PUT',
      url: buildPath(routes.startTrial.path, { id: accountId }),
      token: tokens.admin,
    });
    const user = await server.call({
      method: 'POST',
      url: buildPath(routes.createUser.path, { id: accountId }),
      token: tokens.admin,
      payload: { user: { first_name: 'Bea', last_name: 'Busy', email: 'bea@busybasic.example' } },
    });
    await server.call({
      method: 'PUT',
      url: buildPath(routes.adminChangePassword.path, { id: user.body.data.resource_id }),
      token: tokens.admin,
      payload: { new_password: 'Busy-basic-pass-1', confirm_password: 'Busy-basic-pass-1' },
    });
    tokens.bea = await server.login('bea@busybasic.example', 'Busy-basic-pass-1');
    await admittedToday(accountId, 2990);
    expect(await searchesToday(accountId)).toBe(2990);
    const answers = await Promise.all(Array.from({ length: 20 }, () => search('bea')));
    expect(answers.filter((a) => a.status === 429)).toHaveLength(10);
    expect(answers.filter((a) => a.status !== 429)).toHaveLength(10);
  });
});

// The 0.5 % contribution boundary (warning, lock at expiry, override) is in contribution.test.ts, fed by events.

describe('Merchant Dispute notes', () => {
  it("never reach the recent-notes feed or a merchant's notes for anyone but platform admins", async () => {
    const merchant = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: tokens.tom,
      payload: {
        merchant: { fein: '66-6000001', legal_name: 'Disputed Deli LLC', city: 'Tampa', state: 'FL' },
        note: { category: 'Slow Pay', note: 'Late twice.', submission_source: 'in-house' },
      },
    });
    const id = merchant.body.data.resource_id;
    await server.call({
      method: 'POST',
      url: buildPath(routes.addNote.path, { id }),
      token: tokens.admin,
      payload: { note: { category: 'Merchant Dispute', note: 'Owner disputes the report.' } },
    });
    const disputesIn = (res: { body: { data: { category: string }[] } }) =>
      res.body.data.filter((n) => n.category === 'Merchant Dispute').length;
    for (const who of ['tom', 'dana', 'marco']) {
      const recent = await server.call({ method: 'GET', url: routes.recentNotes.path, token: tokens[who] });
      expect(recent.status).toBe(200);
      expect(disputesIn(recent), who).toBe(0);
      const notes = await server.call({
        method: 'GET',
        url: buildPath(routes.listMerchantNotes.path, { id }),
        token: tokens[who],
      });
      expect(disputesIn(notes), who).toBe(0);
    }
    const staff = await server.call({
      method: 'GET',
      url: buildPath(routes.listMerchantNotes.path, { id }),
      token: tokens.admin,
    });
    expect(disputesIn(staff)).toBe(1);
  });
});

describe('Latest Note', () => {
  it('falls back to the newest remaining note when the latest is archived, and to none', async () => {
    const added = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: tokens.marco,
      payload: {
        merchant: { fein: '66-6000003', legal_name: 'Latest Note Lunch LLC', city: 'Tampa', state: 'FL' },
        note: { category: 'Slow Pay', note: 'First.', submission_source: 'in-house' },
      },
    });
    const id = added.body.data.resource_id;
    await server.call({
      method: 'POST',
      url: buildPath(routes.addNote.path, { id }),
      token: tokens.marco,
      payload: { note: { category: 'Suspicious Activity', note: 'Second.', submission_source: 'in-house' } },
    });
    const latest = async () =>
      (
        await server.call({
          method: 'GET',
          url: buildPath(routes.getMerchant.path, { id }),
          token: tokens.marco,
        })
      ).body.data.last_note_category;
    expect(await latest()).toBe('Suspicious Activity');
    const notes = await server.call({
      method: 'GET',
      url: buildPath(routes.listMerchantNotes.path, { id }),
      token: tokens.admin,
    });
    const byCategory = (c: string) => notes.body.data.find((n: { category: string }) => n.category === c).id;
    await server.call({
      method: 'PUT',
      url: buildPath(routes.archiveNote.path, { id: byCategory('Suspicious Activity') }),
      token: tokens.admin,
    });
    expect(await latest()).toBe('Slow Pay');
    await server.call({
      method: 'PUT',
      url: buildPath(routes.archiveNote.path, { id: byCategory('Slow Pay') }),
      token: tokens.admin,
    });
    expect(await latest()).toBeNull();
  });
});

describe('a one-character search', () => {
  it('is refused with 400 naming the field, and records no search', async () => {
    await settle();
    const before = await searchesToday(accountOf.marco!);
    const res = await search('marco', 'a');
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ field: 'search', message: 'must be at least 2 characters' }]);
    await settle();
    expect(await searchesToday(accountOf.marco!)).toBe(before);
    expect((await search('marco', 'ab')).status).not.toBe(400);
  });
});

describe('accents in keyword search', () => {
  it('finds "Café Müller GmbH" by cafe, café, muller and müller', async () => {
    await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: tokens.marco,
      payload: {
        merchant: { fein: '66-6000004', legal_name: 'Café Müller GmbH', city: 'Tampa', state: 'FL' },
        note: { category: 'Slow Pay', note: 'Late.', submission_source: 'in-house' },
      },
    });
    for (const term of ['cafe', 'café', 'muller', 'müller', 'CAFE MULLER']) {
      const res = await search('marco', term);
      expect(res.status, term).toBe(200);
      expect(
        res.body.data.map((m: { legal_name: string }) => m.legal_name),
        term,
      ).toContain('Café Müller GmbH');
    }
  });

  it('folds names in the database exactly as typed words are folded', async () => {
    const samples = ['Café Müller', 'Straße', 'Ærø Łódź', 'José Ñandú', 'Crème Brûlée', 'ÅÄÖ', 'Œuvre'];
    const { rows } = await server.db.pool.query(
      'select s, read.fold(s) as folded from unnest($1::text[]) as s',
      [samples],
    );
    const { foldForSearch } = await import('@mrn/query-api');
    expect(rows.map((r) => r.folded)).toEqual(samples.map(foldForSearch));
  });
});

describe('who added a merchant', () => {
  it('is named only to platform admins and admins of the authoring funder, in the merchant view and in search', async () => {
    const added = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: tokens.tom,
      payload: {
        merchant: { fein: '66-6000002', legal_name: 'Adder Check Cafe LLC', city: 'Tampa', state: 'FL' },
        note: { category: 'Slow Pay', note: 'Late.', submission_source: 'in-house' },
      },
    });
    const id = added.body.data.resource_id;
    const view = async (who: string) =>
      (
        await server.call({
          method: 'GET',
          url: buildPath(routes.getMerchant.path, { id }),
          token: tokens[who],
        })
      ).body.data.added_by_user;
    const found = async (who: string) =>
      (
        await server.call({
          method: 'GET',
          url: `${routes.searchMerchants.path}?search=66-6000002`,
          token: tokens[who],
        })
      ).body.data[0].added_by_user;
    expect(await view('admin')).toBe('Tom Becker');
    expect(await view('priya')).toBe('Tom Becker');
    expect(await view('tom')).toBeNull();
    expect(await view('dana')).toBeNull();
    expect(await view('marco')).toBeNull();
    // Harbor has used up today's searches above; the others search.
    expect(await found('admin')).toBe('Tom Becker');
    expect(await found('dana')).toBeNull();
    expect(await found('marco')).toBeNull();
  });
});

describe('the e-mail domain rule', () => {
  const LOOK_ALIKES = [
    'ann@summitcapital.example.evil.com',
    'ann@evilsummitcapital.example',
    'ann@summitcapital.examplex',
  ];

  it.each(LOOK_ALIKES)(
    'refuses %s for a new member of summitcapital.example, writing nothing',
    async (email) => {
      const before = Number((await server.db.pool.query('select count(*) as n from events')).rows[0].n);
      const res = await server.call({
        method: 'POST',
        url: buildPath(routes.createUser.path, { id: accountOf.dana! }),
        token: tokens.dana,
        payload: { user: { first_name: 'Ann', last_name: 'Alike', email } },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toBe('Only email addresses ending in @summitcapital.example are valid.');
      expect(Number((await server.db.pool.query('select count(*) as n from events')).rows[0].n)).toBe(before);
    },
  );

  it.each(LOOK_ALIKES)(
    "refuses %s as a changed e-mail too, and accepts the funder's own domain",
    async (email) => {
      const url = buildPath(routes.updateUser.path, { id: userOf.marco! });
      const res = await server.call({
        method: 'PUT',
        url,
        token: tokens.dana,
        payload: { user: { first_name: 'Marco', last_name: 'Reyes', email } },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toBe('Only email addresses ending in @summitcapital.example are valid.');
      const user = await server.call({
        method: 'GET',
        url: buildPath(routes.getUser.path, { id: userOf.marco! }),
        token: tokens.dana,
      });
      expect(user.body.data.email).toBe('marco.reyes@summitcapital.example');
    },
  );

  it('lets a member change to another address on the domain', async () => {
    const url = buildPath(routes.updateUser.path, { id: userOf.marco! });
    const ok = await server.call({
      method: 'PUT',
      url,
      token: tokens.dana,
      payload: { user: { first_name: 'Marco', last_name: 'Reyes', email: 'm.reyes@summitcapital.example' } },
    });
    expect(ok.status).toBe(200);
    const user = await server.call({
      method: 'GET',
      url: buildPath(routes.getUser.path, { id: userOf.marco! }),
      token: tokens.dana,
    });
    expect(user.body.data.email).toBe('m.reyes@summitcapital.example');
  });
});
