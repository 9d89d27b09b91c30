import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

let server: TestServer;
let browser: Browser;
const MARCO = 'marco.reyes@summitcapital.example'; // Summit (PRO) member: adds the merchant
const DANA = 'dana.whitfield@summitcapital.example'; // another member of the same funder

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A form control by its label, which may carry Blueprint's "(required)" after it. */
const field = (scope: Page | ReturnType<Page['getByRole']>, label: string) =>
  scope.getByLabel(new RegExp(`^${label.replace(/[/]/g, '\\/')}( \\(required\\))?$`));

async function search(page: Page, term: string) {
  const box = page.getByPlaceholder('Full EIN/legal name search').first();
  await box.fill(term);
  await box.press('Enter');
}

describe('merchants and notes in Chromium against the real server', () => {
  let merchantPath = '';

  it('adds a merchant with a broker note', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.goto(`${server.url}/merchants/new`);
    const form = page.getByRole('form', { name: 'Add merchant' });
    const fein = field(form, 'EIN or BN');
    await fein.pressSequentially('987654321');
    expect(await fein.inputValue()).toBe('98-7654321');
    await field(form, 'Legal Name').fill('Coastal Fitness Studio LLC');
    await field(form, 'City').fill('Orlando');
    await field(form, 'State').selectOption('FL');
    await field(form, 'Category').selectOption('Slow Pay');
    await field(form, 'Note').fill('Missed 4 payments in May; caught up in June.');
    // Blueprint draws its own radio; a person clicks the label.
    await form.locator('label', { hasText: 'Broker/ISO' }).click();
    await field(form, 'Broker Name').fill('Sunshine ISO');
    await screenshot(page, 'add-merchant-filled');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/merchants\/[0-9a-f-]{36}/);
    merchantPath = new URL(page.url()).pathname;
    await page.getByRole('heading', { name: 'Coastal Fitness Studio LLC' }).waitFor();
    await page.getByText('Missed 4 payments in May; caught up in June.').waitFor();
    await page.getByText('Broker/ISO: Sunshine ISO').waitFor();
    await screenshot(page, 'merchant-added');
    await page.context().close();
  });

  it('finds it by EIN and by a keyword', async () => {
    const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    await search(page, '98-7654321');
    await page.waitForURL(`**${merchantPath}`);
    await page.goto(`${server.url}/dashboard`);
    await search(page, 'coastal fitness');
    await page.waitForURL(`**${merchantPath}`);
    await page.getByRole('heading', { name: 'Coastal Fitness Studio LLC' }).waitFor();
    await page.context().close();
  });

  it('lets the author edit the note', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.goto(`${server.url}${merchantPath}`);
    await page.getByRole('button', { name: 'Edit note' }).click();
    const dialog = page.getByRole('dialog');
    await field(dialog, 'Note').fill('Missed 4 payments in May; fully caught up in June.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // Closed first: until then the text is also the dialog's own (its textarea), during its closing too.
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Missed 4 payments in May; fully caught up in June.').waitFor();
    await screenshot(page, 'note-edited');
    await page.context().close();
  });

  it('takes a deletion request from another member of the funder', async () => {
    const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    await page.goto(`${server.url}${merchantPath}`);
    await page.getByRole('button', { name: 'Request deletion of this note' }).click();
    const dialog = page.getByRole('dialog', { name: 'Note or Record Deletion Request' });
    await dialog.getByText('Why should this note or record be deleted?').waitFor();
    await field(dialog, 'Reason for Deletion').fill('The merchant settled the balance in full.');
    await dialog.getByRole('button', { name: 'SUBMIT DELETION REQUEST' }).click();
    await page.getByText('Note/Record Delete Request Submitted.').waitFor();
    await page.getByText('Deletion requested').waitFor();
    await screenshot(page, 'deletion-requested');
    await page.context().close();
  });

  it('lets a platform admin archive it, after which it shows under Deleted Merchants', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.goto(`${server.url}/merchants`);
    await page.getByRole('tab', { name: 'Reported Notes' }).click();
    await page.getByText('The merchant settled the balance in full.').waitFor();
    await page.goto(`${server.url}${merchantPath}`);
    await page.getByRole('button', { name: 'Delete Merchant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Merchant' });
    await field(dialog, 'Reason for deletion').fill('Duplicate of an existing record');
    await dialog.getByRole('button', { name: 'Delete Merchant' }).click();
    await page.waitForURL('**/deleted-merchants/**');
    await page.getByText('Duplicate of an existing record').first().waitFor();
    await screenshot(page, 'deleted-merchant');
    await page.goto(`${server.url}/merchants`);
    await page.getByRole('tab', { name: 'Deleted Merchants' }).click();
    // The deleted merchants grid (@blueprintjs/table) names each row with a link to it.
    await page.getByRole('link', { name: 'Coastal Fitness Studio LLC' }).waitFor();
    await screenshot(page, 'deleted-merchants-tab');
    await page.context().close();
  });
});
