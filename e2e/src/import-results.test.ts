import { createHash } from 'node:crypto';
import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

// The results of a 100,000-row subscription import, viewed in the browser (issue 21 item 14): the
// results CSV is fetched as the route serves it, parsed in the page and shown in a virtualised
// @blueprintjs/table, filtered by outcome, with the download still offered. Opening it and scrolling
// to its last row are measured.

let server: TestServer;
let browser: Browser;
const DANA = 'dana.whitfield@summitcapital.example'; // Summit (PRO) admin
const ROWS = 100_000;
let dana = '';
let summit = '';
const expected = { imported: 0, skipped: 0, error: 0 };

/** 100,000 rows: mostly new EINs, every 1,000th not an EIN, every 500th a repeat of the row before. */
function bigCsv(): Buffer {
  const lines = ['ein'];
  for (let i = 0; i < ROWS; i++) {
    if (i === 5) {
      lines.push('=cmd()');
      expected.error += 1;
    } else if (i % 1000 === 999) {
      lines.push(`not-an-ein-${i}`);
      expected.error += 1;
    } else if (i % 500 === 250) {
      lines.push(String(600_000_000 + i - 1));
      expected.skipped += 1;
    } else {
      const digits = String(600_000_000 + i);
      lines.push(i % 2 === 0 ? `${digits.slice(0, 2)}-${digits.slice(2)}` : digits);
      expected.imported += 1;
    }
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** The import through the same calls the upload dialog makes: presign, direct upload, queue; then its end. */
async function importFile(bytes: Buffer, fileName: string) {
  const md5 = createHash('md5').update(bytes).digest('base64');
  const presigned = await server.call({
    method: 'POST',
    url: routes.createPresignedUrl.path,
    token: dana,
    payload: {
      file: { filename: fileName, byte_size: bytes.length, checksum: md5, content_type: 'text/csv' },
    },
  });
  expect(presigned.status).toBe(200);
  const put = await server.call({
    method: 'PUT',
    url: presigned.body.direct_upload.url,
    payload: bytes,
    headers: { 'content-type': 'text/csv' },
  });
  expect(put.status).toBe(204);
  const queued = await server.call({
    method: 'POST',
    url: buildPath(routes.createSubscriptionImport.path, { id: summit }),
    token: dana,
    payload: { file: presigned.body.signed_id, file_name: fileName, file_size: bytes.length },
  });
  expect(queued.status).toBe(201);
  const until = Date.now() + 60_000;
  for (;;) {
    const list = await server.call({
      method: 'GET',
      url: buildPath(routes.listSubscriptionImports.path, { id: summit }),
      token: dana,
    });
    const found = list.body.data.find((i: { id: string }) => i.id === queued.body.data.id);
    if (found?.status === 'done') return found;
    if (found?.status === 'failed' || Date.now() > until)
      throw new Error(`import not done: ${JSON.stringify(found)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
  dana = await server.login(DANA, DEMO_PASSWORD);
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: dana });
  summit = me.body.data.user.account_resource_id;
  const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const updated = await server.setSubscriptionSettings(admin, summit, {
    merchant_subscription_enabled: true,
    merchant_subscription_notification_email: 'alerts@summitcapital.example',
  });
  expect(updated.status).toBe(200);
  const done = await importFile(bigCsv(), 'big.csv');
  expect(done).toMatchObject({
    imported: expected.imported,
    skipped: expected.skipped,
    errors: expected.error,
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const grid = (page: Page) => {
  const table = page.getByRole('application', { name: 'Results of big.csv' });
  return { table, box: page.locator('.mrn-grid').filter({ has: table }) };
};
const cellText = (page: Page, row: number, col: number) =>
  grid(page)
    .box.locator(`.bp6-table-quadrant-main .bp6-table-cell-row-${row}.bp6-table-cell-col-${col}`)
    .textContent({ timeout: 10_000 });
const format = (n: number) => n.toLocaleString('en-US');

/** Long tasks (over 50 ms on the main thread) from now on, read with `longTasks(page)`. */
const watchLongTasks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(Math.round(entry.duration));
    }).observe({ type: 'longtask' });
  });
const longTasks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    const seen = w.__longTasks.splice(0);
    return seen;
  });

describe('the results of a 100,000-row import', () => {
  it('opens in a virtualised grid, scrolls to the last row, filters by outcome and still downloads', async () => {
    const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    await page.goto(`${server.url}/merchant_subscription_imports`);
    const upload = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'big.csv' }) });
    await upload.getByText('Done').waitFor();
    await watchLongTasks(page);

    // Open: fetch the CSV, parse it, draw the first rows.
    const opening = Date.now();
    await upload.getByRole('button', { name: 'View the results of big.csv' }).click();
    const dialog = page.getByRole('dialog', { name: 'Results of big.csv' });
    expect(await cellText(page, 0, 0)).toBe('2');
    const openMs = Date.now() - opening;
    const parseMs = await page.evaluate(
      () => performance.getEntriesByName('mrn-import-results-parse').at(-1)?.duration ?? -1,
    );
    const openTasks = await longTasks(page);
    await dialog.getByText(`${format(ROWS)} of ${format(ROWS)} rows`).waitFor();
    expect(await dialog.getByLabel('Show').locator('option').allTextContents()).toEqual([
      `All rows (${format(ROWS)})`,
      `Imported (${format(expected.imported)})`,
      `Skipped (${format(expected.skipped)})`,
      `Errors (${format(expected.error)})`,
    ]);
    // Only the rows in view are in the page, not 100,000.
    const drawnRows = await grid(page).box.locator('.bp6-table-quadrant-main .bp6-table-cell-col-0').count();
    expect(drawnRows).toBeLessThan(60);
    await screenshot(page, 'import-results-1280');

    // To the last row from the keyboard: Control+End.
    const { table } = grid(page);
    await table.focus();
    const keyed = Date.now();
    await page.keyboard.press('Control+End');
    expect(await cellText(page, ROWS - 1, 0)).toBe(format(ROWS + 1));
    const keyMs = Date.now() - keyed;
    const keyTasks = await longTasks(page);
    expect(await grid(page).box.getAttribute('data-focused-row')).toBe(String(ROWS - 1));
    await screenshot(page, 'import-results-last-row');

    // Back to the top, then dragged to the end as a scrollbar would: the grid scrolls its own body.
    await page.keyboard.press('Control+Home');
    expect(await cellText(page, 0, 0)).toBe('2');
    await longTasks(page);
    const scroller = grid(page).box.locator('.bp6-table-quadrant-main .bp6-table-quadrant-scroll-container');
    const scrolled = Date.now();
    // Twenty steps down the whole length, each drawn before the next, then the very end.
    const steps = await scroller.evaluate(async (s) => {
      const frames: number[] = [];
      for (let i = 1; i <= 20; i++) {
        const started = performance.now();
        s.scrollTop = (s.scrollHeight * i) / 20;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        frames.push(Math.round(performance.now() - started));
      }
      return frames;
    });
    expect(await cellText(page, ROWS - 1, 1)).toBe(`not-an-ein-${ROWS - 1}`);
    const scrollMs = Date.now() - scrolled;
    const scrollTasks = await longTasks(page);
    console.log(
      `100,000-row results: open ${openMs} ms (parse ${Math.round(parseMs)} ms, long tasks ${JSON.stringify(openTasks)}); ` +
        `Control+End ${keyMs} ms (long tasks ${JSON.stringify(keyTasks)}); ` +
        `scrolled to the end in 20 steps ${scrollMs} ms (per step ${JSON.stringify(steps)} ms, long tasks ${JSON.stringify(scrollTasks)})`,
    );
    // Still only the rows in view are drawn, at the end as at the start.
    expect(
      await grid(page).box.locator('.bp6-table-quadrant-main .bp6-table-cell-col-0').count(),
    ).toBeLessThan(60);
    // Responsive, within bounds generous enough for a 2-core machine shared with the server, PostgreSQL
    // and other test runs: they catch work growing with the row count (drawing or re-reading every row),
    // which takes seconds here; the figures themselves are printed above.
    const median = [...steps].sort((a, b) => a - b)[Math.floor(steps.length / 2)]!;
    expect(parseMs).toBeGreaterThan(0);
    expect(parseMs).toBeLessThan(5_000);
    expect(openMs).toBeLessThan(15_000);
    expect(keyMs).toBeLessThan(3_000);
    expect(median).toBeLessThan(500);
    expect(Math.max(0, ...scrollTasks)).toBeLessThan(1_500);

    // Filters: errors (with the formula-guarded input shown as uploaded), then skipped rows.
    await dialog.getByLabel('Show').selectOption('error');
    await dialog.getByText(`${format(expected.error)} of ${format(ROWS)} rows`).waitFor();
    expect(await cellText(page, 0, 0)).toBe('7');
    expect(await cellText(page, 0, 1)).toBe('=cmd()');
    expect(await cellText(page, 0, 2)).toBe('error: must be 9 digits, as 12-3456789');
    expect(await cellText(page, 1, 1)).toBe('not-an-ein-999');
    await screenshot(page, 'import-results-errors');
    await dialog.getByLabel('Show').selectOption('skipped');
    await dialog.getByText(`${format(expected.skipped)} of ${format(ROWS)} rows`).waitFor();
    expect(await cellText(page, 0, 2)).toBe('skipped: duplicate in file');

    // The CSV is still a click away.
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download CSV' }).click();
    expect((await download).suggestedFilename()).toMatch(/results\.csv$/);

    // A phone: the dialog and its grid keep inside the screen; the grid scrolls sideways within.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // Its columns fitted again to the narrower grid: Row and Input keep their widths, Outcome starts
    // within the screen (the rest of it is a sideways scroll away).
    const outcomeHeader = grid(page).box.locator(
      '.bp6-table-quadrant-top .bp6-table-column-headers .bp6-table-cell-col-2',
    );
    await expect.poll(async () => (await outcomeHeader.boundingBox())?.x ?? 9999).toBeLessThan(390 - 60);
    await screenshot(page, 'import-results-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await dialog.locator('.bp6-dialog-footer').getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.context().close();
  });
});
