import { Intent } from '@blueprintjs/core';
import { contributionColour, formatContributionPercent, type SessionUser } from '@mrn/contracts';

/**
 * A contribution figure everywhere it is shown (top bar, contribution view, funders list): "Over 100%"
 * above 100 (833.33 % says no more than that), two decimals below 1 % so 0.49 % never reads as 0.5 %.
 */
export const formatContribution = (percent: number): string => formatContributionPercent(percent);

/** Blueprint's danger, warning and success intents are its red, orange and green. */
const INTENT_OF_COLOUR = { red: Intent.DANGER, orange: Intent.WARNING, green: Intent.SUCCESS } as const;

export const contributionIntent = (percent: number): Intent => INTENT_OF_COLOUR[contributionColour(percent)];

/**
 * Whether the user has a contribution of their own to watch (the top bar's pill, the banner, the sidebar's
 * Contribution link): every funder member. Not platform administrators: staff add and search for the
 * network, and their account (the platform's own) is never assessed, so its figure (100 % on a fresh
 * start, a red 0 % after a few searches) meant nothing to them (issue 32).
 */
export const hasOwnContribution = (user: Pick<SessionUser, 'is_dm_admin'>): boolean => !user.is_dm_admin;
