/// <reference lib="dom" />
import { routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

// /developers renders the OpenAPI document the server publishes: signed out and as a PRO admin with
// merchant subscriptions, in production and sandbox, under the product's Content-Security-Policy; the
// webhook guide for both.

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
  // Summit (PRO) turns merchant subscriptions on, so its admin sees the subscription calls.
  const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: dana });
  const settings = await server.setSubscriptionSettings(admin, me.body.data.user.account_resource_id, {
    merchant_subscription_enabled: true,
  });
  expect(settings.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** CSP violations a page reports, from its first script on. */
async function cspViolations(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __csp?: string[] };
      w.__csp ??= [];
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const external: string[] = [];
  // Everything the page loads comes from our own origin: no CDN, no web fonts from elsewhere.
  page.on('request', (r) => {
    if (!r.url().startsWith(server.url) && !r.url().startsWith('data:')) external.push(r.url());
  });
  return async () => [
    ...external,
    ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])),
  ];
}

const card = (page: Page, id: string) => page.locator(`[data-endpoint="${id}"]`);
const shownCode = (page: Page, id: string) =>
  card(page, id).locator('[role="tabpanel"]:not([aria-hidden="true"]) pre.mrn-code');

describe('/developers', () => {
  it('signed out: production and sandbox addresses, show/hide by keyboard, examples and snippets', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const violations = await cspViolations(page);
    await page.goto(`${server.url}/developers`);
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    await page.getByRole('heading', { name: 'Rate limits' }).waitFor();
    await expect
      .poll(() => page.getByText('600 calls a minute for each API user', { exact: false }).count())
      .toBe(1);
    // Subscription calls are for accounts with subscriptions only; the webhook guide is for every
    // visitor (issue 32), with what it takes to receive webhooks.
    expect(await page.getByRole('region', { name: 'Merchant subscriptions' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Subscription webhooks' }).count()).toBe(1);
    expect(await page.getByText('Webhooks come with merchant subscriptions').count()).toBe(1);
    expect(await page.getByTestId('base-address').textContent()).toBe(server.url);

    const show = page.getByRole('button', { name: 'Show Search merchants', exact: true });
    expect(await show.getAttribute('aria-expanded')).toBe('false');
    await show.click();
    const hide = page.getByRole('button', { name: 'Hide Search merchants', exact: true });
    expect(await hide.getAttribute('aria-expanded')).toBe('true');
    const search = card(page, 'partnerSearchMerchants');
    await search.locator('pre.mrn-answer').waitFor();
    // Production examples name an example merchant: the sandbox's is unknown in production.
    expect(await search.locator('pre.mrn-answer').textContent()).toContain('"fein": "123456789"');
    expect(await shownCode(page, 'partnerSearchMerchants').textContent()).toBe(
      `curl '${server.url}/api/v2/merchants/123456789' \\\n  -H "Authorization: Bearer $API_TOKEN"`,
    );

    await page.getByRole('radio', { name: 'Sandbox' }).click();
    expect(await page.getByTestId('base-address').textContent()).toBe(`${server.url}/sandbox`);
    await page.getByText('its only merchant has EIN').waitFor();
    expect(await search.locator('pre.mrn-answer').textContent()).toContain('"fein": "010000001"');
    expect(await shownCode(page, 'partnerSearchMerchants').textContent()).toContain(
      `curl '${server.url}/sandbox/api/v2/merchants/010000001'`,
    );
    await search.getByRole('tab', { name: 'JavaScript' }).click();
    expect(await shownCode(page, 'partnerSearchMerchants').textContent()).toContain(
      `fetch('${server.url}/sandbox/api/v2/merchants/010000001'`,
    );
    await screenshot(page, 'developers-signed-out-1280');

    // The token call in the sandbox takes test_ credentials; its body example is shown.
    await page.getByRole('button', { name: 'Show Get an API token' }).click();
    const token = card(page, 'getApiToken');
    expect(await shownCode(page, 'getApiToken').textContent()).toContain('"authentication_token":"test_');
    expect(await token.locator('pre.mrn-code').first().textContent()).toContain(
      '"authentication_key": "test_',
    );

    // Hide by keyboard.
    await hide.focus();
    await page.keyboard.press('Enter');
    expect(await show.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => search.locator('pre.mrn-answer').count()).toBe(0);
    await page.keyboard.press('Space');
    expect(await hide.getAttribute('aria-expanded')).toBe('true');

    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'developers-signed-out-390');
    // Nothing but the code blocks (which scroll in place) is wider than a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('as a PRO admin with subscriptions: the subscription calls and the webhook guide', async () => {
    const page = await signedInPage(
      browser,
      server.url,
      'dana.whitfield@summitcapital.example',
      DEMO_PASSWORD,
    );
    const violations = await cspViolations(page);
    await page.goto(`${server.url}/developers`);
    await page.getByRole('region', { name: 'Merchant subscriptions' }).waitFor();
    await page.getByRole('heading', { name: 'Subscription webhooks' }).waitFor();
    expect(await page.getByText('Webhooks come with merchant subscriptions').count()).toBe(0);
    // The event types a webhook may carry, and the shopped alert's sample (issue 24).
    const guide = page.locator('.mrn-webhook-guide');
    await guide.getByRole('heading', { name: 'Event types' }).waitFor();
    expect(await guide.getByRole('cell', { name: 'merchant.shopped' }).count()).toBe(1);
    expect(await guide.getByText('"other_funders_last_7_days": 3').count()).toBe(1);
    await guide.getByRole('heading', { name: 'Event types' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOT_DIR}developers-event-types.png` });
    await page.getByRole('button', { name: 'Show Watch an EIN' }).click();
    const watch = card(page, 'partnerSubscribe');
    expect(await watch.locator('pre.mrn-code').first().textContent()).toBe('{\n  "fein": "123456789"\n}');
    expect(await watch.locator('pre.mrn-answer').textContent()).toContain('"subscribed": true');
    expect(await shownCode(page, 'partnerSubscribe').textContent()).toContain(
      `curl -X POST '${server.url}/api/v2/merchant_subscriptions'`,
    );
    await page.getByRole('button', { name: 'Show all' }).click();
    // Every partner call: linked merchants (issue 24) the twelfth, then screening's three (issue 32).
    expect(await page.locator('button[aria-controls^="endpoint-"][aria-expanded="true"]').count()).toBe(15);
    await page.getByRole('button', { name: 'Hide all' }).click();
    await page.getByRole('button', { name: 'Show Search merchants, with submission sources' }).click();
    await page.getByRole('radio', { name: 'Sandbox' }).click();
    expect(await shownCode(page, 'partnerSearchWithAdditionalData').textContent()).toContain(
      `${server.url}/sandbox/api/v2/merchants_with_additional_data/010000001`,
    );
    await screenshot(page, 'developers-pro-admin-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'developers-pro-admin-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await violations()).toEqual([]);
    await page.context().close();
  });

  it('says when the API reference cannot be loaded, and tries again', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.route('**/api/v2/openapi.json', (r) =>
      r.fulfill({ status: 404, contentType: 'application/json', body: '{"errors":"Not found"}' }),
    );
    await page.goto(`${server.url}/developers`);
    await page.getByRole('alert').getByText('The API reference could not be loaded. (HTTP 404)').waitFor();
    // What does not need the document is still there.
    await page.getByRole('heading', { name: 'Authentication' }).waitFor();
    await page.unroute('**/api/v2/openapi.json');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });
});
