import { Intent } from '@blueprintjs/core';
import { contributionColour, formatContributionPercent } from '@mrn/contracts';

/**
 * A contribution figure everywhere it is shown (top bar, contribution view, funders list): "Over 100%"
 * above 100 (833.33 % says no more than that), two decimals below 1 % so 0.49 % never reads as 0.5 %.
 */
export const formatContribution = (percent: number): string => formatContributionPercent(percent);

/** Blueprint's danger, warning and success intents are its red, orange and green. */
const INTENT_OF_COLOUR = { red: Intent.DANGER, orange: Intent.WARNING, green: Intent.SUCCESS } as const;

export const contributionIntent = (percent: number): Intent => INTENT_OF_COLOUR[contributionColour(percent)];
