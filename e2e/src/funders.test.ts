import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { generate } from 'otplib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { field, signedInPage } from './session.ts';

let server: TestServer;
let browser: Browser;
const FUNDER_ADMIN = { email: 'gina.stone@granite.example', password: 'granite-admin-2026' };

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('running a funder in Chromium against the real server', () => {
  let funderPath = '';

  it('lets a platform admin create a funder that requires MFA, and its admin', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.goto(`${server.url}/funders/new`);
    await field(page, 'Funder name').fill('Granite Capital');
    await field(page, 'Website').fill('granite.example');
    await field(page, 'Primary Contact Email').fill('ops@granite.example');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.waitForURL(/\/funders\/[0-9a-f-]{36}$/);
    funderPath = new URL(page.url()).pathname;

    await page.getByRole('tab', { name: 'Membership' }).click();
    await page.getByRole('button', { name: 'Start Trial' }).click();
    await page.getByRole('button', { name: 'Cancel Trial' }).waitFor();

    await page.getByRole('tab', { name: 'Security' }).click();
    await page.locator('label', { hasText: 'Require Multi-Factor Authentication' }).click();
    await expect
      .poll(
        async () =>
          (
            await server.db.pool.query(
              `select mfa_required from read.accounts where name = 'Granite Capital'`,
            )
          ).rows[0]?.mfa_required,
      )
      .toBe(true);

    await page.getByRole('tab', { name: 'Account Members' }).click();
    await page.getByRole('button', { name: 'Add Member' }).click();
    await page.waitForURL('**/members/new');
    await field(page, 'First Name').fill('Gina');
    await field(page, 'Last Name').fill('Stone');
    await field(page, 'Email Address').fill(FUNDER_ADMIN.email);
    await page.getByRole('form', { name: 'Add Member' }).getByRole('button', { name: 'Add Member' }).click();
    await page.waitForURL(/\/members\/[0-9a-f-]{36}$/);

    await page.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog');
    await field(dialog, 'New Password').fill(FUNDER_ADMIN.password);
    await field(dialog, 'Confirm Password').fill(FUNDER_ADMIN.password);
    await dialog.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Password has been updated.').waitFor();

    await page.goto(`${server.url}${funderPath}`);
    await page.getByRole('tab', { name: 'Account Members' }).click();
    await page.getByLabel('Gina Stone is an account admin').click({ force: true });
    await expect
      .poll(
        async () =>
          (
            await server.db.pool.query(`select is_admin from read.users where email = $1`, [
              FUNDER_ADMIN.email,
            ])
          ).rows[0]?.is_admin,
      )
      .toBe(true);
    await screenshot(page, 'funder-members');
    await page.context().close();
  });

  it("routes the funder's admin through MFA registration and terms to the dashboard", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(FUNDER_ADMIN.email);
    await page.getByLabel('Password').fill(FUNDER_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/mfa_registration');
    const secret = ((await page.locator('.mrn-otp-secret-value code').textContent()) ?? '').replace(
      /\s/g,
      '',
    );
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await screenshot(page, 'mfa-registration');
    await page.getByPlaceholder('123456').fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Confirm and Activate' }).click();
    await page.waitForURL('**/agree_to_terms');
    await page.locator('label', { hasText: 'I have read and agree to the Terms of Use' }).click();
    await page.getByRole('button', { name: 'Agree and Continue' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Welcome, Gina' }).waitFor();
    await screenshot(page, 'funder-admin-dashboard');

    await page.goto(`${server.url}/account`);
    await page.getByRole('tab', { name: 'Account Members' }).click();
    await page.getByRole('button', { name: 'Add Member' }).click();
    await page.waitForURL('**/account/members/new');
    await field(page, 'First Name').fill('Outside');
    await field(page, 'Last Name').fill('Person');
    await field(page, 'Email Address').fill('outside.person@gmail.com');
    await page.getByRole('form', { name: 'Add Member' }).getByRole('button', { name: 'Add Member' }).click();
    await page.getByText('Only email addresses ending in @granite.example are valid.').first().waitFor();
    await screenshot(page, 'member-wrong-domain');
    const { rows } = await server.db.pool.query(
      `select count(*)::int as n from read.users where email = 'outside.person@gmail.com'`,
    );
    expect(rows[0].n).toBe(0);
    await context.close();
  });
});
