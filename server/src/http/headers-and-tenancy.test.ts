import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { buildPath, CONSISTENT_AFTER_HEADER, routes } from '@mrn/contracts';
import { createLogger, loadConfig } from '@mrn/platform';
import { createTestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../app.ts';
import { allMigrations } from '../database.ts';
import { DEMO_PASSWORD } from '../demo.ts';
import { startTestServer, TEST_ADMIN, type TestServer } from '../testing.ts';

let server: TestServer;
const tokens: Record<string, string> = {};
const accountOf: Record<string, string> = {};
const userOf: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  for (const [who, email] of Object.entries({
    dana: 'dana.whitfield@summitcapital.example', // Summit admin
    marco: 'marco.reyes@summitcapital.example', // Summit member
    priya: 'priya.natarajan@harboradvance.example', // Harbor admin
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
  tokens.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await server.close();
});

const get = (url: string, token?: string) =>
  server.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('security headers', () => {
  const expectSecurityHeaders = (headers: Record<string, unknown>) => {
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("img-src 'self' data:");
    // The page may talk to itself and, in billing test mode, to the test server's token endpoint only.
    expect(csp).toMatch(/connect-src 'self' http:\/\/127\.0\.0\.1:\d+;/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['permissions-policy']).toMatch(/camera=\(\), microphone=\(\), geolocation=\(\)/);
  };

  it('are on API answers, refusals and 404s', async () => {
    expectSecurityHeaders((await get(routes.getAppSettings.path, tokens.marco)).headers);
    expectSecurityHeaders((await get(routes.getAppSettings.path)).headers);
    expectSecurityHeaders((await get('/api/nothing-here')).headers);
    expectSecurityHeaders((await get('/health')).headers);
  });

  it('no answer of the API may be stored by a browser or a proxy (credentials, secrets, risk data)', async () => {
    const funder = accountOf.dana!;
    const answers = {
      'account view with the signing secret': await get(
        buildPath(routes.getAccount.path, { id: funder }),
        tokens.dana,
      ),
      'app settings': await get(routes.getAppSettings.path, tokens.marco),
      'a refusal': await get(buildPath(routes.getAccount.path, { id: funder }), tokens.priya),
      'an unknown route': await get('/api/nothing-here'),
      health: await get('/health'),
      'sign-in': await server.app.inject({
        method: 'POST',
        url: routes.login.path,
        payload: { auth: { email: 'dana.whitfield@summitcapital.example', password: DEMO_PASSWORD } },
      }),
    };
    for (const [what, res] of Object.entries(answers)) {
      expect(res.headers['cache-control'], what).toBe('no-store');
      expectSecurityHeaders(res.headers);
    }
    // The public document says how long it may be kept, and keeps saying so.
    const document = await get('/api/v2/openapi.json');
    expect(document.headers['cache-control']).toBe('public, max-age=300');
  });

  describe('on the web app', () => {
    let web: RunningServer;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      // A built app's shape: index.html naming a hashed bundle under assets/.
      const dist = mkdtempSync(join(tmpdir(), 'mrn-web-'));
      mkdirSync(join(dist, 'assets'));
      writeFileSync(
        join(dist, 'index.html'),
        '<!doctype html><script type="module" src="/assets/app-1a2b.js"></script>',
      );
      writeFileSync(join(dist, 'assets', 'app-1a2b.js'), 'console.log(1)');
      // As web/scripts/precompress.mjs leaves them next to each built file.
      writeFileSync(join(dist, 'assets', 'app-1a2b.js.br'), brotliCompressSync('console.log(1)'));
      writeFileSync(join(dist, 'assets', 'app-1a2b.js.gz'), gzipSync('console.log(1)'));
      writeFileSync(
        join(dist, 'index.html.br'),
        brotliCompressSync('<!doctype html><script type="module" src="/assets/app-1a2b.js"></script>'),
      );
      const db = await createTestDatabase(allMigrations());
      drop = db.drop;
      const config = loadConfig({
        DATABASE_URL: db.url,
        PORT: '0',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'mrn-test-')),
        JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256',
        ADMIN_EMAIL: TEST_ADMIN.email,
        ADMIN_PASSWORD: TEST_ADMIN.password,
      });
      web = await startServer(config, { logger: createLogger('silent'), listen: false, webDist: dist });
    });
    afterAll(async () => {
      await web.close();
      await drop();
    });

    it('serves the page no-cache (it names the current bundle) and the hashed bundle immutable', async () => {
      for (const [url, encoding] of [
        ['/', 'identity'],
        ['/login', 'br'],
        ['/merchants/123', 'gzip, br'],
        ['/index.html', 'br'],
        ['/index.html', 'identity'],
      ] as const) {
        const page = await web.app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
        expect(page.statusCode, url).toBe(200);
        expect(page.headers['cache-control'], url).toBe('no-cache');
        expectSecurityHeaders(page.headers);
      }
      const asset = await web.app.inject({ method: 'GET', url: '/assets/app-1a2b.js' });
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expectSecurityHeaders(asset.headers);
      const brotli = await web.app.inject({
        method: 'GET',
        url: '/assets/app-1a2b.js',
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.headers.vary).toContain('accept-encoding');
      expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const gzip = await web.app.inject({
        method: 'GET',
        url: '/assets/app-1a2b.js',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      const plain = await web.app.inject({
        method: 'GET',
        url: '/assets/app-1a2b.js',
        headers: { 'accept-encoding': 'identity' },
      });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe('console.log(1)');
      const missing = await web.app.inject({ method: 'GET', url: '/assets/old-9z.js' });
      expect(missing.statusCode).toBe(404);
      expectSecurityHeaders(missing.headers);
    });
  });
});

describe('X-Consistent-After', () => {
  const farFuture = { [CONSISTENT_AFTER_HEADER]: 'ffffffffffffffff-ffffffffffffffff' };
  it('refuses anonymous and forged tokens at once, before any wait', async () => {
    for (const authorization of [undefined, 'Bearer not.a.token']) {
      const started = performance.now();
      const res = await server.app.inject({
        method: 'GET',
        url: routes.recentNotes.path,
        headers: { ...farFuture, ...(authorization ? { authorization } : {}) },
      });
      expect(res.statusCode).toBe(401);
      expect(performance.now() - started).toBeLessThan(200);
    }
  });
});

describe('another funder', () => {
  /** Status and body of an answer, without the request id that differs on every answer. */
  const answer = async (url: string, token: string) => {
    const res = await get(url, token);
    const { request_id: _id, ...body } = res.json();
    return { status: res.statusCode, body };
  };
  const missingId = '00000000-0000-4000-8000-00000000abcd';

  it.each([
    ['getUser', (id: string) => buildPath(routes.getUser.path, { id }), () => userOf.priya!],
    [
      'getApiCredentials',
      (id: string) => buildPath(routes.getApiCredentials.path, { id }),
      () => userOf.priya!,
    ],
    ['getAccount', (id: string) => buildPath(routes.getAccount.path, { id }), () => accountOf.priya!],
    [
      'listAccountUsers',
      (id: string) => buildPath(routes.listAccountUsers.path, { id }),
      () => accountOf.priya!,
    ],
  ])('%s: their records answer exactly as ids that do not exist', async (_name, url, theirs) => {
    for (const who of ['dana', 'marco']) {
      const real = await answer(url(theirs()), tokens[who]!);
      const none = await answer(url(missingId), tokens[who]!);
      // An admin reaches the handler (404); a member may be refused by the route's access first (403),
      // which says nothing about the id either. Either way: the same answer as for a missing id.
      if (who === 'dana') expect(real.status).toBe(404);
      expect(real, who).toEqual(none);
      expect(JSON.stringify(real.body)).not.toMatch(/harbor/i);
    }
  });

  it('on the command side too: changing their member answers as a missing one', async () => {
    const put = async (id: string) => {
      const res = await server.app.inject({
        method: 'PUT',
        url: buildPath(routes.updateUser.path, { id }),
        headers: { authorization: `Bearer ${tokens.dana}` },
        payload: { user: { first_name: 'X', last_name: 'Y', email: 'x.y@harboradvance.example' } },
      });
      const { request_id: _id, ...body } = res.json();
      return { status: res.statusCode, body };
    };
    const real = await put(userOf.priya!);
    expect(real.status).toBe(404);
    expect(real).toEqual(await put(missingId));
  });

  it('an archived funder answers another funder exactly as an id that does not exist (issue 20, item 11)', async () => {
    const created = await server.call({
      method: 'POST',
      url: routes.createAccount.path,
      token: tokens.admin,
      payload: {
        account: {
          name: 'Closed Funding Co',
          website: 'closed.example',
          primary_contact_email: 'ops@closed.example',
        },
      },
    });
    const archivedId = created.body.data.resource_id as string;
    const archived = await server.call({
      method: 'PUT',
      url: buildPath(routes.archiveAccount.path, { id: archivedId }),
      token: tokens.admin,
    });
    expect(archived.status).toBe(200);
    const send = async (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => {
      const res = await server.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${tokens.dana}` },
        ...(payload ? { payload } : {}),
      });
      const { request_id: _id, ...body } = res.json();
      return { status: res.statusCode, body };
    };
    const details = {
      account: { name: 'Renamed', website: 'renamed.example', primary_contact_email: 'ops@renamed.example' },
    };
    for (const [method, path, payload] of [
      ['PUT', routes.updateAccount.path, details],
      ['PUT', routes.recalculateContribution.path, undefined],
      ['GET', routes.getAccount.path, undefined],
      ['POST', routes.cancelSubscription.path, undefined],
    ] as const) {
      const real = await send(method, buildPath(path, { id: archivedId }), payload);
      expect(real.status, path).toBe(404);
      expect(real, path).toEqual(await send(method, buildPath(path, { id: missingId }), payload));
    }
    // Its own staff still learn that it is archived.
    const own = await server.call({
      method: 'PUT',
      url: buildPath(routes.updateAccount.path, { id: archivedId }),
      token: tokens.admin,
      payload: details,
    });
    expect(own.status).toBe(410);
  });

  it('still lets the owner and platform admins read them', async () => {
    expect((await get(buildPath(routes.getUser.path, { id: userOf.priya! }), tokens.priya)).statusCode).toBe(
      200,
    );
    expect(
      (await get(buildPath(routes.getAccount.path, { id: accountOf.priya! }), tokens.admin)).statusCode,
    ).toBe(200);
    // A member of the same funder is refused as such (the record's existence is no secret to them).
    expect((await get(buildPath(routes.getUser.path, { id: userOf.dana! }), tokens.marco)).statusCode).toBe(
      403,
    );
  });
});

describe('CSV export', () => {
  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const created = await server.call({
      method: 'POST',
      url: routes.createAccount.path,
      token: tokens.admin,
      payload: {
        account: {
          name: '=HYPERLINK("http://x.example")',
          website: 'formula.example',
          primary_contact_email: 'ops@formula.example',
        },
      },
    });
    expect(created.status).toBe(201);
    await server.call({
      method: 'POST',
      url: buildPath(routes.createUser.path, { id: created.body.data.resource_id }),
      token: tokens.admin,
      payload: { user: { first_name: '@SUM(1+1)', last_name: '-2+3', email: 'cell@formula.example' } },
    });
    const csv = await get(routes.exportContacts.path, tokens.admin);
    const line = csv.body.split('\n').find((l) => l.includes('cell@formula.example'));
    expect(line).toBe(`"'=HYPERLINK(""http://x.example"")",'@SUM(1+1),'-2+3,cell@formula.example,BASIC`);
  });
});
