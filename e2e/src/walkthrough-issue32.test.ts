/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

// Issue 32, item 5: what a product walk-through in Chromium found, each fixed and kept fixed here: /pro
// and the plan tables naming the PRO signals, a BASIC member on a PRO page told what PRO gives and who
// can upgrade, Retry on a dashboard card that failed, toasts clear of headings and banners, the webhook
// guide for visitors who are not signed in, and no contribution pill for platform administrators.

let server: TestServer;
let browser: Browser;
const TOM = 'tom.becker@harboradvance.example'; // Harbor (BASIC) member
const PRIYA = 'priya.natarajan@harboradvance.example'; // Harbor (BASIC) admin
const HARBOR = 'Harbor Business Advance';
const LOOK_DIR = '/tmp/shots/';

/** The PRO signals and features the walk-through found missing from /pro and the plan tables. */
const SIGNALS = [
  'Inquiry velocity',
  'Being-shopped alerts',
  'Risk-signal alerts',
  'Linked merchants',
  'Broker records',
  'Portfolio screening',
];

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Kept with the other e2e screenshots and in /tmp/shots/ for a person to look at. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
  mkdirSync(LOOK_DIR, { recursive: true });
  await page.screenshot({ path: `${LOOK_DIR}${name}.png`, fullPage: true });
}

/** Screenshots at 1280 and 390 px; at 390 the page keeps inside the phone's width. */
async function bothWidths(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(200);
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(250);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(150);
}

async function anonymousPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

/** The plan comparison's row headers, as a person reads them. */
const planRows = (scope: Page | Locator) =>
  scope.getByRole('table', { name: 'Plan comparison' }).getByRole('rowheader').allTextContents();

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('issue 32 item 5: found in the product walk-through', () => {
  it('finding 1: /pro names the PRO signals, risk-signal alerts and portfolio screening, and its plan table lists them', async () => {
    const page = await anonymousPage();
    await page.goto(`${server.url}/pro`);
    for (const name of SIGNALS) await page.getByRole('heading', { name, exact: true }).waitFor();
    await page.getByText(/other funders looked a merchant up in the last 7, 30 and 90 days/).waitFor();
    await page.getByText(/merchant\.signals_changed webhook/).waitFor();
    await page.getByText(/Upload up to 10,000 EINs/).waitFor();
    const screening = page.locator('.mrn-feature').filter({ hasText: 'Portfolio screening' });
    await screening.getByText(/Upload up to 10,000 EINs/).waitFor();
    expect(await screening.getByText('Coming soon').count()).toBe(0);
    const rows = await planRows(page);
    for (const name of SIGNALS)
      expect(
        rows.some((r) => r.startsWith(name)),
        name,
      ).toBe(true);
    await bothWidths(page, 'issue32-pro');
    await page.context().close();
  });

  it('finding 1: the upgrade pages say what PRO gives: the Membership tab, /membership and the PRO banner', async () => {
    const priya = await signedInPage(browser, server.url, PRIYA, DEMO_PASSWORD);
    // The dashboard's PRO banner, whose link leads to /pro.
    const banner = priya.getByText(/^Everything in BASIC, plus unlimited searches/);
    await banner.waitFor();
    for (const phrase of ['inquiry velocity', 'being-shopped alerts', 'risk-signal alerts', 'broker records'])
      expect(await banner.textContent()).toContain(phrase);
    await priya.goto(`${server.url}/account?tab=membership`);
    await priya.getByRole('table', { name: 'Plan comparison' }).waitFor();
    const rows = await planRows(priya);
    for (const name of SIGNALS)
      expect(
        rows.some((r) => r.startsWith(name)),
        name,
      ).toBe(true);
    await bothWidths(priya, 'issue32-membership-tab');
    await priya.goto(`${server.url}/membership`);
    const proCard = priya.locator('.mrn-plan-card-pro');
    await proCard.getByText(/inquiry velocity/).waitFor();
    expect(await proCard.textContent()).toContain('portfolio screening');
    expect(await proCard.textContent()).not.toContain('coming soon');
    expect((await planRows(priya)).some((r) => r.startsWith('Risk-signal alerts'))).toBe(true);
    await priya.context().close();
  });

  it('finding 2: a BASIC member opening a PRO page reads what PRO gives and that their administrator can upgrade', async () => {
    const tom = await signedInPage(browser, server.url, TOM, DEMO_PASSWORD);
    for (const path of ['/merchant_subscriptions', '/merchant_subscription_webhook_logs']) {
      await tom.goto(`${server.url}${path}`);
      await tom.getByRole('heading', { name: 'Merchant Subscriptions is a PRO feature' }).waitFor();
      expect(new URL(tom.url()).pathname).toBe(path);
    }
    const gives = tom.getByRole('list', { name: 'What PRO gives' });
    for (const name of ['Inquiry velocity', 'Being-shopped alerts', 'Risk-signal alerts', 'Broker records'])
      await gives.getByText(name, { exact: true }).waitFor();
    await tom
      .getByText(`Only an administrator of ${HARBOR} can upgrade it to PRO`, { exact: false })
      .first()
      .waitFor();
    expect(await tom.getByText('You do not have access to that page.').count()).toBe(0);
    // Not theirs to press: the upgrade is on the admins' Account page.
    expect(await tom.getByRole('link', { name: 'Upgrade to PRO' }).count()).toBe(0);
    await bothWidths(tom, 'issue32-subscriptions-basic-member');
    await tom.getByRole('link', { name: 'What PRO includes' }).click();
    await tom.waitForURL('**/pro');
    await tom.getByRole('heading', { name: 'Inquiry velocity', exact: true }).waitFor();

    // The Brokers page says the same: who can upgrade, and the way to what PRO includes.
    await tom.goto(`${server.url}/brokers`);
    await tom.getByRole('heading', { name: 'Broker records are a PRO feature' }).waitFor();
    await tom
      .getByText(`Only an administrator of ${HARBOR} can upgrade it to PRO`, { exact: false })
      .waitFor();
    await tom.getByRole('link', { name: 'What PRO includes' }).waitFor();
    await bothWidths(tom, 'issue32-brokers-basic-member');
    await tom.context().close();

    // Their admin is offered the upgrade itself.
    const priya = await signedInPage(browser, server.url, PRIYA, DEMO_PASSWORD);
    await priya.goto(`${server.url}/brokers`);
    await priya.getByRole('link', { name: 'Upgrade to PRO' }).click();
    await priya.waitForURL('**/account?tab=membership');
    await priya.context().close();
  });

  it('finding 3: a dashboard card that failed to load offers Retry, which loads it', async () => {
    const tom = await signedInPage(browser, server.url, TOM, DEMO_PASSWORD);
    const isRecent = (url: URL) => url.pathname === routes.recentNotes.path;
    await tom.route(isRecent, (r) =>
      r.fulfill({ status: 500, contentType: 'application/json', body: '{"errors":"Something broke."}' }),
    );
    await tom.reload();
    const card = tom
      .locator('.mrn-card')
      .filter({ has: tom.getByRole('heading', { name: 'Recent Suspicious Activity' }) });
    const retry = card.getByRole('button', { name: 'Retry' });
    await retry.waitFor({ timeout: 20_000 });
    await bothWidths(tom, 'issue32-dashboard-card-failed');
    await tom.unroute(isRecent);
    await retry.click();
    await card.getByRole('table').or(card.getByText('No suspicious activity reported yet')).waitFor();
    expect(await card.getByRole('alert').count()).toBe(0);
    await tom.context().close();

    // A platform administrator's widgets stay quiet (no toast, no error text) but offer Retry too.
    const admin = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const failing: string[] = [
      routes.dashboardWidgets.path,
      routes.totalNotes.path,
      routes.topContributors.path,
    ];
    const fails = (url: URL) => failing.includes(url.pathname);
    await admin.route(fails, (r) =>
      r.fulfill({ status: 500, contentType: 'application/json', body: '{"errors":"Something broke."}' }),
    );
    await admin.reload();
    const notes = admin.getByRole('group', { name: 'Total Notes', exact: true });
    await notes.getByRole('button', { name: 'Retry Total Notes' }).waitFor({ timeout: 20_000 });
    const top = admin
      .locator('.mrn-widget-card')
      .filter({ has: admin.getByRole('heading', { name: 'Top Contributors' }) });
    await top.getByRole('button', { name: 'Retry Top Contributors' }).waitFor({ timeout: 20_000 });
    expect(await admin.locator('.bp6-toast').count()).toBe(0);
    expect(await admin.getByText('Something broke.').count()).toBe(0);
    await bothWidths(admin, 'issue32-admin-widgets-failed');
    await admin.unroute(fails);
    await notes.getByRole('button', { name: 'Retry Total Notes' }).click();
    await expect.poll(() => notes.textContent(), { timeout: 20_000 }).toMatch(/^Total Notes\d+$/);
    await top.getByRole('button', { name: 'Retry Top Contributors' }).click();
    await top.locator('table').waitFor();
    await admin.context().close();
  });

  it('finding 3: toasts keep clear of the welcome heading and the search lock banner, at 1280 and 390 px', async () => {
    for (const width of [1280, 390]) {
      const tom = await signedInPage(browser, server.url, TOM, DEMO_PASSWORD);
      await tom.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
      // Harbor as a locked funder sees it: the contribution view answers locked, so the red banner shows.
      await tom.route(
        (url) => /^\/api\/accounts\/[^/]+\/contribution$/.test(url.pathname),
        async (route) => {
          const answer = await route.fetch();
          const body = await answer.json();
          Object.assign(body.data, {
            total_ninety_days_contribution_percentage: 0.2,
            contribution_locked: true,
            search_locked: true,
            contribution_warning_date: '2026-01-01T15:00:00.000Z',
            contribution_warning_expire_date: '2026-01-08T15:00:00.000Z',
            contribution_records_needed: 3,
          });
          await route.fulfill({
            status: answer.status(),
            contentType: 'application/json',
            body: JSON.stringify(body),
          });
        },
      );
      // A page Tom may not open: back on the dashboard with an error toast.
      await tom.goto(`${server.url}/account`);
      await tom.waitForURL('**/dashboard');
      const toast = tom.locator('.bp6-toast', { hasText: 'You do not have access to that page.' });
      await toast.waitFor();
      const heading = tom.getByRole('heading', { name: 'Welcome, Tom' });
      const banner = tom.getByRole('alert', { name: 'Search locked' });
      await banner.waitFor();
      await tom.waitForTimeout(400); // the toast's entrance
      const toastBox = (await toast.boundingBox())!;
      expect(overlap(toastBox, (await heading.boundingBox())!), `heading at ${width}`).toBe(false);
      expect(overlap(toastBox, (await banner.boundingBox())!), `banner at ${width}`).toBe(false);
      // In the window, not at the foot of a long page.
      expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(width === 1280 ? 900 : 844);
      mkdirSync(LOOK_DIR, { recursive: true });
      await screenshot(tom, `issue32-toast-lock-banner-${width}`);
      await tom.screenshot({ path: `${LOOK_DIR}issue32-toast-lock-banner-${width}.png` });
      await tom.context().close();
    }
  });

  it('finding 4: /developers shows visitors who are not signed in the webhook event types and the merchant.shopped sample', async () => {
    const page = await anonymousPage();
    await page.goto(`${server.url}/developers`);
    await page.getByRole('heading', { name: 'Subscription webhooks' }).waitFor();
    const guide = page.locator('.mrn-webhook-guide');
    await guide.getByRole('heading', { name: 'Event types' }).waitFor();
    for (const type of ['merchant.added', 'merchant.note_added', 'merchant.shopped'])
      await guide.getByRole('cell', { name: type, exact: true }).waitFor();
    await guide.locator('pre.mrn-code', { hasText: '"type": "merchant.shopped"' }).waitFor();
    expect(await guide.getByText('"other_funders_last_7_days": 3').count()).toBe(1);
    // What it takes to receive them, for a visitor whose account may not have them.
    await page.getByText('Webhooks come with merchant subscriptions').waitFor();
    await bothWidths(page, 'issue32-developers-signed-out');
    await guide.getByRole('heading', { name: 'Event types' }).scrollIntoViewIfNeeded();
    mkdirSync(LOOK_DIR, { recursive: true });
    await page.screenshot({ path: `${LOOK_DIR}issue32-developers-event-types-1280.png` });
    await page.context().close();
  });

  it('finding 5: platform administrators see no contribution pill; members still do', async () => {
    const admin = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    // A few searches, which once turned the staff account's figure into a red 0 %.
    for (const term of ['45-1234567', '77-7000002', '77-7000003']) {
      const box = admin.getByPlaceholder('Full EIN/legal name search').first();
      await box.fill(term);
      await box.press('Enter');
      await admin.waitForTimeout(600);
      await admin.keyboard.press('Escape');
    }
    await admin.goto(`${server.url}/dashboard`);
    await admin.getByPlaceholder('Full EIN/legal name search').first().waitFor();
    await admin.getByRole('heading', { name: /^Welcome,/ }).waitFor();
    expect(await admin.locator('.mrn-contribution').count()).toBe(0);
    expect(await admin.getByRole('link', { name: /90 DAY CONTRIBUTION/ }).count()).toBe(0);
    await bothWidths(admin, 'issue32-admin-no-contribution-pill');
    expect(await admin.locator('.mrn-contribution').count()).toBe(0);
    await admin.context().close();

    const tom = await signedInPage(browser, server.url, TOM, DEMO_PASSWORD);
    await tom.getByRole('link', { name: /^90 DAY CONTRIBUTION/ }).waitFor();
    await tom.context().close();
  });
});
