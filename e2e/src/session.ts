import type { Browser, Page } from 'playwright-core';

/** A fresh browser context signed in through the real login form. */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  email: string,
  password: string,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  // Generous: CI machines have two cores shared by the server, PostgreSQL and Chromium.
  page.setDefaultTimeout(20_000);
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
  return page;
}

/** A form control by its label, which may carry Blueprint's "(required)" after it. */
export const field = (scope: Page | ReturnType<Page['getByRole']>, label: string) =>
  scope.getByLabel(new RegExp(`^${label.replace(/[/]/g, '\\/')}( \\(required\\))?$`));
