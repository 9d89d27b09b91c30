/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { field, signedInPage } from './session.ts';

// Issue 21, items 4–13: what a walk-through in Chromium as every role found, each fixed and kept fixed
// here (searching an EIN again, a BASIC admin on a PRO page, the product walkthrough in place of video
// boxes, re-adding a watched EIN, the attempts dialog, the developer guide's EINs, layout at 1280 and
// 390 px, focus after a dialog, a merchant page that fails to load, the invitation page, the profile's
// error text, and the merchant page's subscription switch on its own route).

let server: TestServer;
let browser: Browser;
const MARCO = 'marco.reyes@summitcapital.example'; // Summit (PRO) member
const DANA = 'dana.whitfield@summitcapital.example'; // Summit (PRO) admin
const PRIYA = 'priya.natarajan@harboradvance.example'; // Harbor (BASIC) admin
const TOM = 'tom.becker@harboradvance.example'; // Harbor (BASIC) member
const ALEX = 'alex.morgan@lakeside.example'; // Lakeside (BASIC, in a trial) admin
const SUNRISE_FEIN = '451234567'; // a demo merchant
const LOOK_DIR = '/tmp/shots/';
let summit = '';
let sunrise = '';

beforeAll(async () => {
  // Loopback webhooks allowed: the receiver of the attempts test listens on 127.0.0.1.
  server = await startTestServer({ listen: true, demo: true, env: { WEBHOOK_ALLOW_LOOPBACK: 'true' } });
  browser = await launchBrowser();
  const dana = await server.login(DANA, DEMO_PASSWORD);
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: dana });
  summit = me.body.data.user.account_resource_id;
  const found = await server.call({
    method: 'GET',
    url: `${routes.searchMerchants.path}?search=${SUNRISE_FEIN}`,
    token: dana,
  });
  sunrise = found.body.data[0].resource_id;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Kept with the other e2e screenshots and in /tmp/shots/ for a person to look at. */
async function shot(page: Page, name: string) {
  // From the top: a full-page shot of a scrolled page draws the sticky top bar half-way down.
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
  mkdirSync(LOOK_DIR, { recursive: true });
  await page.screenshot({ path: `${LOOK_DIR}${name}.png`, fullPage: true });
}

/** A close-up of one part of a long page, at the width the page is at (for a person to look at). */
async function regionShot(locator: ReturnType<Page['locator']>, name: string) {
  mkdirSync(LOOK_DIR, { recursive: true });
  await locator.screenshot({ path: `${LOOK_DIR}${name}.png` });
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

async function searchFor(page: Page, term: string) {
  const box = page.getByPlaceholder('Full EIN/legal name search').first();
  await box.fill(term);
  await box.press('Enter');
}

/** Words of the matched elements' text that the browser broke across two lines (e.g. "Delet/e"). */
function wordsBrokenAcrossLines(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const broken: string[] = [];
    for (const element of document.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set(
            [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)),
          );
          if (lines.size > 1) broken.push(word[0]);
        }
      }
    }
    return broken;
  }, selector);
}

/** What has the keyboard focus, described by its role-ish name. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    return `${el.tagName.toLowerCase()}:${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim()}`;
  });

/** Where the focus is once the dialog's closing has run its course (its transition is 300 ms). */
async function focusSettled(page: Page): Promise<string> {
  await page.waitForTimeout(500);
  for (let i = 0; i < 10 && (await focused(page)) === 'body'; i++) await page.waitForTimeout(100);
  return focused(page);
}

const rowOf = (page: Page, text: string) =>
  page.getByRole('row').filter({ has: page.getByRole('cell', { name: text }) });

const mailsTo = async (email: string) =>
  (
    await server.db.pool.query(
      'select subject, body_text from dev_mailbox where mail_to = $1 order by received_at',
      [email],
    )
  ).rows as { subject: string; body_text: string }[];

describe('issue 21: found in the walk-through', () => {
  it('item 4: the not-found dialog shows the fresh search count each time the EIN is searched', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    const count = page.getByTestId('ein-search-count');
    const dialog = page.getByRole('dialog', { name: 'No Merchants Found' });
    await searchFor(page, '77-7000001');
    await count.waitFor();
    const first = Number((await count.textContent())?.match(/searched (\d+) time/)?.[1]);
    expect(first).toBeGreaterThanOrEqual(1);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The same EIN again, on the same page: this search counts too.
    await searchFor(page, '77-7000001');
    await count.waitFor();
    await expect
      .poll(async () => Number((await count.textContent())?.match(/searched (\d+) time/)?.[1]))
      .toBe(first + 1);
    await page.waitForTimeout(350);
    await shot(page, 'polish-search-count-again');
    await page.context().close();
  });

  it('item 5: a BASIC admin opening /merchant_subscriptions is told it is a PRO feature and how to get it', async () => {
    const page = await signedInPage(browser, server.url, PRIYA, DEMO_PASSWORD);
    await page.goto(`${server.url}/merchant_subscriptions`);
    await page.getByRole('heading', { name: 'Merchant Subscriptions is a PRO feature' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/merchant_subscriptions');
    await page
      .getByText(/Watch EINs/)
      .first()
      .waitFor();
    await page.getByRole('link', { name: 'Upgrade to PRO' }).waitFor();
    await bothWidths(page, 'polish-subscriptions-basic-admin');
    await page.getByRole('link', { name: 'Upgrade to PRO' }).click();
    await page.waitForURL('**/account?tab=membership');
    await page.context().close();

    // A PRO admin whose account does not have them turned on is told who turns them on.
    const dana = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    await dana.goto(`${server.url}/merchant_subscription_imports`);
    await dana.getByRole('heading', { name: 'Merchant Subscriptions is not turned on yet' }).waitFor();
    expect(new URL(dana.url()).pathname).toBe('/merchant_subscription_imports');
    await bothWidths(dana, 'polish-subscriptions-not-enabled');
    await dana.context().close();
  });

  it('item 6: the membership page, the PRO page and the Membership tab show a walkthrough of the product, not a video placeholder', async () => {
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const pro = await visitor.newPage();
    pro.setDefaultTimeout(20_000);
    await pro.goto(`${server.url}/pro`);
    const proTour = pro.getByRole('region', { name: /PRO in four steps/ });
    await proTour.waitFor();
    expect(await pro.getByText('Video coming soon').count()).toBe(0);
    expect(await proTour.getByRole('listitem').count()).toBe(4);
    await proTour.getByText('Watch EINs').waitFor();
    await bothWidths(pro, 'polish-walkthrough-pro');
    await regionShot(proTour, 'polish-walkthrough-pro-region-1280');
    await visitor.close();

    const page = await signedInPage(browser, server.url, PRIYA, DEMO_PASSWORD);
    await page.goto(`${server.url}/membership`);
    const tour = page.getByRole('region', { name: 'How the network works' });
    await tour.waitFor();
    expect(await page.getByText('Video coming soon').count()).toBe(0);
    expect(await tour.getByRole('listitem').count()).toBeGreaterThanOrEqual(3);
    await bothWidths(page, 'polish-walkthrough-membership');
    await page.setViewportSize({ width: 390, height: 844 });
    await regionShot(tour, 'polish-walkthrough-membership-region-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.goto(`${server.url}/account?tab=membership`);
    const tab = page.getByRole('region', { name: 'What PRO adds' });
    await tab.waitFor();
    expect(await page.getByText('Video coming soon').count()).toBe(0);
    await bothWidths(page, 'polish-walkthrough-membership-tab');
    await regionShot(tab, 'polish-walkthrough-membership-tab-region-1280');
    await page.context().close();
  });

  it('item 7 (and 13): re-adding a watched EIN says it is already watched; the merchant page switch uses its own route', async () => {
    const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const enabled = await server.setSubscriptionSettings(admin, summit, {
      merchant_subscription_enabled: true,
      merchant_subscription_notification_email: 'alerts@summitcapital.example',
    });
    expect(enabled.status).toBe(200);
    const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    await page.goto(`${server.url}/merchant_subscriptions`);
    for (const expected of [
      /^Merchant subscription has been added to .+\.$/,
      /^12-3456780 is already watched\.$/,
    ]) {
      await page.getByRole('button', { name: 'Add Subscription' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Subscription' });
      await dialog.getByLabel(/^EIN\/BN/).fill('123456780');
      await dialog.getByRole('button', { name: 'Add Subscription' }).click();
      await page.getByText(expected).waitFor();
      await dialog.waitFor({ state: 'hidden' });
    }
    await shot(page, 'polish-already-watched');
    expect(await page.getByText(/has been added/).count()).toBe(1);

    // The switch on a merchant page: GET /api/merchants/{id}/toggle_subscription, on then off.
    const toggles: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/toggle_subscription'))
        toggles.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await page.goto(`${server.url}/merchants/${sunrise}`);
    const toggle = page.getByLabel('Subscription Enabled');
    await toggle.waitFor({ state: 'attached' });
    expect(await toggle.isChecked()).toBe(false);
    await page.locator('label', { hasText: 'Subscription Enabled' }).click();
    await page
      .getByText(/^Merchant subscription has been added to .+\.$/)
      .last()
      .waitFor();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await page.locator('label', { hasText: 'Subscription Enabled' }).click();
    await page.getByText('Merchant subscriptions have been deleted.').last().waitFor();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    expect(toggles).toEqual([
      `GET /api/merchants/${sunrise}/toggle_subscription`,
      `GET /api/merchants/${sunrise}/toggle_subscription`,
    ]);
    await bothWidths(page, 'polish-merchant-subscription-switch');
    await page.context().close();
  });

  it('item 8: the attempts dialog says HTTP 500 once per attempt', async () => {
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(500).end('upstream broke'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
      const configured = await server.setSubscriptionSettings(admin, summit, {
        merchant_subscription_enabled: true,
        merchant_subscription_notification_webhook: `http://127.0.0.1:${port}/hook`,
      });
      expect(configured.status).toBe(200);
      const dana = await server.login(DANA, DEMO_PASSWORD);
      await server.call({
        method: 'POST',
        url: buildPath(routes.addMerchantSubscription.path, { id: summit }),
        token: dana,
        payload: { merchant_subscription: { fein: '67-5550001' } },
      });
      const priya = await server.login(PRIYA, DEMO_PASSWORD);
      const added = await server.call({
        method: 'POST',
        url: routes.addMerchant.path,
        token: priya,
        payload: {
          merchant: { fein: '67-5550001', legal_name: 'Harborview Bakery LLC', city: 'Tampa', state: 'FL' },
          note: { category: 'Slow Pay', note: 'Paid late twice.', submission_source: 'in-house' },
        },
      });
      expect(added.status).toBe(201);

      const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
      await page.goto(`${server.url}/merchant_subscription_webhook_logs`);
      const row = rowOf(page, '67-5550001').first();
      // The delivery and its second attempt (5 s later) come from the dispatcher: look again until both
      // are listed, giving each look time to load.
      const attempted = async () => {
        const button = row.getByRole('button', { name: /^Attempts of/ });
        const shown = await button
          .waitFor({ timeout: 4000 })
          .then(() => true)
          .catch(() => false);
        if (shown && /2 attempts/.test((await button.textContent()) ?? '')) return true;
        await page.reload();
        return false;
      };
      await expect.poll(attempted, { timeout: 45_000, interval: 500 }).toBe(true);
      await row.getByRole('button', { name: /^Attempts of/ }).click();
      const attempts = page.getByRole('dialog');
      await attempts.getByText(/attempts?, newest last/).waitFor();
      await attempts.getByText('HTTP 500').first().waitFor();
      const rows = attempts.locator('tbody tr');
      const texts = await rows.allTextContents();
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) expect(text.split('HTTP 500').length - 1).toBe(1);
      await page.waitForTimeout(400);
      await bothWidths(page, 'polish-attempts-http-500');
      await page.context().close();
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('item 9: the developer guide uses an example EIN in production and the sandbox EIN in the sandbox', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${server.url}/developers`);
    await page.getByRole('button', { name: 'Show Search merchants', exact: true }).click();
    const search = page.locator('[data-endpoint="partnerSearchMerchants"]');
    const code = search.locator('[role="tabpanel"]:not([aria-hidden="true"]) pre.mrn-code');
    await code.waitFor();
    expect(await code.textContent()).toContain(`${server.url}/api/v2/merchants/123456789'`);
    expect(await search.textContent()).not.toContain('010000001');
    await regionShot(search, 'polish-developers-search-production-1280');
    await page.getByRole('radio', { name: 'Sandbox' }).click();
    await expect
      .poll(() => code.textContent())
      .toContain(`${server.url}/sandbox/api/v2/merchants/010000001'`);
    expect(await search.locator('pre.mrn-answer').textContent()).toContain('"fein": "010000001"');
    expect(await search.getByRole('cell', { name: '010000001' }).count()).toBe(1);
    await regionShot(page.locator('#environment'), 'polish-developers-environment-sandbox-1280');
    await regionShot(search, 'polish-developers-search-sandbox-1280');
    // The note categories a partner may send: never Merchant Dispute.
    await page.getByRole('radio', { name: 'Production' }).click();
    await page.getByRole('button', { name: 'Show Add a note to a merchant', exact: true }).click();
    const note = page.locator('[data-endpoint="partnerAddNote"]');
    expect(await note.textContent()).not.toContain('Merchant Dispute');
    await bothWidths(page, 'polish-developers-examples');
    await context.close();
  });

  it('item 10: the audit table beside a dispute keeps names whole at 1280 px; the sidebar runs the full page', async () => {
    // A dispute about a reported merchant, so its page shows the merchant's audit history beside it.
    const marco = await server.login(MARCO, DEMO_PASSWORD);
    await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: marco,
      payload: {
        merchant: {
          fein: '58-7654321',
          legal_name: 'Bayside Wholesale Flooring LLC',
          city: 'Tampa',
          state: 'FL',
        },
        note: {
          category: 'Default Account',
          note: 'Defaulted on the advance in April.',
          submission_source: 'in-house',
        },
      },
    });
    const dispute = await server.call({
      method: 'POST',
      url: routes.createDispute.path,
      payload: {
        dispute: {
          first_name: 'Rosa',
          last_name: 'Diaz',
          email: 'rosa.diaz@bayside.example',
          fein: '58-7654321',
          legal_name: 'Bayside Wholesale Flooring LLC',
          city: 'Tampa',
          state: 'FL',
          reason: 'We never took an advance from this funder.',
        },
      },
    });
    expect(dispute.status).toBe(201);
    const disputeId = dispute.body.data.data.resource_id;
    const admin = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await admin.goto(`${server.url}/disputes/${disputeId}`);
    await admin.getByRole('tab', { name: 'Audit history' }).click();
    const history = admin.getByRole('table', { name: 'Merchant history, oldest first' });
    await history.getByText('Marco Reyes').first().waitFor();
    expect.soft(await wordsBrokenAcrossLines(admin, '.mrn-dispute-layout table')).toEqual([]);
    // …and fits beside the dispute without scrolling sideways.
    expect
      .soft(
        await admin
          .locator('.mrn-dispute-layout .mrn-table-scroll')
          .evaluate((box) => box.scrollWidth - box.clientWidth),
      )
      .toBeLessThanOrEqual(0);
    // The sidebar's background runs down to the footer on a page longer than the window.
    const sidebarGap = () =>
      admin.evaluate(() => {
        const aside = document.querySelector('aside.mrn-sidebar')!.getBoundingClientRect();
        const column = document.querySelector('.mrn-main-column')!.getBoundingClientRect();
        return Math.round(column.bottom - aside.bottom);
      });
    expect(await admin.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(900);
    expect.soft(await sidebarGap()).toBeLessThanOrEqual(1);
    await bothWidths(admin, 'polish-dispute-audit-history');
    await admin.context().close();
  });

  it('item 10: table headers never break inside a word', async () => {
    const priya = await signedInPage(browser, server.url, PRIYA, DEMO_PASSWORD);
    await priya.goto(`${server.url}/account?tab=members`);
    await priya.getByRole('columnheader', { name: 'Delete' }).waitFor();
    for (const width of [1280, 1024, 800]) {
      await priya.setViewportSize({ width, height: 900 });
      await priya.waitForTimeout(150);
      expect(await wordsBrokenAcrossLines(priya, 'table th'), `at ${width} px`).toEqual([]);
    }
    await bothWidths(priya, 'polish-account-members');
    await priya.context().close();
  });

  it('item 10: "No invoices yet" fits its card at 390 px', async () => {
    // "No invoices yet" fits its card on a phone (Lakeside is in a trial: nothing invoiced yet).
    const alex = await signedInPage(browser, server.url, ALEX, DEMO_PASSWORD);
    await alex.goto(`${server.url}/account?tab=billing`);
    const empty = alex.getByRole('heading', { name: 'No invoices yet' });
    await empty.waitFor();
    await alex.setViewportSize({ width: 390, height: 844 });
    await alex.waitForTimeout(200);
    const clipped = await empty.evaluate((h) => {
      const card = h.closest('.bp6-card')!.getBoundingClientRect();
      const box = h.getBoundingClientRect();
      return {
        overflow: h.scrollWidth - h.clientWidth,
        left: box.left < card.left,
        right: box.right > card.right,
      };
    });
    expect(clipped).toEqual({ overflow: 0, left: false, right: false });
    await bothWidths(alex, 'polish-billing-no-invoices');
    await alex.context().close();
  });

  it('item 10: the hits-by-category bars share one track length', async () => {
    const marco = await server.login(MARCO, DEMO_PASSWORD);
    await server.call({
      method: 'GET',
      url: `${routes.searchMerchants.path}?search=${SUNRISE_FEIN}`,
      token: marco,
    });
    await server.call({
      method: 'GET',
      url: `${routes.searchMerchants.path}?search=58-7654321`,
      token: marco,
    });
    await server.searches.flush();
    await server.projectedAll(undefined, 10_000);
    const analytics = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await analytics.goto(`${server.url}/analytics`);
    const bars = analytics.getByRole('list', { name: 'Hits by category' });
    await bars.waitFor();
    for (const list of ['Hits by category', 'Searches by source']) {
      const widths = await analytics
        .getByRole('list', { name: list })
        .locator('.mrn-share-track')
        .evaluateAll((tracks) => tracks.map((t) => Math.round(t.getBoundingClientRect().width)));
      expect(widths.length).toBeGreaterThan(1);
      expect(new Set(widths).size, `${list}: ${widths.join(', ')}`).toBe(1);
    }
    await bothWidths(analytics, 'polish-analytics-share-bars');
    await analytics.context().close();
  });

  it('item 11: focus returns to what opened a dialog after Save or Cancel', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.goto(`${server.url}/merchants/new`);
    const form = page.getByRole('form', { name: 'Add merchant' });
    await field(form, 'EIN or BN').fill('36-1000001');
    await field(form, 'Legal Name').fill('Focus Street Cafe LLC');
    await field(form, 'City').fill('Dayton');
    await field(form, 'State').selectOption('OH');
    await field(form, 'Category').selectOption('Slow Pay');
    await field(form, 'Note').fill('Paid late once.');
    await form.locator('label', { hasText: 'In-house' }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/merchants\/[0-9a-f-]{36}/);
    await page.getByRole('heading', { name: 'Focus Street Cafe LLC' }).waitFor();

    // Edit Merchant → Save: back on Edit Merchant.
    await page.getByRole('button', { name: 'Edit Merchant' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Merchant' });
    await edit.locator('#edit-merchant-dba').fill('Focus Cafe');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    expect.soft(await focusSettled(page)).toBe('button:Edit Merchant');

    // Add Note → Cancel: back on the Add Note that opened it.
    await page.getByRole('button', { name: 'Add Note' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add Note' });
    await add.getByRole('button', { name: 'Cancel' }).click();
    await add.waitFor({ state: 'hidden' });
    expect.soft(await focusSettled(page)).toBe('button:Add Note');

    // A note's edit button → Save: back on that button.
    const editNote = page.getByRole('button', { name: /^Edit note/ }).first();
    await editNote.click();
    const noteDialog = page.getByRole('dialog', { name: 'Edit Note' });
    await field(noteDialog, 'Note').fill('Paid late once; caught up.');
    await noteDialog.getByRole('button', { name: 'Save' }).click();
    await noteDialog.waitFor({ state: 'hidden' });
    await page.getByText('Paid late once; caught up.').waitFor();
    expect(await focusSettled(page)).toMatch(/^button:Edit note/);
    await page.context().close();
  });

  it('item 11: a merchant page that cannot be loaded says so at once, with Retry', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    let asked = 0;
    const isMerchant = (url: URL) => url.pathname === `/api/merchants/${sunrise}`;
    await page.route(isMerchant, (route) => {
      asked += 1;
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{"errors":""}' });
    });
    await page.goto(`${server.url}/merchants/${sunrise}`);
    await page.getByRole('button', { name: 'Retry' }).waitFor({ timeout: 2500 });
    await page.getByText('The merchant could not be loaded').waitFor();
    expect(asked).toBeLessThanOrEqual(2);
    await bothWidths(page, 'polish-merchant-load-failed');
    await page.unroute(isMerchant);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: 'Sunrise Diner Inc' }).waitFor();
    await page.context().close();
  });

  it('item 12: the invitation link opens "Set your password"; a failed profile save names the profile', async () => {
    const priya = await server.login(PRIYA, DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: priya });
    const invited = await server.call({
      method: 'POST',
      url: buildPath(routes.createUser.path, { id: me.body.data.user.account_resource_id }),
      token: priya,
      payload: {
        user: { first_name: 'Nia', last_name: 'Invite', email: 'nia.invite@harboradvance.example' },
      },
    });
    expect(invited.status).toBe(201);
    let mails = await mailsTo('nia.invite@harboradvance.example');
    for (let i = 0; i < 50 && mails.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      mails = await mailsTo('nia.invite@harboradvance.example');
    }
    const link = mails[0]?.body_text.match(/https?:\/\/\S+password_reset\S+/)?.[0];
    expect(link).toBeDefined();
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await visitor.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${server.url}${new URL(link!).pathname}${new URL(link!).search}`);
    await page.getByRole('heading', { name: 'Set your password' }).waitFor();
    expect(await page.title()).toMatch(/^Set your password/);
    expect(await page.getByRole('heading', { name: 'Reset password' }).count()).toBe(0);
    await bothWidths(page, 'polish-invitation-set-password');
    await visitor.close();

    const tom = await signedInPage(browser, server.url, TOM, DEMO_PASSWORD);
    await tom.goto(`${server.url}/profile`);
    await tom.getByRole('button', { name: 'Save Profile' }).waitFor();
    await tom.route('**/api/users/*', (route) =>
      route.request().method() === 'PUT' ? route.abort() : route.continue(),
    );
    await tom.getByRole('button', { name: 'Save Profile' }).click();
    await tom.getByText('An error occurred while attempting to update profile.').waitFor();
    expect(await tom.getByText(/update member/).count()).toBe(0);
    await shot(tom, 'polish-profile-save-failed');
    await tom.context().close();
  });
});
