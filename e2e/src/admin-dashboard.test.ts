import { mkdirSync } from 'node:fs';
import { routes } from '@mrn/contracts';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

// The platform admins' dashboard widgets in Chromium against the real server with the demo network
// (accounts spec §2 "Widgets", §8: widget failures are silent; issue 32 gave them Retry). Figures worked
// out by hand from server/src/demo.ts: 3 merchants, 5 notes; members Summit (PRO), Harbor (BASIC),
// Lakeside (BASIC, trial) after the minus-1 rule; 5 funder users; Summit $945 + Harbor $695 a month.

let server: TestServer;
let browser: Browser;
const SHOTS = '/tmp/shots/';

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
  await server.projectedAll(undefined, 10_000);
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const stat = (page: Page, label: string) => page.getByRole('group', { name: label, exact: true });
const card = (page: Page, heading: RegExp) =>
  page.locator('.mrn-widget-card').filter({ has: page.getByRole('heading', { name: heading }) });
/** The first pages load while the server is busy with the others: a generous wait. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000 });
const firstCells = async (scope: ReturnType<typeof card>) =>
  (await scope.locator('tbody tr td:first-child').allTextContents()).map((t) => t.trim());

describe('admin dashboard widgets', () => {
  it('shows the network’s figures, recently reported merchants by category and contributors paged', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await poll(() => stat(page, 'Total Merchants').textContent()).toBe('Total Merchants3');
    await poll(() => stat(page, 'Total Notes').textContent()).toBe('Total Notes5');
    await poll(() => stat(page, 'Members').textContent()).toBe('Members3Basic 2 · Pro 1');
    await poll(() => stat(page, 'Users').textContent()).toBe('Users5');
    await poll(() => stat(page, 'Monthly Revenue').textContent()).toBe(
      'Monthly Revenue$1,640.002 paid memberships',
    );

    // Recently Reported: All by default, newest first by each merchant's latest note.
    const recent = card(page, /^Recently Reported/);
    await recent.locator('tbody tr').first().waitFor();
    expect(await firstCells(recent)).toEqual([
      'Blue Harbor Bakery LLCDBA Blue Harbor',
      'Keystone Auto Repair LLC',
      'Sunrise Diner IncDBA Sunrise Diner',
    ]);
    expect(await recent.getByRole('navigation', { name: 'Pages' }).textContent()).toContain('1–3 of 3');
    await screenshot(page, 'admin-dashboard-1280');
    await page.screenshot({ path: `${SHOTS}admin-dashboard.png`, fullPage: true });
    await recent.screenshot({ path: `${SHOTS}recently-reported-all.png` });

    // A category by keyboard: focus the select, pick Suspicious Activity.
    const category = recent.getByLabel('Category');
    await category.focus();
    await category.selectOption('Suspicious Activity');
    await page.getByRole('heading', { name: 'Recently Reported Suspicious Activity Merchants' }).waitFor();
    await poll(() => firstCells(recent)).toEqual(['Keystone Auto Repair LLC']);
    await recent.screenshot({ path: `${SHOTS}recently-reported-suspicious.png` });
    // Slow Pay was Sunrise Diner's first note, not its latest: nothing to show, said so.
    await category.selectOption('Slow Pay');
    await recent.getByText('No merchants reported as Slow Pay').waitFor();
    await category.selectOption('');
    await page.getByRole('heading', { name: 'Recently Reported Merchants' }).waitFor();

    // Top and Bottom Contributors, 10 a page by default; 25 chosen.
    const top = card(page, /^Top Contributors$/);
    await top.locator('tbody tr').first().waitFor();
    expect(await firstCells(top)).toEqual([
      'Summit Capital Funding',
      'Harbor Business Advance',
      'Lakeside Merchant Partners',
    ]);
    expect(await top.locator('tbody tr').first().locator('td').allTextContents()).toEqual([
      'Summit Capital Funding',
      '2',
      '2',
    ]);
    const bottom = card(page, /^Bottom Contributors$/);
    await poll(() => firstCells(bottom)).toEqual([
      'Lakeside Merchant Partners',
      'Harbor Business Advance',
      'Summit Capital Funding',
    ]);
    const size = top.getByLabel('Rows per page');
    expect(await size.inputValue()).toBe('10');
    await size.selectOption('25');
    await poll(() => size.inputValue()).toBe('25');
    expect(await top.getByRole('navigation', { name: 'Pages' }).textContent()).toContain('1–3 of 3');
    expect(await firstCells(top)).toHaveLength(3);
    await top.screenshot({ path: `${SHOTS}top-contributors.png` });

    // /dashboardold has the same widgets.
    await page.goto(`${server.url}/dashboardold`);
    await poll(() => stat(page, 'Total Notes').textContent()).toBe('Total Notes5');

    // A phone-width screen: nothing wider than the screen.
    await page.goto(`${server.url}/dashboard`);
    await page.setViewportSize({ width: 390, height: 844 });
    await poll(() => stat(page, 'Users').textContent()).toBe('Users5');
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}admin-dashboard-390.png`, fullPage: true });
    await page.context().close();
  });

  it('fails quietly: a widget whose call fails stops its spinner and offers Retry, with no toast and no error text', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    // The dashboard's one call for every widget fails too: each widget then makes its own (issue 31),
    // and only those that fail there go quiet; the others show what their own route answers.
    const failing = [
      routes.dashboardWidgets.path,
      routes.totalNotes.path,
      routes.topContributors.path,
      routes.recentMerchantsByCategory.path,
    ];
    for (const path of failing) {
      await page.route(`**${path}*`, (r) =>
        r.fulfill({ status: 500, contentType: 'application/json', body: '{"errors":"Something broke."}' }),
      );
    }
    await page.reload();
    // The failing figure shows a dash and Retry once its retries are spent; the others their numbers.
    const notes = stat(page, 'Total Notes');
    await poll(() => notes.textContent()).toBe('Total Notes—not availableRetry');
    expect(await notes.getByRole('progressbar').count()).toBe(0);
    await poll(() => stat(page, 'Total Merchants').textContent()).toBe('Total Merchants3');
    const top = card(page, /^Top Contributors$/);
    await poll(() => top.getByRole('progressbar').count()).toBe(0);
    expect(await top.locator('table').count()).toBe(0);
    const recent = card(page, /^Recently Reported/);
    await poll(() => recent.getByRole('progressbar').count()).toBe(0);
    expect(await page.locator('.bp6-toast').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByText('Something broke.').count()).toBe(0);
    expect(await page.getByText(/An error occurred/).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}admin-dashboard-failing.png`, fullPage: true });
    // Retry asks again (issue 32): once the calls answer, the figure and the table are there.
    await page.unrouteAll();
    await notes.getByRole('button', { name: 'Retry Total Notes' }).click();
    await poll(() => notes.textContent()).toBe('Total Notes5');
    await top.getByRole('button', { name: 'Retry Top Contributors' }).click();
    await top.locator('table').waitFor();
    await page.context().close();
  });
});
