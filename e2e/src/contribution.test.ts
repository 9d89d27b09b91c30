import { randomUUID } from 'node:crypto';
import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

// The Contribution tab in Chromium against the real server: the four figures, what the 90-day one is
// made of, the warning bar, Recalculate, and the override only platform admins see.

let server: TestServer;
let browser: Browser;
const PRIYA = 'priya.natarajan@harboradvance.example'; // Harbor admin
let harbor = '';
let tomUser = '';

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
  const tom = await server.login('tom.becker@harboradvance.example', DEMO_PASSWORD);
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: tom });
  harbor = me.body.data.user.account_resource_id;
  tomUser = me.body.data.user.resource_id;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function settle() {
  await server.searches.flush();
  await server.projectedAll(undefined, 10_000);
}

/** Harbor searches enough distinct merchants (by EIN) to fall below 0.5 %. */
async function fallBelowMinimum() {
  const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const view = await server.call({
    method: 'GET',
    url: buildPath(routes.getAccount.path, { id: harbor }),
    token: admin,
  });
  const { contribution_records_added: added, contribution_merchants_searched: searched } = view.body.data;
  await server.recordSearches(
    Array.from({ length: 203 * added - searched }, () => ({
      accountId: harbor,
      userId: tomUser,
      source: 'web',
      term: '123456789',
      einSearch: true,
      merchantIds: [randomUUID()],
      hit: true,
    })),
  );
  await settle();
}

describe('the Contribution tab', () => {
  it('shows an account admin the figures and what they are made of; Recalculate issues the warning; no override for them', async () => {
    await settle();
    const page = await signedInPage(browser, server.url, PRIYA, DEMO_PASSWORD);
    await page.goto(`${server.url}/account?tab=contribution`);
    const figures = page.getByRole('table', { name: 'Contribution percentages' });
    await figures.waitFor();
    for (const label of ['Last 90 days', 'Last 30 days', 'Last 2 weeks', 'Last week']) {
      expect(await figures.getByRole('row', { name: new RegExp(label) }).textContent()).toContain('100');
    }
    await page.getByText(/Over the last 90 days, .* added for 0 distinct merchants searched/).waitFor();
    expect(await page.getByText('Contribution Requirement Override').count()).toBe(0);

    await fallBelowMinimum();
    await page.getByRole('button', { name: 'Recalculate Contribution Percentage' }).click();
    await page.getByText('Contribution percentage has been recalculated.').waitFor();
    const warning = page.getByRole('status').filter({ hasText: 'Contribution warning' });
    await warning.waitFor();
    expect(await warning.textContent()).toMatch(/Issued \d\d\/\d\d\/\d{4}, expires \d\d\/\d\d\/\d{4}/);
    expect(await figures.getByRole('row', { name: /Last 90 days/ }).textContent()).toContain('0.49');
    await page.getByText(/1 more merchant or note would bring it to the 0.5% minimum/).waitFor();
    await screenshot(page, 'contribution-warning-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    // The wrapped tabs keep the page inside the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'contribution-warning-390');
    await page.context().close();
  });

  it('lets a platform admin override the requirement from the funder page', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.goto(`${server.url}/funders/${harbor}?tab=contribution`);
    const override = page.getByLabel('Contribution Requirement Override');
    await override.waitFor();
    expect(await override.isChecked()).toBe(false);
    await page.locator('label', { hasText: 'Contribution Requirement Override' }).click();
    await page.getByText('The contribution requirement is overridden.').waitFor();
    await page.getByText(/overridden by a platform administrator/).waitFor();
    expect(await override.isChecked()).toBe(true);
    await screenshot(page, 'contribution-override');
    await page.context().close();
  });
});
