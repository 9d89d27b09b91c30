import { Intent } from '@blueprintjs/core';
import { contributionColour } from '@mrn/contracts/domain/plans';

const percentFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export const formatContribution = (percent: number): string => `${percentFormat.format(percent)}%`;

/** Blueprint's danger, warning and success intents are its red, orange and green. */
const INTENT_OF_COLOUR = { red: Intent.DANGER, orange: Intent.WARNING, green: Intent.SUCCESS } as const;

export const contributionIntent = (percent: number): Intent => INTENT_OF_COLOUR[contributionColour(percent)];
