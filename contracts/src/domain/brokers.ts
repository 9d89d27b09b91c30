import type { NoteCategory } from './notes.ts';

/**
 * Broker records (issue 24): what the network knows of a broker (ISO) from the notes that name it as
 * their submission source. PRO data, as submission sources are (accounts spec §1).
 */

/** The longest broker name a note may carry (characters, as the note's fields count them). */
export const BROKER_NAME_MAX = 120;

/**
 * The longest key a broker name of BROKER_NAME_MAX characters gives: compatibility decomposition may
 * make one character many (U+FDFA, the longest, gives 18); nothing else in `brokerKey` lengthens a name.
 */
export const BROKER_KEY_MAX = BROKER_NAME_MAX * 18;

/** A dot or an apostrophe (straight or curly) between two letters or digits: inside a word. */
const INSIDE_A_WORD = /(?<=[\p{L}\p{N}])[.'\u2018\u2019](?=[\p{L}\p{N}])/gu;

/**
 * A broker name as one key however it was typed (issue 24, issue 30), in this order:
 * - compatibility decomposition (NFKD), marks dropped, lower case: "Crédit" and "CREDIT" are "credit";
 *   every script's letters and digits stay (the prolonged sound mark ー is a letter);
 * - a dot or an apostrophe inside a word goes, joining it: "I.S.O." and "ISO" are "iso", "O'Brien" is
 *   "obrien";
 * - every other run of anything but letters and digits (spaces, "&", "-", ",", a dot ending a word) is
 *   one space, none at either end: "St. Louis" is "st louis", "A&B" is "a b";
 *   "Main Street Brokers, LLC." and "main  street brokers llc" are one broker.
 * Empty when nothing is left. A key is its own key (`brokerKey(brokerKey(x)) === brokerKey(x)`).
 */
export const brokerKey = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(INSIDE_A_WORD, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Whether `key` is a key some broker name gives (what a broker record's address may hold). */
export const isBrokerKey = (key: string): boolean => key !== '' && brokerKey(key) === key;

/**
 * A broker name as a record shows it: composed (NFC), white space collapsed to single spaces and
 * trimmed; case and punctuation as typed ("Gulf  Coast ISO " shows as "Gulf Coast ISO").
 */
export const tidyBrokerName = (name: string): string => name.normalize('NFC').replace(/\s+/gu, ' ').trim();

/** What a broker record counts: merchants it brought that carry a note in one of these, across the network. */
export const BROKER_RISK_CATEGORIES = {
  default: ['Default Account', 'Default'],
  fraud: ['Suspicious Activity'],
  stacking: ['Stacking History'],
} as const satisfies Record<string, readonly NoteCategory[]>;

export const BROKERS_PER_PAGE = [25, 50, 100] as const;
/** The merchants a broker record lists at most, newest first. */
export const BROKER_MERCHANTS_MAX = 100;
