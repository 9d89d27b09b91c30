import { INQUIRY_WINDOW_DAYS } from './inquiries.ts';
import type { MembershipStatus, PlanLevel } from './plan-levels.ts';
import { SCREENING_MAX_EINS } from './screening.ts';
import { SHOPPED_THRESHOLD, SHOPPED_WINDOW_DAYS } from './shopped-alerts.ts';

export { MEMBERSHIP_STATUSES, type MembershipStatus, PLAN_LEVELS, type PlanLevel } from './plan-levels.ts';

/** Plans and their limits: the one place prices live (DESIGN §4: PRO is $945 everywhere). */

export const PLANS = {
  BASIC: { priceCents: 69_500, dailySearchLimit: 3000, keywordMatchLimit: 5 },
  PRO: { priceCents: 94_500, dailySearchLimit: null, keywordMatchLimit: 25 },
} as const satisfies Record<
  PlanLevel,
  { priceCents: number; dailySearchLimit: number | null; keywordMatchLimit: number }
>;

/**
 * PRO data (search history, a note's submission source and broker name): PRO accounts and platform
 * administrators (core spec §6, accounts spec §1). Decided here once: the web page, the dashboard API
 * and the partner API must never disagree about who sees it.
 */
export const seesProData = (viewer: { planLevel: PlanLevel; isPlatformAdmin: boolean }): boolean =>
  viewer.planLevel === 'PRO' || viewer.isPlatformAdmin;

export const hasActiveMembership = (status: MembershipStatus) => status === 'active' || status === 'trialing';

/** Minimum 90-day contribution percentage to search, and the display colour bands. */
export const MIN_CONTRIBUTION_PERCENT = 0.5;
export function contributionColour(percent: number): 'red' | 'orange' | 'green' {
  if (percent < MIN_CONTRIBUTION_PERCENT || percent === 0) return 'red';
  if (percent <= 1) return 'orange';
  return 'green';
}

/** What a plan has of a feature: included (true), not (false), or a phrase ("Up to 5", "Coming soon"). */
export type PlanOffer = boolean | string;
/** What PRO has of a feature announced but not released yet. */
export const COMING_SOON = 'Coming soon';

export interface ProFeature {
  key: string;
  /** The plan table's row. */
  name: string;
  /** Its title on /pro, where it differs from the row's label. */
  title?: string;
  /** /pro's sections: what PRO tells about a merchant, and what it lets a team do. */
  group: 'signals' | 'tools';
  /** The feature inside a sentence ("Everything in BASIC, plus …"). */
  phrase: string;
  /** What it gives a funder, in a sentence or two: /pro's cards and the upgrade pages. */
  description: string;
  basic: PlanOffer;
  pro: PlanOffer;
  /** Announced, not released yet: PRO's, but not there to use today. */
  coming?: true;
}

const count = (n: number) => n.toLocaleString('en-US');
/** "7, 30 and 90". */
const days = (windows: readonly number[]) => `${windows.slice(0, -1).join(', ')} and ${windows.at(-1)}`;
const BASIC_SEARCHES = PLANS.BASIC.dailySearchLimit;
export const PORTFOLIO_SCREENING_MAX_EINS = SCREENING_MAX_EINS;

/**
 * What PRO gives, one list for every place that says it (issue 32): the plan table of /pro, /membership
 * and the Membership tab, /pro's cards, the PRO banner and the upgrade pages. A feature both plans have
 * says so (`basic: true`), so no page sells BASIC's own features as PRO's. The limits come from `PLANS`.
 */
export const PRO_FEATURES: readonly ProFeature[] = [
  {
    key: 'searches',
    name: 'Searches per day',
    title: 'Unlimited daily searches',
    group: 'tools',
    phrase: 'unlimited searches',
    description: `Search as often as your team needs; BASIC allows up to ${count(BASIC_SEARCHES)} a day.`,
    basic: `Up to ${count(BASIC_SEARCHES)}`,
    pro: 'Unlimited',
  },
  {
    key: 'keyword_matches',
    name: 'Keyword search matches',
    title: `${PLANS.PRO.keywordMatchLimit} keyword matches`,
    group: 'tools',
    phrase: `up to ${PLANS.PRO.keywordMatchLimit} keyword matches`,
    description: `Legal-name searches return up to ${PLANS.PRO.keywordMatchLimit} merchants instead of ${PLANS.BASIC.keywordMatchLimit}.`,
    basic: `Up to ${PLANS.BASIC.keywordMatchLimit}`,
    pro: `Up to ${PLANS.PRO.keywordMatchLimit}`,
  },
  {
    key: 'inquiry_velocity',
    name: 'Inquiry velocity',
    group: 'signals',
    phrase: 'inquiry velocity',
    description: `How many other funders looked a merchant up in the last ${days(INQUIRY_WINDOW_DAYS)} days, in search results and on the merchant page: a merchant shopping for several advances at once. Counts only, never which funders.`,
    basic: false,
    pro: true,
  },
  {
    key: 'shopped_alerts',
    name: 'Being-shopped alerts',
    group: 'signals',
    phrase: 'being-shopped alerts',
    description: `An e-mail and a merchant.shopped webhook when the number of other funders looking up a merchant you watch within ${SHOPPED_WINDOW_DAYS} days reaches your threshold (${SHOPPED_THRESHOLD.default}, or any from ${SHOPPED_THRESHOLD.min} to ${SHOPPED_THRESHOLD.max}).`,
    basic: false,
    pro: true,
  },
  {
    key: 'risk_signal_alerts',
    name: 'Risk-signal alerts',
    group: 'signals',
    phrase: 'risk-signal alerts',
    description:
      "A merchant.signals_changed webhook when another funder's note gives a merchant you watch a category it did not have, or one more funder reports it, with its signals before and after.",
    basic: false,
    pro: true,
  },
  {
    key: 'linked_merchants',
    name: 'Linked merchants (possibly the same business)',
    title: 'Linked merchants',
    group: 'signals',
    phrase: 'linked merchants',
    description:
      "Other EINs that share a merchant's business phone or street address: possibly the same business under another name.",
    basic: true,
    pro: true,
  },
  {
    key: 'broker_records',
    name: 'Broker records',
    group: 'signals',
    phrase: 'broker records',
    description:
      'Each broker (ISO) as the notes name it, with the merchants it brought and how many of them defaulted, were stacked or looked fraudulent.',
    basic: false,
    pro: true,
  },
  {
    key: 'search_history',
    name: 'EIN search history',
    group: 'signals',
    phrase: 'EIN search history',
    description:
      'How often the network searched a merchant over the last six months, even before anyone reported it: a stacking signal.',
    basic: false,
    pro: true,
  },
  {
    key: 'submission_source',
    name: 'Submission source data',
    group: 'signals',
    phrase: 'submission source data',
    description: 'Whether a record came in-house/retail or through a broker/ISO, and which broker.',
    basic: false,
    pro: true,
  },
  {
    key: 'merchant_subscriptions',
    name: 'Merchant subscriptions (e-mail and webhook alerts)',
    title: 'Merchant subscriptions',
    group: 'tools',
    phrase: 'merchant subscriptions',
    description:
      'Watch EINs, one at a time or thousands from a CSV file, and get an e-mail or a signed webhook the moment another member reports on them.',
    basic: false,
    pro: true,
  },
  {
    key: 'api',
    name: 'API access',
    group: 'tools',
    phrase: 'API access',
    description:
      'Search and report from your own systems with the partner REST API, with a sandbox to try it first.',
    basic: 'Limited',
    pro: true,
  },
  {
    key: 'portfolio_screening',
    name: 'Portfolio screening',
    group: 'tools',
    phrase: 'portfolio screening',
    description: `Upload up to ${count(PORTFOLIO_SCREENING_MAX_EINS)} EINs at once (or screen the EINs you watch) and get a report on your whole book from the network's records: each merchant's risk signals, worst first, the exposure by category, as CSV and PDF.`,
    basic: false,
    pro: true,
  },
];

/** "Everything in BASIC, plus unlimited searches, …, and portfolio screening." */
export function proFeatureSentence(): string {
  const phrases = PRO_FEATURES.filter((f) => f.basic !== true).map((f) => f.phrase);
  return `Everything in BASIC, plus ${phrases.slice(0, -1).join(', ')} and ${phrases.at(-1)}.`;
}
