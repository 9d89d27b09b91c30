import { API_TEXTS, buildPath, MESSAGES, type RouteSpec, routes } from '@mrn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo.ts';
import { startTestServer, TEST_ADMIN, type TestServer } from '../testing.ts';

// Every route of the route table × every kind of caller, the expected outcome derived from the route's
// declared `access` and `plan` by one small function. A changed access level or plan fails it. Sent
// through the split topology's gateway (issue 30), which routes each by the route table to the server.
//
// The route layer refuses before it parses anything, so callers it lets through may send an empty
// body: they get a 400 (or their answer), and the matrix only asks whether the refusal was the route's.

const ROLES = {
  anonymous: { email: undefined, admin: false, platform: false, plan: undefined },
  member: { email: 'tom.becker@harboradvance.example', admin: false, platform: false, plan: 'BASIC' },
  proMember: { email: 'marco.reyes@summitcapital.example', admin: false, platform: false, plan: 'PRO' },
  accountAdmin: {
    email: 'priya.natarajan@harboradvance.example',
    admin: true,
    platform: false,
    plan: 'BASIC',
  },
  /** Admin of another funder (Summit), aimed at Harbor's records: must see them as missing. */
  otherAdmin: { email: 'dana.whitfield@summitcapital.example', admin: true, platform: false, plan: 'PRO' },
  platformAdmin: { email: TEST_ADMIN.email, admin: true, platform: true, plan: 'PRO' },
} as const;
type Role = keyof typeof ROLES;
type Expected = 'allowed' | 404 | { status: 401 | 403; text: string };

const PRO_ONLY = 'This feature is only available to PRO members.';

/** What the route table says should happen. */
function expected(name: RouteName, spec: RouteSpec, role: Role): Expected {
  if (spec.access === 'anonymous') return 'allowed';
  // The partner API takes API tokens only: no token, or any dashboard token, is a 401 saying so.
  if (spec.access === 'api')
    return { status: 401, text: role === 'anonymous' ? API_TEXTS.tokenMissing : API_TEXTS.needsApiToken };
  if (role === 'anonymous') return { status: 401, text: MESSAGES.sessionEnded };
  const r = ROLES[role];
  if (spec.access === 'platform_admin' && !r.platform) return { status: 403, text: MESSAGES.notAllowed };
  if (spec.access === 'account_admin' && !r.admin) return { status: 403, text: MESSAGES.notAllowed };
  if (spec.plan === 'PRO' && r.plan !== 'PRO' && !r.platform) return { status: 403, text: PRO_ONLY };
  if (role === 'otherAdmin' && HARBOR_RECORDS.has(name)) return 404;
  return 'allowed';
}

type RouteName = keyof typeof routes;
interface Ctx {
  self: Record<Role, string>;
  harbor: string;
  victim: string;
  platformTarget: string;
  merchant: string;
  note: string;
  spareMerchant: string;
  spareNote: string;
}
interface Fixture {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}
const queryOf = (f: Fixture) => (f.query ? `?${new URLSearchParams(f.query)}` : '');

/** Account-admin routes aimed at Harbor's account or its member: Summit's admin must get 404 there. */
const HARBOR_RECORDS = new Set<RouteName>([
  'getAccount',
  'getAccountContribution',
  'updateAccount',
  'recalculateContribution',
  'createSubscription',
  'cancelSubscription',
  'upgradeSubscription',
  'downgradeSubscription',
  'previewPlanChange',
  'listInvoices',
  'getPaymentMethod',
  'getBillingUpdateUrl',
  'listAccountUsers',
  'createUser',
  'archiveUser',
  'restoreUser',
  'toggleUserAdmin',
  'toggleUserMfaRequired',
  'grantUserApiAccess',
  'regenerateApiKey',
  'revokeUserApiAccess',
  'getApiCredentials',
  'adminChangePassword',
  'listMerchantSubscriptions',
  'exportMerchantSubscriptions',
  'addMerchantSubscription',
  'deleteSelectedMerchantSubscriptions',
  'deleteAllMerchantSubscriptions',
  'listSubscriptionImports',
  'listWebhookDeliveries',
  'getWebhookDelivery',
  'redeliverWebhook',
  'rotateWebhookSigningSecret',
  'createSubscriptionImport',
  'downloadSubscriptionImportResults',
  'addMerchantSubscriptions',
]);

const id = (value: string) => ({ params: { id: value } });
const harborAccount = (c: Ctx) => id(c.harbor);
const victim = (c: Ctx) => id(c.victim);
const self = (c: Ctx, role: Role) => id(c.self[role]);
const none = () => ({});
/** A screening no one started: the matrix asks only whether the route refuses the caller. */
const NO_SCREENING = '00000000-0000-4000-8000-0000000000ee';
/** A dispute id no one submitted: the matrix asks only whether the route refuses the caller. */
const NO_DISPUTE = '00000000-0000-4000-8000-0000000000dd';

/** Path values per route; a route missing here fails the matrix, so new routes cannot be forgotten. */
const FIXTURES: Record<RouteName, (c: Ctx, role: Role) => Fixture> = {
  login: () => ({ body: {} }),
  autoLogin: none,
  logout: none,
  getAppSettings: none,
  updateAppSettings: () => ({ body: {} }),
  searchMerchants: none,
  merchantCheckExists: none,
  searchCounts: none,
  listMerchants: none,
  addMerchant: () => ({ body: {} }),
  getMerchant: (c) => id(c.merchant),
  listLinkedMerchants: (c) => id(c.merchant),
  merchantInquiryAudit: (c) => id(c.merchant),
  listBrokers: none,
  getBroker: () => ({ params: { key: 'main street brokers' } }),
  updateMerchant: (c) => ({ ...id(c.merchant), body: {} }),
  archiveMerchant: (c) => ({ ...id(c.spareMerchant), body: {} }),
  merchantHistory: (c) => id(c.merchant),
  listMerchantNotes: (c) => id(c.merchant),
  listDeletedMerchants: none,
  getDeletedMerchant: (c) => id(c.merchant),
  listDeletedNotes: (c) => id(c.merchant),
  addNote: (c) => ({ params: { id: c.merchant }, body: {} }),
  updateNote: (c) => ({ ...id(c.note), body: {} }),
  archiveNote: (c) => id(c.spareNote),
  requestNoteDeletion: (c) => ({ ...id(c.note), body: {} }),
  listReportedNotes: none,
  recentNotes: none,
  otpNew: none,
  otpRegister: () => ({ body: {} }),
  otpVerify: () => ({ body: {} }),
  dashboardUpdates: () => ({ body: {} }),
  listAccounts: none,
  createAccount: () => ({ body: {} }),
  getAccount: harborAccount,
  getAccountContribution: harborAccount,
  updateAccount: (c) => ({
    ...harborAccount(c),
    body: {
      account: {
        name: 'Harbor Business Advance',
        website: 'harboradvance.example',
        primary_contact_email: 'ops@harboradvance.example',
      },
    },
  }),
  archiveAccount: (c) => id(c.platformTarget),
  grantAccountApiAccess: (c) => id(c.platformTarget),
  revokeAccountApiAccess: (c) => id(c.platformTarget),
  startTrial: (c) => id(c.platformTarget),
  cancelTrial: (c) => id(c.platformTarget),
  toggleAccountMfaRequired: (c) => id(c.platformTarget),
  toggleContributionOverride: (c) => id(c.platformTarget),
  recalculateContribution: harborAccount,
  // A card that is declined: callers who may get Stripe's 402, and nothing is charged or written.
  createSubscription: (c) => ({
    ...harborAccount(c),
    body: {
      stripeToken: 'tok_chargeDeclined',
      stripeEmail: 'ops@harboradvance.example',
      stripePlanName: 'BASIC',
    },
  }),
  cancelSubscription: harborAccount,
  upgradeSubscription: harborAccount,
  downgradeSubscription: harborAccount,
  previewPlanChange: (c) => ({ ...harborAccount(c), query: { plan: 'PRO' } }),
  listInvoices: harborAccount,
  getPaymentMethod: (c) => ({ body: { account_id: c.harbor } }),
  getBillingUpdateUrl: (c) => ({ body: { account_id: c.harbor, update_type: 'account' } }),
  getBillingConfig: none,
  exportContacts: none,
  listMemberFunders: none,
  listAccountUsers: harborAccount,
  createUser: (c) => ({
    ...harborAccount(c),
    body: {
      user: {
        first_name: 'Matrix',
        last_name: 'Member',
        email: `matrix.${Math.random()}@harboradvance.example`,
      },
    },
  }),
  getUser: self,
  updateUser: (c, role) => ({ ...self(c, role), body: {} }),
  archiveUser: victim,
  restoreUser: victim,
  toggleUserAdmin: victim,
  toggleUserMfaRequired: victim,
  grantUserApiAccess: victim,
  regenerateApiKey: victim,
  revokeUserApiAccess: victim,
  getApiCredentials: victim,
  forgetDevice: self,
  resetMfa: self,
  agreeToTerms: self,
  changePassword: (c, role) => ({ ...self(c, role), body: {} }),
  adminChangePassword: (c) => ({
    ...victim(c),
    body: { new_password: 'Matrix-pass-0001', confirm_password: 'Matrix-pass-0001' },
  }),
  forgotPassword: () => ({ body: {} }),
  passwordReset: () => ({ body: {} }),
  createDispute: () => ({ body: {} }),
  listDisputes: none,
  getDispute: () => id(NO_DISPUTE),
  assignDispute: () => ({ ...id(NO_DISPUTE), body: {} }),
  startDisputeReview: () => id(NO_DISPUTE),
  addDisputeComment: () => ({ ...id(NO_DISPUTE), body: {} }),
  resolveDispute: () => ({ ...id(NO_DISPUTE), body: {} }),
  listDevMailbox: none,
  resetSandbox: none,
  listMerchantSubscriptions: harborAccount,
  exportMerchantSubscriptions: harborAccount,
  addMerchantSubscription: (c) => ({
    ...harborAccount(c),
    body: { merchant_subscription: { fein: '44-0000009' } },
  }),
  // The caller's own account watches the merchant: no other funder's records are reached.
  toggleMerchantSubscription: (c) => id(c.merchant),
  deleteSelectedMerchantSubscriptions: (c) => ({
    params: { account_id: c.harbor },
    body: { merchant_subscription_ids: [] },
  }),
  deleteAllMerchantSubscriptions: (c) => ({ params: { account_id: c.harbor }, body: {} }),
  listSubscriptionImports: harborAccount,
  listWebhookDeliveries: harborAccount,
  getWebhookDelivery: (c) => ({
    params: { id: c.harbor, delivery_id: '00000000-0000-4000-8000-0000000000bb' },
  }),
  redeliverWebhook: (c) => ({
    params: { id: c.harbor, delivery_id: '00000000-0000-4000-8000-0000000000bb' },
  }),
  rotateWebhookSigningSecret: harborAccount,
  createPresignedUrl: () => ({ body: {} }),
  createSubscriptionImport: (c) => ({
    ...harborAccount(c),
    body: { file: 'not-a-signed-id', file_name: 'eins.csv', file_size: 10 },
  }),
  downloadSubscriptionImportResults: (c) => ({
    params: { id: c.harbor, import_id: '00000000-0000-4000-8000-0000000000aa' },
  }),
  searchesByDay: none,
  additionsByDay: none,
  searchesBySource: none,
  hitsByCategory: none,
  totalNotes: none,
  totalMerchants: none,
  totalMembers: none,
  totalUsers: none,
  totalMonthlyRevenue: none,
  recentMerchantsByCategory: none,
  topContributors: none,
  bottomContributors: none,
  dashboardWidgets: none,
  getApiToken: () => ({ body: {} }),
  partnerSearchMerchants: () => ({ params: { key: '010000001' } }),
  partnerAddMerchant: () => ({ body: {} }),
  partnerAddNote: () => ({ body: {} }),
  partnerSubscribe: () => ({ body: {} }),
  partnerGetSubscription: () => ({ params: { fein: '123456789' } }),
  partnerDeleteSubscription: () => ({ params: { fein: '123456789' } }),
  partnerSearchWithAdditionalData: () => ({ params: { key: '010000001' } }),
  partnerAddMerchantWithAdditionalData: () => ({ body: {} }),
  partnerAddNoteWithAdditionalData: () => ({ body: {} }),
  partnerSearchHistory: () => ({ params: { fein: '123456789' } }),
  partnerLinkedMerchants: () => ({ params: { fein: '123456789' } }),
  createScreening: () => ({ body: {} }),
  listScreenings: none,
  getScreening: () => id(NO_SCREENING),
  listScreeningRows: () => id(NO_SCREENING),
  downloadScreeningCsv: () => id(NO_SCREENING),
  downloadScreeningPdf: () => id(NO_SCREENING),
  listScreeningHits: () => id(NO_SCREENING),
  addMerchantSubscriptions: (c) => ({ ...harborAccount(c), body: { feins: ['440000009'] } }),
  partnerCreateScreening: () => ({ body: {} }),
  partnerGetScreening: () => id(NO_SCREENING),
  partnerScreeningResults: () => id(NO_SCREENING),
};

let server: TestServer;
const tokens: Partial<Record<Role, string>> = {};
let ctx: Ctx;

async function signIn(role: Role): Promise<{ userId: string; accountId: string } | undefined> {
  const email = ROLES[role].email;
  if (!email) return undefined;
  const password = role === 'platformAdmin' ? TEST_ADMIN.password : DEMO_PASSWORD;
  const res = await server.call({
    method: 'POST',
    url: routes.login.path,
    payload: { auth: { email, password } },
  });
  tokens[role] = res.body.data.jwt;
  return { userId: res.body.data.user.resource_id, accountId: res.body.data.user.account_resource_id };
}

beforeAll(async () => {
  server = await startTestServer({ demo: true, via: 'gateway' });
  const who: Partial<Record<Role, { userId: string; accountId: string } | undefined>> = {};
  for (const role of Object.keys(ROLES) as Role[]) who[role] = await signIn(role);
  const as = (role: Role) => tokens[role]!;
  const merchant = async (fein: string) =>
    (
      await server.call({
        method: 'POST',
        url: routes.addMerchant.path,
        token: as('member'),
        payload: {
          merchant: { fein, legal_name: `Matrix ${fein}`, city: 'Tampa', state: 'FL' },
          note: { category: 'Slow Pay', note: 'Matrix note.', submission_source: 'in-house' },
        },
      })
    ).body.data.resource_id as string;
  const firstNote = async (merchantId: string) =>
    (
      await server.call({
        method: 'GET',
        url: buildPath(routes.listMerchantNotes.path, { id: merchantId }),
        token: as('member'),
      })
    ).body.data[0].resource_id as string;
  const main = await merchant('44-0000001');
  const spare = await merchant('44-0000002');
  const victimUser = await server.call({
    method: 'POST',
    url: buildPath(routes.createUser.path, { id: who.accountAdmin!.accountId }),
    token: as('accountAdmin'),
    payload: { user: { first_name: 'Vic', last_name: 'Tim', email: 'vic.tim@harboradvance.example' } },
  });
  const target = await server.call({
    method: 'POST',
    url: routes.createAccount.path,
    token: as('platformAdmin'),
    payload: {
      account: {
        name: 'Matrix Target',
        website: 'matrix.example',
        primary_contact_email: 'ops@matrix.example',
      },
    },
  });
  ctx = {
    self: Object.fromEntries(
      (Object.keys(ROLES) as Role[]).map((r) => [r, who[r]?.userId ?? who.member!.userId]),
    ) as Record<Role, string>,
    harbor: who.accountAdmin!.accountId,
    victim: victimUser.body.data.resource_id,
    platformTarget: target.body.data.resource_id,
    merchant: main,
    note: await firstNote(main),
    spareMerchant: spare,
    spareNote: await firstNote(spare),
  };
});
afterAll(async () => {
  await server.close();
});

/**
 * Who may call each route, as the specs say (access, and +PRO where a plan applies). Written out, not
 * read from the table: the matrix derives outcomes from the table, and this pins the table to the specs,
 * so opening a route to more callers fails here.
 */
const SPEC_ACCESS: Record<RouteName, string> = {
  login: 'anonymous',
  autoLogin: 'session',
  logout: 'session',
  getAppSettings: 'session',
  updateAppSettings: 'platform_admin',
  searchMerchants: 'member',
  merchantCheckExists: 'member',
  searchCounts: 'member+PRO',
  listMerchants: 'platform_admin',
  addMerchant: 'member',
  getMerchant: 'member',
  listLinkedMerchants: 'member',
  merchantInquiryAudit: 'platform_admin',
  listBrokers: 'member+PRO',
  getBroker: 'member+PRO',
  updateMerchant: 'member',
  archiveMerchant: 'platform_admin',
  merchantHistory: 'platform_admin',
  listMerchantNotes: 'member',
  listDeletedMerchants: 'platform_admin',
  getDeletedMerchant: 'platform_admin',
  listDeletedNotes: 'platform_admin',
  addNote: 'member',
  updateNote: 'member',
  archiveNote: 'platform_admin',
  requestNoteDeletion: 'member',
  listReportedNotes: 'platform_admin',
  recentNotes: 'member',
  otpNew: 'session',
  otpRegister: 'session',
  otpVerify: 'session',
  dashboardUpdates: 'session',
  listAccounts: 'platform_admin',
  createAccount: 'platform_admin',
  getAccount: 'account_admin',
  updateAccount: 'account_admin',
  archiveAccount: 'platform_admin',
  grantAccountApiAccess: 'platform_admin',
  revokeAccountApiAccess: 'platform_admin',
  startTrial: 'platform_admin',
  cancelTrial: 'platform_admin',
  toggleAccountMfaRequired: 'platform_admin',
  // Accounts spec §2 (Contribution panel): Recalculate for the account's admins, the override for staff.
  toggleContributionOverride: 'platform_admin',
  recalculateContribution: 'account_admin',
  // Accounts spec §6: every member sees their own funder's contribution (the handler refuses another's).
  getAccountContribution: 'member',
  // Accounts spec §2, §7: billing is the account admin's (and platform admins'); the card panel's
  // configuration is needed on /membership, before the membership exists.
  createSubscription: 'account_admin',
  cancelSubscription: 'account_admin',
  upgradeSubscription: 'account_admin',
  downgradeSubscription: 'account_admin',
  previewPlanChange: 'account_admin',
  listInvoices: 'account_admin',
  getPaymentMethod: 'account_admin',
  getBillingUpdateUrl: 'account_admin',
  getBillingConfig: 'session',
  exportContacts: 'platform_admin',
  listMemberFunders: 'member',
  listAccountUsers: 'account_admin',
  createUser: 'account_admin',
  getUser: 'member',
  updateUser: 'member',
  archiveUser: 'account_admin',
  restoreUser: 'account_admin',
  toggleUserAdmin: 'account_admin',
  toggleUserMfaRequired: 'account_admin',
  grantUserApiAccess: 'account_admin',
  regenerateApiKey: 'account_admin',
  revokeUserApiAccess: 'account_admin',
  getApiCredentials: 'account_admin',
  forgetDevice: 'member',
  resetMfa: 'member',
  agreeToTerms: 'member',
  changePassword: 'member',
  adminChangePassword: 'account_admin',
  forgotPassword: 'anonymous',
  passwordReset: 'anonymous',
  createDispute: 'anonymous',
  listDisputes: 'platform_admin',
  // Issue 13: the dispute queue and its work are platform administrators' alone.
  getDispute: 'platform_admin',
  assignDispute: 'platform_admin',
  startDisputeReview: 'platform_admin',
  addDisputeComment: 'platform_admin',
  resolveDispute: 'platform_admin',
  listDevMailbox: 'platform_admin',
  resetSandbox: 'platform_admin',
  // Accounts spec §2, §6: merchant subscriptions are for the admins of a PRO account with them enabled
  // (enabled is checked against the account by the handlers) and platform admins.
  listMerchantSubscriptions: 'account_admin+PRO',
  exportMerchantSubscriptions: 'account_admin+PRO',
  addMerchantSubscription: 'account_admin+PRO',
  // Core spec §6, §7: the merchant page's Subscription Enabled switch (its toggle call), for the admins
  // of a PRO account with subscriptions enabled.
  toggleMerchantSubscription: 'account_admin+PRO',
  deleteSelectedMerchantSubscriptions: 'account_admin+PRO',
  deleteAllMerchantSubscriptions: 'account_admin+PRO',
  listSubscriptionImports: 'account_admin+PRO',
  listWebhookDeliveries: 'account_admin+PRO',
  getWebhookDelivery: 'account_admin+PRO',
  redeliverWebhook: 'account_admin+PRO',
  rotateWebhookSigningSecret: 'account_admin+PRO',
  createPresignedUrl: 'account_admin+PRO',
  createSubscriptionImport: 'account_admin+PRO',
  downloadSubscriptionImportResults: 'account_admin+PRO',
  // Accounts spec §7: the partner API, with API tokens; submission sources, subscriptions and search
  // history are PRO.
  // Accounts spec §6: every member sees their own account's analytics (the handlers refuse another's).
  searchesByDay: 'member',
  additionsByDay: 'member',
  searchesBySource: 'member',
  hitsByCategory: 'member',
  // Accounts spec §2, §9: the dashboard widgets are the platform admins'.
  totalNotes: 'platform_admin',
  totalMerchants: 'platform_admin',
  totalMembers: 'platform_admin',
  totalUsers: 'platform_admin',
  totalMonthlyRevenue: 'platform_admin',
  recentMerchantsByCategory: 'platform_admin',
  topContributors: 'platform_admin',
  bottomContributors: 'platform_admin',
  dashboardWidgets: 'platform_admin',
  getApiToken: 'anonymous',
  partnerSearchMerchants: 'api',
  partnerAddMerchant: 'api',
  partnerAddNote: 'api',
  partnerSubscribe: 'api+PRO',
  partnerGetSubscription: 'api+PRO',
  partnerDeleteSubscription: 'api+PRO',
  partnerSearchWithAdditionalData: 'api+PRO',
  partnerAddMerchantWithAdditionalData: 'api+PRO',
  partnerAddNoteWithAdditionalData: 'api+PRO',
  partnerSearchHistory: 'api+PRO',
  partnerLinkedMerchants: 'api',
  // Issue 32: portfolio screening is PRO, for any member of the account (its report is the account's);
  // watching every hit at once is the subscription admins' call, as watching one EIN is.
  createScreening: 'member+PRO',
  listScreenings: 'member+PRO',
  getScreening: 'member+PRO',
  listScreeningRows: 'member+PRO',
  downloadScreeningCsv: 'member+PRO',
  downloadScreeningPdf: 'member+PRO',
  listScreeningHits: 'member+PRO',
  addMerchantSubscriptions: 'account_admin+PRO',
  partnerCreateScreening: 'api+PRO',
  partnerGetScreening: 'api+PRO',
  partnerScreeningResults: 'api+PRO',
};

const ROUTE_REFUSALS = new Set<string>([
  MESSAGES.notAllowed,
  PRO_ONLY,
  'Multi-factor authentication is required.',
]);

describe('authorisation matrix from the route table', () => {
  it('has a fixture for every route', () => {
    expect(Object.keys(FIXTURES).sort()).toEqual(Object.keys(routes).sort());
  });

  it('declares for every route the access the specs give it', () => {
    const declared = Object.fromEntries(
      (Object.entries(routes) as [string, RouteSpec][]).map(([name, r]) => [
        name,
        `${r.access}${r.plan ? `+${r.plan}` : ''}`,
      ]),
    );
    expect(declared).toEqual(SPEC_ACCESS);
  });

  const cases = (Object.entries(routes) as [RouteName, RouteSpec][]).flatMap(([name, spec]) =>
    (Object.keys(ROLES) as Role[]).map((role) => [name, role, spec] as const),
  );

  it.each(cases)('%s as %s', async (name, role, spec) => {
    const fixture = FIXTURES[name](ctx, role);
    const want = expected(name, spec, role);
    const send = () =>
      server.call({
        method: spec.method,
        url: buildPath(spec.path, fixture.params ?? {}) + queryOf(fixture),
        ...(tokens[role] ? { token: tokens[role] } : {}),
        ...(fixture.body !== undefined ? { payload: fixture.body as object } : {}),
        remoteAddress: `10.200.0.${Object.keys(ROLES).indexOf(role)}`,
      });
    const res = await send();
    const errors = typeof res.body === 'object' ? res.body?.errors : undefined;
    // The partner API lists its errors ({ field, message }); the dashboard's is one text.
    const text = Array.isArray(errors) ? errors[0]?.message : errors;
    const where = `${spec.method} ${spec.path} as ${role}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
    if (want === 'allowed') {
      expect(res.status === 401 && text === MESSAGES.sessionEnded, where).toBe(false);
      expect(res.status === 403 && ROUTE_REFUSALS.has(text), where).toBe(false);
    } else if (want === 404) {
      expect(res.status, where).toBe(404);
      // Exactly the answer a made-up id gets.
      const missing = await server.call({
        method: spec.method,
        url:
          buildPath(spec.path, { ...fixture.params, id: '00000000-0000-4000-8000-0000000000ff' }) +
          queryOf(fixture),
        token: tokens[role],
        ...(fixture.body !== undefined ? { payload: fixture.body as object } : {}),
      });
      expect(missing.body.errors, where).toBe(text);
    } else {
      expect({ status: res.status, text }, where).toEqual(want);
    }
    // A sign-out ends the caller's session, and so does Cancel Membership for the funder's own users
    // (the demo's Harbor pays through billing, so its admin's cancel goes through): the next routes
    // need a new one.
    const ended = name === 'logout' || (name === 'cancelSubscription' && res.status === 200);
    if (ended && tokens[role]) await signIn(role);
  });
});
