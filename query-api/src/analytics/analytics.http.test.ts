import { routes } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Account analytics over HTTP (accounts spec §2, §3, §7): what a funder does today moves exactly its
// own figures for today; members see only their account's, platform admins any account's.

let server: TestServer;
const tokens: Record<string, string> = {};
const accountOf: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  tokens.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries({
    dana: 'dana.whitfield@summitcapital.example',
    marco: 'marco.reyes@summitcapital.example',
    tom: 'tom.becker@harboradvance.example',
  })) {
    tokens[who] = await server.login(email, DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: tokens[who] });
    accountOf[who] = me.body.data.user.account_resource_id;
  }
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const settle = async () => {
  await server.searches.flush();
  expect(await server.projectedAll(undefined, 20_000)).toBe(true);
};
const get = (url: string, who: string) => server.call({ method: 'GET', url, token: tokens[who] });
const today = () => new Date().toISOString().slice(0, 10);
const todayOf = async (url: string, who: string) => {
  const res = await get(url, who);
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(30);
  return res.body.data.at(-1);
};

describe('account analytics', () => {
  it("moves the account's own figures for today, by source and category", async () => {
    await settle();
    const searchesBefore = await todayOf(routes.searchesByDay.path, 'marco');
    const additionsBefore = await todayOf(routes.additionsByDay.path, 'marco');
    const sourceBefore = (await get(routes.searchesBySource.path, 'marco')).body.data;
    const hitsBefore = (await get(routes.hitsByCategory.path, 'marco')).body.data;
    const harborBefore = await todayOf(routes.searchesByDay.path, 'tom');

    // A hit on a demo merchant, a miss, and a merchant with its note.
    const found = await get(`${routes.searchMerchants.path}?search=451234567`, 'marco');
    expect(found.status).toBe(200);
    const category = found.body.data[0].last_note_category as string;
    expect((await get(`${routes.searchMerchants.path}?search=999999977`, 'marco')).status).toBe(404);
    const added = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: tokens.marco,
      payload: {
        merchant: { fein: '88-1234567', legal_name: 'Analytics Apples LLC', city: 'Reno', state: 'NV' },
        note: { category: 'Slow Pay', note: 'Paid late.', submission_source: 'in-house' },
      },
    });
    expect(added.status).toBe(201);
    await settle();

    const searches = await todayOf(routes.searchesByDay.path, 'marco');
    expect(searches.daily_search_date).toBe(today());
    expect(searches.total_web_searches - searchesBefore.total_web_searches).toBe(2);
    expect(searches.total_api_searches - searchesBefore.total_api_searches).toBe(0);
    expect(searches.total_hits - searchesBefore.total_hits).toBe(1);
    const additions = await todayOf(routes.additionsByDay.path, 'marco');
    expect(additions.total_merchants - additionsBefore.total_merchants).toBe(1);
    expect(additions.total_notes - additionsBefore.total_notes).toBe(1);
    const source = (await get(routes.searchesBySource.path, 'marco')).body.data;
    expect(source.total_web - sourceBefore.total_web).toBe(2);
    expect(source.percent_web + source.percent_api).toBeCloseTo(100, 1);
    const hits = (await get(routes.hitsByCategory.path, 'marco')).body.data;
    const key = category.toLowerCase().replace(/ /g, '_').replace('split_payer', 'split_pay');
    expect(hits[`total_${key}`] - hitsBefore[`total_${key}`]).toBe(1);
    // Another funder's figures did not move.
    expect(await todayOf(routes.searchesByDay.path, 'tom')).toEqual(harborBefore);

    // The platform admin sees Summit's figures by asking for them, and the network's without.
    const asAdmin = await get(`${routes.searchesByDay.path}?account_id=${accountOf.marco}`, 'admin');
    expect(asAdmin.body.data.at(-1)).toEqual(searches);
    const network = (await get(routes.searchesByDay.path, 'admin')).body.data.at(-1);
    expect(network.total_web_searches).toBeGreaterThanOrEqual(
      searches.total_web_searches + harborBefore.total_web_searches,
    );
  });

  it("refuses another account's figures to its members and admins, and bad parameters naming them", async () => {
    for (const route of [
      routes.searchesByDay,
      routes.additionsByDay,
      routes.searchesBySource,
      routes.hitsByCategory,
    ]) {
      const other = await get(`${route.path}?account_id=${accountOf.tom}`, 'dana');
      expect(other.status).toBe(403);
      expect(other.body.errors).toBe("You may only see your own account's analytics.");
      expect((await get(`${route.path}?account_id=${accountOf.dana}`, 'marco')).status).toBe(200);
    }
    const days = await get(`${routes.searchesByDay.path}?days=0`, 'marco');
    expect(days.status).toBe(400);
    expect(days.body.fields).toEqual([{ field: 'days', message: 'must be 1 or more' }]);
    const week = await get(`${routes.additionsByDay.path}?days=7`, 'marco');
    expect(week.body.data).toHaveLength(7);
    const bad = await get(`${routes.hitsByCategory.path}?account_id=nope`, 'marco');
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('account_id');
  });
});
