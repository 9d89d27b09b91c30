import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { field, signedInPage } from './session.ts';

// Issue 9's "small things professionals notice": feedback while a page loads, a warning before a
// half-filled form is lost, the note kept when its EIN turns out to exist, the 90-day figure labelled on
// a phone, the MFA card centred.

let server: TestServer;
let browser: Browser;
const MARCO = 'marco.reyes@summitcapital.example'; // Summit (PRO) member
const PRIYA = 'priya.natarajan@harboradvance.example'; // another funder's admin
const TOM = 'tom.becker@harboradvance.example'; // made to register MFA

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const progressBar = (page: Page) => page.getByRole('progressbar', { name: 'Loading page' });

async function fillMerchant(page: Page, fein: string, note: string) {
  const form = page.getByRole('form', { name: 'Add merchant' });
  await field(form, 'EIN or BN').fill(fein);
  await field(form, 'Legal Name').fill('Riverbend Auto Repair LLC');
  await field(form, 'City').fill('Dayton');
  await field(form, 'State').selectOption('OH');
  await field(form, 'Category').selectOption('Slow Pay');
  await field(form, 'Note').fill(note);
  await form.locator('label', { hasText: 'In-house' }).click();
  return form;
}

describe('page feedback and forms that keep what was typed', () => {
  it('shows a progress bar at once while a page waits for slow data, and removes it when the data is there', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    // Once the dashboard's data is in, no bar. (Not `waitForLoadState('networkidle')`: the sign-in page
    // reached it, and a single-page app's navigation is no new document, so it returned at once and
    // the bar of the dashboard's own data was sometimes still there.)
    await progressBar(page).waitFor({ state: 'detached' });
    // The members list's answer is held back 3 s on its way from the real server: the bar must show
    // while it is still held (whatever the machine's load), and go once it arrives.
    let released = false;
    await page.route('**/api/members**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      released = true;
      await route.continue();
    });
    await page.getByRole('menuitem', { name: 'Our Members' }).first().click();
    await progressBar(page).waitFor({ timeout: 2500 });
    expect(released).toBe(false);
    await screenshot(page, 'progress-bar-slow-page');
    await progressBar(page).waitFor({ state: 'detached', timeout: 10_000 });
    expect(released).toBe(true);
    await page.context().close();
  });

  it('asks before a half-filled Add Merchant form is left, and stays when asked to', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.goto(`${server.url}/merchants/new`);
    const form = page.getByRole('form', { name: 'Add merchant' });
    await field(form, 'Legal Name').fill('Half Typed Bakery');
    await page.getByRole('menuitem', { name: 'Dashboard' }).first().click();
    const alert = page.getByRole('alertdialog');
    await alert.getByText('Leave without saving?').waitFor();
    await screenshot(page, 'add-merchant-leave-warning');
    await alert.getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe('/merchants/new');
    expect(await field(form, 'Legal Name').inputValue()).toBe('Half Typed Bakery');

    await form.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL((url) => url.pathname !== '/merchants/new');
    await page.context().close();
  });

  it('does not ask when nothing was typed, nor after a save', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.goto(`${server.url}/merchants/new`);
    await page.getByRole('form', { name: 'Add merchant' }).waitFor();
    await page.getByRole('menuitem', { name: 'Dashboard' }).first().click();
    await page.waitForURL('**/dashboard');
    expect(await page.getByRole('alertdialog').count()).toBe(0);

    await page.goto(`${server.url}/merchants/new`);
    const form = await fillMerchant(page, '31-4159265', 'Two returned payments in October.');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/merchants\/[0-9a-f-]{36}/);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await page.context().close();
  });

  it('keeps the typed note when another funder adds the same EIN first: Add Note opens on that merchant with it', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.goto(`${server.url}/merchants/new`);
    const note = 'Stacked a second advance within a week of funding.';
    const form = await fillMerchant(page, '27-1828182', note);
    // The EIN was free when it was checked on blur; another funder adds it before Save.
    const priya = await server.login(PRIYA, DEMO_PASSWORD);
    const added = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: priya,
      payload: {
        merchant: { fein: '271828182', legal_name: 'Riverbend Auto Repair', city: 'Dayton', state: 'OH' },
        note: { category: 'Default', note: 'Defaulted in week three.', submission_source: 'in-house' },
      },
    });
    expect(added.status).toBe(201);
    await form.getByRole('button', { name: 'Save' }).click();
    const exists = page.getByRole('dialog', { name: 'Merchant already exists' });
    await exists.waitFor();
    await exists.getByRole('button', { name: 'Yes, I want to add notes' }).click();
    await page.waitForURL(`**/merchants/${added.body.data.resource_id}`);
    // No leave warning on the way: the note goes along.
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    const dialog = page.getByRole('dialog', { name: 'Add Note' });
    await dialog.waitFor();
    expect(await field(dialog, 'Note').inputValue()).toBe(note);
    expect(await field(dialog, 'Category').inputValue()).toBe('Slow Pay');
    await screenshot(page, 'add-note-carried-from-add-merchant');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText(note).waitFor();
    // The carried note does not come back on a reload.
    await page.reload();
    await page.getByRole('heading', { name: 'Riverbend Auto Repair' }).waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog', { name: 'Add Note' }).count()).toBe(0);
    await page.context().close();
  });

  it('labels the 90-day contribution on a 390 px screen', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(MARCO);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    const label = page.locator('.mrn-contribution').getByText('90 DAY', { exact: true });
    await label.waitFor();
    expect(await label.isVisible()).toBe(true);
    const box = (await page.locator('.mrn-contribution').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'dashboard-390');
    await context.close();
  });

  it('centres the MFA registration card on the screen at 1280 and 390 px', async () => {
    const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const tom = await server.login(TOM, DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: tom });
    const toggled = await server.call({
      method: 'PUT',
      url: buildPath(routes.toggleUserMfaRequired.path, { id: me.body.data.user.resource_id }),
      token: admin,
    });
    expect(toggled.status).toBe(200);
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${server.url}/login`);
      await page.getByLabel('Email').fill(TOM);
      await page.getByLabel('Password').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/mfa_registration');
      const card = page.locator('.mrn-session-card');
      await card.waitFor();
      const box = (await card.boundingBox())!;
      const scrollbar = await page.evaluate(() => window.innerWidth - document.documentElement.clientWidth);
      expect(Math.abs(box.x + box.width / 2 - (width - scrollbar) / 2)).toBeLessThanOrEqual(2);
      await screenshot(page, `mfa-registration-${width}`);
      await context.close();
    }
  });
});
