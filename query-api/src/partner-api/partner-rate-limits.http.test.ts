import { createHmac } from 'node:crypto';
import { API_TEXTS, buildPath, routes } from '@mrn/contracts';
import { createLogger } from '@mrn/platform';
import {
  DEMO_PASSWORD,
  type RunningServer,
  startServer,
  startTestServer,
  TEST_ADMIN,
  type TestServer,
  testConfig,
} from '@mrn/server/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Rate limits of the partner API (issue 12): the draft RateLimit headers on every /api/v2 answer,
// exact limits under concurrent requests over real HTTP, per user, per IP for the token call and for
// calls without a valid token, and shared by every process on the database.

const PER_KEY = 10;
const TOKEN_CALLS = 4;
const ENV = {
  RATE_LIMIT_API_PER_MINUTE: String(PER_KEY),
  RATE_LIMIT_TOKEN_PER_MINUTE: String(TOKEN_CALLS),
};

let server: TestServer;
const credentials: Record<string, { authentication_token: string; authentication_key: string }> = {};
const apiToken: Record<string, string> = {};

const USERS = {
  dana: 'dana.whitfield@summitcapital.example',
  priya: 'priya.natarajan@harboradvance.example',
};
const DEMO_EIN = '451234567';
const search = (key = DEMO_EIN) => buildPath(routes.partnerSearchMerchants.path, { key });

beforeAll(async () => {
  server = await startTestServer({ demo: true, listen: true, env: ENV });
  const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries(USERS)) {
    const own = await server.login(email, DEMO_PASSWORD);
    const me = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: own })).body.data.user;
    const account = await server.call({
      method: 'PUT',
      url: buildPath(routes.grantAccountApiAccess.path, { id: me.account_resource_id }),
      token: admin,
    });
    expect(account.status).toBe(200);
    const user = await server.call({
      method: 'PUT',
      url: buildPath(routes.grantUserApiAccess.path, { id: me.resource_id }),
      token: own,
    });
    expect(user.status).toBe(200);
    credentials[who] = user.body.data;
  }
  expect(await server.projectedAll(undefined, 20_000)).toBe(true);
  for (const who of Object.keys(USERS)) {
    const res = await server.call({
      method: 'POST',
      url: routes.getApiToken.path,
      payload: { auth: credentials[who] },
    });
    expect(res.status).toBe(200);
    apiToken[who] = res.body.data.token;
  }
}, 120_000);
afterAll(async () => {
  await server?.close();
});
// Every test starts with full buckets; the counts are rows like any other.
beforeEach(async () => {
  await server.db.pool.query('delete from partner_rate_limits');
});

interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: answers of many shapes, asserted on
  body: any;
}

/** One real HTTP request (its own connection when sent alongside others). */
async function send(
  base: string,
  path: string,
  opts: { token?: string; method?: 'GET' | 'POST'; body?: unknown } = {},
): Promise<Answer> {
  const res = await fetch(new URL(path, base), {
    method: opts.method ?? 'GET',
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const atOnce = (n: number, request: (i: number) => Promise<Answer>) =>
  Promise.all(Array.from({ length: n }, (_, i) => request(i)));

/** A 429 as the partner API answers it: Retry-After, the headers, and the envelope with the same seconds. */
function expectRefused(answer: Answer, limit: number) {
  expect(answer.status).toBe(429);
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(answer.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(answer.headers.get('ratelimit-remaining')).toBe('0');
  expect(answer.body).toEqual({
    errors: [{ field: null, message: API_TEXTS.rateLimited(retryAfter) }],
    data: null,
    request_id: expect.any(String),
  });
}

const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

describe('headers', () => {
  it('every partner answer carries RateLimit-Limit, -Remaining and -Reset: 200, 400, 401, 404', async () => {
    const answers = [
      await send(server.url, search(), { token: apiToken.dana }), // 200
      await send(server.url, search('x'), { token: apiToken.dana }), // 400: key too short
      await send(server.url, search('999999999'), { token: apiToken.dana }), // 404: no such merchant
      await send(server.url, '/api/v2/no_such_call', { token: apiToken.dana }), // 404: no such route
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 400, 404, 404]);
    answers.forEach((a, i) => {
      expect(a.headers.get('ratelimit-limit')).toBe(String(PER_KEY));
      // One bucket (dana's), counted down call by call.
      expect(a.headers.get('ratelimit-remaining')).toBe(String(PER_KEY - 1 - i));
      const reset = Number(a.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
      expect(a.headers.get('retry-after')).toBeNull();
    });
    expect(answers[1]!.body.errors[0].field).toBe('key');

    const anonymous = await send(server.url, search());
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors[0].message).toBe(API_TEXTS.tokenMissing);
    // Its own bucket (this IP's), not dana's.
    expect(anonymous.headers.get('ratelimit-remaining')).toBe(String(PER_KEY - 1));

    const token = await send(server.url, routes.getApiToken.path, {
      method: 'POST',
      body: { auth: credentials.priya },
    });
    expect(token.status).toBe(200);
    expect(token.headers.get('ratelimit-limit')).toBe(String(TOKEN_CALLS));
    expect(token.headers.get('ratelimit-remaining')).toBe(String(TOKEN_CALLS - 1));
    // Security headers too (the limit runs after them).
    expect(token.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('the dashboard API, /health and the web app have none', async () => {
    const dashboardToken = await server.login(USERS.dana, DEMO_PASSWORD);
    const answers = [
      await send(server.url, `/api/search/merchants?search=${DEMO_EIN}`, { token: dashboardToken }),
      await send(server.url, routes.autoLogin.path),
      await send(server.url, '/health'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 200]);
    for (const a of answers) {
      expect(a.headers.get('ratelimit-limit')).toBeNull();
      expect(a.headers.get('ratelimit-remaining')).toBeNull();
    }
    const { rows } = await server.db.pool.query('select key from partner_rate_limits');
    expect(rows).toEqual([]);
  });

  it('a percent-encoded path to a partner call is limited like the plain one', async () => {
    // Fastify decodes the path before routing: /api/%762/… reaches the partner search.
    const answers = await atOnce(PER_KEY + 2, () =>
      send(server.url, `/api/%762/merchants/${DEMO_EIN}`, { token: apiToken.dana }),
    );
    expect(count(answers, 200)).toBe(PER_KEY);
    expect(count(answers, 429)).toBe(2);
  });
});

describe('per API user', () => {
  it(`${PER_KEY + 5} calls at once: exactly ${PER_KEY} answered, 5 refused with 429, Retry-After and the envelope`, async () => {
    const answers = await atOnce(PER_KEY + 5, () => send(server.url, search(), { token: apiToken.dana }));
    expect(count(answers, 200)).toBe(PER_KEY);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(5);
    for (const a of refused) expectRefused(a, PER_KEY);
    // Each answered call saw its own count: remaining PER_KEY-1 … 0, once each.
    const remaining = answers
      .filter((a) => a.status === 200)
      .map((a) => Number(a.headers.get('ratelimit-remaining')))
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: PER_KEY }, (_, i) => i));

    // Another user (another account) has a bucket of its own, untouched by dana's.
    const priya = await atOnce(PER_KEY, () => send(server.url, search(), { token: apiToken.priya }));
    expect(priya.map((a) => a.status)).toEqual(Array(PER_KEY).fill(200));
    expectRefused(await send(server.url, search(), { token: apiToken.dana }), PER_KEY);
  });

  it('two API tokens of one user share the user’s bucket', async () => {
    const second = await send(server.url, routes.getApiToken.path, {
      method: 'POST',
      body: { auth: credentials.dana },
    });
    expect(second.status).toBe(200);
    const answers = await atOnce(PER_KEY + 4, (i) =>
      send(server.url, search(), { token: i % 2 === 0 ? apiToken.dana : second.body.data.token }),
    );
    expect(count(answers, 200)).toBe(PER_KEY);
    expect(count(answers, 429)).toBe(4);
  });

  it('a forged or unsigned token naming a user cannot spend that user’s bucket', async () => {
    const [header, payload] = apiToken.dana!.split('.') as [string, string];
    const forged = `${header}.${payload}.${createHmac('sha256', 'not-our-secret').update(`${header}.${payload}`).digest('base64url')}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const answers = await atOnce(PER_KEY + 5, (i) =>
      send(server.url, search(), { token: i % 2 === 0 ? forged : unsigned }),
    );
    // Counted per IP (they are not free), refused 401 until that bucket is spent, then 429.
    expect(count(answers, 401)).toBe(PER_KEY);
    expect(count(answers, 429)).toBe(5);
    for (const a of answers.filter((x) => x.status === 401)) {
      expect(a.body.errors[0].message).toBe(API_TEXTS.tokenExpired);
    }
    // Dana's own bucket is whole.
    const dana = await atOnce(PER_KEY, () => send(server.url, search(), { token: apiToken.dana }));
    expect(dana.map((a) => a.status)).toEqual(Array(PER_KEY).fill(200));
    const { rows } = await server.db.pool.query<{ key: string; hits: number }>(
      'select key, hits from partner_rate_limits order by key',
    );
    expect(rows).toEqual([
      { key: 'partner:ip:127.0.0.1', hits: PER_KEY + 5 },
      { key: expect.stringMatching(/^partner:user:/), hits: PER_KEY },
    ]);
  });

  it('an old partner sending the token bare (no Bearer) counts in the same bucket', async () => {
    const bare = await atOnce(PER_KEY + 1, () =>
      fetch(new URL(search(), server.url), { headers: { authorization: apiToken.dana! } }),
    );
    expect(bare.filter((r) => r.status === 200)).toHaveLength(PER_KEY);
    expect(bare.filter((r) => r.status === 429)).toHaveLength(1);
  });
});

describe('the token call', () => {
  it(`${TOKEN_CALLS + 5} token calls at once from one IP: exactly ${TOKEN_CALLS} answered, then 429`, async () => {
    const answers = await atOnce(TOKEN_CALLS + 5, (i) =>
      send(server.url, routes.getApiToken.path, {
        method: 'POST',
        // Right and wrong credentials alike: the limit is on calls, whatever they carry.
        body: {
          auth: i % 3 === 0 ? { ...credentials.priya, authentication_key: 'wrong' } : credentials.priya,
        },
      }),
    );
    expect(count(answers, 429)).toBe(5);
    expect(answers.filter((a) => a.status === 200 || a.status === 401)).toHaveLength(TOKEN_CALLS);
    for (const a of answers.filter((x) => x.status === 429)) expectRefused(a, TOKEN_CALLS);
    // The partner calls of an existing token are another limit.
    expect((await send(server.url, search(), { token: apiToken.priya })).status).toBe(200);
  });

  it('counts per IP: another address still gets its token', async () => {
    const call = (remoteAddress: string) =>
      server.app.inject({
        method: 'POST',
        url: routes.getApiToken.path,
        payload: { auth: credentials.dana },
        remoteAddress,
      });
    const first = await Promise.all(Array.from({ length: TOKEN_CALLS + 1 }, () => call('203.0.113.7')));
    expect(first.map((r) => r.statusCode).sort()).toEqual([...Array(TOKEN_CALLS).fill(200), 429]);
    const other = await call('198.51.100.9');
    expect(other.statusCode).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe(String(TOKEN_CALLS - 1));
  });
});

describe('across processes', () => {
  let second: RunningServer;
  beforeAll(async () => {
    second = await startServer(testConfig(server.databaseUrl, ENV), {
      logger: createLogger('silent'),
      listen: true,
    });
  }, 60_000);
  afterAll(async () => {
    await second?.close();
  });

  it('two servers on one database share the count: the limit holds across them', async () => {
    const answers = await atOnce(PER_KEY + 6, (i) =>
      send(i % 2 === 0 ? server.url : second.url, search(), { token: apiToken.dana }),
    );
    expect(count(answers, 200)).toBe(PER_KEY);
    expect(count(answers, 429)).toBe(6);
    // Counted apart, each server would have answered all of its (PER_KEY + 6) / 2 < PER_KEY.
    expectRefused(await send(second.url, search(), { token: apiToken.dana }), PER_KEY);

    const tokenCalls = await atOnce(TOKEN_CALLS + 2, (i) =>
      send(i % 2 === 0 ? server.url : second.url, routes.getApiToken.path, {
        method: 'POST',
        body: { auth: credentials.priya },
      }),
    );
    expect(count(tokenCalls, 200)).toBe(TOKEN_CALLS);
    expect(count(tokenCalls, 429)).toBe(2);
  });
});

describe('windows', () => {
  it('a bucket whose window has ended starts afresh', async () => {
    await atOnce(PER_KEY + 1, () => send(server.url, search(), { token: apiToken.dana }));
    expectRefused(await send(server.url, search(), { token: apiToken.dana }), PER_KEY);
    // The window ends (as a minute later).
    await server.db.pool.query(
      "update partner_rate_limits set resets_at = now() - interval '1 second' where key like 'partner:user:%'",
    );
    const again = await send(server.url, search(), { token: apiToken.dana });
    expect(again.status).toBe(200);
    expect(again.headers.get('ratelimit-remaining')).toBe(String(PER_KEY - 1));
    expect(Number(again.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(59);
  });
});
