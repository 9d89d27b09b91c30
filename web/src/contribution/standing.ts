import {
  CONTRIBUTION_TEXTS,
  type ContributionView,
  contributionMadeOf,
  MIN_CONTRIBUTION_PERCENT,
  moreRecords,
  overHundredExplained,
} from '@mrn/contracts';
import { formatDateTime } from '../merchants/format.ts';
import { formatContribution } from './display.ts';

/**
 * Where a funder stands with the contribution rule, as its members are told on every page:
 * - `locked`: search is refused now (below the minimum, locked or past the warning's expiry, no override);
 * - `warned`: below the minimum with a warning running: search locks at its expiry;
 * - `overridden`: a platform administrator's override keeps search open whatever the figure;
 * - `ok`: at or above the minimum (a warning about to be lifted included: its records brought it back).
 */
export type Standing = 'ok' | 'warned' | 'locked' | 'overridden';

export function standingOf(view: ContributionView): Standing {
  if (view.search_locked) return 'locked';
  if (view.contribution_override) return 'overridden';
  const below = view.total_ninety_days_contribution_percentage < MIN_CONTRIBUTION_PERCENT;
  if (below && view.contribution_warning_expire_date) return 'warned';
  return 'ok';
}

/** "adding 3 more merchants or notes", or nothing when the figure is there already. */
const whatAvoids = (view: ContributionView): string =>
  view.contribution_records_needed > 0
    ? `Adding ${moreRecords(view.contribution_records_needed)} brings it back to ${MIN_CONTRIBUTION_PERCENT}% now.`
    : '';

/** The banner every member of the funder sees on every page, and the pill's tooltip, in the same words. */
export interface StandingNotice {
  title: string;
  body: string;
}

export function noticeOf(view: ContributionView): StandingNotice | null {
  const figure = formatContribution(view.total_ninety_days_contribution_percentage);
  const min = `${MIN_CONTRIBUTION_PERCENT}%`;
  switch (standingOf(view)) {
    case 'warned':
      return {
        title: `Search locks on ${formatDateTime(view.contribution_warning_expire_date)} unless your contribution is back at ${min}`,
        body: [
          `${view.account_name}'s 90-day contribution is ${figure}, below the ${min} minimum.`,
          `If it is still below then, merchant search is locked for every member until it is back at ${min} or a platform administrator overrides the requirement.`,
          whatAvoids(view),
        ]
          .filter(Boolean)
          .join(' '),
      };
    case 'locked':
      return {
        title: `Merchant search is locked for ${view.account_name}`,
        body: [
          `The 90-day contribution is ${figure}, below the ${min} minimum, and the warning expired on ${formatDateTime(view.contribution_warning_expire_date)}.`,
          `Search opens again as soon as the figure is back at ${min}, or if a platform administrator overrides the requirement.`,
          whatAvoids(view),
        ]
          .filter(Boolean)
          .join(' '),
      };
    default:
      return null;
  }
}

/** The top bar pill's tooltip: the notice in brief, or what the figure means when all is well. */
export function tooltipOf(view: ContributionView | undefined, percent: number): string {
  const min = `${MIN_CONTRIBUTION_PERCENT}%`;
  if (!view) return `Minimum upload percentage to search is ${min}.`;
  switch (standingOf(view)) {
    case 'warned':
      return `Below the ${min} minimum: search locks on ${formatDateTime(view.contribution_warning_expire_date)}. ${whatAvoids(view)} Open for details.`;
    case 'locked':
      return `Search is locked: below the ${min} minimum since the warning expired. ${whatAvoids(view)} Open for details.`;
    case 'overridden':
      return `${CONTRIBUTION_TEXTS.overridden} Open for details.`;
    default:
      return percent > 100
        ? `${overHundredExplained(view.contribution_records_added, view.contribution_merchants_searched)} Open for details.`
        : `${contributionMadeOf(view.contribution_records_added, view.contribution_merchants_searched)} in the last 90 days. Minimum upload percentage to search is ${min}. Open for details.`;
  }
}
