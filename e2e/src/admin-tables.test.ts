import { buildPath, routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

// The platform administrators' long lists on @blueprintjs/table (issue 21 item 14): Funders, and the
// Merchants, Deleted Merchants and Reported Notes tabs. Each keeps its columns, controls, filters,
// search and server-side pages, and adds a focused cell moved by the arrow keys, Enter to open the
// row, and columns resized by dragging a header's edge; headers stay whole on one line.

let server: TestServer;
let browser: Browser;
const MARCO = 'marco.reyes@summitcapital.example'; // Summit member: adds the merchants
const DANA = 'dana.whitfield@summitcapital.example'; // Summit admin: asks for deletions
const EXTRA_FUNDERS = [
  'Aspen Ridge Capital',
  'Birchwood Funding',
  'Cedar Point Advance',
  'Driftwood Lending',
];
const MERCHANTS = 28;
const merchantName = (i: number) => `Gridline Test Merchant ${String(i).padStart(2, '0')} LLC`;
const merchantIds: string[] = [];
const noteIds: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
  const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const name of EXTRA_FUNDERS) {
    const created = await server.call({
      method: 'POST',
      url: routes.createAccount.path,
      token: admin,
      payload: {
        account: {
          name,
          website: `${name.split(' ')[0]!.toLowerCase()}.example`,
          primary_contact_email: `ops@${name.split(' ')[0]!.toLowerCase()}.example`,
        },
      },
    });
    expect(created.status).toBe(201);
  }
  const marco = await server.login(MARCO, DEMO_PASSWORD);
  for (let i = 1; i <= MERCHANTS; i++) {
    const added = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: marco,
      payload: {
        merchant: {
          fein: `71-${String(10_000_000 + i).slice(1)}`,
          legal_name: merchantName(i),
          dba: i % 3 === 0 ? `Gridline ${i}` : undefined,
          city: 'Tampa',
          state: 'FL',
        },
        note: { category: 'Slow Pay', note: `Paid late ${i} times.`, submission_source: 'in-house' },
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    merchantIds.push(added.body.data.resource_id);
    noteIds.push(added.body.data.note_id);
  }
  // Two archived (Deleted Merchants), two notes reported by another member (Reported Notes).
  for (const i of [27, 28]) {
    const archived = await server.call({
      method: 'PUT',
      url: buildPath(routes.archiveMerchant.path, { id: merchantIds[i - 1]! }),
      token: admin,
      payload: { delete_merchant: { reason: `Duplicate record number ${i}, entered twice by mistake` } },
    });
    expect(archived.status).toBe(200);
  }
  const dana = await server.login(DANA, DEMO_PASSWORD);
  for (const i of [1, 2]) {
    const reported = await server.call({
      method: 'PUT',
      url: buildPath(routes.requestNoteDeletion.path, { id: noteIds[i - 1]! }),
      token: dana,
      payload: { note: { reason: `Settled in full, request ${i}` } },
    });
    expect(reported.status).toBe(200);
  }
  await server.projectedAll(undefined, 20_000);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Errors and Blueprint warnings a page logs, and CSP violations (the grids' inline sizes are set as styles). */
function watchConsole(page: Page) {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || (m.type() === 'warning' && /Blueprint|\[Blueprint\]|Hotkeys/i.test(m.text())))
      problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/** The grid named `label`: its wrapper (with the focused cell's coordinates) and its focusable table. */
function gridOf(page: Page, label: string) {
  const table = page.getByRole('application', { name: label, exact: true });
  const box = page.locator('.mrn-grid').filter({ has: table });
  return { table, box };
}

/** A body cell by its row and column (Blueprint marks each with its indices). */
const cell = (box: Locator, row: number, col: number) =>
  box.locator(`.bp6-table-quadrant-main .bp6-table-cell-row-${row}.bp6-table-cell-col-${col}`);

const focusedCell = async (box: Locator) => [
  Number(await box.getAttribute('data-focused-row')),
  Number(await box.getAttribute('data-focused-col')),
];

/** The header texts, and whether each is shown whole on one line (not cut, not wrapped). */
const headers = (box: Locator) =>
  box.locator('.bp6-table-quadrant-top .bp6-table-column-name-text > *').evaluateAll((names) =>
    names.map((n) => ({
      text: (n.textContent ?? '').trim(),
      whole: n.scrollWidth <= n.clientWidth && n.getBoundingClientRect().height <= 31,
    })),
  );

const headerCell = (box: Locator, index: number) =>
  box.locator('.bp6-table-quadrant-top .bp6-table-column-headers .bp6-table-header').nth(index);

/** Drags the right edge of a column's header by `dx` pixels; answers the header's width before and after. */
async function resizeColumn(page: Page, box: Locator, index: number, dx: number) {
  const header = headerCell(box, index);
  const before = (await header.boundingBox())!;
  // The pointer goes where the handle is drawn (no scrolling into view: a person sees it in place).
  const handle = header.locator('.bp6-table-resize-handle-target');
  const grip = (await handle.boundingBox())!;
  const x = grip.x + grip.width / 2;
  const y = grip.y + grip.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y, { steps: 4 });
  await page.mouse.move(x + dx, y, { steps: 4 });
  await page.mouse.up();
  await page.waitForTimeout(300);
  return { before: before.width, after: (await header.boundingBox())!.width };
}

/** The header row and the rows under it line up, column by column, wherever the grid is scrolled. */
async function expectAligned(box: Locator) {
  const lefts = await box.evaluate((grid) => {
    const left = (selector: string) => {
      const found = grid.querySelector(selector);
      return found ? Math.round(found.getBoundingClientRect().left) : null;
    };
    const out: [number | null, number | null][] = [];
    for (let col = 0; col < 12; col++)
      out.push([
        left(`.bp6-table-quadrant-top .bp6-table-column-headers .bp6-table-cell-col-${col}`),
        left(`.bp6-table-quadrant-main .bp6-table-cell-row-0.bp6-table-cell-col-${col}`),
      ]);
    return out.filter(([header, body]) => header !== null && body !== null);
  });
  expect(lefts.length).toBeGreaterThan(0);
  for (const [header, body] of lefts) expect(header).toBe(body);
}

/** Names in the first column, top to bottom, of the rows drawn. */
const names = (box: Locator) =>
  box.locator('.bp6-table-quadrant-main .bp6-table-cell-col-0 a').allTextContents();

/** At 390 px the page keeps to the screen and the grid scrolls sideways inside its card. */
async function atPhoneWidth(page: Page, box: Locator, name: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const scroller = box.locator('.bp6-table-quadrant-main .bp6-table-quadrant-scroll-container');
  const sizes = await scroller.evaluate((s) => ({ scroll: s.scrollWidth, client: s.clientWidth }));
  expect(sizes.scroll).toBeGreaterThan(sizes.client);
  expect((await box.boundingBox())!.width).toBeLessThanOrEqual(390);
  await expectAligned(box);
  await screenshot(page, `${name}-390`);
  // Scrolled sideways to the end: the last column is drawn, under its header.
  await scroller.evaluate((s) => {
    s.scrollLeft = s.scrollWidth;
  });
  await page.waitForTimeout(300);
  await expectAligned(box);
  const lastCol = (await headers(box)).length - 1;
  await cell(box, 0, lastCol).waitFor();
  await screenshot(page, `${name}-390-scrolled`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(200);
}

describe('the Funders list on @blueprintjs/table', () => {
  it('keeps its columns, filters, search, pages and switches, with whole headers', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.goto(`${server.url}/funders`);
    const { box } = gridOf(page, 'Funders');
    await box.waitFor();
    expect(await headers(box)).toEqual(
      [
        'Name',
        'Merchants Added',
        'Last Added',
        '90 Day Cont. %',
        'API Access',
        'MFA Required',
        'Membership?',
        'Delete',
      ].map((text) => ({ text, whole: true })),
    );
    const pager = page.getByRole('navigation', { name: 'Pages' });
    expect(await page.getByLabel('Rows per page').inputValue()).toBe('25');
    await expect.poll(() => pager.textContent()).toContain('1–7 of 7');
    expect(await names(box)).toContain('Summit Capital Funding');
    await screenshot(page, 'funders-grid-1280');

    // Plan Level PRO: Summit only; Any again: all seven.
    await page.getByLabel('Plan Level').selectOption('PRO');
    await expect.poll(() => names(box)).toEqual(['Summit Capital Funding']);
    expect(new URL(page.url()).searchParams.get('plan')).toBe('PRO');
    await page.getByLabel('Plan Level').selectOption('');
    await expect.poll(() => pager.textContent()).toContain('1–7 of 7');
    // Membership Status Inactive/Deleted: the four new funders, which never had a membership.
    await page.getByLabel('Membership Status').selectOption({ label: 'Inactive/Deleted' });
    await expect.poll(async () => (await names(box)).sort()).toEqual([...EXTRA_FUNDERS].sort());
    await page.getByLabel('Membership Status').selectOption({ label: 'All' });
    // Search by name.
    await page.getByPlaceholder('Search by name').fill('birch');
    await page.getByPlaceholder('Search by name').press('Enter');
    await expect.poll(() => names(box)).toEqual(['Birchwood Funding']);
    await page.getByPlaceholder('Search by name').fill('');
    await page.getByPlaceholder('Search by name').press('Enter');
    // Pages of 5, on the server: the second page has the last two.
    await page.getByLabel('Rows per page').selectOption('5');
    await expect.poll(() => pager.textContent()).toContain('1–5 of 7');
    expect(await names(box)).toHaveLength(5);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => pager.textContent()).toContain('6–7 of 7');
    await expect.poll(async () => (await names(box)).length).toBe(2);
    await page.getByRole('button', { name: 'First page' }).click();
    await page.getByLabel('Rows per page').selectOption('25');
    await expect.poll(() => pager.textContent()).toContain('1–7 of 7');

    // The API Access switch in its cell still grants access; Delete still asks first.
    const aspen = EXTRA_FUNDERS[0]!;
    await page.getByLabel(`API access for ${aspen}`).click({ force: true });
    await expect
      .poll(
        async () =>
          (await server.db.pool.query('select can_access_api from read.accounts where name = $1', [aspen]))
            .rows[0]?.can_access_api,
      )
      .toBe(true);
    await page.getByRole('button', { name: `Archive ${aspen}` }).click();
    await page.getByRole('alertdialog').getByText(`Archive ${aspen}?`).waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alertdialog').waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('moves a focused cell with the arrow keys, opens the funder with Enter, and resizes a column', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const problems = watchConsole(page);
    await page.goto(`${server.url}/funders`);
    const { box, table } = gridOf(page, 'Funders');
    await cell(box, 0, 0).waitFor();
    // A click on a cell (not on its link) focuses the grid there.
    await cell(box, 0, 1).click();
    await expect.poll(() => focusedCell(box)).toEqual([0, 1]);
    await expect.poll(() => table.evaluate((t) => t === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focusedCell(box)).toEqual([2, 2]);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => focusedCell(box)).toEqual([1, 1]);
    expect(await cell(box, 1, 1).getAttribute('class')).toContain('mrn-grid-cell-focused');
    // What a screen reader hears: the row's name, the column and the value.
    const second = (await cell(box, 1, 0).locator('a').textContent())!;
    await expect
      .poll(() => box.locator('[aria-live="polite"]').textContent())
      .toMatch(new RegExp(`^${second}, Merchants Added: \\d+\\. Row 2 of 7\\.$`));
    await screenshot(page, 'funders-grid-focused-cell');
    const href = (await cell(box, 1, 0).locator('a').getAttribute('href'))!;
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${href}`);
    await page.getByRole('tab', { name: 'Funder Settings' }).waitFor();
    await page.goBack();

    // Home / End and Control+End reach the first and last column and the last row.
    await cell(box, 0, 2).click();
    // The press moves the focused cell once its click is over: the keys follow from there.
    await expect.poll(() => focusedCell(box)).toEqual([0, 2]);
    await page.keyboard.press('End');
    await expect.poll(() => focusedCell(box)).toEqual([0, 7]);
    await page.keyboard.press('Control+End');
    await expect.poll(() => focusedCell(box)).toEqual([6, 7]);
    await page.keyboard.press('Home');
    await expect.poll(() => focusedCell(box)).toEqual([6, 0]);

    // Tab leaves the table for the links and switches in its cells (no trap); Enter on a link follows it.
    await table.focus();
    await page.keyboard.press('Tab');
    const firstLink = cell(box, 0, 0).locator('a');
    await expect.poll(() => firstLink.evaluate((a) => a === document.activeElement)).toBe(true);
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''))
      .toMatch(/^API access for /);
    await page.keyboard.press('Shift+Tab');
    const firstHref = (await firstLink.getAttribute('href'))!;
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${firstHref}`);
    await page.goBack();
    await cell(box, 0, 0).waitFor();

    // A double click on a row opens it too.
    const last = (await cell(box, 6, 0).locator('a').getAttribute('href'))!;
    await cell(box, 6, 2).dblclick();
    await page.waitForURL(`**${last}`);
    await page.goBack();

    // Not below its header: dragged far to the left, Delete keeps the width of its name.
    await cell(box, 0, 0).waitFor();
    const narrowest = await resizeColumn(page, box, 7, -200);
    expect(Math.round(narrowest.after)).toBe(Math.round(narrowest.before));
    expect((await headers(box)).every((h) => h.whole)).toBe(true);
    // The Name column dragged 120 px wider; the grid scrolls sideways instead of squeezing the rest.
    const { before, after } = await resizeColumn(page, box, 0, 120);
    expect(Math.round(after - before)).toBeGreaterThanOrEqual(115);
    expect(Math.round(after - before)).toBeLessThanOrEqual(125);
    expect((await headers(box)).every((h) => h.whole)).toBe(true);
    await expectAligned(box);
    await screenshot(page, 'funders-grid-resized');

    await page.reload();
    await cell(box, 0, 0).waitFor();
    await atPhoneWidth(page, box, 'funders-grid');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('the admin merchant lists on @blueprintjs/table', () => {
  it('pages, searches and opens merchants from the keyboard; Delete still asks for a reason', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const problems = watchConsole(page);
    await page.goto(`${server.url}/merchants`);
    const { box } = gridOf(page, 'Merchants');
    await cell(box, 0, 0).waitFor();
    expect((await headers(box)).map((h) => h.text)).toEqual([
      'Name',
      'EIN/BN',
      'Added By',
      'Added',
      'Latest Note Category',
      'Delete',
    ]);
    expect((await headers(box)).every((h) => h.whole)).toBe(true);
    // 3 demo merchants and 26 of ours (two archived): 29, 25 a page by default.
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await expect.poll(() => pager.textContent()).toContain('1–25 of 29');
    // The grid shows what fits and draws the rest as it scrolls: fewer than 25 rows are in the page.
    const drawn = await box.locator('.bp6-table-quadrant-main .bp6-table-cell-col-0').count();
    expect(drawn).toBeLessThan(25);
    expect(drawn).toBeGreaterThan(5);
    await screenshot(page, 'admin-merchants-grid-1280');
    // Scrolled to the bottom of page 1, the next page starts at its top.
    await box.locator('.bp6-table-quadrant-main .bp6-table-quadrant-scroll-container').evaluate((s) => {
      s.scrollTop = s.scrollHeight;
    });
    await cell(box, 24, 0).waitFor();
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => pager.textContent()).toContain('26–29 of 29');
    await expect.poll(async () => (await names(box)).length).toBe(4);
    await cell(box, 0, 0).waitFor();
    expect(await box.getAttribute('data-focused-row')).toBe('0');
    await page.getByLabel('Rows per page').selectOption('50');
    await expect.poll(() => pager.textContent()).toContain('1–29 of 29');
    expect(new URL(page.url()).searchParams.get('per_page')).toBe('50');

    // Search by name, then open the merchant from the keyboard.
    const search = page.getByPlaceholder('Search by EIN/BN or name');
    await search.fill('Gridline');
    await search.press('Enter');
    await expect.poll(() => pager.textContent()).toContain('1–26 of 26');
    await cell(box, 0, 3).click();
    // The press moves the focused cell once its click is over: the keys follow from there.
    await expect.poll(() => focusedCell(box)).toEqual([0, 3]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => focusedCell(box)).toEqual([2, 2]);
    const third = cell(box, 2, 0).locator('a');
    const name = (await third.textContent())!;
    const href = (await third.getAttribute('href'))!;
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${href}`);
    await page.getByRole('heading', { name }).waitFor();
    await page.goBack();

    // A DBA shows under the name, on a row tall enough for both lines.
    await search.fill('71-0000003');
    await search.press('Enter');
    await expect.poll(() => names(box)).toEqual([merchantName(3)]);
    expect(await cell(box, 0, 0).textContent()).toBe(`${merchantName(3)}DBA Gridline 3`);

    // Delete opens the dialog asking why, as before.
    await page.getByRole('button', { name: `Delete ${merchantName(3)}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Merchant' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Added By dragged 80 px narrower (it flexes, so it gives back space; the grid keeps its width).
    await search.fill('');
    await search.press('Enter');
    await cell(box, 0, 0).waitFor();
    const { before, after } = await resizeColumn(page, box, 2, -80);
    expect(Math.round(before - after)).toBeGreaterThanOrEqual(75);
    await atPhoneWidth(page, box, 'admin-merchants-grid');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('opens a deleted merchant with a click and a reported note with Enter', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.goto(`${server.url}/merchants`);
    await page.getByRole('tab', { name: 'Deleted Merchants' }).click();
    await page.waitForURL('**/deleted-merchants');
    const deleted = gridOf(page, 'Deleted merchants').box;
    await cell(deleted, 0, 0).waitFor();
    expect((await names(deleted)).sort()).toEqual([merchantName(27), merchantName(28)]);
    expect((await headers(deleted)).map((h) => h.text)).toEqual([
      'Name',
      'EIN/BN',
      'Deleted',
      'Reason for deletion',
    ]);
    await screenshot(page, 'deleted-merchants-grid-1280');
    // As before, a click anywhere on the row opens it: here on its reason.
    const reason = cell(deleted, 0, 3);
    const opened = (await cell(deleted, 0, 0).locator('a').getAttribute('href'))!;
    const openedName = (await cell(deleted, 0, 0).locator('a').textContent())!;
    expect(await reason.textContent()).toMatch(/^Duplicate record number 2[78], entered twice by mistake$/);
    await reason.click();
    await page.waitForURL(`**${opened}`);
    await page.getByRole('heading', { name: openedName }).waitFor();
    await page.goBack();

    await page.getByRole('tab', { name: 'Reported Notes' }).click();
    const reported = gridOf(page, 'Reported notes').box;
    await cell(reported, 0, 0).waitFor();
    expect((await names(reported)).sort()).toEqual([merchantName(1), merchantName(2)]);
    expect(
      await reported.locator('.bp6-table-quadrant-main .bp6-table-cell-col-4').allTextContents(),
    ).toEqual(
      expect.arrayContaining([
        'Paid late 1 times.Reason: Settled in full, request 1',
        'Paid late 2 times.Reason: Settled in full, request 2',
      ]),
    );
    await screenshot(page, 'reported-notes-grid-1280');
    // Here a click opens the row, so the keyboard user tabs to the grid instead.
    await gridOf(page, 'Reported notes').table.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedCell(reported)).toEqual([1, 2]);
    const noteHref = (await cell(reported, 1, 0).locator('a').getAttribute('href'))!;
    expect(noteHref).toMatch(/^\/merchants\/[0-9a-f-]{36}\?highlight=/);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${noteHref}`);
    await page.context().close();
  });
});

// Issue 32 item 5.2: the lists sort on the server by a column, from its header: a click, or from the
// keyboard Arrow Up above the first row to the headers, Arrow Left and Right along them, Enter to sort
// (again: the other way), Arrow Down back to the rows. The header says the order; the URL keeps it.

/** A sortable header's button, as a person sees it (the top quadrant's). */
const sortButton = (box: Locator, name: string) =>
  box.locator('.bp6-table-quadrant-top .mrn-grid-sort').filter({ hasText: new RegExp(`^${name}$`) });
/** The sorted header's accessible text, e.g. "Name, sorted ascending". */
const sortedHeader = (box: Locator) =>
  box
    .locator('.bp6-table-quadrant-top .mrn-grid-sorted')
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
/** The texts of column `col` in the rows drawn (not its header). */
const columnTexts = (box: Locator, col: number) =>
  box
    .locator(`.bp6-table-quadrant-main [class*="bp6-table-cell-row-"].bp6-table-cell-col-${col}`)
    .allTextContents();
const activeLabel = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
const sortParams = (page: Page) => {
  const params = new URL(page.url()).searchParams;
  return [params.get('sort'), params.get('direction')];
};
const ascending = (values: number[]) => values.every((v, i) => i === 0 || values[i - 1]! <= v);
const descending = (values: number[]) => values.every((v, i) => i === 0 || values[i - 1]! >= v);

describe('sorting the admin lists by a column (issue 32)', () => {
  it('sorts the funders from a header, with the mouse and the keyboard, and says the order', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const problems = watchConsole(page);
    await page.goto(`${server.url}/funders`);
    const { box, table } = gridOf(page, 'Funders');
    await cell(box, 0, 0).waitFor();
    // By name at first, A to Z; only the columns the server sorts by have a button.
    expect(await sortedHeader(box)).toEqual(['Name, sorted ascending']);
    expect(
      await box
        .locator('.bp6-table-quadrant-top .mrn-grid-sort')
        .evaluateAll((b) => b.map((x) => x.textContent)),
    ).toEqual(['Name', 'Merchants Added', 'Last Added', '90 Day Cont. %']);
    // Whole headers with their icons; the hidden copy under them is out of the tab order.
    expect((await headers(box)).every((h) => h.whole)).toBe(true);
    expect(
      await box
        .locator('.bp6-table-quadrant-main .mrn-grid-sort')
        .evaluateAll((b) =>
          b.every((x) => x.getAttribute('tabindex') === '-1' && x.getAttribute('aria-hidden') === 'true'),
        ),
    ).toBe(true);
    const byName = await names(box);
    expect(byName).toEqual([...byName].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase(), 'en')));

    // A click on Merchants Added: most first, on the server; again: fewest first.
    await sortButton(box, 'Merchants Added').click();
    await expect.poll(() => sortParams(page)).toEqual(['merchants_added', 'desc']);
    await expect.poll(() => sortedHeader(box)).toEqual(['Merchants Added, sorted descending']);
    await expect.poll(async () => descending((await columnTexts(box, 1)).map(Number))).toBe(true);
    expect(new Set((await columnTexts(box, 1)).map(Number)).size).toBeGreaterThan(1);
    await screenshot(page, 'funders-grid-sorted-merchants-added');
    await sortButton(box, 'Merchants Added').click();
    await expect.poll(() => sortParams(page)).toEqual(['merchants_added', 'asc']);
    await expect.poll(async () => ascending((await columnTexts(box, 1)).map(Number))).toBe(true);
    await expect.poll(() => sortedHeader(box)).toEqual(['Merchants Added, sorted ascending']);
    // Reload keeps it (the URL); back to the list's own order, the URL is clean again.
    await page.reload();
    await cell(box, 0, 0).waitFor();
    expect(await sortedHeader(box)).toEqual(['Merchants Added, sorted ascending']);
    await sortButton(box, 'Name').click();
    await expect.poll(() => sortParams(page)).toEqual([null, null]);
    await expect.poll(() => names(box)).toEqual(byName);

    // The keyboard: from the first row Arrow Up reaches the Name header, Arrow Right the next one.
    await table.focus();
    await expect.poll(() => focusedCell(box)).toEqual([0, 0]);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => activeLabel(page)).toBe('Name, sorted ascending');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => activeLabel(page)).toBe('Last Added, not sorted');
    await screenshot(page, 'funders-grid-header-focused');
    await page.keyboard.press('Enter');
    await expect.poll(() => sortParams(page)).toEqual(['last_added', 'desc']);
    await expect.poll(() => activeLabel(page)).toBe('Last Added, sorted descending');
    await expect
      .poll(() => box.locator('[aria-live="polite"]').textContent())
      .toBe('Sorted by Last Added, descending.');
    // Funders that added merchants, newest first; those that never did after them.
    const lastAdded = async () =>
      (await columnTexts(box, 2)).map((t) => (t === '—' ? Number.NEGATIVE_INFINITY : Date.parse(t)));
    await expect.poll(async () => descending(await lastAdded())).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => sortParams(page)).toEqual(['last_added', 'asc']);
    await expect.poll(async () => (await columnTexts(box, 2)).at(-1)).toBe('—');
    // Arrow Left at the first sortable header stays; Arrow Down goes back to the rows, in its column.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => activeLabel(page)).toBe('Name, not sorted');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => table.evaluate((t) => t === document.activeElement)).toBe(true);
    await expect.poll(() => focusedCell(box)).toEqual([0, 1]);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedCell(box)).toEqual([1, 1]);
    // Arrow Up from below the first row still moves between rows.
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => focusedCell(box)).toEqual([0, 1]);
    expect(await table.evaluate((t) => t === document.activeElement)).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('sorts the merchants, deleted merchants and reported notes on the server, page after page', async () => {
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const problems = watchConsole(page);
    await page.goto(`${server.url}/merchants`);
    const { box } = gridOf(page, 'Merchants');
    await cell(box, 0, 0).waitFor();
    expect(await sortedHeader(box)).toEqual(['Added, sorted descending']);
    // Newest first: the last merchant added (of ours, not deleted) heads the list.
    expect((await names(box))[0]).toBe(merchantName(26));

    await sortButton(box, 'Name').click();
    await expect.poll(() => sortParams(page)).toEqual(['name', 'asc']);
    await expect.poll(() => sortedHeader(box)).toEqual(['Name, sorted ascending']);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    const gridlines = async () => (await names(box)).filter((n) => n.startsWith('Gridline'));
    // Page 1 has Gridline 01 to 25 in order (they are all after the demo's names or before them).
    await page.getByLabel('Rows per page').selectOption('25');
    const scroller = box.locator('.bp6-table-quadrant-main .bp6-table-quadrant-scroll-container');
    const everyName = async () => {
      const seen = new Set<string>();
      const order: string[] = [];
      for (let y = 0; y < 4000; y += 300) {
        await scroller.evaluate((s, top) => {
          s.scrollTop = top;
        }, y);
        await page.waitForTimeout(60);
        for (const n of await names(box)) {
          if (seen.has(n)) continue;
          seen.add(n);
          order.push(n);
        }
      }
      await scroller.evaluate((s) => {
        s.scrollTop = 0;
      });
      return order;
    };
    const first = await everyName();
    expect(first).toHaveLength(25);
    const firstGridlines = first.filter((n) => n.startsWith('Gridline'));
    expect(firstGridlines).toEqual([...firstGridlines].sort());
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => pager.textContent()).toContain('26–29 of 29');
    await expect.poll(async () => (await names(box)).length).toBe(4);
    const second = await names(box);
    // No merchant on both pages, and the second page's Gridlines come after the first's.
    expect(second.filter((n) => first.includes(n))).toEqual([]);
    const secondGridlines = second.filter((n) => n.startsWith('Gridline'));
    if (firstGridlines.length > 0 && secondGridlines.length > 0)
      expect(secondGridlines[0]! > firstGridlines.at(-1)!).toBe(true);
    // Another order goes back to page 1; Name again: Z to A.
    await sortButton(box, 'Name').click();
    await expect.poll(() => sortParams(page)).toEqual(['name', 'desc']);
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();
    await expect.poll(async () => (await gridlines())[0]).toBe(merchantName(26));
    // By EIN: 71-0000001 first of ours.
    await sortButton(box, 'EIN/BN').click();
    await expect.poll(() => sortParams(page)).toEqual(['ein', 'asc']);
    await expect
      .poll(async () => {
        const eins = await columnTexts(box, 1);
        return eins.length > 0 && eins.every((e, i) => i === 0 || eins[i - 1]! <= e);
      })
      .toBe(true);
    await screenshot(page, 'admin-merchants-grid-sorted-ein');

    // Deleted merchants: newest deletion first; Deleted again: oldest first (27 was deleted before 28).
    await page.getByRole('tab', { name: 'Deleted Merchants' }).click();
    await page.waitForURL('**/deleted-merchants');
    const deleted = gridOf(page, 'Deleted merchants').box;
    await cell(deleted, 0, 0).waitFor();
    expect(await sortedHeader(deleted)).toEqual(['Deleted, sorted descending']);
    expect(await names(deleted)).toEqual([merchantName(28), merchantName(27)]);
    await sortButton(deleted, 'Deleted').click();
    await expect.poll(() => names(deleted)).toEqual([merchantName(27), merchantName(28)]);
    expect(sortParams(page)).toEqual(['deleted', 'asc']);

    // Reported notes: by name, A to Z then Z to A, with the keyboard this time.
    await page.getByRole('tab', { name: 'Reported Notes' }).click();
    const reported = gridOf(page, 'Reported notes');
    await cell(reported.box, 0, 0).waitFor();
    expect(await sortedHeader(reported.box)).toEqual(['Reported, sorted descending']);
    await reported.table.focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => activeLabel(page)).toBe('Name, not sorted');
    await page.keyboard.press('Enter');
    await expect.poll(() => names(reported.box)).toEqual([merchantName(1), merchantName(2)]);
    await page.keyboard.press(' ');
    await expect.poll(() => names(reported.box)).toEqual([merchantName(2), merchantName(1)]);
    await expect.poll(() => activeLabel(page)).toBe('Name, sorted descending');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('the Mailbox, paged and searched on the server (issue 32)', () => {
  it('shows a page of mail at a time and finds a message by its subject or text', async () => {
    for (let i = 1; i <= 30; i++) {
      await server.db.pool.query(
        `insert into dev_mailbox (id, mail_from, mail_to, subject, body_text, received_at)
         values (gen_random_uuid(), 'no-reply@merchantrisk.local', 'inbox@mailbox-e2e.example', $1, $2,
                 now() + make_interval(secs => $3))`,
        [`Mailbox probe ${String(i).padStart(2, '0')}`, `The text of probe ${i}: lighthouse-${i}.`, i],
      );
    }
    const page = await signedInPage(browser, server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const problems = watchConsole(page);
    await page.goto(`${server.url}/mailbox`);
    const rows = page.locator('.mrn-table tbody tr');
    await rows.first().waitFor();
    const pager = page.getByRole('navigation', { name: 'Pages' });
    const total = Number((await pager.textContent())!.match(/of (\d+)/)![1]);
    expect(total).toBeGreaterThanOrEqual(30);
    await expect.poll(() => pager.textContent()).toContain(`1–25 of ${total}`);
    expect(await rows.count()).toBe(25);
    expect(await rows.first().textContent()).toContain('Mailbox probe 30');
    await screenshot(page, 'mailbox-paged-1280');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => pager.textContent()).toContain(`26–${Math.min(50, total)} of ${total}`);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');

    // Search the subject: the 30 probes, on two pages, back at page 1.
    const search = page.getByPlaceholder('Search by address, subject or text');
    await search.fill('mailbox probe');
    await search.press('Enter');
    await expect.poll(() => pager.textContent()).toContain('1–25 of 30');
    // A word of the text only: one message, which opens.
    await search.fill('lighthouse-7.');
    await search.press('Enter');
    await expect.poll(() => pager.textContent()).toContain('1–1 of 1');
    await page.getByRole('button', { name: 'Mailbox probe 07' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mailbox probe 07' });
    await dialog.getByText('The text of probe 7: lighthouse-7.').waitFor();
    await dialog.locator('.bp6-dialog-footer').getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await search.fill('no such message anywhere');
    await search.press('Enter');
    await page.getByText('No e-mail matches this search').waitFor();
    await screenshot(page, 'mailbox-search-empty');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
