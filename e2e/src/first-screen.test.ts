import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';

// What keeps the first screen fast (issue 9; figures by `npm run bench -- web`): nothing on the
// critical path waits for something it does not need.

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

interface Seen {
  url: string;
  startedAt: number;
  endedAt?: number;
}

function recordRequests(page: import('playwright-core').Page): Seen[] {
  const seen: Seen[] = [];
  const byRequest = new Map<Request, Seen>();
  page.on('request', (request) => {
    const entry = { url: new URL(request.url()).pathname, startedAt: performance.now() };
    byRequest.set(request, entry);
    seen.push(entry);
  });
  page.on('requestfinished', (request) => {
    const entry = byRequest.get(request);
    if (entry) entry.endedAt = performance.now();
  });
  return seen;
}

const find = (seen: Seen[], pattern: RegExp): Seen => {
  const found = seen.find((s) => pattern.test(s.url));
  if (!found) throw new Error(`no request for ${pattern}; saw ${seen.map((s) => s.url).join(', ')}`);
  return found;
};

describe('the first screen', () => {
  it('fetches the dashboard page while the password is checked, and restores a session with both calls at once', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`, { waitUntil: 'networkidle' });
    await page.getByLabel('Email').fill(TEST_ADMIN.email);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    const atSignIn = recordRequests(page);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Welcome, Platform' }).waitFor();
    const login = find(atSignIn, /^\/api\/auth\/login$/);
    const dashboardChunk = find(atSignIn, /\/assets\/DashboardPage-[\w-]+\.js$/);
    expect(dashboardChunk.startedAt).toBeLessThan(login.endedAt!);

    page.removeAllListeners('request');
    const atReload = recordRequests(page);
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome, Platform' }).waitFor();
    const autoLogin = find(atReload, /^\/api\/auth\/auto_login$/);
    const settings = find(atReload, /^\/api\/app_settings$/);
    const chunk = find(atReload, /\/assets\/DashboardPage-[\w-]+\.js$/);
    // The settings call and the page's module do not wait for the session to be restored.
    expect(settings.startedAt).toBeLessThan(autoLogin.endedAt!);
    expect(chunk.startedAt).toBeLessThan(autoLogin.endedAt!);
    await context.close();
  });

  it('asks for the dashboard’s data as the sign-in is answered (or the session restored), before the dashboard renders, in three calls', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // When React puts the dashboard's page into the document (during its commit, before any effect of
    // its cards can make a call), in the page's clock (Resource Timing's).
    await context.addInitScript(() => {
      const w = window as unknown as { __dashboardAt?: number };
      const note = (node: Node) => {
        if (w.__dashboardAt !== undefined || !(node instanceof Element)) return;
        if (node.matches('.mrn-page') || node.querySelector('.mrn-page')) w.__dashboardAt = performance.now();
      };
      const { appendChild, insertBefore } = Node.prototype;
      Node.prototype.appendChild = function <T extends Node>(this: Node, node: T): T {
        note(node);
        return appendChild.call(this, node) as T;
      };
      Node.prototype.insertBefore = function <T extends Node>(this: Node, node: T, child: Node | null): T {
        note(node);
        return insertBefore.call(this, node, child) as T;
      };
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`, { waitUntil: 'networkidle' });
    await page.getByLabel('Email').fill(TEST_ADMIN.email);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    const atSignIn = recordRequests(page);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('group', { name: 'Total Merchants', exact: true }).getByText('0').waitFor();
    await page.getByText('No notes yet').waitFor();
    const dashboardCalls = () =>
      page.evaluate(() => ({
        dashboardAt: (window as unknown as { __dashboardAt: number }).__dashboardAt,
        calls: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((e) => /\/api\/(widgets|notes)\//.test(e.name))
          .map((e) => ({ path: new URL(e.name).pathname + new URL(e.name).search, startedAt: e.startTime })),
      }));
    // The suspicious activity table, the widgets' first pages in one call, the network's notes.
    const expectedCalls = [
      '/api/notes/recent?category=Suspicious+Activity&per_page=20',
      '/api/notes/recent?page=1&per_page=200',
      '/api/widgets/dashboard',
    ];
    const signedIn = await dashboardCalls();
    expect(signedIn.calls.map((c) => c.path).sort()).toEqual(expectedCalls);
    for (const c of signedIn.calls) expect(c.startedAt, c.path).toBeLessThan(signedIn.dashboardAt);
    expect(atSignIn.filter((s) => /\/api\/(widgets|notes)\//.test(s.url))).toHaveLength(3);

    // A reload asks for them as the session is restored.
    await page.reload();
    await page.getByRole('group', { name: 'Total Merchants', exact: true }).getByText('0').waitFor();
    await page.getByText('No notes yet').waitFor();
    const reloaded = await dashboardCalls();
    expect(reloaded.calls.map((c) => c.path).sort()).toEqual(expectedCalls);
    for (const c of reloaded.calls) expect(c.startedAt, c.path).toBeLessThan(reloaded.dashboardAt);
    await context.close();
  });

  it('loads no icon font: icons are SVG, and the font was only a stand-in while they load', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const seen = recordRequests(page);
    await page.goto(`${server.url}/login`, { waitUntil: 'networkidle' });
    await page.getByLabel('Email').fill(TEST_ADMIN.email);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Welcome, Platform' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(seen.filter((s) => /\.(ttf|woff2?|eot)$/.test(s.url))).toEqual([]);
    // The sidebar's icons are drawn as SVG (their paths arrive in one module per size).
    await expect.poll(() => page.locator('nav svg[data-icon]').count()).toBeGreaterThan(3);
    // None fell back to Blueprint's loader, whose chunk holds every icon it has (issue 31).
    expect(seen.filter((s) => /\/assets\/(splitPathsBySizeLoader|allPaths)/.test(s.url))).toEqual([]);
    await context.close();
  });
});
