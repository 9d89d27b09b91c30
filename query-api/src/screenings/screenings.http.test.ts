import { randomUUID } from 'node:crypto';
import {
  buildPath,
  routes,
  SCREENING_DAILY_EINS,
  ScreeningRowView,
  ScreeningView,
  streams,
} from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Portfolio screening (issue 32) on the real server and database: a CSV with bad rows screens the rest
// and names each row's problem; the report reads worst first with its exposure and files; bad input
// writes nothing; the plan, the account, the contribution lock and the daily allowance refuse, the
// allowance under screenings sent at once; a note added while a screening runs; the partner API's job.

let server: TestServer;
let admin = '';
const tokens: Record<string, string> = {};
const accountOf: Record<string, string> = {};
let apiToken = '';

beforeAll(async () => {
  server = await startTestServer({ demo: true, env: { RATE_LIMIT_TOKEN_PER_MINUTE: '1000' } });
  admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries({
    dana: 'dana.whitfield@summitcapital.example', // Summit (PRO) admin
    marco: 'marco.reyes@summitcapital.example', // Summit (PRO) member
    priya: 'priya.natarajan@harboradvance.example', // Harbor (BASIC) admin
  })) {
    tokens[who] = await server.login(email, DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: tokens[who] });
    accountOf[who] = me.body.data.user.account_resource_id;
  }
  await server.call({
    method: 'PUT',
    url: buildPath(routes.grantAccountApiAccess.path, { id: accountOf.dana! }),
    token: admin,
  });
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: tokens.dana });
  const credentials = await server.call({
    method: 'PUT',
    url: buildPath(routes.grantUserApiAccess.path, { id: me.body.data.user.resource_id }),
    token: tokens.dana,
  });
  const token = await server.call({
    method: 'POST',
    url: routes.getApiToken.path,
    payload: { auth: credentials.body.data },
  });
  apiToken = token.body.data.token;
}, 60_000);
afterAll(async () => {
  await server?.close();
});

async function addMerchant(fein: string, name: string, categories: string[]): Promise<string> {
  const [first, ...rest] = categories;
  const res = await server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: tokens.priya,
    payload: {
      merchant: { fein, legal_name: name, city: 'Austin', state: 'TX' },
      note: { category: first, note: `${first} reported.`, submission_source: 'in-house' },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  for (const category of rest)
    expect(
      (
        await server.call({
          method: 'POST',
          url: buildPath(routes.addNote.path, { id: res.body.data.resource_id }),
          token: tokens.dana,
          payload: { note: { category, note: `${category} reported.`, submission_source: 'in-house' } },
        })
      ).status,
    ).toBe(201);
  return res.body.data.resource_id;
}

const start = (token: string, payload: object) =>
  server.call({ method: 'POST', url: routes.createScreening.path, token, payload });

async function finished(id: string, token = tokens.dana!): Promise<ScreeningView> {
  let view: ScreeningView | undefined;
  await expect
    .poll(
      async () => {
        const res = await server.call({
          method: 'GET',
          url: buildPath(routes.getScreening.path, { id }),
          token,
        });
        view = ScreeningView.parse(res.body.data);
        return view.status;
      },
      { timeout: 20_000 },
    )
    .toBe('done');
  return view!;
}

async function rows(id: string, query = ''): Promise<ScreeningRowView[]> {
  const res = await server.call({
    method: 'GET',
    url: `${buildPath(routes.listScreeningRows.path, { id })}?per_page=500${query}`,
    token: tokens.dana,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ScreeningRowView.array().parse(res.body.data);
}

/** Screenings written: the requests in the event log (the report's rows follow in the background). */
const screeningCount = async () =>
  Number(
    (await server.db.pool.query(`select count(*) from events where type = 'ScreeningRequested'`)).rows[0]
      .count,
  );

describe('a screening of a CSV', () => {
  let id = '';

  it('screens every EIN once, names each bad row, and reports worst first', async () => {
    await addMerchant('781000001', 'Screened Default LLC', ['Default', 'Stacking History']);
    await addMerchant('781000002', 'Screened Slow LLC', ['Slow Pay']);
    await addMerchant('781000003', 'Screened Fraud LLC', ['Suspicious Activity']);
    expect(await server.projectedAll(undefined, 20_000)).toBe(true);
    const csv = [
      'EIN',
      '78-1000002',
      '781000001',
      'not an ein',
      '781000009',
      '78-1000001',
      '781000003,extra',
      '781000003',
    ].join('\r\n');
    const res = await start(tokens.marco!, { source: 'csv', file_name: 'portfolio.csv', csv });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    id = res.body.data.resource_id;
    expect(res.body.data.total).toBe(4);
    // The id just given works at once, whether the worker has taken it in yet or not.
    const atOnce = await server.call({
      method: 'GET',
      url: buildPath(routes.getScreening.path, { id }),
      token: tokens.marco,
    });
    expect(atOnce.status, JSON.stringify(atOnce.body)).toBe(200);
    expect(atOnce.body.data.total).toBe(4);
    expect(res.body.data.rejected).toEqual([
      { row: 4, input: 'not an ein', problem: 'must be 9 digits, as 12-3456789' },
      { row: 6, input: '78-1000001', problem: 'the same EIN as row 3' },
      { row: 7, input: '781000003,extra', problem: 'must contain only an EIN' },
    ]);

    const view = await finished(id);
    expect(view).toMatchObject({
      total: 4,
      screened: 4,
      found: 3,
      flagged: 3,
      rejected: 3,
      source: 'csv',
      file_name: 'portfolio.csv',
    });
    expect(view.exposure.map((e) => [e.group, e.ever])).toEqual([
      ['default', 1],
      ['suspicious_activity', 1],
      ['stacking_history', 1],
      ['slow_pay', 1],
    ]);
    const report = await rows(id);
    expect(report.map((r) => [r.row, r.outcome])).toEqual([
      [3, 'found'], // Default (and Stacking, by two funders): worst
      [8, 'found'], // Suspicious Activity
      [2, 'found'], // Slow Pay
      [5, 'not_found'],
      [4, 'rejected'],
      [6, 'rejected'],
      [7, 'rejected'],
    ]);
    expect(report[0]!.signals).toMatchObject({ funders: 2 });
    expect(report[0]!.merchant).toMatchObject({ legal_name: 'Screened Default LLC' });
    expect((await rows(id, '&category=slow_pay&window=90d')).map((r) => r.row)).toEqual([2]);
    expect((await rows(id, '&outcome=not_found')).map((r) => r.fein)).toEqual(['781000009']);
  });

  it('downloads the report as CSV and as a PDF', async () => {
    const csv = await server.call({
      method: 'GET',
      url: buildPath(routes.downloadScreeningCsv.path, { id }),
      token: tokens.dana,
    });
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toContain('text/csv');
    const lines = String(csv.body).trim().split('\n');
    expect(lines[0]).toMatch(/^row,input,ein,outcome,problem,legal_name/);
    expect(lines[1]).toContain('78-1000001');
    expect(lines).toHaveLength(8);
    const pdf = await server.front.inject({
      method: 'GET',
      url: buildPath(routes.downloadScreeningPdf.path, { id }),
      headers: { authorization: `Bearer ${tokens.dana}` },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const { PDFParse } = await import('pdf-parse');
    const text = (await new PDFParse({ data: pdf.rawPayload }).getText()).text;
    expect(text).toContain('Portfolio screening report');
    expect(text).toContain('Screened Default LLC');
    expect(text).toContain('Default / Default Account');
    expect(text).not.toMatch(/Harbor|Summit/);
  });

  it('watches all hits in one step, for an account admin', async () => {
    const hits = await server.call({
      method: 'GET',
      url: buildPath(routes.listScreeningHits.path, { id }),
      token: tokens.dana,
    });
    expect(hits.body.data).toEqual(['781000002', '781000001', '781000003']);
    const bulk = (token: string) =>
      server.call({
        method: 'POST',
        url: buildPath(routes.addMerchantSubscriptions.path, { id: accountOf.dana! }),
        token,
        payload: { feins: hits.body.data },
      });
    expect((await bulk(tokens.marco!)).status).toBe(403);
    await server.setSubscriptionSettings(admin, accountOf.dana!, { merchant_subscription_enabled: true });
    const watched = await bulk(tokens.dana!);
    expect(watched.status, JSON.stringify(watched.body)).toBe(200);
    expect(watched.body.data).toEqual({ added: 3, already_watched: 0 });
    expect((await bulk(tokens.dana!)).body.data).toEqual({ added: 0, already_watched: 3 });
  });

  it("lists the account's screenings, newest first, to its members", async () => {
    const list = await server.call({ method: 'GET', url: routes.listScreenings.path, token: tokens.marco });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data[0]).toMatchObject({ resource_id: id, file_name: 'portfolio.csv', status: 'done' });
    expect(list.body.pagination).toMatchObject({ current_page: 1, total_count: 1 });
  });

  it('shows a screening to its own account only', async () => {
    const other = await server.call({
      method: 'GET',
      url: buildPath(routes.getScreening.path, { id }),
      token: tokens.priya,
    });
    expect(other.status).toBe(403); // BASIC: the plan refuses first
    const unknown = await server.call({
      method: 'GET',
      url: buildPath(routes.getScreening.path, { id: randomUUID() }),
      token: tokens.dana,
    });
    expect(unknown.status).toBe(404);
  });
});

describe('what a screening refuses, writing nothing', () => {
  it('refuses bad bodies by field, a file of no EIN, too many EINs, and BASIC', async () => {
    const before = await screeningCount();
    for (const [payload, field] of [
      [{ source: 'csv', file_name: 'a.csv' }, 'csv'],
      [{ source: 'csv', csv: '781000001' }, 'file_name'],
      [{ source: 'csv', file_name: 'a.csv', csv: 'x'.repeat(512 * 1024 + 1) }, 'csv'],
      [{ source: 'pdf' }, 'source'],
      [{}, 'source'],
    ] as const) {
      const res = await start(tokens.dana!, payload);
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    const none = await start(tokens.dana!, { source: 'csv', file_name: 'a.csv', csv: 'EIN\r\nnope\r\n12' });
    expect(none.status).toBe(422);
    expect(JSON.stringify(none.body)).toContain('no EIN');
    // Each row's problem, as a refused field.
    expect(JSON.stringify(none.body)).toContain('row 2');
    expect(JSON.stringify(none.body)).toContain('must be 9 digits');
    const many = Array.from({ length: 10_001 }, (_, i) => String(700_000_000 + i)).join('\n');
    const tooMany = await start(tokens.dana!, { source: 'csv', file_name: 'big.csv', csv: many });
    expect(tooMany.status).toBe(422);
    expect(JSON.stringify(tooMany.body)).toContain('at most 10,000');
    const basic = await start(tokens.priya!, { source: 'csv', file_name: 'a.csv', csv: '781000001' });
    expect(basic.status).toBe(403);
    expect(await screeningCount()).toBe(before);
  });

  it('starts one screening for a POST retried with its Idempotency-Key', async () => {
    const before = await screeningCount();
    const send = () =>
      server.call({
        method: 'POST',
        url: routes.createScreening.path,
        token: tokens.dana,
        headers: { 'idempotency-key': 'screen-portfolio-1' },
        payload: { source: 'csv', file_name: 'retry.csv', csv: '781000001\n781000002' },
      });
    const [a, b] = [await send(), await send()];
    expect([a.status, b.status]).toEqual([201, 200]);
    expect(b.body.data.resource_id).toBe(a.body.data.resource_id);
    expect(await screeningCount()).toBe(before + 1);
  });

  it('holds the daily allowance when screenings arrive at once', async () => {
    const before = await screeningCount();
    const used = Number(
      (
        await server.db.pool.query(
          `select coalesce(sum((data->>'eins')::int), 0) as n from events where type = 'ScreeningAllowanceUsed' and stream_id = $1`,
          [streams.screeningAllowance(accountOf.dana!, new Date().toISOString().slice(0, 10))],
        )
      ).rows[0].n,
    );
    // Three screenings of 8,000 EINs at once on what is left of 20,000: two fit, the third does not.
    const left = SCREENING_DAILY_EINS - used;
    const size = 8_000;
    const file = (k: number) =>
      Array.from({ length: size }, (_, i) => String(710_000_000 + k * size + i)).join('\n');
    const answers = await Promise.all(
      [0, 1, 2].map((k) => start(tokens.dana!, { source: 'csv', file_name: `p${k}.csv`, csv: file(k) })),
    );
    const statuses = answers.map((a) => a.status).sort();
    const fit = Math.floor(left / size);
    expect(statuses).toEqual([...Array(fit).fill(201), ...Array(3 - fit).fill(429)]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.headers['retry-after']).toBeDefined();
    expect(JSON.stringify(refused.body)).toContain('20,000 EINs a day');
    expect(await screeningCount()).toBe(before + fit);
    for (const a of answers.filter((x) => x.status === 201)) await finished(a.body.data.resource_id);
  }, 90_000);

  it('is locked while the account is locked for its contribution', async () => {
    const before = await screeningCount();
    await server.store.appendToStream(
      streams.account(accountOf.dana!),
      [
        {
          id: randomUUID(),
          type: 'AccountContributionLocked',
          data: { accountId: accountOf.dana!, percent: 0.1 },
          metadata: { source: 'system' },
        },
      ],
      { expectedRevision: 'any' },
    );
    const res = await start(tokens.dana!, { source: 'csv', file_name: 'a.csv', csv: '781000001' });
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).toContain('contribution');
    expect(await screeningCount()).toBe(before);
    await server.store.appendToStream(
      streams.account(accountOf.dana!),
      [
        {
          id: randomUUID(),
          type: 'AccountContributionRestored',
          data: { accountId: accountOf.dana!, percent: 1 },
          metadata: { source: 'system' },
        },
      ],
      { expectedRevision: 'any' },
    );
  });
});

describe('the partner API', () => {
  it('starts a screening of a list of EINs, reports its progress and pages its results', async () => {
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      server.front.inject({
        method,
        url,
        headers: { authorization: `Bearer ${apiToken}` },
        ...(payload ? { payload } : {}),
      });
    const bad = await call('POST', routes.partnerCreateScreening.path, { feins: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('feins');
    const started = await call('POST', routes.partnerCreateScreening.path, {
      feins: ['78-1000001', '781000009', '12345'],
    });
    expect(started.statusCode, started.body).toBe(201);
    const { resource_id: id, total, rejected } = started.json().data;
    expect([total, rejected]).toEqual([
      2,
      [{ row: 3, input: '12345', problem: 'must be 9 digits, as 12-3456789' }],
    ]);
    await expect
      .poll(
        async () =>
          (await call('GET', buildPath(routes.partnerGetScreening.path, { id }))).json().data.status,
        {
          timeout: 20_000,
        },
      )
      .toBe('done');
    const page = await call('GET', `${buildPath(routes.partnerScreeningResults.path, { id })}?per_page=2`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.total_count).toBe(3);
    expect(page.json().data.results.map((r: { outcome: string }) => r.outcome)).toEqual([
      'found',
      'not_found',
    ]);
  });
});
