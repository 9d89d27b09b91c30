import { mkdirSync } from 'node:fs';
import { routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { field, signedInPage } from './session.ts';

// A dispute resolved end to end in Chromium (issue 13): a business owner submits the public form, a
// platform administrator takes it from the queue, comments, resolves it with a Merchant Dispute note,
// and the owner has been mailed twice.

let server: TestServer;
let browser: Browser;
const OWNER = 'rosa.diaz@sunrisediner.example';
const LOOK_DIR = '/tmp/shots/';

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
  // A funder reported the merchant the owner disputes.
  const marco = await server.login('marco.reyes@summitcapital.example', DEMO_PASSWORD);
  const added = await server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: marco,
    payload: {
      merchant: { fein: '58-1234567', legal_name: 'Sunrise Diner Inc', city: 'Tampa', state: 'FL' },
      note: {
        category: 'Default Account',
        note: 'Defaulted on the advance in April.',
        submission_source: 'in-house',
      },
    },
  });
  expect(added.status).toBe(201);
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

const mailsTo = async (email: string) =>
  (
    await server.db.pool.query(
      'select subject, body_text from dev_mailbox where mail_to = $1 order by received_at',
      [email],
    )
  ).rows as { subject: string; body_text: string }[];
async function waitForMails(email: string, count: number) {
  for (let i = 0; i < 100; i++) {
    const mails = await mailsTo(email);
    if (mails.length >= count) return mails;
    await new Promise((r) => setTimeout(r, 100));
  }
  return mailsTo(email);
}

describe('a dispute resolved end to end in Chromium', () => {
  let disputeUrl = '';

  it('a business owner submits the public dispute form', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${server.url}/dispute`);
    const form = page.getByRole('form', { name: 'Merchant dispute' });
    await field(form, 'EIN').pressSequentially('581234567');
    await field(form, 'First Name').fill('Rosa');
    await field(form, 'Last Name').fill('Diaz');
    await field(form, 'Email').fill(OWNER);
    await field(form, 'Legal Business Name').fill('Sunrise Diner Inc');
    await field(form, 'City').fill('Tampa');
    await field(form, 'State').selectOption('FL');
    await field(form, 'Reason for Dispute').fill(
      'The April advance was repaid in full on May 2; the default report is wrong.',
    );
    await form.getByRole('button', { name: 'Submit Dispute' }).click();
    await page
      .getByText(/dispute has been submitted/i)
      .first()
      .waitFor();
    await context.close();
  });

  it('a platform admin finds it under New, assigns it to themself and comments', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.goto(`${server.url}/disputes`);
    await page.getByRole('tab', { name: /New\s*1/ }).waitFor();
    const row = page.getByRole('row', { name: /Sunrise Diner Inc/ });
    await row.waitFor();
    await expect(row.getByText('0 of 30 days')).toBeTruthy();
    await row.getByText('Unassigned').waitFor();
    await shot(page, 'disputes-queue');

    await row.getByRole('link', { name: /Sunrise Diner Inc/ }).click();
    await page.waitForURL(/\/disputes\/[0-9a-f-]{36}$/);
    disputeUrl = page.url();
    await page.getByRole('heading', { name: 'Dispute: Sunrise Diner Inc' }).waitFor();
    await page.getByText('The April advance was repaid in full on May 2').waitFor();
    // The merchant's notes beside the dispute, and its audit replay.
    await page.getByText('Defaulted on the advance in April.').waitFor();

    await page.getByRole('button', { name: 'Assign to me' }).click();
    await page.getByText('The dispute is assigned to you.').waitFor();
    await page.getByText('In review', { exact: true }).first().waitFor();
    await expect(await page.getByLabel('Assigned to').inputValue()).not.toBe('');

    await page
      .getByRole('textbox', { name: 'Internal comment', exact: true })
      .fill('Called Summit: they confirm the payoff on May 2.');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.getByText('Comment added.').waitFor();
    await page.getByRole('list', { name: 'Internal comments' }).getByText('Called Summit').waitFor();

    await page.getByRole('tab', { name: 'Audit history' }).click();
    await page.getByRole('table', { name: /Merchant history/ }).waitFor();
    await page.getByRole('tab', { name: 'Notes' }).click();
    await shot(page, 'dispute-detail');
    // The same page on a phone: the merchant record stacks under the dispute.
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'dispute-detail-390');
    await page.goto(`${server.url}/disputes?status=in_review`);
    await page.getByRole('row', { name: /Sunrise Diner Inc/ }).waitFor();
    await shot(page, 'disputes-queue-390');
    await page.context().close();
  });

  it('resolves it with a Merchant Dispute note, which the merchant page then shows', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.goto(disputeUrl);
    await page.getByRole('button', { name: 'Resolve…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Resolve dispute' });
    await dialog.locator('label', { hasText: 'Add a Merchant Dispute note to the merchant' }).click();
    await field(dialog, 'Merchant Dispute note').fill(
      'Owner disputes the April default: repaid in full on May 2 (confirmed by Summit).',
    );
    await dialog
      .getByRole('textbox', { name: 'Message to the business owner', exact: true })
      .fill('Thank you; funders reviewing the record will see your statement.');
    await dialog.getByRole('button', { name: 'Review and confirm' }).click();
    await dialog.getByText('Please confirm').waitFor();
    await dialog.getByText(`E-mail to ${OWNER}`).waitFor();
    await shot(page, 'dispute-resolve-confirm');
    await dialog.getByRole('button', { name: 'Confirm and resolve' }).click();
    await page.getByText('Dispute resolved.', { exact: false }).first().waitFor();
    await page.getByText('Resolved', { exact: true }).first().waitFor();
    await page.getByText('Told to the owner:').waitFor();
    await shot(page, 'dispute-resolved');

    await page.getByRole('link', { name: /Open merchant/ }).click();
    await page.waitForURL(/\/merchants\/[0-9a-f-]{36}/);
    await page.getByText('Owner disputes the April default: repaid in full on May 2').waitFor();

    await page.goto(`${server.url}/disputes?status=resolved`);
    await page.getByRole('tab', { name: /Resolved\s*1/, selected: true }).waitFor();
    await page.getByRole('row', { name: /Sunrise Diner Inc/ }).waitFor();
    await shot(page, 'disputes-resolved-tab');
    await page.context().close();
  });

  it('mailed the owner on receipt and on resolution, without the internal comment', async () => {
    const mails = await waitForMails(OWNER, 2);
    expect(mails.map((m) => m.subject)).toEqual([
      'We received your dispute about Sunrise Diner Inc',
      'Your dispute about Sunrise Diner Inc has been resolved',
    ]);
    expect(mails[1]!.body_text).toContain('Thank you; funders reviewing the record will see your statement.');
    expect(mails[1]!.body_text).not.toContain('Called Summit');
  });
});
