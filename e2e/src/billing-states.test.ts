import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPath, routes } from '@mrn/contracts';
import { billingTestKeys } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

// One billing state on every screen (issue 21 item 2), in Chromium against the real server in billing
// test mode. A funder pays, its admin changes the card in the provider's portal to one that saves but
// can never be charged, and the customer's test clock is moved on: the renewal fails and is retried
// (past due), then every retry fails (lapsed, unpaid). Each time the Membership tab, the Billing tab,
// the top bar, /membership and the platform admin's funder page must say the same; the lapsed admin pays
// the open invoice on the provider's hosted page and is back.

const DAY = 86_400;
let server: TestServer;
let browser: Browser;
let accountId = '';
let billingUrl = '';
let secretKey = '';
let clock = '';
let frozen = 0;
const ADMIN = { email: 'nora.hale@ridge.example', password: 'ridge-admin-2026' };
const dataDir = mkdtempSync(join(tmpdir(), 'mrn-e2e-billing-'));

async function api(method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) {
  const res = await server.call({ method, url, token, ...(payload === undefined ? {} : { payload }) });
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The billing test server's own API (Stripe's shapes), with this installation's secret key. */
async function provider(method: 'GET' | 'POST', path: string, form?: Record<string, string>) {
  const res = await fetch(`${billingUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${secretKey}`,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json();
}

/** Moves the funder's test clock on and waits until every webhook it caused is applied. */
async function advanceClockTo(days: number) {
  await provider('POST', `/v1/test_helpers/test_clocks/${clock}/advance`, {
    frozen_time: String(frozen + days * DAY),
  });
  await provider('POST', '/_test/deliveries/wait');
  await server.projectedAll(undefined, 10_000);
}

const viewOfAccount = async () => {
  const platform = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  return (await api('GET', buildPath(routes.getAccount.path, { id: accountId }), platform)).data;
};

beforeAll(async () => {
  server = await startTestServer({ listen: true, env: { DATA_DIR: dataDir } });
  browser = await launchBrowser();
  secretKey = billingTestKeys(dataDir).secretKey;
  const platform = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  billingUrl = new URL((await api('GET', routes.getBillingConfig.path, platform)).data.token_url).origin;
  accountId = (
    await api('POST', routes.createAccount.path, platform, {
      account: {
        name: 'Ridge Capital',
        website: 'ridge.example',
        primary_contact_email: 'ops@ridge.example',
      },
    })
  ).data.resource_id;
  await api('POST', buildPath(routes.createUser.path, { id: accountId }), platform, {
    user: { first_name: 'Nora', last_name: 'Hale', email: ADMIN.email },
  });
  const { rows } = await server.db.pool.query('select id from read.users where email = $1', [ADMIN.email]);
  const userId = rows[0]?.id as string;
  await api('PUT', buildPath(routes.adminChangePassword.path, { id: userId }), platform, {
    user_id: userId,
    new_password: ADMIN.password,
    confirm_password: ADMIN.password,
  });
  await api('PUT', buildPath(routes.toggleUserAdmin.path, { id: userId }), platform);
  const own = await server.login(ADMIN.email, ADMIN.password);
  await api('PUT', buildPath(routes.agreeToTerms.path, { id: userId }), own);
  // Paid through Start Membership, as on /membership.
  await api('POST', buildPath(routes.createSubscription.path, { id: accountId }), own, {
    stripeToken: 'tok_visa',
    stripeEmail: ADMIN.email,
    stripePlanName: 'BASIC',
  });
  const customers = await provider('GET', '/v1/customers?limit=100');
  const customer = customers.data.find(
    (c: { metadata: Record<string, string> }) => c.metadata.account_id === accountId,
  );
  clock = customer.test_clock;
  frozen = (await provider('GET', `/v1/test_helpers/test_clocks/${clock}`)).frozen_time;
  await server.projectedAll(undefined, 10_000);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signIn(who: { email: string; password: string }, landing: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`**${landing}`);
  return page;
}

/** Both widths: as it is, then at 390 px (nothing wider than the phone), then back. */
async function screenshotsAtBothWidths(page: Page, name: string) {
  await page.waitForTimeout(200);
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(250);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(150);
}

const stateTag = (page: Page) => page.getByTestId('billing-state').first();

describe('one billing state on every screen (issue 21 item 2)', () => {
  it('active: the Membership tab says Active and when it renews', async () => {
    const page = await signIn(ADMIN, '/dashboard');
    await page.goto(`${server.url}/account?tab=membership`);
    expect(await stateTag(page).textContent()).toBe('Active');
    await page.getByText(/The BASIC membership is active and renews on \d\d\/\d\d\/\d{4}\./).waitFor();
    expect(await page.getByTestId('topbar-billing-state').count()).toBe(0);
    await page.context().close();
  });

  it('past due: the card fails at renewal; every screen says Past due with the next attempt, none says Active', async () => {
    // The admin changes the card in the provider's portal to one that saves but is never charged.
    const page = await signIn(ADMIN, '/dashboard');
    await page.goto(`${server.url}/account?tab=billing`);
    await page.getByRole('button', { name: 'Update Payment Method' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Continue to Update' }).click();
    await page.waitForURL((url) => url.toString().startsWith(billingUrl));
    await page.getByLabel('Card number').fill('4000000000000341');
    await page.getByLabel('Expiry month').fill('12');
    await page.getByLabel('Expiry year').fill('2034');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Save card' }).click();
    // Back at the address the admin signed in at, still signed in (issue 21 item 3).
    await page.waitForURL(`${server.url}/account?tab=billing`);
    await expect.poll(() => page.getByTestId('card-last4').textContent()).toBe('0341');

    await advanceClockTo(31);
    expect(await viewOfAccount()).toMatchObject({ membership_status: 'active', payment_failed: true });

    // Every page: the bar, and the top bar's tag.
    await page.goto(`${server.url}/dashboard`);
    const bar = page.getByRole('alert').filter({ hasText: 'Your membership renewal payment failed' });
    await bar.waitFor();
    expect(await bar.textContent()).toMatch(/will try again on \d\d\/\d\d\/\d{4}/);
    expect(await page.getByTestId('topbar-billing-state').textContent()).toBe('Past due');

    // The Membership tab: Past due, the next attempt, the ways out; no "Active", no renewal promised.
    await page.goto(`${server.url}/account?tab=membership`);
    expect(await stateTag(page).textContent()).toBe('Past due');
    const callout = page.getByRole('status', { name: 'Billing state' });
    await callout.getByText(/tries again on \d\d\/\d\d\/\d{4}/).waitFor();
    await callout.getByRole('button', { name: 'Update Payment Method' }).waitFor();
    await callout.getByRole('link', { name: /^Pay the invoice of \d\d\/\d\d\/\d{4}$/ }).waitFor();
    const panel = page.getByRole('tabpanel');
    expect(await panel.getByText(/renews on/).count()).toBe(0);
    expect(await panel.getByText('Active', { exact: true }).count()).toBe(0);
    await screenshotsAtBothWidths(page, 'billing-state-past-due-membership-tab');

    // The Billing tab: the same, and the open invoice with its amount.
    await page.goto(`${server.url}/account?tab=billing`);
    const billing = page.getByRole('status', { name: 'Billing state' });
    await billing.getByText(/tries again on/).waitFor();
    await billing.getByText('$695.00').waitFor();
    await page.getByRole('table', { name: 'Invoices' }).getByText('Not paid').waitFor();
    await screenshotsAtBothWidths(page, 'billing-state-past-due-billing-tab');
    await page.context().close();

    // The platform admin's funder page: the same tag and sentence.
    const staff = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await staff.goto(`${server.url}/funders/${accountId}?tab=membership`);
    const header = staff.locator('.mrn-page-header');
    expect(await header.getByTestId('billing-state').textContent()).toBe('Past due');
    await staff
      .getByRole('status', { name: 'Billing state' })
      .getByText(/tries again on/)
      .waitFor();
    await screenshotsAtBothWidths(staff, 'billing-state-past-due-funder-page');
    await staff.context().close();
  });

  it('lapsed: every retry failed; the admin held on /membership is told why and pays the open invoice', async () => {
    await advanceClockTo(60);
    expect(await viewOfAccount()).toMatchObject({
      membership_status: 'canceled',
      membership_ended_reason: 'unpaid',
    });

    const staff = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await staff.goto(`${server.url}/funders/${accountId}?tab=membership`);
    expect(await staff.locator('.mrn-page-header').getByTestId('billing-state').textContent()).toBe('Lapsed');
    await staff
      .getByRole('status', { name: 'Billing state' })
      .getByText(/the renewal payment failed and the card payment provider stopped retrying/)
      .waitFor();
    await screenshotsAtBothWidths(staff, 'billing-state-lapsed-funder-page');
    await staff.context().close();

    const page = await signIn(ADMIN, '/membership');
    const standing = page.getByRole('status', { name: 'Billing state' });
    await standing.getByText('The membership lapsed: the renewal payment failed').waitFor();
    await standing.getByText(/lapsed on \d\d\/\d\d\/\d{4}: the renewal payment failed/).waitFor();
    await standing.getByText('$695.00').waitFor();
    expect(await page.getByTestId('topbar-billing-state').textContent()).toBe('Lapsed');
    expect(await page.getByLabel('PRO account').count()).toBe(0);
    await screenshotsAtBothWidths(page, 'billing-state-lapsed-membership-page');

    // Pay on the provider's hosted invoice page, in its own tab.
    const [hosted] = await Promise.all([
      page.waitForEvent('popup'),
      standing.getByRole('link', { name: /^Pay the invoice of/ }).click(),
    ]);
    await hosted.getByLabel('Card number').fill('4242424242424242');
    await hosted.getByLabel('Expiry month').fill('12');
    await hosted.getByLabel('Expiry year').fill('2034');
    await hosted.getByLabel('CVC').fill('123');
    await hosted.getByRole('button', { name: 'Pay invoice' }).click();
    await expect.poll(() => hosted.locator('#status').textContent()).toBe('paid');
    await screenshot(hosted, 'billing-state-hosted-invoice-paid');
    await hosted.close();
    await provider('POST', '/_test/deliveries/wait');
    await server.projectedAll(undefined, 10_000);

    await page.getByRole('button', { name: 'Paid it? Check again' }).click();
    await page.getByText('Your membership is active again').waitFor();
    await page.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await page.waitForURL('**/dashboard');
    await page.goto(`${server.url}/account?tab=membership`);
    expect(await stateTag(page).textContent()).toBe('Active');
    expect(await page.getByTestId('topbar-billing-state').count()).toBe(0);
    await page.context().close();
  });
});
