import { buildPath, MESSAGES, routes, SUBSCRIPTION_TEXTS } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The watched merchants as CSV (issue 32, "the merchant CSV export"): every EIN the account watches, the
// merchant reported under it and its risk signals, for the account's admins on PRO with subscriptions on.

let server: TestServer;
const tokens: Record<string, string> = {};
let summit = '';
let harbor = '';
let reportedId = '';

const REPORTED = '58-3000001'; // reported by Harbor (Default), then by Summit (Stacking History)
const UNREPORTED = '58-3000002'; // watched, never reported
const FORMULA = '58-3000003'; // a legal name a spreadsheet would run as a formula

const exportUrl = (id = summit, query = '') =>
  `${buildPath(routes.exportMerchantSubscriptions.path, { id })}${query}`;
const exportAs = (who: string, id = summit, query = '') =>
  server.call({ method: 'GET', url: exportUrl(id, query), token: tokens[who] });
const rowsOf = (csv: string) => parse(csv, { columns: true }) as Record<string, string>[];
const searchLogSize = async () =>
  (await server.db.pool.query<{ n: number }>('select count(*)::int as n from search_log')).rows[0]!.n;

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  tokens.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  tokens.dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD); // Summit (PRO) admin
  tokens.marco = await server.login('marco.reyes@summitcapital.example', DEMO_PASSWORD); // Summit member
  tokens.priya = await server.login('priya.natarajan@harboradvance.example', DEMO_PASSWORD); // Harbor (BASIC) admin
  const me = async (token: string) =>
    (await server.call({ method: 'GET', url: routes.autoLogin.path, token })).body.data.user
      .account_resource_id as string;
  summit = await me(tokens.dana);
  harbor = await me(tokens.priya);
  const enabled = await server.setSubscriptionSettings(tokens.admin, summit, {
    merchant_subscription_enabled: true,
  });
  expect(enabled.status).toBe(200);

  const added = await server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: tokens.priya,
    payload: {
      merchant: {
        fein: REPORTED,
        legal_name: 'Export Bakery LLC',
        dba: 'Crumbs',
        city: 'Austin',
        state: 'TX',
      },
      note: { category: 'Default', note: 'Stopped paying in March.', submission_source: 'in-house' },
    },
  });
  expect(added.status).toBe(201);
  reportedId = added.body.data.resource_id;
  const second = await server.call({
    method: 'POST',
    url: buildPath(routes.addNote.path, { id: reportedId }),
    token: tokens.dana,
    payload: {
      note: { category: 'Stacking History', note: 'Took a third advance.', submission_source: 'in-house' },
    },
  });
  expect(second.status).toBe(201);
  const formula = await server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: tokens.priya,
    payload: {
      merchant: { fein: FORMULA, legal_name: '=HYPERLINK("x") LLC', city: 'Reno', state: 'NV' },
      note: { category: 'Slow Pay', note: 'Late twice.', submission_source: 'in-house' },
    },
  });
  expect(formula.status).toBe(201);
  for (const fein of [REPORTED, UNREPORTED, FORMULA]) {
    const res = await server.call({
      method: 'POST',
      url: buildPath(routes.addMerchantSubscription.path, { id: summit }),
      token: tokens.dana,
      payload: { merchant_subscription: { fein } },
    });
    expect(res.status).toBe(201);
  }
  expect(await server.projectedAll(undefined, 20_000)).toBe(true);
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe('exporting the watched merchants', () => {
  it('answers every watched EIN in EIN order, with its merchant and its risk signals', async () => {
    const before = await searchLogSize();
    const res = await exportAs('dana');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toBe('text/csv; charset=utf-8');
    expect(String(res.headers['content-disposition'])).toMatch(
      /^attachment; filename=".+-watched-merchants-\d{4}-\d{2}-\d{2}T[\d-]+Z\.csv"$/,
    );
    const rows = rowsOf(res.body);
    expect(rows.map((r) => r.ein)).toEqual([REPORTED, UNREPORTED, FORMULA]);

    const reported = rows[0]!;
    expect(reported).toMatchObject({
      reported: 'yes',
      legal_name: 'Export Bakery LLC',
      dba: 'Crumbs',
      city: 'Austin',
      state: 'TX',
      funders: '2',
      worst_category: 'Default / Default Account',
      cured_at: '',
      open_disputes: '0',
      resolved_disputes: '0',
      default_90d: '1',
      default_12m: '1',
      default_ever: '1',
      stacking_history_90d: '1',
      stacking_history_ever: '1',
      slow_pay_ever: '0',
      watched_until: '',
    });
    expect(Date.parse(reported.watched_since!)).toBeGreaterThan(Date.now() - 120_000);

    // Watched before anyone reported it: no merchant, no figures (not zeros, which would say "counted").
    expect(rows[1]).toMatchObject({ reported: 'no', legal_name: '', funders: '', default_ever: '' });

    // Another company's typed name is text in a spreadsheet, never a formula.
    expect(rows[2]!.legal_name).toBe(`'=HYPERLINK("x") LLC`);
    expect(rows[2]).toMatchObject({ worst_category: 'Slow Pay', slow_pay_ever: '1', funders: '1' });

    // A file of what the account watches, not a search: nothing is recorded for inquiries or caps.
    expect(await searchLogSize()).toBe(before);
  });

  it('applies the list search (an EIN prefix), and answers only the header when nothing matches', async () => {
    const some = await exportAs('dana', summit, '?search=58-3000002');
    expect(some.status).toBe(200);
    expect(rowsOf(some.body).map((r) => r.ein)).toEqual([UNREPORTED]);
    const none = await exportAs('dana', summit, '?search=999');
    expect(none.status).toBe(200);
    expect(String(none.body).trim().split('\n')).toHaveLength(1);
    expect(String(none.body)).toMatch(/^ein,watched_since,watched_until,reported,legal_name,/);
  });

  it('names a search that is not an EIN prefix', async () => {
    const res = await exportAs('dana', summit, '?search=bakery');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.errors)).toContain('must be the digits of an EIN');
  });
});

describe('who may export', () => {
  it('refuses a member who is not an admin and a BASIC account; the platform administrator may', async () => {
    const member = await exportAs('marco');
    expect(member.status).toBe(403);
    expect(member.body.errors).toBe(MESSAGES.notAllowed);
    const basic = await exportAs('priya', harbor);
    expect(basic.status).toBe(403);
    expect(basic.body.errors).toBe('This feature is only available to PRO members.');
    // Another funder's account: its plan is refused first (BASIC), as the list is; a PRO funder's
    // admin gets 404 there (server/src/http/authorization-matrix.test.ts walks it).
    expect((await exportAs('priya', summit)).status).toBe(403);
    // The platform administrator may export any account's, as it may list them.
    expect((await exportAs('admin', summit)).status).toBe(200);
  });

  it('refuses once the account has subscriptions turned off', async () => {
    const off = await server.setSubscriptionSettings(tokens.admin!, summit, {
      merchant_subscription_enabled: false,
    });
    expect(off.status).toBe(200);
    expect(await server.projectedAll(undefined, 20_000)).toBe(true);
    const res = await exportAs('dana');
    expect(res.status).toBe(403);
    expect(res.body.errors).toBe(SUBSCRIPTION_TEXTS.notEnabled);
  });
});
