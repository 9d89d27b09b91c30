import { formatEinInput, isEinSearch } from '@mrn/contracts';

/** Screen routes of both specs (core §2, accounts §2). API paths live in contracts. */
export const PATHS = {
  login: '/login',
  gateway: '/gateway',
  logout: '/logout',
  forgotPassword: '/forgot_password',
  passwordReset: '/password_reset',
  termsOfUse: '/terms_of_use',
  privacyPolicy: '/privacy_policy',
  pro: '/pro',
  dispute: '/dispute',
  disputeProcess: '/dispute_process',
  developers: '/developers',
  notFound: '/not-found',

  mfaRegistration: '/mfa_registration',
  mfaVerification: '/mfa_verification',
  membership: '/membership',
  agreeToTerms: '/agree_to_terms',

  dashboard: '/dashboard',
  dashboardOld: '/dashboardold',
  analytics: '/analytics',
  /** The funder's contribution, for every member (accounts spec §6). */
  contribution: '/contribution',
  members: '/members',
  profile: '/profile',
  search: '/search',
  newMerchant: '/merchants/new',
  merchant: '/merchants/:id',
  brokers: '/brokers',
  broker: '/brokers/:key',
  /** Portfolio screening (issue 32, PRO): start one, the list of past ones, and each one's report. */
  screenings: '/screenings',
  screening: '/screenings/:id',

  account: '/account',
  newAccountMember: '/account/members/new',
  accountMember: '/account/members/:id',
  merchantSubscriptions: '/merchant_subscriptions',
  merchantSubscriptionImports: '/merchant_subscription_imports',
  merchantSubscriptionWebhookLogs: '/merchant_subscription_webhook_logs',

  funders: '/funders',
  newFunder: '/funders/new',
  funder: '/funders/:id',
  newFunderMember: '/funders/:funderId/members/new',
  funderMember: '/funders/:funderId/members/:id',
  merchants: '/merchants',
  deletedMerchants: '/deleted-merchants',
  deletedMerchant: '/deleted-merchants/:id',
  settings: '/settings',
  disputes: '/disputes',
  disputeDetail: '/disputes/:id',
  mailbox: '/mailbox',
} as const;

export const searchPath = (term: string): string => `${PATHS.search}?search=${encodeURIComponent(term)}`;

/** /brokers/{key}: a broker's record, by its normalised name. */
export const brokerPath = (key: string): string => `/brokers/${encodeURIComponent(key)}`;

/** /screenings/{id}: a screening's report. */
export const screeningPath = (id: string): string => `/screenings/${encodeURIComponent(id)}`;

/** /merchants/{id}, with `?highlight={noteId}` to mark one note row. */
export const merchantPath = (id: string, highlightNoteId?: string): string =>
  `/merchants/${encodeURIComponent(id)}${highlightNoteId ? `?highlight=${encodeURIComponent(highlightNoteId)}` : ''}`;

/**
 * A merchant's page with its notes narrowed to those a risk signal was counted from (issue 32): a group,
 * or `satisfied` (what made a default cured), in a window.
 */
export const signalNotesPath = (id: string, kind: string, window: string): string =>
  `/merchants/${encodeURIComponent(id)}?signal=${encodeURIComponent(kind)}&window=${encodeURIComponent(window)}#notes`;

export const funderPath = (id: string, tab?: string): string =>
  `/funders/${encodeURIComponent(id)}${tab ? `?tab=${encodeURIComponent(tab)}` : ''}`;

/** A member's edit page: under the funder for platform administrators, under /account for account admins. */
export const memberPath = (member: { id: string | null; funderId: string | null }): string => {
  const tail = member.id ? encodeURIComponent(member.id) : 'new';
  return member.funderId
    ? `/funders/${encodeURIComponent(member.funderId)}/members/${tail}`
    : `/account/members/${tail}`;
};

/** A dispute of the platform administrators' queue. */
export const disputePath = (id: string): string => `/disputes/${encodeURIComponent(id)}`;

export const deletedMerchantPath = (id: string): string => `/deleted-merchants/${encodeURIComponent(id)}`;

/** /merchants/new, pre-filled from a search that found nothing: its EIN, or else its words as legal name. */
export const newMerchantPath = (term?: string): string => {
  const typed = term?.trim();
  if (!typed) return PATHS.newMerchant;
  const param = isEinSearch(typed)
    ? `fein=${encodeURIComponent(formatEinInput(typed))}`
    : `legal_name=${encodeURIComponent(typed)}`;
  return `${PATHS.newMerchant}?${param}`;
};

/** Pages anyone may open; a visit to one of them is never remembered as the attempted route. */
const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  PATHS.login,
  PATHS.gateway,
  PATHS.logout,
  PATHS.forgotPassword,
  PATHS.passwordReset,
  PATHS.termsOfUse,
  PATHS.privacyPolicy,
  PATHS.pro,
  PATHS.dispute,
  PATHS.disputeProcess,
  PATHS.developers,
  PATHS.notFound,
]);

/** The sign-in steps (core §4): reached through post-login routing, not worth returning to. */
const SESSION_STEP_PATHS: ReadonlySet<string> = new Set([
  PATHS.mfaRegistration,
  PATHS.mfaVerification,
  PATHS.membership,
  PATHS.agreeToTerms,
]);

const withoutTrailingSlash = (pathname: string) =>
  pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;

/** Whether a visited route is one to come back to after signing in. */
export const isReturnableRoute = (route: string): boolean => {
  const pathname = withoutTrailingSlash(route.split(/[?#]/)[0] ?? '');
  // A leading "//" would be another host.
  const isLocal = pathname.startsWith('/') && !pathname.startsWith('//');
  return isLocal && !PUBLIC_PATHS.has(pathname) && !SESSION_STEP_PATHS.has(pathname);
};
