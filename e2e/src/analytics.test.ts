import { routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

// Account analytics in Chromium against the real server (accounts spec §2): the four charts with axes,
// a day's figures on hover or keyboard focus, the same numbers as tables, and the empty state.

let server: TestServer;
let browser: Browser;
const MARCO = 'marco.reyes@summitcapital.example';

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
  // Marco searches twice today (a hit and a miss).
  const marco = await server.login(MARCO, DEMO_PASSWORD);
  await server.call({ method: 'GET', url: `${routes.searchMerchants.path}?search=451234567`, token: marco });
  await server.call({ method: 'GET', url: `${routes.searchMerchants.path}?search=999999988`, token: marco });
  await server.searches.flush();
  await server.projectedAll(undefined, 10_000);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('analytics', () => {
  it('shows a member their account’s charts, a day’s figures on focus, and the same numbers as a table', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.goto(`${server.url}/analytics`);
    const searches = page.getByRole('group', { name: 'Searches by day' });
    await searches.waitFor();
    for (const title of ['Searches by day', 'Additions by day', 'Searches by source', 'Hits by category']) {
      await page.getByRole('heading', { name: title }).waitFor();
    }
    // Today is the last day of the window; its figures show on keyboard focus.
    const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
    const day = searches.getByRole('button', { name: new RegExp(`^${today}: Web \\d+`) });
    await day.focus();
    const tooltip = page.getByRole('status').filter({ hasText: today });
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toMatch(/Web: [1-9]/);
    await page.getByRole('list', { name: 'Searches by source' }).getByText(/^Web$/).waitFor();
    await screenshot(page, 'analytics-member-1280');

    // The same numbers as a table.
    await page.getByRole('radio', { name: 'Table' }).first().click();
    const table = page.getByRole('table').first();
    await table.getByRole('columnheader', { name: 'Web searches' }).waitFor();
    const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: today }) });
    expect(Number(await row.getByRole('cell').first().textContent())).toBeGreaterThanOrEqual(2);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'analytics-member-390');
    await page.context().close();
  });

  it('shows the empty state to a funder with nothing in the window, and a funder’s charts on its Analytics tab', async () => {
    const alex = await signedInPage(browser, server.url, 'alex.morgan@lakeside.example', DEMO_PASSWORD);
    await alex.goto(`${server.url}/analytics`);
    await alex.getByText('No searches yet').first().waitFor();
    await screenshot(alex, 'analytics-empty');
    await alex.context().close();

    const admin = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const marco = await server.login(MARCO, DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: marco });
    await admin.goto(`${server.url}/funders/${me.body.data.user.account_resource_id}?tab=analytics`);
    await admin.getByRole('group', { name: 'Searches by day' }).waitFor();
    await admin.getByRole('heading', { name: 'Hits by category' }).waitFor();
    await screenshot(admin, 'analytics-funder-tab');
    await admin.context().close();
  });
});
