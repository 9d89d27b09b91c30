import type { EventData } from '../events/index.ts';
import { identifiedMerchant } from './search-watch.ts';

/**
 * Inquiry velocity (issue 24): how many distinct other funders looked a merchant up in the last 7, 30
 * and 90 days, the way hard inquiries on a credit file warn a reviewer of a borrower shopping for
 * credit. Counts only: never which funders.
 */
export const INQUIRY_WINDOW_DAYS = [7, 30, 90] as const;

/**
 * The merchant a search inquired about, if it counts: one it identified (an EIN search that found it,
 * or a keyword search that found it alone: a list of 25 names is browsing, not underwriting), by a
 * funder, not a platform administrator. Sandbox searches are recorded in the sandbox's own log and
 * never reach these figures.
 */
export const inquiredMerchant = (search: EventData<'MerchantSearched'>): string | undefined =>
  search.platformAdmin ? undefined : identifiedMerchant(search);

export const INQUIRY_TEXTS = {
  what: 'Distinct other funders that looked this merchant up (by EIN, or by a name that found only it). Your own searches are not counted, and no funder is named.',
  upgrade:
    'PRO shows how many other funders looked this merchant up in the last 7, 30 and 90 days: a merchant shopping for several advances at once. Upgrade to PRO to see it.',
} as const;
