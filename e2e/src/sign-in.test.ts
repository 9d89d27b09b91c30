import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  return context.newPage();
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('signing in (Chromium against the real server)', () => {
  it('signs the platform administrator in and reaches the dashboard', async () => {
    const page = await newPage();
    await signIn(page, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Welcome, Platform' }).waitFor();
    await screenshot(page, 'dashboard-platform-admin');
    await page.context().close();
  });

  it("shows the server's error above the form for a wrong password", async () => {
    const page = await newPage();
    await signIn(page, TEST_ADMIN.email, 'wrong password');
    // The callout sits between the title and the fields, with role alert, and is the only place the
    // error shows (no toast repeating it).
    const error = page.locator('.mrn-login-card [role=alert]');
    await error.waitFor();
    expect(await error.textContent()).toBe('Invalid email or password.');
    await page.waitForTimeout(500);
    expect(await page.getByText('Invalid email or password.').count()).toBe(1);
    const [calloutBox, emailBox] = [await error.boundingBox(), await page.getByLabel('Email').boundingBox()];
    expect(calloutBox!.y).toBeLessThan(emailBox!.y);
    expect(page.url()).toContain('/login');
    await screenshot(page, 'login-wrong-password');
    await page.context().close();
  });

  it('keeps the session across a reload (auto login), then logout returns to /login and guards protected pages', async () => {
    const page = await newPage();
    await signIn(page, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.waitForURL('**/dashboard');
    // The welcome toast is for the sign-in itself, not for every reload.
    await page.getByText('You are now logged into Merchant Risk Network.').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome, Platform' }).waitFor();
    expect(page.url()).toContain('/dashboard');
    await page.waitForTimeout(700);
    expect(await page.getByText('You are now logged into Merchant Risk Network.').count()).toBe(0);

    await page.getByRole('button', { name: 'Logout' }).first().click();
    await page.waitForURL('**/login');
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.context().close();
  });

  it('keeps the Sign in button disabled until the form is valid', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/login`);
    const button = page.getByRole('button', { name: 'Sign in' });
    expect(await button.isDisabled()).toBe(true);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('x');
    expect(await button.isDisabled()).toBe(true);
    await page.getByLabel('Email').fill(TEST_ADMIN.email);
    expect(await button.isDisabled()).toBe(false);
    await page.context().close();
  });
});
