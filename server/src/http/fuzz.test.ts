import { settleBackground } from '@mrn/command-api';
import { buildPath, type RouteSpec, routes } from '@mrn/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_PASSWORD } from '../demo.ts';
import { startTestServer, TEST_ADMIN, type TestServer } from '../testing.ts';

// Every route of the route table, sent generated path values, queries and bodies by an anonymous caller,
// a member, an account admin and a platform admin: no answer may be a 500, and a 400 must have written
// nothing. Every other request goes through the split topology's gateway in front of the server (which it
// forwards over real HTTP, by the route table), the rest to the server directly. Bounded (RUNS per route and caller) and seeded, so a failure can be replayed:
//   FUZZ_SEED=<seed printed below> npx vitest run server/src/http/fuzz.test.ts

// 15 a route and caller in CI (6,600 requests, about a minute); FUZZ_RUNS=200 for a long hunt.
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);

let server: TestServer;
const ids: Record<string, string> = {};
const tokens: Record<string, string | undefined> = {};
const CALLERS = {
  anonymous: undefined,
  // A member of its own, added below: its account admin may archive it or set its password while fuzzed.
  member: 'fuzz.member@harboradvance.example',
  accountAdmin: 'priya.natarajan@harboradvance.example',
  platformAdmin: TEST_ADMIN.email,
} as const;
type Caller = keyof typeof CALLERS;
const passwords: Record<Caller, string> = {
  anonymous: '',
  member: 'Fuzz-member-pass-0',
  accountAdmin: DEMO_PASSWORD,
  platformAdmin: TEST_ADMIN.password,
};
let repairs = 0;
const repairLog: string[][] = [];

// Sign-ins come from their own address: the fuzzed requests use others, and may use up throttles there.
const login = (email: string, password: string) =>
  server.app.inject({
    method: 'POST',
    url: routes.login.path,
    payload: { auth: { email, password } },
    remoteAddress: '127.0.0.2',
  });

async function signIn(caller: Caller): Promise<void> {
  const email = CALLERS[caller];
  if (!email) return;
  let res = await login(email, passwords[caller]);
  if (res.statusCode !== 200 && caller === 'member') {
    await repairMember();
    res = await login(email, passwords.member);
  }
  if (res.statusCode !== 200) {
    throw new Error(
      `fuzz caller ${caller} cannot sign in: ${res.body}; last repair: ${JSON.stringify(repairLog.at(-1))}`,
    );
  }
  tokens[caller] = res.json().data.jwt;
}

/** The fuzzed account admin archived the member, changed its e-mail or password: restore it through the API. */
async function repairMember(): Promise<void> {
  repairs += 1;
  await signIn('platformAdmin'); // its token may have been logged out by a fuzzed request
  const headers = { authorization: `Bearer ${tokens.platformAdmin}` };
  const put = (url: string, payload?: object) =>
    server.app.inject({ method: 'PUT', url, headers, ...(payload ? { payload } : {}) });
  const answers = [
    await put(buildPath(routes.restoreUser.path, { id: ids.member! })),
    await put(buildPath(routes.updateUser.path, { id: ids.member! }), {
      user: { first_name: 'Fuzz', last_name: 'Member', email: CALLERS.member },
    }),
  ];
  passwords.member = `Fuzz-member-pass-${repairs}`;
  answers.push(
    await put(buildPath(routes.adminChangePassword.path, { id: ids.member! }), {
      new_password: passwords.member,
      confirm_password: passwords.member,
    }),
  );
  repairLog.push(answers.map((a) => `${a.statusCode} ${a.body.slice(0, 200)}`));
}

beforeAll(async () => {
  server = await startTestServer({ demo: true, via: 'gateway' });
  await signIn('platformAdmin');
  await signIn('accountAdmin');
  const priya = await server.app.inject({
    method: 'GET',
    url: routes.autoLogin.path,
    headers: { authorization: `Bearer ${tokens.accountAdmin}` },
  });
  ids.memberAccount = priya.json().data.user.account_resource_id;
  const member = await server.app.inject({
    method: 'POST',
    url: buildPath(routes.createUser.path, { id: ids.memberAccount! }),
    headers: { authorization: `Bearer ${tokens.accountAdmin}` },
    payload: { user: { first_name: 'Fuzz', last_name: 'Member', email: CALLERS.member } },
  });
  ids.member = member.json().data.resource_id;
  await repairMember(); // sets its first password
  await signIn('member');
  // Real ids to aim at, besides made-up ones: a throwaway funder and member, the callers' own records.
  const admin = tokens.platformAdmin!;
  const target = await server.app.inject({
    method: 'POST',
    url: routes.createAccount.path,
    headers: { authorization: `Bearer ${admin}` },
    payload: {
      account: { name: 'Fuzz Target', website: 'fuzz.example', primary_contact_email: 'ops@fuzz.example' },
    },
  });
  ids.targetAccount = target.json().data.resource_id;
  const user = await server.app.inject({
    method: 'POST',
    url: buildPath(routes.createUser.path, { id: ids.targetAccount! }),
    headers: { authorization: `Bearer ${admin}` },
    payload: { user: { first_name: 'Fuzz', last_name: 'Target', email: 'target@fuzz.example' } },
  });
  ids.targetUser = user.json().data.resource_id;
  const merchants = await server.app.inject({
    method: 'GET',
    url: routes.listMerchants.path,
    headers: { authorization: `Bearer ${admin}` },
  });
  ids.merchant = merchants.json().data[0].resource_id;
  const notes = await server.app.inject({
    method: 'GET',
    url: buildPath(routes.listMerchantNotes.path, { id: ids.merchant! }),
    headers: { authorization: `Bearer ${admin}` },
  });
  ids.note = notes.json().data[0]?.resource_id ?? notes.json().data[0]?.id;
});
afterAll(async () => {
  await server.close();
});

// ---- generated values ----------------------------------------------------------------------------

/** Internal hosts in IPv6 literal forms that the webhook address check once let through (issue 20). */
const INTERNAL_URLS = [
  'http://[::169.254.169.254]/',
  'http://[::127.0.0.1]/',
  'http://[::ffff:0:127.0.0.1]/',
  'https://[::ffff:10.0.0.1]/hook',
];

const nasty = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '../../etc/passwd',
  '%00',
  'Ω≈ç√ 漢字',
  '😀',
  '=cmd|calc',
  "'; drop table events; --",
  'a'.repeat(5000),
  '2023-02-31',
  '1799-01-01',
  '12-3456789',
  '99-9999999',
  'null',
  'true',
  '-1',
  '1e309',
  '<script>alert(1)</script>',
  '__proto__',
  'Acme LLC',
  'ann@harboradvance.example',
  'Slow Pay',
  'broker',
  'FL',
  'PRO',
  '00000000-0000-4000-8000-000000000000',
  ...INTERNAL_URLS,
);
const text = fc.oneof(nasty, fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 12 }));
const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: text },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(text, { maxLength: 3 }),
  fc.dictionary(text, text, { maxKeys: 2 }),
);

/** The schema's own keys, nested as it nests them, each with a generated (mostly wrong) value or absent. */
function shaped(schema: z.ZodType | undefined, depth = 0): fc.Arbitrary<unknown> {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject && depth < 4) {
    const shape = inner.shape as Record<string, z.ZodType>;
    return fc.record(
      Object.fromEntries(Object.entries(shape).map(([key, child]) => [key, shaped(child, depth + 1)])),
      { requiredKeys: [] },
    );
  }
  return leaf;
}
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let s = schema;
  for (let i = 0; i < 10 && s; i++) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) {
      s = s.unwrap() as z.ZodType;
    } else if (s instanceof z.ZodPipe) {
      s = s.in as z.ZodType;
    } else break;
  }
  return s;
}

/** A path, query or header value that may not be encodable as UTF-8: then its raw (invalid) bytes. */
const encode = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};

/**
 * Real ids to aim at besides made-up ones. A platform admin is not given the callers' funder: archiving
 * it would end the other callers' sessions for good (no route restores a funder).
 */
const pathValue = (caller: Caller) =>
  fc.oneof(
    fc.uuid().map(String),
    fc
      .constantFrom(
        ...(caller === 'platformAdmin'
          ? ['targetAccount', 'targetUser', 'merchant', 'note']
          : ['targetAccount', 'targetUser', 'member', 'memberAccount', 'merchant', 'note']),
      )
      .map((k) => ids[k] ?? k),
    text,
    fc.constantFrom('..%2F..%2Fadmin', '%00', '%ED%A0%80', '%E0%A4%A', '1', '-1', '9'.repeat(40)),
  );

interface Generated {
  url: string;
  body?: unknown;
  raw?: string | Buffer;
}

function requestFor(spec: RouteSpec, caller: Caller): fc.Arbitrary<Generated> {
  const params = [...spec.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
  const querySchema = unwrap(spec.query);
  const queryKeys = querySchema instanceof z.ZodObject ? Object.keys(querySchema.shape) : [];
  const query = fc.dictionary(
    fc.oneof(fc.constantFrom(...queryKeys, 'page', 'per_page', 'search', 'x'), text),
    fc.oneof(text, fc.integer().map(String), fc.constantFrom('%00', '%ED%A0%80', '%', '1000000')),
    { maxKeys: 4 },
  );
  const body = fc.oneof(
    { weight: 3, arbitrary: shaped(spec.body).map((b) => ({ body: b })) },
    fc.jsonValue({ maxDepth: 3 }).map((b) => ({ body: b })),
    fc.constantFrom<Pick<Generated, 'raw'>>(
      { raw: '{"unterminated": ' },
      { raw: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]) },
      { raw: '{"__proto__": {"isAdmin": true}}' },
      { raw: '' },
      // Deep nesting, arrays and objects (issue 20: 2,000 levels overflowed a walk of the body).
      { raw: '['.repeat(2000) + ']'.repeat(2000) },
      { raw: `${'{"a":'.repeat(2000)}"x"${'}'.repeat(2000)}` },
      { raw: `{"auth":${'['.repeat(500)}${']'.repeat(500)}}` },
    ),
  );
  return fc
    .record({
      values: fc.array(pathValue(caller), { minLength: params.length, maxLength: params.length }),
      query,
      body,
    })
    .map(({ values, query: q, body: b }) => {
      let path = spec.path;
      params.forEach((name, i) => {
        const v = String(values[i]);
        path = path.replace(`:${name}`, /^%|^\.\.%/.test(v) ? v : encode(v));
      });
      const qs = Object.entries(q)
        .map(([k, v]) => `${encode(k)}=${/^%/.test(v) ? v : encode(v)}`)
        .join('&');
      return { url: qs ? `${path}?${qs}` : path, ...(spec.method === 'GET' ? {} : b) };
    });
}

// ---- the run ---------------------------------------------------------------------------------------

/**
 * Events a request wrote: those made in a request's name (source web or api). The background (the
 * search-watch reactor, the contribution clock: source system; Stripe's webhooks: stripe) may append
 * at any moment, and is not the request's doing.
 */
const eventCount = async () =>
  Number(
    (
      await server.db.pool.query(
        `select count(*) as n from events where coalesce(metadata->>'source', '') in ('web', 'api')`,
      )
    ).rows[0].n,
  );
/** Writes started by earlier requests (search facts, e-mails sent after the answer) land before counting. */
const quiesce = async () => {
  await server.searches.flush();
  await settleBackground();
};

const tally: Record<string, Record<number, number>> = {};
let sent = 0;

async function send(
  name: string,
  spec: RouteSpec,
  caller: Caller,
  generated: Generated,
  ip: string,
  viaGateway: boolean,
) {
  await quiesce();
  let before = await eventCount();
  const call = () =>
    (viaGateway ? server.front : server.app).inject({
      method: spec.method,
      url: generated.url,
      remoteAddress: ip,
      headers: {
        ...(tokens[caller] ? { authorization: `Bearer ${tokens[caller]}` } : {}),
        ...(generated.raw !== undefined || generated.body !== undefined
          ? { 'content-type': 'application/json' }
          : {}),
      },
      ...(generated.raw !== undefined
        ? { payload: generated.raw }
        : generated.body !== undefined
          ? { payload: JSON.stringify(generated.body) }
          : {}),
    });
  let res = await call();
  if (res.statusCode === 401 && caller !== 'anonymous' && name !== 'login') {
    // A generated logout (or archive) may have ended the caller's session: sign in again and resend.
    await signIn(caller);
    await quiesce();
    before = await eventCount();
    res = await call();
  }
  sent += 1;
  tally[name] ??= {};
  tally[name][res.statusCode] = (tally[name][res.statusCode] ?? 0) + 1;
  const where = `${caller}${viaGateway ? ' via the gateway' : ''} ${spec.method} ${generated.url.slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).not.toBe(500);
  expect(res.statusCode, where).toBeLessThan(500);
  if (res.statusCode === 400) {
    await quiesce();
    expect(await eventCount(), `a 400 wrote events: ${where}`).toBe(before);
  }
  if (res.statusCode < 300 && INTERNAL_URLS.some((u) => JSON.stringify(generated.body ?? '').includes(u))) {
    expect(await storedInternalWebhooks(), `an internal webhook address was stored: ${where}`).toBe(0);
  }
}

const storedInternalWebhooks = async () =>
  Number(
    (
      await server.db.pool.query(
        `select count(*) as n from events
          where data->>'merchantSubscriptionNotificationWebhook' = any($1::text[])`,
        [INTERNAL_URLS],
      )
    ).rows[0].n,
  );

describe(`fuzzing every route of the route table (seed ${SEED}, ${RUNS} runs per route and caller)`, () => {
  it('answers no generated request with a 500, and writes nothing on a 400', async () => {
    let n = 0;
    for (const [name, spec] of Object.entries(routes) as [string, RouteSpec][]) {
      for (const caller of Object.keys(CALLERS) as Caller[]) {
        await fc.assert(
          fc.asyncProperty(requestFor(spec, caller), async (generated) => {
            n += 1;
            const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
            await send(name, spec, caller, generated, ip, n % 2 === 0);
          }),
          { seed: SEED + n, numRuns: RUNS, endOnFailure: true },
        );
      }
    }
    const statuses: Record<number, number> = {};
    for (const byStatus of Object.values(tally)) {
      for (const [status, count] of Object.entries(byStatus))
        statuses[Number(status)] = (statuses[Number(status)] ?? 0) + count;
    }
    console.log(
      `fuzz: ${sent} requests over ${Object.keys(tally).length} routes (seed ${SEED}); statuses ${JSON.stringify(statuses)}`,
    );
    expect(Object.keys(tally)).toHaveLength(Object.keys(routes).length);
    expect(await storedInternalWebhooks()).toBe(0);
    expect(sent).toBeGreaterThanOrEqual(Object.keys(routes).length * 4 * RUNS);
  }, 240_000);
});
