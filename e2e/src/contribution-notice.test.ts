import { randomUUID } from 'node:crypto';
import { buildPath, routes, streams } from '@mrn/contracts';
import { DEMO_PASSWORD } from '@mrn/server';
import { startTestServer, type TestServer } from '@mrn/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';

// Contribution every member can see coming (issue 21): a banner on every page for every member of a
// warned funder (the figure, the deadline, what happens then, what avoids it), a stronger one while it
// is locked, the contribution view open to members read-only, a figure over 100 % that says so, and the
// sign-in toast clear of the top bar's figure at 1280 and 390 px.

const DAY = 86_400_000;
let server: TestServer;
let browser: Browser;
const TOM = 'tom.becker@harboradvance.example'; // Harbor member (not an admin)
const PRIYA = 'priya.natarajan@harboradvance.example'; // Harbor admin
const MARCO = 'marco.reyes@summitcapital.example'; // Summit member
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ listen: true, demo: true });
  browser = await launchBrowser();
  for (const [who, email] of Object.entries({ tom: TOM, priya: PRIYA, marco: MARCO })) {
    const token = await server.login(email, DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token });
    ids[who] = me.body.data.user.resource_id;
    ids[`${who}Account`] = me.body.data.user.account_resource_id;
    ids[`${who}Token`] = token;
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function settle() {
  await server.searches.flush();
  await server.projectedAll(undefined, 10_000);
}

const contributionOf = async (accountId: string, token: string) =>
  (
    await server.call({
      method: 'GET',
      url: buildPath(routes.getAccountContribution.path, { id: accountId }),
      token,
    })
  ).body.data;

/** `n` EIN searches by the funder, each finding a different merchant. */
async function searchDistinct(accountId: string, userId: string, n: number) {
  await server.recordSearches(
    Array.from({ length: n }, () => ({
      accountId,
      userId,
      source: 'web',
      term: '123456789',
      einSearch: true,
      merchantIds: [randomUUID()],
      hit: true,
    })),
  );
  await settle();
}

/** Signs in through the form at the given width; returns once the dashboard shows. */
async function signIn(email: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
  return page;
}

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('contribution every member can see coming', () => {
  it('shows a member of a warned funder the warning banner on every page, and the contribution view read-only', async () => {
    // Harbor falls to 0.49 % (100 × added ÷ (203 × added)) and its admin's Recalculate issues the warning.
    const before = await contributionOf(ids.tomAccount!, ids.tomToken!);
    await searchDistinct(
      ids.tomAccount!,
      ids.tom!,
      203 * before.contribution_records_added - before.contribution_merchants_searched,
    );
    const recalculated = await server.call({
      method: 'PUT',
      url: buildPath(routes.recalculateContribution.path, { id: ids.tomAccount! }),
      token: ids.priyaToken,
    });
    expect(recalculated.status).toBe(200);
    await settle();

    for (const width of [1280, 390]) {
      const page = await signIn(TOM, width);
      // The sign-in toast and the top bar's figure are both in view, neither over the other.
      const toast = page.locator('.bp6-toast', { hasText: 'You are now logged into' });
      await toast.waitFor();
      const pill = page.locator('.mrn-contribution');
      await pill.waitFor();
      expect(overlap((await toast.boundingBox())!, (await pill.boundingBox())!)).toBe(false);

      const banner = page.getByRole('status', { name: 'Contribution warning' });
      await banner.waitFor();
      const text = (await banner.textContent()) ?? '';
      expect(text).toMatch(
        /Search locks on \d\d\/\d\d\/\d{4} \d+:\d\d [AP]M unless your contribution is back at 0.5%/,
      );
      expect(text).toContain(
        "Harbor Business Advance's 90-day contribution is 0.49%, below the 0.5% minimum",
      );
      expect(text).toContain(
        'locked for every member until it is back at 0.5% or a platform administrator overrides',
      );
      expect(text).toMatch(/Adding \d+ more merchants? or notes? brings it back to 0.5% now/);
      await screenshot(page, `contribution-banner-dashboard-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // A second page: the banner is there too.
      await page.goto(`${server.url}/members`);
      await page.getByRole('heading', { name: 'Our Members' }).waitFor();
      await page.getByRole('status', { name: 'Contribution warning' }).waitFor();
      await screenshot(page, `contribution-banner-members-${width}`);

      // The banner's link opens the contribution view: figures and rules, no Recalculate, no override.
      await page.getByRole('link', { name: 'See your contribution' }).click();
      await page.waitForURL('**/contribution');
      const figures = page.getByRole('table', { name: 'Contribution percentages' });
      await figures.waitFor();
      expect(await figures.getByRole('row', { name: /Last 90 days/ }).textContent()).toContain('0.49%');
      const warning = page.getByRole('status').filter({ hasText: 'Contribution warning' });
      await warning.waitFor();
      expect(await warning.textContent()).toMatch(/Issued \d\d\/\d\d\/\d{4}, expires \d\d\/\d\d\/\d{4}/);
      await page.getByText(/Not counted: edits, deletion requests/).waitFor();
      expect(await page.getByRole('button', { name: 'Recalculate Contribution Percentage' }).count()).toBe(0);
      expect(await page.getByText('Contribution Requirement Override').count()).toBe(0);
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `contribution-view-member-${width}`);

      // The top bar's figure says the same briefly in its tooltip.
      if (width === 1280) {
        await page.locator('.mrn-contribution').hover();
        const tip = page.locator('.mrn-contribution-tooltip');
        await tip.waitFor();
        expect(await tip.textContent()).toMatch(/^Below the 0.5% minimum: search locks on \d\d\/\d\d\/\d{4}/);
        await screenshot(page, 'contribution-pill-tooltip-warned');
      }
      await page.context().close();
    }
  });

  it('shows a figure above 100 % as "Over 100%", with what it is made of', async () => {
    // Summit: one distinct merchant searched against the records it has added.
    await searchDistinct(ids.marcoAccount!, ids.marco!, 1);
    const view = await contributionOf(ids.marcoAccount!, ids.marcoToken!);
    expect(view.total_ninety_days_contribution_percentage).toBeGreaterThan(100);
    const page = await signIn(MARCO, 1280);
    const pill = page.locator('.mrn-contribution');
    await pill.getByText('Over 100%').waitFor();
    await pill.hover();
    const tip = page.locator('.mrn-contribution-tooltip');
    await tip.waitFor();
    expect(await tip.textContent()).toContain(
      `${view.contribution_records_added} merchants and notes added for 1 distinct merchant searched in the last 90 days. Anything at or above 0.5% is fine.`,
    );
    expect(await page.getByRole('status', { name: 'Contribution warning' }).count()).toBe(0);
    await screenshot(page, 'contribution-over-100');
    await page.context().close();
  });

  it('shows a member of a locked funder the lock banner', async () => {
    // Summit: below the minimum, warned 15 days ago and locked at the expiry.
    const view = await contributionOf(ids.marcoAccount!, ids.marcoToken!);
    await searchDistinct(
      ids.marcoAccount!,
      ids.marco!,
      203 * view.contribution_records_added - view.contribution_merchants_searched,
    );
    await server.store.appendToStream(
      streams.account(ids.marcoAccount!),
      [
        {
          id: randomUUID(),
          type: 'AccountContributionWarningIssued',
          data: {
            accountId: ids.marcoAccount!,
            percent: 0.49,
            issuedAt: new Date(Date.now() - 15 * DAY).toISOString(),
            expiresAt: new Date(Date.now() - DAY).toISOString(),
          },
          metadata: { source: 'system' },
        },
        {
          id: randomUUID(),
          type: 'AccountContributionLocked',
          data: { accountId: ids.marcoAccount!, percent: 0.49 },
          metadata: { source: 'system' },
        },
      ],
      { expectedRevision: 'any' },
    );
    await settle();
    for (const width of [1280, 390]) {
      const page = await signIn(MARCO, width);
      const banner = page.getByRole('alert', { name: 'Search locked' });
      await banner.waitFor();
      const text = (await banner.textContent()) ?? '';
      expect(text).toContain('Merchant search is locked for Summit Capital Funding');
      expect(text).toContain('below the 0.5% minimum, and the warning expired on');
      expect(text).toContain(
        'Search opens again as soon as the figure is back at 0.5%, or if a platform administrator overrides',
      );
      expect(await page.getByRole('status', { name: 'Contribution warning' }).count()).toBe(0);
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `contribution-locked-banner-${width}`);
      await page.context().close();
    }
  });
});
