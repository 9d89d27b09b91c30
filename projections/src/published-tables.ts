import type { PublishedTable } from '@mrn/platform';

/**
 * The read models projections makes for other packages (issue 22, DESIGN §2). Only projections writes
 * them (its projectors, its rebuild and its migrations); the packages named here read them, and
 * server/src/architecture/table-ownership.test.ts fails on any other package's SQL over them. A change
 * of one of these tables' columns is a change to its readers too.
 *
 * The query side serves every dashboard and partner API read from read models (DESIGN §1): query-api
 * reads most of them. Nothing here is for the command side to decide from (it decides from streams):
 * what command-api reads it shows, mails, or (the contribution clock, a process manager) turns into a
 * command's input, which the account's own stream then decides on.
 */
const QUERY = 'query-api';

export const publishedTables: readonly PublishedTable[] = [
  {
    table: 'read.accounts',
    readers: [QUERY, 'platform', 'command-api'],
    why: "query-api: funder lists, details, plan and lock checks of reads; platform: the session check of every request (plan level, archived funder); command-api: the contribution clock's list of open funders to assess (each account's stream decides)",
  },
  {
    table: 'read.users',
    readers: [QUERY, 'platform', 'webhook-dispatcher'],
    why: 'query-api: members, adders and partner credentials; platform: the session check (roles, session version, archived user); webhook-dispatcher: the admins to e-mail when an endpoint is disabled',
  },
  {
    table: 'read.account_mail_recipients',
    readers: ['command-api'],
    why: "command-api's e-mails about a funder (failed renewal, contribution warning): its admins, or its primary contact",
  },
  {
    table: 'read.account_contribution',
    readers: [QUERY, 'command-api'],
    why: "query-api: the contribution figures and the search lock; command-api: the figure shown in the signed-in user's view (login, MFA), not decided from",
  },
  {
    table: 'read.contribution_in_window()',
    readers: [QUERY, 'command-api'],
    why: 'query-api: what the 90-day figure is made of, on the contribution page; command-api: what the figure is made of (records added, merchants searched) in the contribution warning e-mail',
  },
  {
    table: 'read.contribution_percent()',
    readers: ['command-api'],
    why: "command-api: the contribution clock (and a Recalculate) reads a funder's 90-day figure, a sum over thousands of other streams, and sends it as AssessContribution's input; the account's stream decides the warning, lock or lift",
  },
  {
    table: 'read.merchant_subscriptions',
    readers: [QUERY, 'command-api'],
    why: "query-api: watch flags; command-api: the daily expiry pass finds the accounts to look at (each account's stream decides). The watched EINs page, which query-api lists and command-api answers a deletion with, is projections' own query (src/published/)",
  },
  {
    table: 'read.merchants',
    readers: [QUERY],
    why: "query-api: search, merchant pages, disputes, widgets (the merchant beside each watched EIN is in projections' own watched EINs page, src/published/)",
  },
  {
    table: 'read.merchant_subscription_imports',
    readers: [QUERY],
    why: 'the imports list of merchant subscriptions',
  },
  { table: 'read.notes', readers: [QUERY], why: 'merchant pages and the partner API' },
  { table: 'read.merchant_words', readers: [QUERY], why: 'keyword search by name' },
  {
    table: 'read.merchant_keywords',
    readers: [QUERY],
    why: 'keyword search by name: the intersection of two words or more',
  },
  {
    table: 'read.keyword_matches()',
    readers: [QUERY],
    why: 'keyword search by name: the look-up of read.merchant_keywords, run with the settings it needs',
  },
  { table: 'read.search_words', readers: [QUERY], why: 'keyword search by name' },
  {
    table: 'read.merchant_searches',
    readers: [QUERY, 'webhook-dispatcher'],
    why: "query-api: search history and the partner API; webhook-dispatcher: the being-shopped figures, distinct other funders' look-ups as of a look-up's time",
  },
  { table: 'read.ein_searches', readers: [QUERY], why: 'search history and the partner API' },
  {
    table: 'read.inquiry_velocity()',
    readers: [QUERY],
    why: 'inquiry velocity on search answers, merchant pages and the partner API (from read.merchant_inquiries)',
  },
  {
    table: 'read.merchant_signals',
    readers: [QUERY],
    why: 'risk signals (issue 32) on search answers, merchant pages, linked merchants and the partner API: one row per merchant, windows counted when read',
  },
  {
    table: 'read.signal_disputes',
    readers: [QUERY],
    why: "risk signals: a merchant's open and resolved disputes, by EIN",
  },
  {
    table: 'read.broker_notes',
    readers: [QUERY],
    why: 'broker records (PRO): the Brokers page and notes naming a broker',
  },
  {
    table: 'read.merchant_link_keys',
    readers: [QUERY],
    why: 'linked merchants (same phone or address) on merchant pages and the partner API',
  },
  {
    table: 'read.watched_lookups',
    readers: ['webhook-dispatcher'],
    why: 'the being-shopped alerts: look-ups of watched merchants, fed by the search log (the dispatcher reads no search)',
  },
  {
    table: 'read.search_watch_candidates',
    readers: ['command-api'],
    why: 'the search-watch reactor: merchants identified by the searches of accounts that watch what they search (issue 31)',
  },
  { table: 'read.disputes', readers: [QUERY], why: 'the disputes list and pages' },
  { table: 'read.dispute_comments', readers: [QUERY], why: 'a dispute page' },
  { table: 'read.app_settings', readers: [QUERY], why: 'the dashboard message and settings' },
  { table: 'read.analytics_daily', readers: [QUERY], why: 'analytics' },
  { table: 'read.analytics_daily_searches', readers: [QUERY], why: 'analytics: searches by day and source' },
  { table: 'read.analytics_daily_hits', readers: [QUERY], why: 'analytics' },
  { table: 'read.widget_merchants', readers: [QUERY], why: 'admin dashboard widgets' },
  { table: 'read.widget_account_counts', readers: [QUERY], why: 'admin dashboard widgets' },
  { table: 'read.widget_category_counts', readers: [QUERY], why: 'admin dashboard widgets' },
];
