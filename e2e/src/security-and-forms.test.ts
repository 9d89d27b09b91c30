/// <reference lib="dom" />
import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { field, signedInPage } from './session.ts';

// The Content-Security-Policy the server sends must let the real web app run untouched (no inline
// script, data: images for the MFA QR code): any violation the browser reports fails the test. And the
// forms show the server's own rules before anything is sent.

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Records CSP violations and console errors of a page from its first script on. */
async function watch(page: Page) {
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __csp: string[] }).__csp ??= [];
      (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  return async () => {
    const fromPage = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
    return [...problems, ...fromPage];
  };
}

describe('security headers in Chromium', () => {
  it('runs every page under the CSP without a violation', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const violations = await watch(page);
    const response = await page.goto(`${server.url}/login`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(response?.headers()['cache-control']).toBe('no-cache');
    await page.getByLabel('Email').fill('dana.whitfield@summitcapital.example');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    await page.goto(`${server.url}/merchants/new`);
    await page.getByRole('form', { name: 'Add merchant' }).waitFor();
    await screenshot(page, 'csp-add-merchant');
    expect(await violations()).toEqual([]);
    // The developer guide renders the published OpenAPI document, bundled, with no inline script.
    await page.goto(`${server.url}/developers`);
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('shows the MFA QR code (a data: image) under the CSP', async () => {
    const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const tom = await server.login('tom.becker@harboradvance.example', DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: tom });
    await server.call({
      method: 'PUT',
      url: buildPath(routes.toggleUserMfaRequired.path, { id: me.body.data.user.resource_id }),
      token: admin,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const violations = await watch(page);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill('tom.becker@harboradvance.example');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/mfa_registration');
    const qr = page.locator('img[src^="data:"]').first();
    await qr.waitFor();
    expect(await qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await screenshot(page, 'csp-mfa-registration');
    expect(await violations()).toEqual([]);
    await context.close();
  });
});

describe("forms check the server's rules in the browser", () => {
  it('the dispute form flags a bad EIN and e-mail and missing fields before sending', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const violations = await watch(page);
    await page.goto(`${server.url}/dispute`);
    const ein = field(page, 'EIN');
    await ein.fill('12-34');
    await ein.blur();
    const email = field(page, 'Email');
    await email.fill('sam@');
    await email.blur();
    const first = field(page, 'First Name');
    await first.focus();
    await first.blur();
    await page.getByText('EIN must be 9 digits, as 12-3456789').waitFor();
    await page.getByText('Email is not a valid email address').waitFor();
    await page.getByText('First Name is required').waitFor();
    await screenshot(page, 'dispute-form-errors');
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('the settings form of a platform admin wants a message', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.goto(`${server.url}/settings`);
    const message = field(page, 'Message');
    await message.fill('');
    await message.blur();
    await page.getByText('Message is required').waitFor();
    await screenshot(page, 'settings-form-errors');
    await page.context().close();
  });
});
