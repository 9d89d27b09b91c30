import { createHash } from 'node:crypto';
import { buildPath, MESSAGES, routes, SUBSCRIPTION_TEXTS, streams } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Merchant subscriptions over HTTP (accounts spec §2, §3, §6, §7): a PRO funder with subscriptions
// enabled watches EINs, lists and deletes them, and imports them from a CSV through a direct upload.

let server: TestServer;
const tokens: Record<string, string> = {};
let summit = '';
let harbor = '';

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  tokens.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries({
    dana: 'dana.whitfield@summitcapital.example', // Summit (PRO) admin
    marco: 'marco.reyes@summitcapital.example', // Summit member
    priya: 'priya.natarajan@harboradvance.example', // Harbor (BASIC) admin
  })) {
    const res = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email, password: DEMO_PASSWORD } },
    });
    tokens[who] = res.body.data.jwt;
    if (who === 'dana') summit = res.body.data.user.account_resource_id;
    if (who === 'priya') harbor = res.body.data.user.account_resource_id;
  }
}, 60_000);
afterAll(async () => {
  await server.close();
});

const settle = async () => {
  expect(await server.projectedAll(undefined, 20_000)).toBe(true);
};
const listUrl = (id: string, query = '') =>
  `${buildPath(routes.listMerchantSubscriptions.path, { id })}${query}`;
const list = (who: string, id = summit, query = '') =>
  server.call({ method: 'GET', url: listUrl(id, query), token: tokens[who] });
const add = (who: string, fein: unknown, id = summit) =>
  server.call({
    method: 'POST',
    url: buildPath(routes.addMerchantSubscription.path, { id }),
    token: tokens[who],
    payload: { merchant_subscription: { fein } },
  });
const streamEvents = async (accountId = summit) =>
  (
    await server.db.pool.query<{ type: string; data: { feins?: string[] } }>(
      'select type, data from events where stream_id = $1 order by revision',
      [streams.subscriptions(accountId)],
    )
  ).rows;

async function setSubscriptions(enabled: boolean) {
  const res = await server.setSubscriptionSettings(tokens.admin!, summit, {
    merchant_subscription_enabled: enabled,
  });
  expect(res.status).toBe(200);
  await settle();
}

describe('who may use merchant subscriptions', () => {
  it('refuses a PRO account without subscriptions enabled, a BASIC account, and plain members', async () => {
    const off = await list('dana');
    expect(off.status).toBe(403);
    expect(off.body.errors).toBe(SUBSCRIPTION_TEXTS.notEnabled);
    expect((await add('dana', '12-3456789')).status).toBe(403);

    const basic = await list('priya', harbor);
    expect(basic.status).toBe(403);
    expect(basic.body.errors).toBe('This feature is only available to PRO members.');

    await setSubscriptions(true);
    const member = await list('marco');
    expect(member.status).toBe(403);
    expect(member.body.errors).toBe(MESSAGES.notAllowed);
  });

  it("answers another funder's admin as if the account did not exist", async () => {
    const other = await list('dana', harbor);
    const missing = await list('dana', '00000000-0000-4000-8000-0000000000ff');
    expect(other.status).toBe(404);
    expect(other.body.errors).toBe(missing.body.errors);
    expect((await add('dana', '12-3456789', harbor)).status).toBe(404);
  });
});

describe('subscribing, listing and deleting', () => {
  it('adds an EIN once however often it is subscribed, with the spec text; a repeat is 200 "already watched"', async () => {
    const first = await add('dana', '12-3456789');
    expect(first.status).toBe(201);
    expect(first.body.message).toBe(`Merchant subscription has been added to ${'Merchant Risk Network'}.`);
    expect(first.body.data).toMatchObject({ fein: '123456789', already_watched: false });
    const before = (await streamEvents()).length;
    const again = await add('dana', '123456789');
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('12-3456789 is already watched.');
    expect(again.body.data).toEqual({ ...first.body.data, already_watched: true });
    expect((await streamEvents()).length).toBe(before);
    const res = await list('dana');
    expect(res.status).toBe(200);
    expect(res.body.data.filter((s: { fein: string }) => s.fein === '123456789')).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ fein: '123456789', merchant: null });
  });

  it('refuses a bad EIN naming the field, writing nothing', async () => {
    const before = (await streamEvents()).length;
    const bad = await add('dana', '12-34');
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f: { field: string }) => f.field)).toContain('merchant_subscription.fein');
    expect((await streamEvents()).length).toBe(before);
  });

  it('is idempotent under concurrency: the same EIN 10 times at once is one subscription', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => add('dana', '77-7777777')));
    // One of them subscribed it; the others found it already watched.
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const added = (await streamEvents()).filter(
      (e) => e.type === 'MerchantSubscriptionsAdded' && e.data.feins?.includes('777777777'),
    );
    expect(added).toHaveLength(1);
    const res = await list('dana', summit, '?search=777');
    expect(res.body.data).toHaveLength(1);
  });

  it('pages (25 by default) and searches by EIN prefix, and shows the merchant when one was reported', async () => {
    for (let i = 0; i < 30; i++) await add('dana', `31-00000${String(i).padStart(2, '0')}`);
    const merchant = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: tokens.marco,
      payload: {
        merchant: { fein: '31-0000001', legal_name: 'Watched Goods LLC', city: 'Tampa', state: 'FL' },
        note: { category: 'Slow Pay', note: 'Late twice.', submission_source: 'in-house' },
      },
    });
    expect(merchant.status).toBe(201);
    await settle();
    const page1 = await list('dana', summit, '?search=31-00');
    expect(page1.body.pagination).toMatchObject({
      current_page: 1,
      per_page: 25,
      total_count: 30,
      total_pages: 2,
    });
    expect(page1.body.data).toHaveLength(25);
    const page2 = await list('dana', summit, '?search=3100&page=2');
    expect(page2.body.data).toHaveLength(5);
    const one = await list('dana', summit, '?search=310000001');
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0].merchant).toMatchObject({
      resource_id: merchant.body.data.resource_id,
      legal_name: 'Watched Goods LLC',
      city: 'Tampa',
      state: 'FL',
    });

    // has_merchant_subscription: true for Summit (it watches the EIN), false for Harbor.
    const forSummit = await server.call({
      method: 'GET',
      url: buildPath(routes.getMerchant.path, { id: merchant.body.data.resource_id }),
      token: tokens.marco,
    });
    expect(forSummit.body.data.has_merchant_subscription).toBe(true);
    const forHarbor = await server.call({
      method: 'GET',
      url: buildPath(routes.getMerchant.path, { id: merchant.body.data.resource_id }),
      token: tokens.priya,
    });
    expect(forHarbor.body.data.has_merchant_subscription).toBe(false);
    const searched = await server.call({
      method: 'GET',
      url: `${routes.searchMerchants.path}?search=31-0000001`,
      token: tokens.dana,
    });
    expect(searched.body.data[0].has_merchant_subscription).toBe(true);
    // The keyword search says so too, for the account that watches it only.
    const byName = (token: string) =>
      server.call({ method: 'GET', url: `${routes.searchMerchants.path}?search=Watched%20Goods`, token });
    const watchedByName = (await byName(tokens.dana!)).body.data.find(
      (m: { fein: string }) => m.fein === '310000001',
    );
    expect(watchedByName?.has_merchant_subscription).toBe(true);
    const harborByName = (await byName(tokens.priya!)).body.data.find(
      (m: { fein: string }) => m.fein === '310000001',
    );
    expect(harborByName?.has_merchant_subscription).toBe(false);
  });

  it('deletes the selected subscriptions (never another account’s) and answers page 1', async () => {
    const page = await list('dana', summit, '?search=31000000');
    const ids = page.body.data.slice(0, 3).map((s: { id: string }) => s.id);
    // An id of another account's subscription, and a made-up one: nothing of theirs changes.
    const res = await server.call({
      method: 'POST',
      url: buildPath(routes.deleteSelectedMerchantSubscriptions.path, { account_id: summit }),
      token: tokens.dana,
      payload: {
        merchant_subscription_ids: [...ids, '00000000-0000-4000-8000-0000000000ab'],
        page: 2,
        per_page: 25,
        search: '31000000',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ current_page: 1, total_count: 7 });
    expect(res.body.data.map((s: { id: string }) => s.id)).not.toContain(ids[0]);
    const deny = await server.call({
      method: 'POST',
      url: buildPath(routes.deleteSelectedMerchantSubscriptions.path, { account_id: harbor }),
      token: tokens.dana,
      payload: { merchant_subscription_ids: ids },
    });
    expect(deny.status).toBe(404);
  });

  it('refuses a deletion whose list search is not an EIN (NUL, a huge string, an object), deleting nothing', async () => {
    const before = await streamEvents();
    const page = await list('dana', summit);
    const ids = page.body.data.slice(0, 1).map((s: { id: string }) => s.id);
    for (const search of ['31\u0000', '3'.repeat(100_000), { nested: { deeper: [1] } }]) {
      const res = await server.call({
        method: 'POST',
        url: buildPath(routes.deleteSelectedMerchantSubscriptions.path, { account_id: summit }),
        token: tokens.dana,
        payload: { merchant_subscription_ids: ids, page: 1, per_page: 25, search },
      });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain('search');
    }
    expect(await streamEvents()).toEqual(before);
  });

  it('deletes all and answers an empty first page', async () => {
    const res = await server.call({
      method: 'POST',
      url: buildPath(routes.deleteAllMerchantSubscriptions.path, { account_id: summit }),
      token: tokens.dana,
      payload: { page: 1, per_page: 25 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination.total_count).toBe(0);
    expect((await list('dana')).body.pagination.total_count).toBe(0);
  });
});

const md5 = (b: Buffer) => createHash('md5').update(b).digest('base64');

async function presign(bytes: Buffer, filename = 'eins.csv') {
  const res = await server.call({
    method: 'POST',
    url: routes.createPresignedUrl.path,
    token: tokens.dana,
    payload: { file: { filename, byte_size: bytes.length, checksum: md5(bytes), content_type: 'text/csv' } },
  });
  expect(res.status).toBe(200);
  return res.body as { signed_id: string; direct_upload: { url: string; headers: Record<string, string> } };
}
const put = (url: string, bytes: Buffer, contentType = 'text/csv') =>
  server.call({ method: 'PUT', url, payload: bytes, headers: { 'content-type': contentType } });
const startImport = (signedId: string, bytes: Buffer, fileName = 'eins.csv') =>
  server.call({
    method: 'POST',
    url: buildPath(routes.createSubscriptionImport.path, { id: summit }),
    token: tokens.dana,
    payload: { file: signedId, file_name: fileName, file_size: bytes.length },
  });
const imports = async () =>
  (
    await server.call({
      method: 'GET',
      url: buildPath(routes.listSubscriptionImports.path, { id: summit }),
      token: tokens.dana,
    })
  ).body.data as { id: string; status: string; [k: string]: unknown }[];

async function untilFinished(importId: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = (await imports()).find((i) => i.id === importId);
    if (found && (found.status === 'done' || found.status === 'failed')) return found;
    if (Date.now() > until) throw new Error(`import ${importId} not finished: ${JSON.stringify(found)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('CSV import through a direct upload', () => {
  it('checks the upload, imports once, counts and offers the results', async () => {
    await add('dana', '55-5555555'); // already watched: skipped
    const csv = Buffer.from('ein\n12-3456789\n123456789\n98 7654321\nbad-ein\n55-5555555\n=cmd()\n');
    const { signed_id, direct_upload } = await presign(csv);
    expect(direct_upload.headers['Content-Type']).toBe('text/csv');

    const notCsv = await put(direct_upload.url, csv, 'application/octet-stream');
    expect(notCsv.status).toBe(400);
    const tampered = Buffer.from(csv);
    tampered[5] = '0'.charCodeAt(0);
    const wrong = await put(direct_upload.url, tampered);
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toBe('The file does not match its declared MD5 checksum.');
    const short = await put(direct_upload.url, csv.subarray(1));
    expect(short.status).toBe(422);
    expect(short.body.errors).toBe('The file is not the size that was declared.');
    expect((await startImport(signed_id, csv)).status).toBe(422); // not uploaded yet

    expect((await put(direct_upload.url, csv)).status).toBe(204);
    expect((await put(direct_upload.url, csv)).status).toBe(409); // single use

    const queued = await startImport(signed_id, csv);
    expect(queued.status).toBe(201);
    expect(queued.body.data.status).toBe('queued');
    const importId = queued.body.data.id as string;
    const twice = await startImport(signed_id, csv);
    expect(twice.status).toBe(409);
    expect(twice.body.errors).toBe('This file has already been imported.');

    const done = await untilFinished(importId, 20_000);
    expect(done).toMatchObject({
      status: 'done',
      processed: true,
      file_name: 'eins.csv',
      file_size: csv.length,
      imported: 2,
      skipped: 2,
      errors: 2,
    });
    const results = await server.call({
      method: 'GET',
      url: done.results_file_url as string,
      token: tokens.dana,
    });
    expect(results.status).toBe(200);
    expect(String(results.headers['content-type'])).toContain('text/csv');
    expect(results.body.trim().split('\n')).toEqual([
      'row,input,outcome',
      '2,12-3456789,imported',
      '3,123456789,skipped: duplicate in file',
      '4,98 7654321,imported',
      '5,bad-ein,"error: must be 9 digits, as 12-3456789"',
      '6,55-5555555,skipped: already subscribed',
      `7,'=cmd(),"error: must be 9 digits, as 12-3456789"`,
    ]);
    const watched = await list('dana', summit, '?search=987654321');
    expect(watched.body.data).toHaveLength(1);
    // Another funder's admin cannot read the results.
    const other = await server.call({
      method: 'GET',
      url: buildPath(routes.downloadSubscriptionImportResults.path, { id: harbor, import_id: importId }),
      token: tokens.dana,
    });
    expect(other.status).toBe(404);
  });

  it('imports 100,000 rows in under 30 seconds', async () => {
    const lines = ['ein'];
    for (let i = 0; i < 100_000; i++) {
      const digits = String(600_000_000 + i);
      lines.push(i % 2 === 0 ? `${digits.slice(0, 2)}-${digits.slice(2)}` : digits);
    }
    const csv = Buffer.from(`${lines.join('\n')}\n`);
    const started = Date.now();
    const { signed_id, direct_upload } = await presign(csv, 'big.csv');
    expect((await put(direct_upload.url, csv)).status).toBe(204);
    const queued = await startImport(signed_id, csv, 'big.csv');
    expect(queued.status).toBe(201);
    const done = await untilFinished(queued.body.data.id, 30_000);
    const elapsed = Date.now() - started;
    console.log(`100,000-row import: ${elapsed} ms`);
    expect(done).toMatchObject({ status: 'done', imported: 100_000, skipped: 0, errors: 0 });
    expect(elapsed).toBeLessThan(30_000);
    expect((await list('dana', summit, '?search=6')).body.pagination.total_count).toBe(100_000);
    const added = (await streamEvents()).filter(
      (e) => e.type === 'MerchantSubscriptionsAdded' && e.data.feins?.[0]?.startsWith('6000'),
    );
    expect(added.length).toBeLessThanOrEqual(20);
  }, 60_000);
});
