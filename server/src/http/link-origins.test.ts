import { request as httpRequest } from 'node:http';
import { buildPath, routes } from '@mrn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo.ts';
import { startTestServer, TEST_ADMIN, type TestServer } from '../testing.ts';

// Which address the links the product builds start with (issue 21 item 3; platform/src/http/
// link-origin.ts). A link answered to the signed-in user who asked for it (the billing portal's way
// back, payment_method_update_url) starts with the origin they asked from, so that coming back from the
// portal finds their session; a link e-mailed because of an anonymous request (forgot password) never
// starts with a Host header the requester chose. PUBLIC_URL is unset here.

let server: TestServer;
let port = 0;
let dana = '';
let summit = '';
let platform = '';

/** A real HTTP request, with the Host (and any header) as a client chose to send it. */
function send(
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: object,
): Promise<{ status: number; json: { data?: Record<string, unknown>; errors?: unknown } }> {
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** Where the portal sends the browser once the card is saved. */
async function portalWayBack(portalUrl: string): Promise<string | null> {
  const page = await fetch(portalUrl);
  const form = await page.text();
  const action = new URL(/action="([^"]+)"/.exec(form)![1]!.replace(/&amp;/g, '&'), portalUrl);
  const saved = await fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'number=4242424242424242&exp_month=12&exp_year=2034&cvc=123',
    redirect: 'manual',
  });
  expect(saved.status).toBe(303);
  return saved.headers.get('location');
}

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  port = Number(new URL(server.url).port);
  platform = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
  summit = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: dana })).body.data.user
    .account_resource_id;
});
afterAll(async () => {
  await server?.close();
});

describe('links answered to the signed-in user: the origin they asked from', () => {
  it('returns from the billing portal to http://127.0.0.1:<port> when the portal was asked for there', async () => {
    const origin = `http://127.0.0.1:${port}`;
    const own = await send(
      'POST',
      routes.getBillingUpdateUrl.path,
      { host: `127.0.0.1:${port}`, authorization: `Bearer ${dana}` },
      { account_id: summit, update_type: 'account' },
    );
    expect(own.status).toBe(200);
    expect(await portalWayBack(own.json.data!.url as string)).toBe(`${origin}/account#billing_updated`);

    // The platform admin on the funder's page comes back there, at the same origin.
    const staff = await send(
      'POST',
      routes.getBillingUpdateUrl.path,
      { host: `127.0.0.1:${port}`, authorization: `Bearer ${platform}` },
      { account_id: summit, update_type: 'funder' },
    );
    expect(await portalWayBack(staff.json.data!.url as string)).toBe(
      `${origin}/funders/${summit}#billing_updated`,
    );

    // …and to localhost when that is where the user is.
    const viaLocalhost = await send(
      'POST',
      routes.getBillingUpdateUrl.path,
      { host: `localhost:${port}`, authorization: `Bearer ${dana}` },
      { account_id: summit, update_type: 'account' },
    );
    expect(await portalWayBack(viaLocalhost.json.data!.url as string)).toBe(
      `http://localhost:${port}/account#billing_updated`,
    );
  });

  it("names the Billing tab at the viewer's origin in payment_method_update_url", async () => {
    const path = buildPath(routes.getAccount.path, { id: summit });
    const own = await send('GET', path, { host: `127.0.0.1:${port}`, authorization: `Bearer ${dana}` });
    expect(own.json.data!.payment_method_update_url).toBe(`http://127.0.0.1:${port}/account?tab=billing`);
    const staff = await send('GET', path, { host: `localhost:${port}`, authorization: `Bearer ${platform}` });
    expect(staff.json.data!.payment_method_update_url).toBe(
      `http://localhost:${port}/funders/${summit}?tab=billing`,
    );
  });
});

describe('links e-mailed for an anonymous request: never from the Host header', () => {
  it('sends the reset link of a forgot-password asked with a forged Host to the configured address', async () => {
    const email = 'marco.reyes@summitcapital.example';
    const asked = await send(
      'POST',
      routes.forgotPassword.path,
      { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      { email },
    );
    expect(asked.status).toBe(200);
    let body = '';
    for (let i = 0; i < 100 && !body; i++) {
      const { rows } = await server.db.pool.query('select body_text from dev_mailbox where mail_to = $1', [
        email,
      ]);
      body = rows[0]?.body_text ?? '';
      if (!body) await new Promise((r) => setTimeout(r, 50));
    }
    const link = /(\S+\/password_reset\?\S+)/.exec(body)?.[1];
    expect(link).toBeDefined();
    expect(link!.startsWith(`http://localhost:${port}/password_reset?reset_token=`)).toBe(true);
    expect(body).not.toContain('evil.example');
  });
});
