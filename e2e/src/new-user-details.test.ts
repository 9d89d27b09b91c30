/// <reference lib="dom" />
import { routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, type TestServer } from '@mrn/server/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { field, signedInPage } from './session.ts';

// Issue 9: what a new user meets in the browser.

let server: TestServer;
let browser: Browser;
const MARCO = 'marco.reyes@summitcapital.example';

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('pasting an EIN with separators', () => {
  it.each(['12 345 6789', '12-345-6789'])(
    'keeps all nine digits of %s in the Add Merchant form',
    async (pasted) => {
      const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
      await page.goto(`${server.url}/merchants/new`);
      const ein = field(page.getByRole('form', { name: 'Add merchant' }), 'EIN or BN');
      await ein.focus();
      await page.keyboard.insertText(pasted); // what a paste does: one insertion, limited by maxlength
      expect(await ein.inputValue()).toBe('12-3456789');
      await page.context().close();
    },
  );

  it('keeps all nine digits in the dispute form', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/dispute`);
    const ein = field(page, 'EIN');
    await ein.focus();
    await page.keyboard.insertText('12 345 6789');
    expect(await ein.inputValue()).toBe('12-3456789');
    await context.close();
  });
});

describe('search results', () => {
  it('says "1 merchant" for one result', async () => {
    const token = await server.login(MARCO, DEMO_PASSWORD);
    await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token,
      payload: {
        merchant: { fein: '12-9999991', legal_name: 'Quixotic Quilts LLC', city: 'Tampa', state: 'FL' },
        note: { category: 'Slow Pay', note: 'Late once.', submission_source: 'in-house' },
      },
    });
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.goto(`${server.url}/search?search=quixotic`);
    await page.getByText('1 merchant matching quixotic', { exact: true }).waitFor();
    await screenshot(page, 'search-one-result');
    await page.context().close();
  });
});

describe('Default Satisfied', () => {
  it('is offered to a member adding a note, with its quick notes', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.goto(`${server.url}/merchants/new`);
    const form = page.getByRole('form', { name: 'Add merchant' });
    await field(form, 'Category').selectOption('Default Satisfied');
    await form.getByText('Paid in Full').waitFor();
    await screenshot(page, 'member-default-satisfied');
    await page.context().close();
  });
});

describe('the No Merchants Found dialog', () => {
  const fein = '98-1234321';
  const searchFromNavbar = async (page: import('playwright-core').Page) => {
    const box = page.getByPlaceholder('Full EIN/legal name search').first();
    await box.fill(fein);
    await box.press('Enter');
    return page.getByRole('dialog', { name: 'No Merchants Found' });
  };

  it('shows PRO members how often the EIN was searched', async () => {
    const tom = await server.login('tom.becker@harboradvance.example', DEMO_PASSWORD);
    for (let i = 0; i < 2; i++) {
      await server.call({ method: 'GET', url: `${routes.searchMerchants.path}?search=${fein}`, token: tom });
    }
    await server.searches.flush();
    // Search facts are recorded asynchronously: the count is read once the projections have them.
    expect(await server.projectedAll(undefined, 10_000)).toBe(true);
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    const dialog = await searchFromNavbar(page);
    // Tom's two searches and this one of Marco's: the dialog asks as of the search's own position.
    await dialog.getByText('This EIN/BN has been searched 3 times on the network.').waitFor();
    await screenshot(page, 'not-found-dialog-pro');
    await page.context().close();
  });

  it('does not show it to BASIC members', async () => {
    const page = await signedInPage(browser, server.url, 'tom.becker@harboradvance.example', DEMO_PASSWORD);
    const dialog = await searchFromNavbar(page);
    await dialog.getByText('No merchant matches').waitFor();
    expect(await dialog.getByTestId('ein-search-count').count()).toBe(0);
    await page.context().close();
  });
});

describe('a link the member may not open', () => {
  it.each(['/account', '/funders', '/merchants'])(
    'ends on the dashboard with a message, never in a sign-in loop: %s',
    async (path) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(`${server.url}${path}`);
      await page.waitForURL('**/login');
      await page.getByLabel('Email').fill('tom.becker@harboradvance.example');
      await page.getByLabel('Password').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/dashboard');
      await page.getByText('You do not have access to that page.').waitFor();
      // Still there a moment later, still signed in, and nothing left to replay.
      await page.waitForTimeout(1500);
      expect(new URL(page.url()).pathname).toBe('/dashboard');
      expect(
        await page.evaluate(() => Object.keys(window.sessionStorage).filter((k) => /attempt/i.test(k))),
      ).toEqual([]);
      await page.goto(`${server.url}${path}`);
      await page.waitForURL('**/dashboard');
      if (path === '/account') await screenshot(page, 'no-access-dashboard');
      await context.close();
    },
  );
});

describe('a one-character search', () => {
  it('asks for at least two characters instead of offering to add a merchant', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    const box = page.getByPlaceholder('Full EIN/legal name search').first();
    await box.fill('a');
    await box.press('Enter');
    await page.getByText('Type at least 2 characters to search.').waitFor();
    expect(await page.getByRole('dialog', { name: 'No Merchants Found' }).count()).toBe(0);
    await page.context().close();
  });
});

describe('a very long unbroken legal name', () => {
  it('wraps instead of widening the page, on the merchant page and in results', async () => {
    const name = `${'Supercalifragilistic'.repeat(9)}LLC`;
    const token = await server.login(MARCO, DEMO_PASSWORD);
    const added = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token,
      payload: {
        merchant: { fein: '12-9999992', legal_name: name, city: 'Tampa', state: 'FL' },
        note: { category: 'Slow Pay', note: 'Late.', submission_source: 'in-house' },
      },
    });
    await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token,
      payload: {
        merchant: { fein: '12-9999993', legal_name: `${name} Two`, city: 'Tampa', state: 'FL' },
        note: { category: 'Slow Pay', note: 'Late.', submission_source: 'in-house' },
      },
    });
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.setViewportSize({ width: 1440, height: 900 });
    const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
    await page.goto(`${server.url}/merchants/${added.body.data.resource_id}`);
    await page
      .getByRole('heading', { name: /Supercalifragilistic/ })
      .first()
      .waitFor();
    expect(await pageWidth()).toBeLessThanOrEqual(1440);
    await page.goto(`${server.url}/search?search=supercalifragilistic`);
    await page.getByText(/2 merchants matching/).waitFor();
    expect(await pageWidth()).toBeLessThanOrEqual(1440);
    await screenshot(page, 'long-name-results-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await pageWidth()).toBeLessThanOrEqual(390);
    await screenshot(page, 'long-name-results-390');
    await page.context().close();
  });
});

describe('keyboard', () => {
  it('reaches the merchant search with the first Tab and Enter (skip link)', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('button', { name: 'Skip to merchant search' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    await screenshot(page, 'skip-link-focused');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('mrn-top-search');
    await page.context().close();
  });
});
