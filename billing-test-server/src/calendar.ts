import { invalidRequest } from './errors.ts';

/** Calendar arithmetic on unix seconds, in UTC like Stripe's billing periods. */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const DAY = 86_400;
export const HOUR = 3_600;

export const wallClock = (): number => Math.floor(Date.now() / 1000);

/**
 * The anchor moved by whole months. A day the target month lacks (31 Jan + 1 month) becomes its last
 * day, and later periods return to the anchor's day: periods are always counted from the anchor.
 */
export function addMonths(anchor: number, months: number): number {
  const d = new Date(anchor * 1000);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return (
    Date.UTC(
      year,
      month,
      Math.min(d.getUTCDate(), lastDay),
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
    ) / 1000
  );
}

/** Whole months from the anchor to a period boundary that was computed from it. */
export function monthsBetween(anchor: number, boundary: number): number {
  const a = new Date(anchor * 1000);
  const b = new Date(boundary * 1000);
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
}

/**
 * Billing periods in months. The catalogue holds monthly prices only; a daily or weekly price is refused
 * the way Stripe refuses a parameter it cannot take, never answered with a made-up period.
 */
export function intervalMonths(interval: string, count: number): number {
  if (interval === 'month') return count;
  if (interval === 'year') return 12 * count;
  throw invalidRequest(`This server bills by month or year only, not by ${interval}.`, 'price');
}

/** `16 Jan 2026`, as in Stripe's proration line descriptions. */
export function formatDay(unix: number): string {
  const d = new Date(unix * 1000);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** `Jan 16, 2026`, as on Stripe's invoice documents. */
export function formatLongDay(unix: number): string {
  const d = new Date(unix * 1000);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}
