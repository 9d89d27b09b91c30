import { randomUUID } from 'node:crypto';
import { buildPath, routes, streams } from '@mrn/contracts';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { field } from './session.ts';

// Membership and billing in Chromium against the real server in billing test mode (the Stripe-
// compatible test server): a new funder's admin without membership pays on /membership (a declined
// card first), upgrades after the prorated preview, finds the invoice and card on the Billing tab,
// changes the card in the portal, sees the renewal-failed bar, and cancels.

let server: TestServer;
let browser: Browser;
const ADMIN = { email: 'olivia.park@quarry.example', password: 'quarry-admin-2026' };
const MEMBER = { email: 'sam.reed@quarry.example', password: 'quarry-member-2026' };
let accountId = '';

async function api(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  token: string,
  payload?: Record<string, unknown>,
) {
  const res = await server.call({ method, url, token, ...(payload === undefined ? {} : { payload }) });
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A member of the funder with a password, through the platform admin's API calls. */
async function addMember(
  platform: string,
  who: { email: string; password: string },
  first: string,
  last: string,
  admin: boolean,
) {
  await api('POST', buildPath(routes.createUser.path, { id: accountId }), platform, {
    user: { first_name: first, last_name: last, email: who.email },
  });
  const { rows } = await server.db.pool.query('select id from read.users where email = $1', [who.email]);
  const id = rows[0]?.id as string;
  await api('PUT', buildPath(routes.adminChangePassword.path, { id }), platform, {
    user_id: id,
    new_password: who.password,
    confirm_password: who.password,
  });
  if (admin) await api('PUT', buildPath(routes.toggleUserAdmin.path, { id }), platform);
  // The terms are agreed already, so the membership is the only step left after the password.
  const own = await server.login(who.email, who.password);
  await api('PUT', buildPath(routes.agreeToTerms.path, { id }), own);
  return id;
}

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  browser = await launchBrowser();
  const platform = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const created = await api('POST', routes.createAccount.path, platform, {
    account: {
      name: 'Quarry Funding',
      website: 'quarry.example',
      primary_contact_email: 'ops@quarry.example',
    },
  });
  accountId = created.data.resource_id;
  await addMember(platform, ADMIN, 'Olivia', 'Park', true);
  await addMember(platform, MEMBER, 'Sam', 'Reed', false);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signIn(who: { email: string; password: string }, landing: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`**${landing}`);
  return page;
}

async function membershipOfAccount() {
  const { rows } = await server.db.pool.query(
    'select membership_status, plan_level from read.accounts where id = $1',
    [accountId],
  );
  return rows[0] as { membership_status: string; plan_level: string };
}

/**
 * The later screens need a paid BASIC membership: the browser payment above makes it; should that
 * test have failed, the same command is sent with Stripe's ready-made test token, so each screen's
 * test still runs and fails only for its own reasons.
 */
async function ensureMembership() {
  if ((await membershipOfAccount()).membership_status === 'active') return;
  const own = await server.login(ADMIN.email, ADMIN.password);
  await api('POST', buildPath(routes.createSubscription.path, { id: accountId }), own, {
    stripeToken: 'tok_visa',
    stripeEmail: ADMIN.email,
    stripePlanName: 'BASIC',
  });
  await server.projectedAll(undefined, 10_000);
}

/** Both widths: the page as it is, then at 390 px (and back), checking nothing overflows the phone. */
async function screenshotsAtBothWidths(page: Page, name: string) {
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(250);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(150);
}

async function fillCard(page: Page, number: string) {
  const dialog = page.getByRole('dialog', { name: 'Pay' });
  await field(dialog, 'Card number').fill(number);
  await field(dialog, 'Expiry \\(MM/YY\\)').fill('12/34');
  await field(dialog, 'CVC').fill('123');
  return dialog;
}

describe('membership and billing', () => {
  it('tells a plain member without membership to ask their account admin', async () => {
    const page = await signIn(MEMBER, '/membership');
    await page.getByText(/Please ask your account administrator to choose a plan/).waitFor();
    expect(await page.getByRole('button', { name: 'Start Basic Membership' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Start Pro Membership' }).isDisabled()).toBe(true);
    await page.context().close();
  });

  it('sends a new funder admin to /membership; a declined card shows the message and changes nothing; 4242 pays and opens the dashboard', async () => {
    const page = await signIn(ADMIN, '/membership');
    await page.getByRole('heading', { name: 'Choose a plan to start your membership' }).waitFor();
    expect(await page.locator('.mrn-plan-price').allTextContents()).toEqual(['$695 / month', '$945 / month']);
    await page.getByRole('heading', { name: 'Frequently asked questions' }).waitFor();
    await screenshotsAtBothWidths(page, 'membership-page');

    await page.getByRole('button', { name: 'Start Basic Membership' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay' });
    await dialog.waitFor();
    // The card number field has the focus, so the panel is usable from the keyboard at once.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pay-number');
    expect(await dialog.getByLabel('Remember me').isDisabled()).toBe(true);
    expect(await field(dialog, 'Email').inputValue()).toBe(ADMIN.email);
    await dialog.getByRole('button', { name: /^Pay \$695\.00$/ }).click();
    await dialog.getByText('Card number is required').waitFor();
    await screenshotsAtBothWidths(page, 'membership-pay-panel');

    await fillCard(page, '4000 0000 0000 0002');
    await dialog.getByRole('button', { name: /^Pay/ }).click();
    // The panel's message: the card payment provider's own (a failure to reach it shows instead).
    const refusal = dialog.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe('Your card was declined.');
    expect(new URL(page.url()).pathname).toBe('/membership');
    expect((await membershipOfAccount()).membership_status).toBe('none');
    await screenshot(page, 'membership-pay-declined');

    // Issue 21 item 12: editing the card (a half-typed number) takes the old refusal away, leaving only
    // what is wrong now; so does sending the form again.
    await field(dialog, 'Card number').fill('4000 0000');
    await dialog.getByText('Your card number is incorrect.').waitFor();
    expect(await dialog.getByText('Your card was declined.').count()).toBe(0);
    await screenshot(page, 'membership-pay-declined-then-edited');
    await fillCard(page, '4000 0000 0000 0002');
    await dialog.getByRole('button', { name: /^Pay/ }).click();
    await dialog.getByText('Your card was declined.').waitFor();
    await field(dialog, 'CVC').fill('');
    await dialog.getByRole('button', { name: /^Pay/ }).click();
    await dialog.getByText('CVC is required').waitFor();
    expect(await dialog.getByText('Your card was declined.').count()).toBe(0);

    await fillCard(page, '4242 4242 4242 4242');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Welcome, Olivia' }).waitFor();
    await page.getByText(/now has an active Basic membership/).waitFor();
    expect(await page.getByLabel('PRO account').count()).toBe(0);
    await expect.poll(async () => (await membershipOfAccount()).membership_status).toBe('active');
    await page.context().close();
  });

  it('upgrades to PRO after showing the prorated amount; the PRO badge follows at once', async () => {
    await ensureMembership();
    const page = await signIn(ADMIN, '/dashboard');
    await page.goto(`${server.url}/account?tab=membership`);
    await page.getByText(/renews on \d\d\/\d\d\/\d{4}/).waitFor();
    await page.getByRole('heading', { name: 'Danger Zone' }).waitFor();
    await screenshotsAtBothWidths(page, 'membership-tab');

    await page.getByRole('button', { name: 'Upgrade to PRO' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade to PRO' });
    const preview = dialog.getByRole('status', { name: 'Plan change preview' });
    await preview.getByText(/^\$[\d,]+\.\d\d charged on your next invoice$/).waitFor();
    await page.waitForTimeout(300); // the dialog's fade-in
    await screenshot(page, 'membership-upgrade-preview');
    await dialog.getByRole('button', { name: 'Upgrade to PRO' }).click();
    await page.getByText('Your membership has been upgraded to PRO.').waitFor();
    await page.getByLabel('PRO account').waitFor();
    expect((await membershipOfAccount()).plan_level).toBe('PRO');

    // The way back shows the credit, and Cancel changes nothing.
    await page.getByRole('button', { name: 'Downgrade to BASIC' }).click();
    const back = page.getByRole('dialog', { name: 'Downgrade to BASIC' });
    await back.getByText(/^\$[\d,]+\.\d\d credited to your next invoice$/).waitFor();
    await back.getByRole('button', { name: 'Cancel' }).click();
    await back.waitFor({ state: 'detached' });
    expect((await membershipOfAccount()).plan_level).toBe('PRO');
    await page.context().close();
  });

  it('lists the invoices with working PDF links and the card on file; the card is changed in the portal', async () => {
    const page = await signIn(ADMIN, '/dashboard');
    await page.goto(`${server.url}/account?tab=billing`);
    const invoices = page.getByRole('table', { name: 'Invoices' });
    await invoices.waitFor();
    const first = invoices.getByRole('row').nth(1);
    expect(await first.textContent()).toMatch(/\d\d\/\d\d\/\d{4}/);
    await invoices.getByText('$695.00').first().waitFor();
    await invoices.getByText('Paid').first().waitFor();
    const pdf = invoices
      .getByRole('link', { name: /Download PDF of the invoice of \d\d\/\d\d\/\d{4}/ })
      .first();
    const href = await pdf.getAttribute('href');
    expect(href).toBeTruthy();
    const download = await page.request.get(href as string);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-type']).toContain('application/pdf');
    expect((await download.body()).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await page.getByTestId('card-last4').textContent()).toBe('4242');
    await page.getByText(/Expires \d\d\/\d{4}/).waitFor();
    await screenshotsAtBothWidths(page, 'billing-tab');

    await page.getByRole('button', { name: 'Update Payment Method' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Continue to Update' }).click();
    await page.waitForURL((url) => !url.toString().startsWith(server.url));
    await page.getByLabel('Card number').fill('5555555555554444');
    await page.getByLabel('Expiry month').fill('11');
    await page.getByLabel('Expiry year').fill('2033');
    await page.getByLabel('CVC').fill('321');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.waitForURL(/\/account\?tab=billing$/);
    await page.getByText('Your payment method has been updated.').waitFor();
    await expect.poll(() => page.getByTestId('card-last4').textContent()).toBe('4444');
    await page.context().close();
  });

  it("shows the account's admins a bar on every page when a renewal payment failed", async () => {
    const retry = new Date(Date.now() + 3 * 86_400_000);
    await server.store.appendToStream(
      streams.account(accountId),
      [
        {
          id: randomUUID(),
          type: 'AccountRenewalFailed',
          data: {
            accountId,
            invoiceId: 'in_e2e_failed',
            nextPaymentAttempt: retry.toISOString(),
            invoiceCreatedAt: new Date().toISOString(),
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    await server.projectedAll(undefined, 10_000);

    const page = await signIn(ADMIN, '/dashboard');
    const bar = page.getByRole('alert').filter({ hasText: 'Your membership renewal payment failed' });
    await bar.waitFor();
    expect(await bar.textContent()).toMatch(/will try again on \d\d\/\d\d\/\d{4}/);
    await bar.getByRole('button', { name: 'Update Payment Method' }).waitFor();
    await screenshot(page, 'payment-failed-bar');
    await page.context().close();

    const member = await signIn(MEMBER, '/dashboard');
    await member.getByRole('heading', { name: 'Welcome, Sam' }).waitFor();
    expect(await member.getByText('Your membership renewal payment failed').count()).toBe(0);
    await member.context().close();
  });

  it('cancels the membership after asking, and signs out to /login', async () => {
    const page = await signIn(ADMIN, '/dashboard');
    await page.goto(`${server.url}/account?tab=membership`);
    await page.getByRole('button', { name: 'Cancel Membership' }).click();
    const ask = page.getByRole('alertdialog');
    await ask.getByText('Are you sure you want to cancel membership?').waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'membership-cancel-confirm');
    await ask.getByRole('button', { name: 'Cancel Membership' }).click();
    await page.waitForURL('**/login');
    await expect.poll(async () => (await membershipOfAccount()).membership_status).toBe('canceled');
    expect(await page.evaluate(() => localStorage.getItem('mrn.token'))).toBeNull();
    await page.context().close();
  });
});
