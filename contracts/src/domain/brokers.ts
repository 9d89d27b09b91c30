import type { NoteCategory } from './notes.ts';

/**
 * Broker records (issue 24): what the network knows of a broker (ISO) from the notes that name it as
 * their submission source. PRO data, as submission sources are (accounts spec §1).
 */

/**
 * A broker name as one key however it was typed: lower case, punctuation dropped, spaces collapsed
 * ("Main Street Brokers, LLC." and "main  street brokers llc" are one broker). Empty when nothing is left.
 */
export const brokerKey = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** What a broker record counts: merchants it brought that carry a note in one of these, across the network. */
export const BROKER_RISK_CATEGORIES = {
  default: ['Default Account', 'Default'],
  fraud: ['Suspicious Activity'],
  stacking: ['Stacking History'],
} as const satisfies Record<string, readonly NoteCategory[]>;

export const BROKERS_PER_PAGE = [25, 50, 100] as const;
/** The merchants a broker record lists at most, newest first. */
export const BROKER_MERCHANTS_MAX = 100;
