import type { EventData } from '../events/index.ts';

/**
 * "Watch merchants we search" (issue 11): an account setting that subscribes the account to every
 * merchant it identifies by a search, for a chosen number of months, the way bureau portfolio
 * monitoring watches what a lender pulled. Off by default; it only acts for PRO accounts with
 * merchant subscriptions enabled.
 */
export const WATCH_SEARCHED_MONTHS = { min: 1, max: 24, default: 12 } as const;

export interface WatchSettings {
  watchSearchedMerchants: boolean;
  watchSearchedMonths: number;
}

/** The setting as an AccountUpdated carries it; events written before it existed read as off. */
export const watchSettingsOf = (data: Partial<WatchSettings>): WatchSettings => ({
  watchSearchedMerchants: data.watchSearchedMerchants ?? false,
  watchSearchedMonths: data.watchSearchedMonths ?? WATCH_SEARCHED_MONTHS.default,
});

/**
 * `months` calendar months after `at` (UTC), on the last day of the month when that day does not exist
 * there: a search on 31 January watched for a month ends on 28/29 February, not on 3 March.
 */
export function addMonthsUtc(at: Date, months: number): Date {
  const target = new Date(at.getTime());
  const day = at.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

const DAY_MS = 86_400_000;

/**
 * When a watch made by a search on `searchedAt` ends: after the whole UTC day `months` months later
 * (the next midnight). Whole days keep a merchant searched many times a day to one watch, not one
 * longer watch per search, and the daily pass at midnight removes it on the day it has ended.
 */
export function searchWatchEnd(searchedAt: Date, months: number): Date {
  const day = new Date(Math.floor(searchedAt.getTime() / DAY_MS) * DAY_MS);
  return new Date(addMonthsUtc(day, months).getTime() + DAY_MS);
}

/**
 * The merchant a search identified: an EIN search that found it, or a keyword search that found it
 * alone (the meaning contribution gives "searched"). A keyword listing 25 merchants watches none.
 */
export const identifiedMerchant = (search: EventData<'MerchantSearched'>): string | undefined =>
  search.hit && search.merchantIds.length === 1 ? search.merchantIds[0] : undefined;
