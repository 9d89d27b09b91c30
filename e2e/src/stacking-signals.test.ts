import { createServer } from 'node:http';
import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

// Issue 24 in Chromium against the real server: inquiry velocity on the search results and the
// merchant page (figures for PRO, the upgrade path for BASIC), and the merchants possibly the same
// business, at 1280 and 390 px.

let server: TestServer;
let browser: Browser;
const DANA = 'dana.whitfield@summitcapital.example'; // Summit, PRO
const PRIYA = 'priya.natarajan@harboradvance.example'; // Harbor, BASIC
const ALEX = 'alex.morgan@lakeside.example'; // Lakeside, BASIC
const GRILL = '77-1234501';
const GRILL_TWO = '77-1234502';
const SHOPPED = '77-1234503';
let summit = '';
let grillTwo = '';
let tokens: Record<string, string> = {};
// The webhook receiver of Summit's alert: answers 204 to everything.
const hooks: string[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    hooks.push(body);
    res.writeHead(204).end();
  });
});

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true, env: { WEBHOOK_ALLOW_LOOPBACK: 'true' } });
  browser = await launchBrowser();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  tokens = {
    alex: await server.login(ALEX, DEMO_PASSWORD),
    priya: await server.login(PRIYA, DEMO_PASSWORD),
    dana: await server.login(DANA, DEMO_PASSWORD),
    admin: await server.login(TEST_ADMIN.email, TEST_ADMIN.password),
  };
  summit = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: tokens.dana })).body.data
    .user.account_resource_id;
  const add = async (token: string, fein: string, legalName: string, phone: string, street1: string) => {
    const res = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token,
      payload: {
        merchant: { fein, legal_name: legalName, business_phone: phone, street1, city: 'Tampa', state: 'FL' },
        note: {
          category: 'Default Account',
          note: 'Stopped all debits after the second week.',
          submission_source: 'broker',
          broker_name: legalName.startsWith('Gulfside') ? 'Tampa Bay ISO, LLC' : 'Harbor Street Funding',
        },
        proxied_creator: null,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.resource_id as string;
  };
  await add(tokens.alex!, GRILL, 'Gulfside Grill LLC', '(813) 555-0147', '400 Bayshore Boulevard');
  // Another EIN, the same phone and street typed otherwise.
  grillTwo = await add(
    tokens.priya!,
    GRILL_TWO,
    'Gulfside Grill Holdings Inc',
    '813.555.0147',
    '400 Bayshore Blvd Suite 2',
  );
  await add(tokens.alex!, SHOPPED, 'Harbor Street Bistro LLC', '(727) 555-0190', '12 Harbor St');
  // Harbor and Lakeside look the first one up; so does an administrator, who is not counted.
  for (const token of [tokens.priya!, tokens.alex!, tokens.admin!]) {
    const res = await server.call({
      method: 'GET',
      url: `${routes.searchMerchants.path}?search=${GRILL}`,
      token,
    });
    expect(res.status).toBe(200);
  }
  expect(await server.projectedAll(undefined, 20_000)).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function search(page: Page, term: string) {
  const box = page.getByPlaceholder('Full EIN/legal name search').first();
  await box.fill(term);
  await box.press('Enter');
}

/** Screenshots at 1280 and 390 px; at 390 the page keeps inside the phone's width. */
async function bothWidths(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(150);
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('stacking signals', () => {
  it('shows a PRO funder how many other funders looked a merchant up, and the EINs that share its phone or address', async () => {
    const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    await search(page, 'gulfside grill');
    const row = page.getByRole('row').filter({ hasText: 'Gulfside Grill LLC' });
    // Harbor and Lakeside this week (the administrator's search is not counted): a warning.
    const tag = row.getByLabel(/^Inquiries: 2 other funders in the last 7 days, 2 in 30 days, 2 in 90 days$/);
    await tag.waitFor();
    expect(await tag.textContent()).toBe('2 in 7 days');
    await tag.hover();
    await page.getByText(/Your own searches are not counted, and no funder is named/).waitFor();
    await bothWidths(page, 'stacking-search-results');

    await page.getByRole('link', { name: 'Gulfside Grill LLC' }).click();
    await page.getByRole('heading', { name: 'Gulfside Grill LLC' }).waitFor();
    await page
      .getByText('Inquiries: 2 other funders in the last 7 days, 2 in 30 days, 2 in 90 days.')
      .waitFor();
    const linked = page.getByRole('list', { name: 'Possibly the same business' });
    const item = linked.getByRole('listitem').filter({ hasText: 'Gulfside Grill Holdings Inc' });
    await item.waitFor();
    expect(await item.getByText('Same phone').count()).toBe(1);
    expect(await item.getByText('Same address').count()).toBe(1);
    expect(await item.getByText('Default Account', { exact: true }).count()).toBe(1);
    // Its worst category ever (PRO's, issue 32), opening the notes it was counted from.
    expect(await item.getByRole('link', { name: 'Worst reported: Default / Default Account' }).count()).toBe(
      1,
    );
    await bothWidths(page, 'stacking-merchant-page');

    // The linked merchant's page links back.
    await item.getByRole('link', { name: 'Gulfside Grill Holdings Inc' }).click();
    await page.getByRole('heading', { name: 'Gulfside Grill Holdings Inc' }).waitFor();
    await page
      .getByRole('list', { name: 'Possibly the same business' })
      .getByRole('link', { name: 'Gulfside Grill LLC' })
      .waitFor();
    await page.context().close();
  });

  it('lets a PRO admin set the being-shopped alert, which then shows in the Webhook Logs', async () => {
    const address = receiver.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const enabled = await server.setSubscriptionSettings(tokens.admin!, summit, {
      merchant_subscription_enabled: true,
      merchant_subscription_notification_webhook: `http://127.0.0.1:${port}/hooks`,
    });
    expect(enabled.status).toBe(200);
    const watched = await server.call({
      method: 'POST',
      url: buildPath(routes.addMerchantSubscription.path, { id: summit }),
      token: tokens.dana,
      payload: { merchant_subscription: { fein: SHOPPED } },
    });
    expect(watched.status).toBe(201);

    const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    await page.goto(`${server.url}/account?tab=settings`);
    const alerts = page.getByLabel('Alert us when a watched merchant is being shopped');
    await alerts.waitFor();
    expect(await alerts.isChecked()).toBe(true);
    const threshold = page.getByLabel('Being shopped: other funders in 7 days');
    expect(await threshold.inputValue()).toBe('3');
    await threshold.selectOption('2');
    const types = page.getByRole('group', { name: 'Event types the webhook receives' });
    // Every type until changed; untick "Merchant updated".
    expect(await types.getByRole('checkbox').count()).toBe(6);
    await types.getByText('Merchant updated (merchant.updated)').click();
    expect(await types.getByLabel('Merchant updated (merchant.updated)').isChecked()).toBe(false);
    await bothWidths(page, 'stacking-alert-settings');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page
      .getByText(/saved|updated/i)
      .first()
      .waitFor();
    await expect
      .poll(
        async () =>
          (
            await server.call({
              method: 'GET',
              url: buildPath(routes.getAccount.path, { id: summit }),
              token: tokens.dana,
            })
          ).body.data,
      )
      .toMatchObject({
        shopped_alert_threshold: 2,
        webhook_event_types: [
          'merchant.added',
          'merchant.note_added',
          'merchant.note_updated',
          'merchant.shopped',
          'merchant.signals_changed',
        ],
      });

    // Harbor and Lakeside look the watched merchant up at once: one alert.
    const searches = await Promise.all(
      [tokens.priya!, tokens.alex!].map((token) =>
        server.call({ method: 'GET', url: `${routes.searchMerchants.path}?search=${SHOPPED}`, token }),
      ),
    );
    for (const r of searches) expect(r.status, JSON.stringify(r.body)).toBe(200);
    await expect
      .poll(() => hooks.filter((h) => h.includes('merchant.shopped')).length, { timeout: 15_000 })
      .toBe(1);

    await page.goto(`${server.url}/merchant_subscription_webhook_logs`);
    const row = page.getByRole('row').filter({ hasText: 'merchant.shopped' });
    await row.waitFor();
    expect(await row.getByText('Being Shopped').count()).toBe(1);
    await bothWidths(page, 'stacking-webhook-log');
    await page.context().close();
  });

  it('links a note’s broker to its record across the network, and lists brokers on the Brokers page', async () => {
    const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    await search(page, GRILL);
    await page.getByRole('heading', { name: 'Gulfside Grill LLC' }).waitFor();
    await page.getByRole('link', { name: 'Tampa Bay ISO, LLC' }).click();
    await page.waitForURL('**/brokers/tampa%20bay%20iso%20llc');
    await page.getByRole('heading', { name: 'Tampa Bay ISO, LLC' }).waitFor();
    const table = page.getByRole('table', { name: 'Merchants Tampa Bay ISO, LLC brought' });
    await table.getByRole('link', { name: 'Gulfside Grill Holdings Inc' }).waitFor();
    expect(await table.getByRole('link').count()).toBe(2);
    // The sidebar has the Brokers page for PRO.
    expect(
      await page.getByRole('menuitem', { name: 'Brokers', exact: true }).first().getAttribute('href'),
    ).toBe('/brokers');
    await bothWidths(page, 'stacking-broker-record');

    await page.goto(`${server.url}/brokers`);
    await page.getByRole('heading', { name: 'Brokers' }).waitFor();
    await page.getByPlaceholder('Search by broker name').fill('tampa');
    await page.getByPlaceholder('Search by broker name').press('Enter');
    await page.getByText('Tampa Bay ISO, LLC').first().waitFor();
    await bothWidths(page, 'stacking-brokers');
    await page.context().close();
  });

  it('explains the figure to a platform administrator from the searches, naming no funder', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await search(page, GRILL);
    await page.getByRole('heading', { name: 'Gulfside Grill LLC' }).waitFor();
    await page.getByRole('tab', { name: 'Inquiry Audit' }).click();
    await page.getByText('7 days: Funder 1, Funder 2').waitFor();
    const table = page.getByRole('table', { name: 'Searches that found this merchant, newest first' });
    const admin = table.getByRole('row').filter({ hasText: 'Platform administrator' }).first();
    await admin.waitFor();
    expect(await admin.getByText('No', { exact: true }).count()).toBe(1);
    expect(await table.getByText(/Harbor|Lakeside|Summit/).count()).toBe(0);
    await bothWidths(page, 'stacking-inquiry-audit');
    await page.context().close();
  });

  it('offers the search that shows linked merchants on a page the funder reached without one', async () => {
    // Lakeside looked up GRILL, not GRILL_TWO: its page, opened by its address, offers the search.
    const page = await signedInPage(browser, server.url, ALEX, DEMO_PASSWORD);
    await page.goto(`${server.url}/merchants/${grillTwo}`);
    await page.getByRole('heading', { name: 'Gulfside Grill Holdings Inc' }).waitFor();
    await page.getByText(/^Search this merchant's EIN to see the businesses possibly linked to it/).waitFor();
    await bothWidths(page, 'stacking-linked-search-first');
    await page.getByRole('button', { name: `Search EIN ${GRILL_TWO}` }).click();
    await page
      .getByRole('list', { name: 'Possibly the same business' })
      .getByRole('link', { name: 'Gulfside Grill LLC' })
      .waitFor();
    expect(await page.getByText(/^Search this merchant's EIN/).count()).toBe(0);
    await page.context().close();
  });

  it('tells a BASIC funder the signal exists and what PRO would show', async () => {
    const page = await signedInPage(browser, server.url, PRIYA, DEMO_PASSWORD);
    await search(page, GRILL);
    await page.getByRole('heading', { name: 'Gulfside Grill LLC' }).waitFor();
    await page.getByText(/^PRO shows how many other funders looked this merchant up/).waitFor();
    expect(await page.getByRole('link', { name: 'What PRO includes' }).getAttribute('href')).toBe('/pro');
    await page.getByLabel(/^Inquiry velocity: PRO only\./).waitFor();
    // Linked merchants are for every member.
    await page
      .getByRole('list', { name: 'Possibly the same business' })
      .getByText('Gulfside Grill Holdings Inc')
      .waitFor();
    await bothWidths(page, 'stacking-merchant-page-basic');
    await page.context().close();
  });
});
