import { routes } from '@mrn/contracts';
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

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
  const tokens = {
    alex: await server.login(ALEX, DEMO_PASSWORD),
    priya: await server.login(PRIYA, DEMO_PASSWORD),
    admin: await server.login(TEST_ADMIN.email, TEST_ADMIN.password),
  };
  const add = async (token: string, fein: string, legalName: string, phone: string, street1: string) => {
    const res = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token,
      payload: {
        merchant: { fein, legal_name: legalName, business_phone: phone, street1, city: 'Tampa', state: 'FL' },
        note: { category: 'Default Account', note: 'Stopped all debits after the second week.' },
        proxied_creator: null,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  await add(tokens.alex, GRILL, 'Gulfside Grill LLC', '(813) 555-0147', '400 Bayshore Boulevard');
  // Another EIN, the same phone and street typed otherwise.
  await add(
    tokens.priya,
    GRILL_TWO,
    'Gulfside Grill Holdings Inc',
    '813.555.0147',
    '400 Bayshore Blvd Suite 2',
  );
  // Harbor and Lakeside look the first one up; so does an administrator, who is not counted.
  for (const token of [tokens.priya, tokens.alex, tokens.admin]) {
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
    expect(await item.getByText('Default Account').count()).toBe(1);
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
