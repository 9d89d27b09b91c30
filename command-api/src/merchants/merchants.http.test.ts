import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: TestServer;
const tokens: Record<string, string> = {};
const accountOf: Record<string, string> = {};
const USERS = {
  dana: 'dana.whitfield@summitcapital.example', // Summit (PRO) admin
  marco: 'marco.reyes@summitcapital.example', // Summit member
  priya: 'priya.natarajan@harboradvance.example', // Harbor (BASIC) admin
  tom: 'tom.becker@harboradvance.example', // Harbor member
} as const;
type Who = keyof typeof USERS | 'admin';

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  for (const [who, email] of Object.entries(USERS)) {
    const res = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email, password: DEMO_PASSWORD } },
    });
    tokens[who] = res.body.data.jwt;
    accountOf[who] = res.body.data.user.account_resource_id;
  }
  tokens.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await server.close();
});

const as = (who: Who) => tokens[who]!;
let einCounter = 100_000;
const nextEin = () => {
  einCounter += 1;
  const digits = `77${String(einCounter).padStart(7, '0')}`;
  return `${digits.slice(0, 2)}-${digits.slice(2)}`;
};
const merchantBody = (overrides: Record<string, unknown> = {}, note: Record<string, unknown> = {}) => ({
  merchant: {
    fein: nextEin(),
    legal_name: 'Blue Harbor Bakery LLC',
    dba: 'Blue Harbor',
    city: 'Tampa',
    state: 'FL',
    ...overrides,
  },
  note: {
    category: 'Slow Pay',
    note: 'Paid late three times in March.',
    submission_source: 'broker',
    broker_name: 'Acme ISO',
    ...note,
  },
});
const add = (who: Who, body: object, headers: Record<string, string> = {}) =>
  server.call({ method: 'POST', url: routes.addMerchant.path, token: as(who), payload: body, headers });
const get = (who: Who, url: string) => server.call({ method: 'GET', url, token: as(who) });
const count = async (sql: string, params: unknown[] = []) =>
  Number((await server.db.pool.query(sql, params)).rows[0].n);

describe('submission source data (PRO only, issue 20 item 7)', () => {
  it("is hidden from a BASIC funder on another funder's notes, in every answer that lists notes", async () => {
    const created = await add('marco', merchantBody({ legal_name: 'Source Check Diner LLC' }));
    const id = created.body.data.resource_id;
    const noteOf = async (who: Who) =>
      (await get(who, buildPath(routes.listMerchantNotes.path, { id }))).body.data[0];
    const recentOf = async (who: Who) =>
      (await get(who, `${routes.recentNotes.path}?per_page=200`)).body.data.find(
        (n: { merchant_id: string }) => n.merchant_id === id,
      );
    for (const who of ['priya', 'tom'] as const) {
      for (const note of [await noteOf(who), await recentOf(who)]) {
        expect(note, who).toMatchObject({ category: 'Slow Pay', submission_source: null, broker_name: null });
      }
    }
    // PRO members and platform admins see it.
    for (const who of ['marco', 'dana', 'admin'] as const) {
      for (const note of [await noteOf(who), await recentOf(who)]) {
        expect(note, who).toMatchObject({ submission_source: 'broker', broker_name: 'Acme ISO' });
      }
    }
  });

  it('a BASIC funder still reads the source of its own notes (editing sends the whole note back)', async () => {
    const created = await add('tom', merchantBody({ legal_name: 'Own Source Grill LLC' }));
    const id = created.body.data.resource_id;
    for (const who of ['tom', 'priya'] as const) {
      const notes = await get(who, buildPath(routes.listMerchantNotes.path, { id }));
      expect(notes.body.data[0], who).toMatchObject({ submission_source: 'broker', broker_name: 'Acme ISO' });
    }
    const other = await get('marco', buildPath(routes.listMerchantNotes.path, { id }));
    expect(other.body.data[0]).toMatchObject({ submission_source: 'broker', broker_name: 'Acme ISO' });
  });
});

describe('adding a merchant with its first note', () => {
  it('stores the EIN as 9 digits, attributes it to the caller, and shows it with its note', async () => {
    const body = merchantBody({ fein: '12 345-6789', legal_name: 'Sunrise Diner Inc' });
    const res = await add('marco', body);
    expect(res.status).toBe(201);
    const id = res.body.data.resource_id;
    const merchant = await get('marco', buildPath(routes.getMerchant.path, { id }));
    expect(merchant.body.data).toMatchObject({
      fein: '123456789',
      legal_name: 'Sunrise Diner Inc',
      city: 'Tampa',
      state: 'FL',
      added_by: 'Summit Capital Funding',
      added_by_account_id: accountOf.marco,
      last_note_category: 'Slow Pay',
    });
    const notes = await get('marco', buildPath(routes.listMerchantNotes.path, { id }));
    expect(notes.body.data).toHaveLength(1);
    expect(notes.body.data[0]).toMatchObject({
      category: 'Slow Pay',
      submission_source: 'broker',
      broker_name: 'Acme ISO',
      can_edit: true,
    });
  });

  it.each([
    ['a short EIN', { fein: '12-34' }, {}, 'merchant.fein', 'must be 9 digits, as 12-3456789'],
    ['no legal name', { legal_name: '' }, {}, 'merchant.legal_name', 'is required'],
    ['no city', { city: undefined }, {}, 'merchant.city', 'is required'],
    ['an unknown state', { state: 'XX' }, {}, 'merchant.state', 'is required'],
    ['no category', {}, { category: undefined }, 'note.category', 'is required'],
    ['no note text', {}, { note: ' ' }, 'note.note', 'is required'],
    [
      'a broker source without broker name',
      {},
      { broker_name: '' },
      'note.broker_name',
      'is required for a broker submission',
    ],
    [
      'a bad start date',
      { business_startdate: '2020-13-45' },
      {},
      'merchant.business_startdate',
      'is not a real calendar date',
    ],
    [
      'a start date that does not exist (the 31st of February)',
      { business_startdate: '2023-02-31' },
      {},
      'merchant.business_startdate',
      'is not a real calendar date',
    ],
    [
      'a start date before 1800',
      { business_startdate: '1799-12-31' },
      {},
      'merchant.business_startdate',
      'must be between 1800 and 2100',
    ],
  ])(
    'refuses %s with 400 naming the field and writes nothing',
    async (_n, merchant, note, field, message) => {
      const before = await count('select count(*) as n from events');
      const res = await add('marco', merchantBody(merchant, note));
      expect(res.status).toBe(400);
      expect(res.body.fields).toContainEqual({ field, message });
      expect(await count('select count(*) as n from events')).toBe(before);
    },
  );

  it('clears the broker name unless the source is broker', async () => {
    const res = await add(
      'marco',
      merchantBody({}, { submission_source: 'in-house', broker_name: 'Should vanish' }),
    );
    const notes = await get(
      'marco',
      buildPath(routes.listMerchantNotes.path, { id: res.body.data.resource_id }),
    );
    expect(notes.body.data[0]).toMatchObject({ submission_source: 'in-house', broker_name: null });
  });

  it('keeps one live merchant per EIN under 20 concurrent adds: one 201, nineteen 409 naming the winner', async () => {
    const fein = nextEin();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        add(i % 2 ? 'marco' : 'tom', merchantBody({ fein, legal_name: `Race ${i} LLC` })),
      ),
    );
    const winners = results.filter((r) => r.status === 201);
    const losers = results.filter((r) => r.status === 409);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(19);
    const winnerId = winners[0]!.body.data.resource_id;
    for (const l of losers) expect(l.body.resource_id).toBe(winnerId);
    expect(
      await count(`select count(*) as n from events where type = 'MerchantAdded' and data->>'fein' = $1`, [
        fein.replace('-', ''),
      ]),
    ).toBe(1);
  });

  it('creates one merchant and one note for a double-submitted form with the same Idempotency-Key', async () => {
    const body = merchantBody();
    const key = { 'idempotency-key': 'form-submit-123' };
    const [first, second] = await Promise.all([add('tom', body, key), add('tom', body, key)]);
    expect(first.body.data.resource_id).toBe(second.body.data.resource_id);
    const again = await add('tom', body, key);
    expect(again.status).toBe(200);
    expect(again.body.data.resource_id).toBe(first.body.data.resource_id);
    expect(
      await count(`select count(*) as n from events where type = 'NoteAdded' and data->>'merchantId' = $1`, [
        first.body.data.resource_id,
      ]),
    ).toBe(1);
  });

  it('answers 422 when an Idempotency-Key comes back with a different request, and records nothing', async () => {
    const key = { 'idempotency-key': 'form-submit-reused' };
    const first = await add('tom', merchantBody(), key);
    expect(first.status).toBe(201);
    const before = await count('select count(*) as n from events', []);
    const other = merchantBody({ legal_name: 'Another Company Inc' });
    const res = await add('tom', other, key);
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatch(/already used with a different request/);
    expect(await count('select count(*) as n from events', [])).toBe(before);
    const noteKey = { 'idempotency-key': 'note-reused' };
    const url = buildPath(routes.addNote.path, { id: first.body.data.resource_id });
    const note = (text: string) => ({
      note: { category: 'Slow Pay', note: text, submission_source: 'in-house' },
    });
    const n1 = await server.call({
      method: 'POST',
      url,
      token: as('tom'),
      payload: note('first'),
      headers: noteKey,
    });
    expect(n1.status).toBe(201);
    const n2 = await server.call({
      method: 'POST',
      url,
      token: as('tom'),
      payload: note('second'),
      headers: noteKey,
    });
    expect(n2.status).toBe(422);
  });

  it('scopes an Idempotency-Key to its user and account: the same key from others creates their own records', async () => {
    const key = { 'idempotency-key': 'shared-key-1' };
    const body = merchantBody();
    const tomAdds = await add('tom', body, key);
    const priyaAdds = await add('priya', { ...body, merchant: { ...body.merchant, fein: nextEin() } }, key);
    const marcoAdds = await add('marco', { ...body, merchant: { ...body.merchant, fein: nextEin() } }, key);
    expect([tomAdds.status, priyaAdds.status, marcoAdds.status]).toEqual([201, 201, 201]);
    const ids = new Set([tomAdds, priyaAdds, marcoAdds].map((r) => r.body.data.resource_id));
    expect(ids.size).toBe(3);
  });

  it('lets a platform admin add on behalf of a funder; the record is theirs, the metadata keeps who did it', async () => {
    const res = await add('admin', { ...merchantBody(), proxied_creator: accountOf.priya });
    expect(res.status).toBe(201);
    const id = res.body.data.resource_id;
    const merchant = await get('priya', buildPath(routes.getMerchant.path, { id }));
    expect(merchant.body.data.added_by_account_id).toBe(accountOf.priya);
    const { rows } = await server.db.pool.query(
      `select metadata from events where stream_id = $1 and type = 'MerchantAdded'`,
      [`merchant-${id}`],
    );
    expect(rows[0].metadata).toMatchObject({
      onBehalfOfAccountId: accountOf.priya,
      actorAccountId: '00000000-0000-4000-8000-000000000001',
    });
  });

  it('refuses proxied_creator from anyone but a platform admin', async () => {
    const res = await add('dana', { ...merchantBody(), proxied_creator: accountOf.priya });
    expect(res.status).toBe(403);
  });

  it('lets members add Default Satisfied notes and refuses Merchant Dispute to non-platform-admins', async () => {
    expect(
      (await add('dana', merchantBody({}, { category: 'Default Satisfied', note: 'Paid in Full' }))).status,
    ).toBe(201);
    expect((await add('marco', merchantBody({}, { category: 'Merchant Dispute' }))).status).toBe(403);
    expect((await add('admin', merchantBody({}, { category: 'Default Satisfied' }))).status).toBe(201);
  });
});

describe('search', () => {
  let merchantId: string;
  let fein: string;
  beforeAll(async () => {
    fein = nextEin();
    const res = await add(
      'marco',
      merchantBody({ fein, legal_name: 'Quantum Widgets Corporation', dba: 'QWC' }),
    );
    merchantId = res.body.data.resource_id;
    for (let i = 0; i < 30; i++) await add('tom', merchantBody({ legal_name: `Zebra Logistics ${i} LLC` }));
  });
  const search = (who: Who, term: string) =>
    server.call({
      method: 'GET',
      url: `${routes.searchMerchants.path}?search=${encodeURIComponent(term)}`,
      token: as(who),
    });

  it('finds one merchant by exact EIN, typed with or without the hyphen', async () => {
    for (const term of [fein, fein.replace('-', '')]) {
      const res = await search('priya', term);
      expect(res.status).toBe(200);
      expect(res.body.data.map((m: { resource_id: string }) => m.resource_id)).toEqual([merchantId]);
    }
  });

  it('finds by keyword in the legal name or the DBA', async () => {
    expect((await search('priya', 'quantum widg')).body.data[0].resource_id).toBe(merchantId);
    expect((await search('priya', 'qwc')).body.data[0].resource_id).toBe(merchantId);
  });

  it('matches every word typed as the beginning of a word, in any order', async () => {
    expect((await search('priya', 'widg quan')).body.data[0].resource_id).toBe(merchantId);
    expect((await search('priya', 'Quantum-Widgets')).body.data[0].resource_id).toBe(merchantId);
    // "antum" begins no word of any name; the nearest known word ("quantum") is searched instead.
    expect((await search('priya', 'widgets antum')).body.data[0].resource_id).toBe(merchantId);
  });

  it('corrects a misspelt word to the nearest word of a known name', async () => {
    const res = await search('priya', 'quantim widgets');
    expect(res.status).toBe(200);
    expect(res.body.data[0].resource_id).toBe(merchantId);
  });

  it('caps keyword results at 5 for BASIC and 25 for PRO with the overflow warning', async () => {
    const basic = await search('tom', 'zebra logistics');
    expect(basic.body.data).toHaveLength(5);
    expect(basic.body.warning).toBe(
      'More than 5 merchants match your search criteria. Please narrow your keyword search.',
    );
    const pro = await search('marco', 'zebra logistics');
    expect(pro.body.data).toHaveLength(25);
    expect(pro.body.warning).toBe(
      'More than 25 merchants match your search criteria. Please narrow your keyword search.',
    );
  });

  it('answers 404 when nothing matches, and records every search as a fact of the search log', async () => {
    const before = await count('select count(*) as n from search_log');
    const res = await search('tom', 'no such merchant anywhere xyz');
    expect(res.status).toBe(404);
    expect(res.body.errors).toBe('No Merchants Found');
    expect(await count('select count(*) as n from search_log')).toBe(before + 1);
    // Not an event of the event log any more (issue 31): its readers never meet searches.
    expect(await count(`select count(*) as n from events where type = 'MerchantSearched'`)).toBe(0);
  });

  it('checks existence by EIN for the add form', async () => {
    const hit = await get('tom', `${routes.merchantCheckExists.path}?search=${fein}`);
    expect(hit.body.data.resource_id).toBe(merchantId);
    const miss = await get('tom', `${routes.merchantCheckExists.path}?search=00-0000001`);
    expect(miss.body.data.resource_id).toBeNull();
    expect((await get('tom', `${routes.merchantCheckExists.path}?search=12`)).status).toBe(400);
  });

  it('gives search counts by month to PRO only', async () => {
    await search('priya', fein);
    const pro = await get('marco', `${routes.searchCounts.path}?search=${fein}`);
    expect(pro.status).toBe(200);
    expect(pro.body.data.total).toBeGreaterThanOrEqual(3);
    // The months the last 6 months touch: the one the window starts in, partly, to this one.
    expect(pro.body.data.months).toHaveLength(7);
    expect(pro.body.data.months.at(-1).month).toBe(new Date().toISOString().slice(0, 7));
    const basic = await get('tom', `${routes.searchCounts.path}?search=${fein}`);
    expect(basic.status).toBe(403);
  });
});

describe('notes', () => {
  let merchantId: string;
  let noteId: string;
  beforeAll(async () => {
    const res = await add('marco', merchantBody());
    merchantId = res.body.data.resource_id;
    noteId = res.body.data.note_id;
  });
  const notePath = (id: string) => buildPath(routes.updateNote.path, { id });
  const note = (fields: Record<string, unknown>) => ({
    note: { category: 'Stacking History', note: 'Took a second position.', ...fields },
  });

  it('adds a note placed at the top of the list', async () => {
    const res = await server.call({
      method: 'POST',
      url: buildPath(routes.addNote.path, { id: merchantId }),
      token: as('tom'),
      payload: note({}),
    });
    expect(res.status).toBe(201);
    const list = await get('tom', buildPath(routes.listMerchantNotes.path, { id: merchantId }));
    expect(list.body.data[0].id).toBe(res.body.data.resource_id);
    expect(list.body.data).toHaveLength(2);
  });

  it('lets the creator edit, and refuses another member of the same funder', async () => {
    expect(
      (await server.call({ method: 'PUT', url: notePath(noteId), token: as('dana'), payload: note({}) }))
        .status,
    ).toBe(403);
    const ok = await server.call({
      method: 'PUT',
      url: notePath(noteId),
      token: as('marco'),
      payload: note({ note: 'Edited text' }),
    });
    expect(ok.status).toBe(200);
    const list = await get('marco', buildPath(routes.listMerchantNotes.path, { id: merchantId }));
    expect(list.body.data.find((n: { id: string }) => n.id === noteId).note).toBe('Edited text');
  });

  it('refuses Default Satisfied to a non-admin editor and locks notes already in it', async () => {
    expect(
      (
        await server.call({
          method: 'PUT',
          url: notePath(noteId),
          token: as('marco'),
          payload: note({ category: 'Default Satisfied' }),
        })
      ).status,
    ).toBe(403);
    const admin = await server.call({
      method: 'PUT',
      url: notePath(noteId),
      token: as('admin'),
      payload: note({ category: 'Default Satisfied', note: 'Paid in Full' }),
    });
    expect(admin.status).toBe(200);
    const locked = await server.call({
      method: 'PUT',
      url: notePath(noteId),
      token: as('marco'),
      payload: note({}),
    });
    expect(locked.status).toBe(403);
    expect(locked.body.errors).toContain('Default Satisfied');
  });

  it('takes a deletion request only from the authoring funder, once, and lists it for platform admins', async () => {
    const dispute = (who: Who) =>
      server.call({
        method: 'PUT',
        url: buildPath(routes.requestNoteDeletion.path, { id: noteId }),
        token: as(who),
        payload: { note: { reason: 'Settled' } },
      });
    expect((await dispute('tom')).status).toBe(403);
    expect((await dispute('admin')).status).toBe(403);
    expect(
      (
        await server.call({
          method: 'PUT',
          url: buildPath(routes.requestNoteDeletion.path, { id: noteId }),
          token: as('dana'),
          payload: { note: {} },
        })
      ).status,
    ).toBe(400);
    expect((await dispute('dana')).status).toBe(200);
    expect((await dispute('dana')).status).toBe(409);
    const reported = await get('admin', `${routes.listReportedNotes.path}?per_page=10`);
    expect(reported.body.data.map((n: { id: string }) => n.id)).toContain(noteId);
    expect(reported.body.data[0]).toMatchObject({ reason: 'Settled', merchant: { resource_id: merchantId } });
    expect((await get('dana', routes.listReportedNotes.path)).status).toBe(403);
    // The request is known to the authoring funder and the platform only.
    const flag = async (who: Who) =>
      (await get(who, buildPath(routes.listMerchantNotes.path, { id: merchantId }))).body.data.find(
        (n: { id: string }) => n.id === noteId,
      ).deletion_requested;
    expect(await flag('marco')).toBe(true);
    expect(await flag('admin')).toBe(true);
    expect(await flag('tom')).toBe(false);
    expect(await flag('priya')).toBe(false);
  });

  it('hides Merchant Dispute notes from everyone but platform admins', async () => {
    await server.call({
      method: 'POST',
      url: buildPath(routes.addNote.path, { id: merchantId }),
      token: as('admin'),
      payload: { note: { category: 'Merchant Dispute', note: 'Owner disputes the default.' } },
    });
    const member = await get('marco', buildPath(routes.listMerchantNotes.path, { id: merchantId }));
    const admin = await get('admin', buildPath(routes.listMerchantNotes.path, { id: merchantId }));
    expect(member.body.data.some((n: { category: string }) => n.category === 'Merchant Dispute')).toBe(false);
    expect(admin.body.data.some((n: { category: string }) => n.category === 'Merchant Dispute')).toBe(true);
  });

  it('shows the adding user only to platform admins and admins of the authoring funder', async () => {
    const seenBy = async (who: Who) =>
      (await get(who, buildPath(routes.listMerchantNotes.path, { id: merchantId }))).body.data.find(
        (n: { id: string }) => n.id === noteId,
      );
    expect((await seenBy('priya')).added_by_user).toBeNull();
    expect((await seenBy('priya')).added_by).toBe('Summit Capital Funding');
    expect((await seenBy('dana')).added_by_user).toBe('Marco Reyes');
    expect((await seenBy('admin')).added_by_user).toBe('Marco Reyes');
    expect((await seenBy('marco')).added_by_user).toBeNull();
  });

  it('lets only platform admins archive a note', async () => {
    const url = buildPath(routes.archiveNote.path, { id: noteId });
    expect((await server.call({ method: 'PUT', url, token: as('marco') })).status).toBe(403);
    expect((await server.call({ method: 'PUT', url, token: as('admin') })).status).toBe(200);
    const list = await get('marco', buildPath(routes.listMerchantNotes.path, { id: merchantId }));
    expect(list.body.data.some((n: { id: string }) => n.id === noteId)).toBe(false);
  });
});

describe('archiving a merchant', () => {
  it('is for platform admins; the merchant leaves the lists, shows under deleted, and frees its EIN', async () => {
    const fein = nextEin();
    const res = await add('marco', merchantBody({ fein, legal_name: 'Gone Soon LLC' }));
    const id = res.body.data.resource_id;
    const url = buildPath(routes.archiveMerchant.path, { id });
    const payload = { delete_merchant: { reason: 'Duplicate record' } };
    expect((await server.call({ method: 'PUT', url, token: as('dana'), payload })).status).toBe(403);
    expect(
      (
        await server.call({
          method: 'PUT',
          url,
          token: as('admin'),
          payload: { delete_merchant: { reason: '' } },
        })
      ).status,
    ).toBe(400);
    expect((await server.call({ method: 'PUT', url, token: as('admin'), payload })).status).toBe(200);
    expect((await get('marco', buildPath(routes.getMerchant.path, { id }))).status).toBe(404);
    const deleted = await get('admin', `${routes.listDeletedMerchants.path}?search=${fein}`);
    expect(deleted.body.data).toHaveLength(1);
    expect(deleted.body.data[0]).toMatchObject({ resource_id: id, reason: 'Duplicate record' });
    const notes = await get('admin', buildPath(routes.listDeletedNotes.path, { id }));
    expect(notes.body.data).toHaveLength(1);
    expect(notes.body.data[0].can_edit).toBe(false);
    expect((await get('marco', routes.listDeletedMerchants.path)).status).toBe(403);
    expect((await add('tom', merchantBody({ fein }))).status).toBe(201);
  });

  it('replays the merchant history to platform admins only', async () => {
    const res = await add('admin', { ...merchantBody(), proxied_creator: accountOf.tom });
    const url = buildPath(routes.merchantHistory.path, { id: res.body.data.resource_id });
    expect((await get('tom', url)).status).toBe(403);
    const history = await get('admin', url);
    expect(history.body.data.map((e: { type: string }) => e.type)).toEqual(['MerchantAdded', 'NoteAdded']);
    expect(history.body.data[0]).toMatchObject({
      on_behalf_of_account: 'Harbor Business Advance',
      actor_user: expect.stringContaining('Platform Administrator'),
    });
  });
});

describe('admin merchant lists', () => {
  it('pages merchants for platform admins and refuses others; bad page sizes get 400', async () => {
    const page = await get('admin', `${routes.listMerchants.path}?per_page=25&page=1`);
    expect(page.status).toBe(200);
    expect(page.body.pagination).toMatchObject({ current_page: 1, per_page: 25 });
    expect(page.body.pagination.total_count).toBeGreaterThan(25);
    expect((await get('dana', routes.listMerchants.path)).status).toBe(403);
    const bad = await get('admin', `${routes.listMerchants.path}?per_page=7`);
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('per_page');
  });

  it('serves recent Suspicious Activity notes to members', async () => {
    await add(
      'marco',
      merchantBody({}, { category: 'Suspicious Activity', note: 'Bank statements look altered.' }),
    );
    const res = await get('tom', `${routes.recentNotes.path}?category=Suspicious%20Activity`);
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({
      category: 'Suspicious Activity',
      note: 'Bank statements look altered.',
    });
  });
});

describe('search counts for an EIN nobody has reported', () => {
  it('counts searches of the EIN itself for PRO users, even without a merchant', async () => {
    const fein = '31-4159265';
    for (const who of ['tom', 'priya'] as const) {
      const miss = await server.call({
        method: 'GET',
        url: `${routes.searchMerchants.path}?search=${fein}`,
        token: as(who),
      });
      expect(miss.status).toBe(404);
      expect(miss.body.position).toMatch(/^[0-9a-f]{16}-[0-9a-f]{16}$/);
      // The 404 carries the position of the recorded search: the next read can wait for it.
      await server.projections.waitFor(miss.body.position, ['merchant_searches'], 3000);
    }
    const counts = await get('marco', `${routes.searchCounts.path}?search=${fein}`);
    expect(counts.status).toBe(200);
    expect(counts.body.data.total).toBe(2);
  });
});
