import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

// Issue 32 in Chromium against the real server: a PRO funder sees risk signals on a search result and
// at the top of the merchant page, and a count opens the notes it was counted from; a BASIC member sees
// the same signals. At 1280 and 390 px.

let server: TestServer;
let browser: Browser;
const DANA = 'dana.whitfield@summitcapital.example'; // Summit, PRO
const PRIYA = 'priya.natarajan@harboradvance.example'; // Harbor, BASIC
const FEIN = '77-3300001';

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
  const priya = await server.login(PRIYA, DEMO_PASSWORD);
  const dana = await server.login(DANA, DEMO_PASSWORD);
  const added = await server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: priya,
    payload: {
      merchant: { fein: FEIN, legal_name: 'Signal Harbor Tacos LLC', city: 'Tampa', state: 'FL' },
      note: { category: 'Default', note: 'Stopped paying in week three.', submission_source: 'in-house' },
    },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const id = added.body.data.resource_id as string;
  for (const [token, category, note] of [
    [dana, 'Stacking History', 'Took a second position a week after ours.'],
    [dana, 'Slow Pay', 'Two late payments.'],
    [priya, 'Default Satisfied', 'Paid in Full'],
  ] as const) {
    const res = await server.call({
      method: 'POST',
      url: buildPath(routes.addNote.path, { id }),
      token,
      payload: { note: { category, note, submission_source: 'in-house' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  // A second one of the name, reported by no one: a name search lists both.
  const second = await server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: dana,
    payload: {
      merchant: { fein: '77-3300002', legal_name: 'Signal Harbor Tacos Two LLC', city: 'Tampa', state: 'FL' },
      note: { category: 'Other', note: 'Opened a second location.', submission_source: 'in-house' },
    },
  });
  expect(second.status, JSON.stringify(second.body)).toBe(201);
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

describe('risk signals', () => {
  it('shows a PRO funder the signals on the search result and the merchant page, each opening its notes', async () => {
    const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    await search(page, FEIN);
    await page.getByRole('heading', { name: 'Signal Harbor Tacos LLC' }).waitFor();
    // An EIN search opens the merchant: its signals at the top.
    const panel = page.getByRole('region', { name: 'Risk signals' });
    await panel.waitFor();
    await panel.getByText('Reported by 2 funders').waitFor();
    await panel.getByText(/Default cured/).waitFor();
    await panel.getByText('Disputes: 0 open, 0 resolved').waitFor();
    const rows = panel.getByRole('row');
    expect(await rows.nth(1).textContent()).toContain('Default / Default Account');
    expect(await rows.nth(2).textContent()).toContain('Stacking History');
    expect(await rows.nth(3).textContent()).toContain('Slow Pay');
    await bothWidths(page, 'signals-merchant-page');

    // Stacking History in the last 90 days opens the one note it was counted from.
    await panel.getByRole('link', { name: 'Stacking History, 90 days: 1 note' }).click();
    await page.getByText('Showing 1 note counted in Stacking History, last 90 days.').waitFor();
    await page.getByText('Took a second position a week after ours.').waitFor();
    expect(await page.getByText('Two late payments.').count()).toBe(0);
    await screenshot(page, 'signals-notes-filtered-1280');
    await page.getByRole('button', { name: 'Show all notes' }).click();
    await page.getByText('Two late payments.').waitFor();

    // A name search lists it with its compact line.
    await search(page, 'signal harbor');
    const row = page.getByRole('row').filter({ hasText: 'Signal Harbor Tacos LLC' });
    await page.getByRole('row').filter({ hasText: 'Signal Harbor Tacos Two LLC' }).waitFor();
    await row.getByRole('link', { name: /^Default \/ Default Account: 1 note ever/ }).waitFor();
    await row.getByText(/Cured/).waitFor();
    await bothWidths(page, 'signals-search-results');
    await row.getByRole('link', { name: /^Slow Pay: 1 note ever/ }).click();
    await page.getByText('Showing 1 note counted in Slow Pay, ever.').waitFor();
    await page.context().close();
  });

  it('shows a BASIC member the same signals', async () => {
    const page = await signedInPage(browser, server.url, PRIYA, DEMO_PASSWORD);
    await search(page, FEIN);
    const panel = page.getByRole('region', { name: 'Risk signals' });
    await panel.getByText('Reported by 2 funders').waitFor();
    await page.context().close();
  });
});
