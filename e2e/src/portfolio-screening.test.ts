import { readFile, writeFile } from 'node:fs/promises';
import { buildPath, formatEin, type NoteCategory, routes } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR, screenshot } from './browser.ts';
import { signedInPage } from './session.ts';

// Portfolio screening (issue 32, item 3) in Chromium against the real server: a PRO funder screens a
// 1,000-row CSV (merchants reported in every category group, unknown EINs, bad rows), follows its
// progress, reads the exposure chart, filters the report, downloads the PDF and the CSV and watches
// every hit; a member who is not an admin is told why they cannot watch; BASIC sees the upgrade path.

let server: TestServer;
let browser: Browser;
const DANA = 'dana.whitfield@summitcapital.example'; // Summit, PRO, admin
const MARCO = 'marco.reyes@summitcapital.example'; // Summit, PRO, not an admin
const PRIYA = 'priya.natarajan@harboradvance.example'; // Harbor, BASIC, admin
const ALEX = 'alex.morgan@lakeside.example'; // Lakeside, BASIC
let tokens: Record<string, string> = {};

/** A note's category for each merchant made here, in turn: three merchants in each group. */
const CATEGORIES: NoteCategory[] = [
  'Default Account',
  'Suspicious Activity',
  'Stacking History',
  'Slow Pay',
  'Split Payer',
  'Criminal History',
  'Covid-19 Hardship',
  'Other',
];
const MADE = 24;
const madeFein = (i: number) => `61${String(i).padStart(7, '0')}`;
/** The demo's merchants: Sunrise (Slow Pay, Stacking History), Keystone (Suspicious Activity), Blue Harbor (Default Account, Other). */
const DEMO_FEINS = ['451234567', '562345678', '673456789'];
const KNOWN = [...Array.from({ length: MADE }, (_, i) => madeFein(i)), ...DEMO_FEINS];

/** The file: a header, then 1,000 rows (lines 2–1001): the known EINs, unknown ones, and four bad rows. */
const BAD: Record<number, string> = { 7: 'not-an-ein', 120: '12-34', 600: '98-7654321,extra' };
const REPEAT_LINE = 900;
function portfolioCsv(): string {
  const lines = ['EIN'];
  for (let line = 2; line <= 1001; line++) {
    const known = (line - 10) / 30;
    if (BAD[line] !== undefined) lines.push(BAD[line]!);
    else if (line === REPEAT_LINE) lines.push(formatEin(KNOWN[0]!));
    else if (Number.isInteger(known) && known >= 0 && known < KNOWN.length)
      lines.push(formatEin(KNOWN[known]!));
    else lines.push(`87-${String(line).padStart(7, '0')}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}
const ROWS = 1000;
const REJECTED = 4;
const FOUND = KNOWN.length; // 27
// Merchants found per group, ever: three made in each, the demo's, and Stacking History's second notes
// (made merchants 0, 3, 6 … 21, of which 18 already had it).
const STACKING = 3 + 7 + 1;

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
  tokens = {
    dana: await server.login(DANA, DEMO_PASSWORD),
    priya: await server.login(PRIYA, DEMO_PASSWORD),
    alex: await server.login(ALEX, DEMO_PASSWORD),
    admin: await server.login(TEST_ADMIN.email, TEST_ADMIN.password),
  };
  const summit = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: tokens.dana })).body
    .data.user.account_resource_id as string;
  // Summit's subscriptions on (what "watch all hits" adds to), with a notification e-mail; it watches
  // Sunrise already.
  const enabled = await server.setSubscriptionSettings(tokens.admin!, summit, {
    merchant_subscription_enabled: true,
    merchant_subscription_notification_email: 'alerts@summitcapital.example',
  });
  expect(enabled.status).toBe(200);
  const watched = await server.call({
    method: 'POST',
    url: buildPath(routes.addMerchantSubscription.path, { id: summit }),
    token: tokens.dana,
    payload: { merchant_subscription: { fein: DEMO_FEINS[0] } },
  });
  expect(watched.status, JSON.stringify(watched.body)).toBe(201);

  // Other funders report merchants in every group; every third is reported for stacking by a second one.
  for (let i = 0; i < MADE; i++) {
    const [first, second] = i % 2 === 0 ? [tokens.priya!, tokens.alex!] : [tokens.alex!, tokens.priya!];
    const added = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token: first,
      payload: {
        merchant: {
          fein: madeFein(i),
          legal_name: `Portfolio Merchant ${i + 1} LLC`,
          city: 'Tampa',
          state: 'FL',
        },
        note: {
          category: CATEGORIES[i % CATEGORIES.length],
          note: 'Reported for the screening test.',
          submission_source: 'in-house',
        },
        proxied_creator: null,
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    if (i % 3 === 0) {
      const noted = await server.call({
        method: 'POST',
        url: buildPath(routes.addNote.path, { id: added.body.data.resource_id }),
        token: second,
        payload: {
          note: {
            category: 'Stacking History',
            note: 'Took a second position.',
            submission_source: 'in-house',
          },
          proxied_creator: null,
        },
      });
      expect(noted.status, JSON.stringify(noted.body)).toBe(201);
    }
  }
  expect(await server.projectedAll(undefined, 30_000)).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Screenshots at 1280 and 390 px; at 390 the page keeps inside the phone's width. */
async function bothWidths(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(200);
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(200);
}

async function downloaded(page: Page, button: string): Promise<{ file: Download; bytes: Buffer }> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: button, exact: true }).click();
  const file = await download;
  return { file, bytes: await readFile((await file.path())!) };
}

const pagerRange = (page: Page) => page.locator('.mrn-screen-rows .mrn-pager-range').first();

describe('portfolio screening', () => {
  let reportUrl = '';

  it('screens a 1,000-row CSV with a progress bar, then reads, filters, downloads and watches its report', async () => {
    const page = await signedInPage(browser, server.url, DANA, DEMO_PASSWORD);
    // The sidebar has the page for PRO.
    await page.getByRole('menuitem', { name: 'Portfolio Screening' }).first().click();
    await page.waitForURL('**/screenings');
    await page.getByRole('heading', { name: 'Portfolio Screening', exact: true }).waitFor();
    await page.getByText(/^A screening looks up to 10,000 EINs at once/).waitFor();
    await page.getByText('No screenings yet').waitFor();
    await bothWidths(page, 'screening-start');

    // A file that is not a CSV is refused before anything is sent.
    const input = page.getByLabel('CSV file of EINs');
    await input.setInputFiles({
      name: 'portfolio.xlsx',
      mimeType: 'application/zip',
      buffer: Buffer.from('PK'),
    });
    await page.getByText(/^Choose a \.csv file/).waitFor();
    expect(await page.getByRole('button', { name: 'Screen this file' }).isDisabled()).toBe(true);

    // The screening's second chunk is held back (a trigger in this test's database, as a busy database
    // would hold it) so that its progress is seen midway.
    const holdSecondChunk = `create table test_screening_hold (held boolean);
      insert into test_screening_hold values (true);
      create function test_hold_screening() returns trigger language plpgsql as $$
      begin
        if old.screened > 0 and new.screened > old.screened then
          for i in 1..600 loop
            exit when not exists (select 1 from test_screening_hold);
            perform pg_sleep(0.05);
          end loop;
        end if;
        return new;
      end $$;
      create trigger test_hold_screening before update on screenings
        for each row execute function test_hold_screening();`;
    await server.db.pool.query(holdSecondChunk);
    try {
      // Keyboard: the file input takes focus like any control.
      await input.focus();
      expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
      await input.setInputFiles({
        name: 'q3-portfolio.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(portfolioCsv()),
      });
      await page.getByRole('button', { name: 'Screen this file' }).click();
      await page.waitForURL(/\/screenings\/[0-9a-f-]{36}$/);
      reportUrl = page.url();
      await page.getByRole('heading', { name: 'Screening of q3-portfolio.csv' }).waitFor();
      // The server's answer named the rows it does not screen.
      await page.getByText(`${REJECTED} rows were not screened`).waitFor();
      await page.getByText('row 7: must be 9 digits, as 12-3456789').waitFor();
      await page.getByText('row 600: must contain only an EIN').waitFor();
      await page.getByText(`row ${REPEAT_LINE}: the same EIN as row 10`).waitFor();
      const progress = page.getByRole('progressbar', { name: 'Screening progress' });
      await progress.waitFor();
      await page.getByText(`500 of ${(ROWS - REJECTED).toLocaleString('en-US')} EINs screened`).waitFor();
      expect(await progress.getAttribute('aria-valuenow')).toBe('50');
      expect(await page.getByRole('button', { name: 'Download PDF' }).isDisabled()).toBe(true);
      await bothWidths(page, 'screening-progress');
    } finally {
      await server.db.pool.query('delete from test_screening_hold');
    }

    // Then the report.
    await page
      .getByRole('progressbar', { name: 'Screening progress' })
      .waitFor({ state: 'detached', timeout: 30_000 });
    const summary = page.locator('.mrn-screen-figures');
    await expect.poll(() => summary.textContent()).toContain(`Found in the network${FOUND}`);
    expect(await summary.textContent()).toContain(`Rows not screened${REJECTED}`);
    expect(await summary.textContent()).toContain(`Not found${ROWS - REJECTED - FOUND}`);

    // The chart: a bar a group, each with the merchants found in it.
    const chart = page.getByRole('group', { name: 'Merchants found per category, reported ever' });
    await chart.waitFor();
    const bar = (label: string) => chart.getByRole('button', { name: new RegExp(`^${label}: `) });
    expect(await chart.getByRole('button').count()).toBe(8);
    expect(await bar('Default / Default Account').getAttribute('aria-label')).toBe(
      `Default / Default Account: 4 merchants reported ever, 14.8% of the ${FOUND} found. List them.`,
    );
    expect(await bar('Stacking History').getAttribute('aria-label')).toMatch(
      new RegExp(`^Stacking History: ${STACKING} merchants reported ever`),
    );
    expect(await bar('Criminal History').textContent()).toBe('Criminal History3 (11.1%)');
    // The window: every note here is recent, so 90 days counts the same.
    await page.getByRole('radio', { name: '90 days' }).click();
    await page
      .getByRole('group', { name: 'Merchants found per category, reported in the last 90 days' })
      .waitFor();
    await page.getByRole('radio', { name: 'Ever' }).click();

    // The rows, worst first: a default first, rejected rows last with their problem.
    const table = page.getByRole('table', { name: "The screening's rows, worst first" });
    await table.getByRole('row').nth(1).waitFor();
    expect(await table.getByRole('row').nth(1).textContent()).toContain('Default');
    await expect.poll(() => pagerRange(page).textContent()).toBe(`1–50 of ${ROWS.toLocaleString('en-US')}`);
    await bothWidths(page, 'screening-report');

    // Filter by a category from its bar: only its merchants, each linking to its page.
    await bar('Stacking History').click();
    await expect.poll(() => pagerRange(page).textContent()).toBe(`1–${STACKING} of ${STACKING}`);
    expect(page.url()).toContain('category=stacking_history');
    const rows = table.getByRole('row');
    expect(await rows.count()).toBe(STACKING + 1);
    for (let i = 1; i <= STACKING; i++) {
      expect(
        await rows
          .nth(i)
          .getByRole('link', { name: /^Stacking History/ })
          .count(),
      ).toBe(1);
    }
    await bothWidths(page, 'screening-filtered');
    // And from the filters: the rows not screened, with their problem.
    await page.getByLabel('Outcome', { exact: true }).selectOption('rejected');
    await page.getByLabel('Category', { exact: true }).selectOption('');
    await expect.poll(() => pagerRange(page).textContent()).toBe(`1–${REJECTED} of ${REJECTED}`);
    await table.getByText('must be 9 digits, as 12-3456789').first().waitFor();
    await page.getByLabel('Outcome', { exact: true }).selectOption('');

    // The downloads, with the session's token.
    const pdf = await downloaded(page, 'Download PDF');
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.file.suggestedFilename()).toMatch(/\.pdf$/);
    // Kept beside the screenshots, for a person to read.
    await writeFile(`${SCREENSHOT_DIR}screening-report.pdf`, pdf.bytes);
    const csv = await downloaded(page, 'Download CSV');
    const lines = csv.bytes.toString('utf8').split(/\r?\n/).filter(Boolean);
    expect(lines[0]).toMatch(/^row,input,ein,outcome,problem,legal_name/);
    expect(lines).toHaveLength(ROWS + 1);
    expect(csv.file.suggestedFilename()).toMatch(/\.csv$/);

    // Watch all hits: one was watched already.
    await page.getByRole('button', { name: 'Watch all hits' }).click();
    await page
      .getByRole('alertdialog')
      .getByText(`Watch the ${FOUND} merchants this screening found?`)
      .waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Watch all hits' }).click();
    await page.getByText(`${FOUND - 1} merchants added to your watch list; 1 already watched.`).waitFor();
    await screenshot(page, 'screening-watched');

    // The subscriptions list has them.
    await page.goto(`${server.url}/merchant_subscriptions?search=61-`);
    await page
      .getByRole('row')
      .filter({ hasText: formatEin(madeFein(0)) })
      .waitFor();

    // The list of past screenings.
    await page.goto(`${server.url}/screenings`);
    const listed = page.getByRole('row').filter({ hasText: 'q3-portfolio.csv' });
    await listed.waitFor();
    const cells = await listed.getByRole('cell').allTextContents();
    // Portfolio, Started, Status, EINs, Found, Flagged, Not Screened, Started By
    expect([cells[0], ...cells.slice(2)]).toEqual([
      'q3-portfolio.csv',
      'Done',
      String(ROWS - REJECTED),
      String(FOUND),
      String(FOUND),
      String(REJECTED),
      'Dana Whitfield',
    ]);
    await bothWidths(page, 'screening-list');
    await page.context().close();
  }, 180_000);

  it('tells a member who is not an account admin why they cannot watch the hits', async () => {
    const page = await signedInPage(browser, server.url, MARCO, DEMO_PASSWORD);
    await page.goto(reportUrl);
    await page.getByRole('heading', { name: 'Screening of q3-portfolio.csv' }).waitFor();
    expect(await page.getByRole('button', { name: 'Watch all hits' }).isDisabled()).toBe(true);
    await page.getByText(/^Watch all hits: Only your account’s admins can watch merchants/).waitFor();
    await page.context().close();
  });

  it('shows a BASIC member what screening does and the way to PRO', async () => {
    const page = await signedInPage(browser, server.url, PRIYA, DEMO_PASSWORD);
    expect(await page.getByRole('menuitem', { name: 'Portfolio Screening' }).count()).toBe(0);
    await page.goto(`${server.url}/screenings`);
    await page.getByRole('heading', { name: 'Portfolio Screening is a PRO feature' }).waitFor();
    expect(await page.getByRole('link', { name: 'Upgrade to PRO' }).getAttribute('href')).toBe(
      '/account?tab=membership',
    );
    expect(await page.getByRole('link', { name: 'What PRO includes' }).getAttribute('href')).toBe('/pro');
    // A report's address says the same, and asks the server nothing.
    await page.goto(reportUrl);
    await page.getByRole('heading', { name: 'Portfolio Screening is a PRO feature' }).waitFor();
    await bothWidths(page, 'screening-basic');
    await page.context().close();
  });
});
