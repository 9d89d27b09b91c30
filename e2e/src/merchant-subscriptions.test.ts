import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

// Merchant subscriptions in Chromium against the real server (accounts §2): the three tabs, adding an
// EIN through the dialog, a CSV upload with its progress and counts, deleting, and the switch on a
// merchant page.

let server: TestServer;
let browser: Browser;
const DANA = 'dana.whitfield@summitcapital.example'; // Summit (PRO) admin
const SUNRISE_FEIN = '451234567'; // a demo merchant
let summit = '';
let sunrise = '';

beforeAll(async () => {
  // Loopback webhooks allowed: the receiver of the last test listens on 127.0.0.1.
  server = await startTestServer({ listen: true, demo: true, env: { WEBHOOK_ALLOW_LOOPBACK: 'true' } });
  browser = await launchBrowser();
  const dana = await server.login(DANA, DEMO_PASSWORD);
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: dana });
  summit = me.body.data.user.account_resource_id;
  const found = await server.call({
    method: 'GET',
    url: `${routes.searchMerchants.path}?search=${SUNRISE_FEIN}`,
    token: dana,
  });
  sunrise = found.body.data[0].resource_id;

  // The platform admin enables subscriptions for Summit, with a notification e-mail.
  const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const updated = await server.setSubscriptionSettings(admin, summit, {
    merchant_subscription_enabled: true,
    merchant_subscription_notification_email: 'alerts@summitcapital.example',
  });
  expect(updated.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const rowOf = (page: Page, text: string) =>
  page.getByRole('row').filter({ has: page.getByRole('cell', { name: text }) });

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

describe('merchant subscriptions', () => {
  it('adds an EIN, uploads a CSV, deletes selected and toggles the merchant page switch', async () => {
    const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    await page.goto(`${server.url}/merchant_subscriptions`);
    await page.waitForURL('**/merchant_subscriptions');
    await page.getByText('No merchant subscriptions yet').waitFor();
    // A notification e-mail is set: no Configuration Missing warning.
    expect(await page.getByText('Configuration Missing').count()).toBe(0);

    // Add an EIN pasted with spaces: all 9 digits are kept.
    await page.getByRole('button', { name: 'Add Subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Subscription' });
    const ein = dialog.getByLabel(/^EIN\/BN/);
    await ein.fill('12 345 6789');
    expect(await ein.inputValue()).toBe('12-3456789');
    await dialog.getByRole('button', { name: 'Add Subscription' }).click();
    await page.getByText(/^Merchant subscription has been added to .+\.$/).waitFor();
    await rowOf(page, '12-3456789').waitFor();
    expect(await rowOf(page, '12-3456789').textContent()).toContain('Not yet reported');
    await bothWidths(page, 'merchant-subscriptions-list');

    // Upload a CSV with a duplicate and a bad row; the direct upload is held back a moment so its
    // progress shows.
    await page.route('**/api/direct_uploads/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Upload CSV' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload CSV' });
    await upload.getByText('One EIN per line').waitFor();
    await upload.getByLabel('CSV file').setInputFiles({
      name: 'watch-list.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('ein\n22-1234567\n221234567\nnot-an-ein\n33 7654321\n'),
    });
    await upload.getByText('47 B').waitFor();
    await upload.getByRole('button', { name: 'Upload', exact: true }).click();
    await upload.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    await upload.getByText(/Uploading/).waitFor();
    await screenshot(page, 'merchant-subscriptions-upload-progress');
    await page.waitForURL('**/merchant_subscription_imports');
    const row = rowOf(page, 'watch-list.csv');
    await row.getByText('Done').waitFor({ timeout: 20_000 });
    const cells = await row.getByRole('cell').allTextContents();
    // Date, File, Size, Status, Processed?, Created, Skipped, Errors, Results
    expect(cells.slice(1, 4)).toEqual(['watch-list.csv', '47 B', 'Done']);
    expect(cells.slice(5, 8)).toEqual(['2', '1', '1']);
    await row.getByRole('button', { name: /Download the results/ }).waitFor();
    await bothWidths(page, 'merchant-subscriptions-uploads');

    // Delete two of the three subscriptions.
    await page.getByRole('tab', { name: 'Merchant Subscriptions' }).click();
    await page.waitForURL('**/merchant_subscriptions');
    await rowOf(page, '22-1234567').waitFor();
    await rowOf(page, '33-7654321').waitFor();
    await page.getByLabel('Select 12-3456789').check({ force: true });
    await page.getByLabel('Select 22-1234567').check({ force: true });
    await page.getByRole('button', { name: 'Delete Selected (2)' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Merchant subscriptions have been deleted.').waitFor();
    await rowOf(page, '12-3456789').waitFor({ state: 'detached' });
    expect(await rowOf(page, '22-1234567').count()).toBe(0);
    await rowOf(page, '33-7654321').waitFor();

    // Webhook Logs tab.
    await page.getByRole('tab', { name: 'Webhook Logs' }).click();
    await page.waitForURL('**/merchant_subscription_webhook_logs');
    await page.getByText('Webhook deliveries will be listed here.').waitFor();
    await bothWidths(page, 'merchant-subscriptions-webhook-logs');

    // The switch on a merchant page subscribes to its EIN and removes it again.
    await page.goto(`${server.url}/merchants/${sunrise}`);
    const toggle = page.getByLabel('Subscription Enabled');
    await toggle.waitFor({ state: 'attached' });
    expect(await toggle.isChecked()).toBe(false);
    await page.locator('label', { hasText: 'Subscription Enabled' }).click();
    await page
      .getByText(/^Merchant subscription has been added to .+\.$/)
      .last()
      .waitFor();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await page.goto(`${server.url}/merchant_subscriptions?search=45-12`);
    const watched = rowOf(page, '45-1234567');
    await watched.waitFor();
    await watched.getByRole('link', { name: 'Sunrise Diner Inc' }).waitFor();

    await page.goto(`${server.url}/merchants/${sunrise}`);
    await page.getByLabel('Subscription Enabled').waitFor({ state: 'attached' });
    await expect.poll(() => page.getByLabel('Subscription Enabled').isChecked()).toBe(true);
    await page.locator('label', { hasText: 'Subscription Enabled' }).click();
    await page.getByText('Merchant subscriptions have been deleted.').last().waitFor();
    await expect.poll(() => page.getByLabel('Subscription Enabled').isChecked()).toBe(false);
    await page.context().close();
  });

  it('warns on every tab when no notification e-mail or webhook is set', async () => {
    const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const cleared = await server.setSubscriptionSettings(admin, summit, {
      merchant_subscription_enabled: true,
      merchant_subscription_notification_email: null,
      merchant_subscription_notification_webhook: null,
    });
    expect(cleared.status).toBe(200);
    const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    for (const path of [
      '/merchant_subscriptions',
      '/merchant_subscription_imports',
      '/merchant_subscription_webhook_logs',
    ]) {
      await page.goto(`${server.url}${path}`);
      await page.getByText('Configuration Missing').waitFor();
      await page.getByRole('link', { name: 'Account settings' }).waitFor();
    }
    await bothWidths(page, 'merchant-subscriptions-configuration-missing');
    await page.context().close();
  });

  it('exports the watched merchants with their risk signals as CSV, as the search narrows them', async () => {
    const dana = await server.login(DANA, DEMO_PASSWORD);
    const watched = await server.call({
      method: 'POST',
      url: buildPath(routes.addMerchantSubscription.path, { id: summit }),
      token: dana,
      payload: { merchant_subscription: { fein: SUNRISE_FEIN } },
    });
    expect([200, 201]).toContain(watched.status);
    const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    await page.goto(`${server.url}/merchant_subscriptions`);
    const exportButton = page.getByRole('button', { name: 'Export CSV', exact: true });
    await exportButton.waitFor();
    // The tooltip says what the file holds before anyone downloads it.
    await exportButton.hover();
    await page.getByText(/Every watched EIN with its merchant and risk signals/).waitFor();
    await screenshot(page, 'merchant-subscriptions-export');

    const searchBox = page.getByPlaceholder('Search by EIN');
    await searchBox.fill(SUNRISE_FEIN);
    await searchBox.press('Enter');
    await page.waitForURL(/search=/);
    const download = page.waitForEvent('download');
    await exportButton.click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/-watched-merchants-.+\.csv$/);
    const text = await readFile((await file.path())!, 'utf8');
    const [header, ...rows] = text.trim().split('\n');
    expect(header).toMatch(
      /^ein,watched_since,watched_until,reported,legal_name,dba,city,state,funders,worst_category,/,
    );
    // Only the EIN searched; the demo merchant's notes counted (its funders and worst category).
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^45-1234567,[^,]+,,yes,/);
    const cells = rows[0]!.split(',');
    expect(Number(cells[header!.split(',').indexOf('funders')])).toBeGreaterThan(0);
    await page.context().close();
  });

  it('shows the delivery on the Webhook Logs tab, redelivers it, and reveals and rotates the signing secret', async () => {
    let requests = 0;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests += 1;
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
      const configured = await server.setSubscriptionSettings(admin, summit, {
        merchant_subscription_enabled: true,
        merchant_subscription_notification_webhook: `http://127.0.0.1:${port}/hook`,
      });
      expect(configured.status).toBe(200);
      const dana = await server.login(DANA, DEMO_PASSWORD);
      const subscribed = await server.call({
        method: 'POST',
        url: buildPath(routes.addMerchantSubscription.path, { id: summit }),
        token: dana,
        payload: { merchant_subscription: { fein: '67-1112223' } },
      });
      expect(subscribed.status).toBe(201);
      const priya = await server.login('priya.natarajan@harboradvance.example', DEMO_PASSWORD);
      const added = await server.call({
        method: 'POST',
        url: routes.addMerchant.path,
        token: priya,
        payload: {
          merchant: { fein: '67-1112223', legal_name: 'Lighthouse Laundry LLC', city: 'Tampa', state: 'FL' },
          note: { category: 'Slow Pay', note: 'Paid late three times.', submission_source: 'in-house' },
        },
      });
      expect(added.status).toBe(201);

      const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
      await page.goto(`${server.url}/merchant_subscription_webhook_logs`);
      const row = rowOf(page, '67-1112223').first();
      // Failed once in CI with no row after 30 s (not reproduced under load): the message then says
      // whether the dispatcher had written the delivery and how far its intake had read.
      const dispatcherState = async () => {
        const deliveries = await server.db.pool.query(
          `select kind, status, target, created_at from webhook_deliveries where account_id = $1`,
          [summit],
        );
        const checkpoints = await server.db.pool.query('select * from subscription_checkpoints');
        return JSON.stringify({ deliveries: deliveries.rows, checkpoints: checkpoints.rows });
      };
      await expect
        .poll(
          async () => {
            if ((await row.count()) === 0) await page.reload();
            return row.count();
          },
          { timeout: 30_000, interval: 1000 },
        )
        .toBeGreaterThan(0)
        .catch(async (err) => {
          throw new Error(`no delivery row on the page; dispatcher: ${await dispatcherState()}`, {
            cause: err,
          });
        });
      await row
        .getByText(/succeeded/)
        .first()
        .waitFor();
      await bothWidths(page, 'merchant-subscriptions-webhook-delivered');

      // Redeliver: one more request to the receiver, announced by a toast.
      const before = requests;
      await row.getByRole('button', { name: /^Redeliver the Merchant Added webhook/ }).click();
      await page.getByText('The webhook will be delivered again in a moment.').waitFor();
      await expect.poll(() => requests, { timeout: 10_000 }).toBe(before + 1);
      // The row's attempts: both, with the receiver's answer code.
      await expect
        .poll(async () => (await row.getByRole('button', { name: /^Attempts of/ }).textContent()) ?? '', {
          timeout: 10_000,
        })
        .toContain('2 attempts');
      await row.getByRole('button', { name: /^Attempts of/ }).click();
      const attemptsDialog = page.getByRole('dialog');
      await attemptsDialog.getByText('2 attempts, newest last').waitFor();
      // An attempt is listed from its start (issue 20): the second may show as sending for a moment.
      await expect.poll(() => attemptsDialog.getByText('HTTP 204').count(), { timeout: 10_000 }).toBe(2);
      await page.waitForTimeout(400); // the dialog's opening transition
      await screenshot(page, 'merchant-subscriptions-delivery-attempts');
      await page.keyboard.press('Escape');
      await attemptsDialog.waitFor({ state: 'hidden' });

      // An attempt cut off by a crash (issue 20): the claim logs it with no outcome, as a dispatcher
      // killed mid-request leaves it. The dialog says so instead of hiding it.
      await server.db.pool.query(
        `with d as (update webhook_deliveries set attempts = attempts + 1
                     where id = (select id from webhook_deliveries where account_id = $1 and kind = 'webhook'
                                  order by created_at desc limit 1)
                     returning id, attempts)
         insert into webhook_attempts (delivery_id, attempt, at) select id, attempts, now() from d`,
        [summit],
      );
      await page.reload();
      await row.getByRole('button', { name: /^Attempts of/ }).click();
      await attemptsDialog.getByText('3 attempts, newest last').waitFor();
      await attemptsDialog.getByText('Interrupted', { exact: true }).waitFor();
      await page.waitForTimeout(400);
      await screenshot(page, 'merchant-subscriptions-delivery-interrupted');
      await page.keyboard.press('Escape');
      await attemptsDialog.waitFor({ state: 'hidden' });

      // The signing secret: hidden until revealed; a rotation asks first, then shows the new one.
      const secret = page.getByTestId('signing-secret');
      await expect.poll(() => secret.textContent()).toMatch(/^whsec_•+$/);
      await page.getByRole('button', { name: 'Reveal' }).click();
      const first = await secret.textContent();
      expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{20,}=*$/);
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByText('keeps signing beside it for 24 hours').waitFor();
      await screenshot(page, 'merchant-subscriptions-rotate-secret');
      await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByText('A new webhook secret has been created.').waitFor();
      await expect.poll(() => secret.textContent()).not.toBe(first);
      expect(await secret.textContent()).toMatch(/^whsec_[A-Za-z0-9+/]{20,}=*$/);
      await page.getByRole('button', { name: 'Hide' }).click();
      await bothWidths(page, 'merchant-subscriptions-signing-secret');
      await page.context().close();
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
