import { MIN_CONTRIBUTION_PERCENT } from './plans.ts';

/**
 * The contribution rule (DESIGN §4, accounts spec §2–§4), what the server decides and what every screen
 * and e-mail says about it: below the minimum a warning; still below when the warning expires, search is
 * locked until the figure is back at the minimum or a platform administrator overrides the requirement.
 */

/** How long a contribution warning lets the funder search before it is locked out. */
export const CONTRIBUTION_WARNING_DAYS = 14;
/** The funder's admins are reminded once when the warning expires within this many days. */
export const CONTRIBUTION_REMINDER_DAYS = 3;

/** Merchants and notes to add so that added ÷ searched reaches the minimum percentage (0 when it does). */
export const recordsNeeded = (added: number, searched: number): number =>
  Math.max(0, Math.ceil((searched * MIN_CONTRIBUTION_PERCENT) / 100 - added - 1e-9));

const twoDecimals = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * A contribution figure as people read it. Over 100 % (a funder that adds more than it searches, 833.33 %
 * or 1,050 %) it says "Over 100%": the exact ratio means nothing beyond "well above the minimum". Below
 * 1 % two decimals (the minimum is 0.5 % and 0.49 % must not read as 0.5 %), below 10 % one, else whole.
 */
export function formatContributionPercent(percent: number): string {
  if (percent > 100) return 'Over 100%';
  if (percent < 1) return `${twoDecimals.format(percent)}%`;
  if (percent < 10) return `${oneDecimal.format(percent)}%`;
  return `${whole.format(percent)}%`;
}

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "3 merchants and notes added for 40 distinct merchants searched", what the 90-day figure is made of. */
export const contributionMadeOf = (added: number, searched: number): string =>
  `${plural(added, 'merchant or note', 'merchants and notes')} added for ${plural(searched, 'distinct merchant', 'distinct merchants')} searched`;

/** "2 more merchants or notes", what brings the figure back to the minimum. */
export const moreRecords = (n: number): string =>
  plural(n, 'more merchant or note', 'more merchants or notes');

/** What the screens and e-mails say about the rule, in the same words. */
export const CONTRIBUTION_TEXTS = {
  minimum: `Contribution of at least ${MIN_CONTRIBUTION_PERCENT}% keeps search open; anything at or above it is fine.`,
  formula:
    'Contribution = merchants and notes added ÷ distinct merchants searched, as a percentage, over the last 90, 30, 14 and 7 days (a window with no search shows 100%). The 90-day figure is the one that counts; it is recalculated as records are added and every day at 00:00 UTC.',
  added:
    'Counted as added: each merchant and each note your funder adds (a new merchant with its first note counts as two), by any member or through the API.',
  searched:
    'Counted as searched: each distinct merchant found by an EIN search, or by a name search that found only that merchant, however often it is searched.',
  notCounted:
    'Not counted: edits, deletion requests, searches that found nothing and name searches that listed several merchants.',
  atExpiry: `If it is still below ${MIN_CONTRIBUTION_PERCENT}% when the warning expires, every member of the funder is locked out of merchant search until the figure is back at ${MIN_CONTRIBUTION_PERCENT}% or a platform administrator overrides the requirement.`,
  locked: `Merchant search is locked for every member of the funder until the 90-day contribution is back at ${MIN_CONTRIBUTION_PERCENT}% or a platform administrator overrides the requirement.`,
  lifted: 'The warning (or lock) is lifted by itself as soon as added records bring the figure back.',
  overridden:
    'A platform administrator has overridden the contribution requirement: the funder searches whatever its contribution.',
} as const;

/** The figure above 100 % explained: what it is made of, and that it is well above the minimum. */
export const overHundredExplained = (added: number, searched: number): string =>
  `${contributionMadeOf(added, searched)} in the last 90 days. Anything at or above ${MIN_CONTRIBUTION_PERCENT}% is fine.`;
