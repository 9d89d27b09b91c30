import { BROKER_KEY_MAX, BROKER_NAME_MAX, brokerKey, buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Broker records over HTTP (issue 24): the merchants a broker brought (however its name was typed) and
// how many carry Default, Fraud or Stacking notes across the network; PRO only, as submission sources
// are; archived merchants drop out; a bad key is a 400 naming it. Issue 30: I.S.O. is ISO, the record
// shows one tidy spelling, and every name a note may carry (any script, 120 characters) opens its record.

let server: TestServer;
const token: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  token.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  token.dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
  token.priya = await server.login('priya.natarajan@harboradvance.example', DEMO_PASSWORD);
  token.alex = await server.login('alex.morgan@lakeside.example', DEMO_PASSWORD);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

let einCount = 0;
const freshEin = () => String(910_000_000 + ++einCount);

async function report(who: string, broker: string | null, category = 'Slow Pay'): Promise<string> {
  const fein = freshEin();
  const res = await server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: token[who],
    payload: {
      merchant: { fein, legal_name: `Brokered ${fein} LLC`, city: 'Tulsa', state: 'OK' },
      note: {
        category,
        note: 'Reported.',
        submission_source: broker ? 'broker' : 'in-house',
        broker_name: broker,
      },
      proxied_creator: null,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.resource_id;
}

async function addNote(who: string, merchantId: string, category: string) {
  const res = await server.call({
    method: 'POST',
    url: buildPath(routes.addNote.path, { id: merchantId }),
    token: token[who],
    payload: { note: { category, note: 'Seen again.' } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const list = (who: string, query = '') =>
  server.call({ method: 'GET', url: `${routes.listBrokers.path}${query}`, token: token[who] });
const record = (who: string, key: string) =>
  server.call({ method: 'GET', url: buildPath(routes.getBroker.path, { key }), token: token[who] });

describe('broker records', () => {
  it('counts the merchants a broker brought and their Default, Fraud and Stacking notes, across funders', async () => {
    const a = await report('priya', 'Quillon Funding Partners, LLC');
    const b = await report('alex', 'quillon  funding partners llc', 'Default');
    const c = await report('dana', 'QUILLON FUNDING PARTNERS LLC.');
    const archived = await report('alex', 'Quillon Funding Partners LLC', 'Stacking History');
    await report('alex', 'Another Broker Inc');
    await report('alex', null, 'Default');
    // Other funders' notes count too: a's stacking, c's suspicious activity (fraud).
    await addNote('alex', a, 'Stacking History');
    await addNote('priya', c, 'Suspicious Activity');
    const gone = await server.call({
      method: 'PUT',
      url: buildPath(routes.archiveMerchant.path, { id: archived }),
      token: token.admin,
      payload: { delete_merchant: { reason: 'Duplicate record.' } },
    });
    expect(gone.status).toBe(200);
    expect(await server.projectedAll()).toBe(true);

    const found = await list('dana', '?search=quillon%20funding');
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    routes.listBrokers.response.parse(found.body);
    expect(found.body.data).toEqual([
      expect.objectContaining({
        broker_key: 'quillon funding partners llc',
        broker_name: 'QUILLON FUNDING PARTNERS LLC.',
        merchants: 3,
        with_default: 1,
        with_fraud: 1,
        with_stacking: 1,
      }),
    ]);
    expect(found.body.pagination.total_count).toBe(1);

    const one = await record('dana', 'quillon funding partners llc');
    expect(one.status).toBe(200);
    routes.getBroker.response.parse(one.body);
    expect(
      one.body.data.merchant_list
        .map((m: { resource_id: string; default: boolean; fraud: boolean; stacking: boolean }) => [
          m.resource_id,
          m.default,
          m.fraud,
          m.stacking,
        ])
        .sort(),
    ).toEqual(
      [
        [a, false, false, true],
        [b, true, false, false],
        [c, false, true, false],
      ].sort(),
    );
  });

  it('is for PRO: a BASIC member is refused, with nothing about any broker', async () => {
    const basic = await list('priya');
    expect(basic.status).toBe(403);
    expect(JSON.stringify(basic.body)).not.toMatch(/quillon/i);
    expect((await record('priya', 'quillon funding partners llc')).status).toBe(403);
  });

  it('answers a broker nobody named with a 404 and a malformed key or page with a 400 naming it', async () => {
    expect((await record('dana', 'nobody named this')).status).toBe(404);
    const bad = await record('dana', 'Has Capitals!');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('key');
    const page = await list('dana', '?per_page=7');
    expect(page.status).toBe(400);
    expect(JSON.stringify(page.body)).toContain('per_page');
  });

  it('meets I.S.O. and ISO in one record, under the spelling most of its merchants carry, tidied', async () => {
    // The demo network's Sunrise Diner names Gulf Coast ISO already.
    const before = await list('dana', '?search=gulf%20coast');
    expect(before.body.data).toEqual([
      expect.objectContaining({ broker_key: 'gulf coast iso', merchants: 1 }),
    ]);

    const plain = await report('dana', 'Gulf Coast ISO');
    const dotted = await report('alex', 'gulf coast I.S.O.');
    expect(await server.projectedAll()).toBe(true);
    const met = await list('dana', '?search=gulf%20coast');
    expect(met.status, JSON.stringify(met.body)).toBe(200);
    // One broker: its risk counts are not split between spellings. Gulf Coast ISO is on 2 of its 3.
    expect(met.body.data).toEqual([
      expect.objectContaining({ broker_key: 'gulf coast iso', broker_name: 'Gulf Coast ISO', merchants: 3 }),
    ]);
    const one = await record('dana', 'gulf coast iso');
    expect(one.status).toBe(200);
    expect(one.body.data.merchant_list.map((m: { resource_id: string }) => m.resource_id)).toEqual(
      expect.arrayContaining([plain, dotted]),
    );

    // As typed, with a double space and a trailing one: counted and shown as Gulf Coast ISO.
    await report('priya', 'Gulf  Coast ISO ');
    expect(await server.projectedAll()).toBe(true);
    expect((await list('dana', '?search=gulf%20coast')).body.data).toEqual([
      expect.objectContaining({ broker_name: 'Gulf Coast ISO', merchants: 4 }),
    ]);
  });

  it('shows the latest spelling when two are on as many merchants', async () => {
    await report('dana', 'Harbor  Light  I.S.O.');
    await report('alex', 'harbor  light ISO ');
    expect(await server.projectedAll()).toBe(true);
    const found = await list('dana', '?search=harbor%20light');
    expect(found.body.data).toEqual([
      expect.objectContaining({
        broker_key: 'harbor light iso',
        broker_name: 'harbor light ISO',
        merchants: 2,
      }),
    ]);
  });

  it('opens the record of every name a note may carry: any script, 120 characters', async () => {
    const names = [
      // ー (the prolonged sound mark) is a modifier letter.
      '株式会社ブローカー・サービス',
      // 120 characters, accented and Japanese: a key over 100 characters, 9 bytes to each kana in the URL.
      'Société Crédit Agrícola ブローカー・サービス '
        .repeat(4)
        .slice(0, BROKER_NAME_MAX - 1)
        .concat('Z'),
      // The longest key a 120-character name gives: each character decomposes into 18.
      '\uFDFA'.repeat(BROKER_NAME_MAX),
    ];
    expect(names[1]).toHaveLength(BROKER_NAME_MAX);
    for (const name of names) await report('dana', name);
    expect(await server.projectedAll()).toBe(true);
    for (const name of names) {
      const key = brokerKey(name);
      const one = await record('dana', key);
      expect(one.status, `${key.length} characters: ${JSON.stringify(one.body)}`).toBe(200);
      routes.getBroker.response.parse(one.body);
      expect(one.body.data).toMatchObject({ broker_key: key, broker_name: name, merchants: 1 });
    }
    expect(brokerKey(names[2]!)).toHaveLength(BROKER_KEY_MAX);
  });

  it('answers a key no name gives with a 400 naming it, whatever its length', async () => {
    for (const key of [
      'gulf coast i.s.o.',
      'Gulf Coast ISO',
      'gulf  coast iso',
      ' gulf',
      'ー'.repeat(BROKER_KEY_MAX + 1),
    ]) {
      const bad = await record('dana', key);
      expect(bad.status, key.slice(0, 20)).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('key');
    }
  });
});
