import { formatEin, normaliseEin } from '@mrn/contracts';

const pad = (n: number) => String(n).padStart(2, '0');
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * MM/DD/YYYY (core spec §9). A date-only value (business start date, `2020-05-01`) is shown as
 * written; a timestamp in the viewer's time zone. Empty or unreadable values give an empty string.
 */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) return `${dateOnly[2]}/${dateOnly[3]}/${dateOnly[1]}`;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getMonth() + 1)}/${pad(date.getDate())}/${date.getFullYear()}`;
}

/** MM/DD/YYYY h:mm AM/PM, for audit history. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const hours = date.getHours();
  const twelve = hours % 12 === 0 ? 12 : hours % 12;
  return `${formatDate(value)} ${twelve}:${pad(date.getMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** An EIN/BN stored as 9 digits, shown as 12-3456789. */
export const displayEin = (fein: string): string => formatEin(normaliseEin(fein));

/** "Tampa, FL"; either part may be missing. */
export const cityState = (m: { city?: string | null; state?: string | null }): string =>
  [m.city, m.state].filter(Boolean).join(', ');

/** The street lines and city of a merchant, one line. */
export const fullAddress = (m: {
  street1?: string | null;
  street2?: string | null;
  city?: string | null;
  state?: string | null;
}): string => [m.street1, m.street2, cityState(m)].filter(Boolean).join(', ');

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2026-03` → `Mar 2026`. */
export function monthLabel(month: string): string {
  const [year, m] = month.split('-');
  const name = MONTHS[Number(m) - 1];
  return name && year ? `${name} ${year}` : month;
}
