import {
  CONTRIBUTION_TEXTS,
  contributionMadeOf,
  formatContributionPercent,
  MIN_CONTRIBUTION_PERCENT,
  moreRecords,
} from '@mrn/contracts';
import type { Mail } from '@mrn/platform';

/** What a contribution e-mail says: the funder, its figure and what it is made of, the warning's dates. */
export interface ContributionMailFacts {
  kind: 'warning' | 'reminder';
  to: { email: string; firstName: string | null };
  accountName: string;
  percent: number;
  added: number;
  searched: number;
  recordsNeeded: number;
  issuedAt: string;
  expiresAt: string;
  /** A platform administrator's override: search stays open at the expiry. */
  overridden: boolean;
  /** The contribution view in the web app. */
  link: string;
  productName: string;
}

const day = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
});
const time = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
/** "Sunday, November 15, 2026 at 15:04 UTC": a deadline nobody has to convert. */
export const mailDate = (iso: string): string => {
  const at = new Date(iso);
  return `${day.format(at)} at ${time.format(at)} UTC`;
};
const dateOnly = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
});

/**
 * The e-mail to each of a funder's admins when its contribution warning is issued, and the reminder
 * when it expires within 3 days: plain text with the figure, the deadline, what happens then, how many
 * records avoid it, and the link to the contribution view.
 */
export function contributionMail(f: ContributionMailFacts): Mail {
  const min = `${MIN_CONTRIBUTION_PERCENT}%`;
  const deadline = dateOnly.format(new Date(f.expiresAt));
  const subject = f.overridden
    ? `Contribution ${f.kind} for ${f.accountName}: below the ${min} minimum`
    : f.kind === 'warning'
      ? `Contribution warning for ${f.accountName}: search locks on ${deadline} unless it is back at ${min}`
      : `Reminder: ${f.accountName}'s search locks on ${deadline} unless contribution is back at ${min}`;
  const opening =
    f.kind === 'warning'
      ? `The 90-day contribution of ${f.accountName} is ${formatContributionPercent(f.percent)}, below the ${min} minimum needed to search ${f.productName}. A warning was issued on ${mailDate(f.issuedAt)}.`
      : `This is a reminder: the contribution warning issued to ${f.accountName} on ${mailDate(f.issuedAt)} expires in less than 3 days, and the 90-day contribution is still ${formatContributionPercent(f.percent)}, below the ${min} minimum.`;
  const atExpiry = f.overridden
    ? `A platform administrator has overridden the contribution requirement for ${f.accountName}, so search stays open while the override stands.`
    : `If it is still below ${min} then, every member of ${f.accountName} is locked out of merchant search until the contribution is back at ${min} or a platform administrator overrides the requirement.`;
  const avoid =
    f.recordsNeeded > 0
      ? `What avoids it: adding ${moreRecords(f.recordsNeeded)} brings it back to ${min} as of now (each further merchant searched raises the number). The warning is lifted by itself as soon as the figure is back.`
      : `The figure is back at ${min} now: the warning is lifted at the next assessment.`;
  return {
    to: f.to.email,
    subject,
    text: [
      `Hello${f.to.firstName ? ` ${f.to.firstName}` : ''},`,
      '',
      opening,
      '',
      `The warning expires on ${mailDate(f.expiresAt)}. ${atExpiry}`,
      '',
      avoid,
      '',
      `Over the last 90 days: ${contributionMadeOf(f.added, f.searched)}. ${CONTRIBUTION_TEXTS.formula}`,
      '',
      `Your funder's contribution: ${f.link}`,
      '',
      f.productName,
    ].join('\n'),
  };
}

/** What the e-mail at a contribution lock says: the funder, its figure, the warning that expired. */
export interface ContributionLockMailFacts {
  to: { email: string; firstName: string | null };
  accountName: string;
  percent: number;
  added: number;
  searched: number;
  recordsNeeded: number;
  /** The warning that expired with the figure still below the minimum (null if none is known). */
  warning: { issuedAt: string; expiresAt: string } | null;
  /** A platform administrator's override: the lock stands but search stays open while it does. */
  overridden: boolean;
  link: string;
  productName: string;
}

/**
 * The e-mail to each of a funder's admins when search locks (AccountContributionLocked): that it is
 * locked, why (the 90-day figure against the minimum, the warning that expired), and how to unlock it
 * (how many records bring the figure back; the lock lifts by itself once they are added).
 */
export function contributionLockMail(f: ContributionLockMailFacts): Mail {
  const min = `${MIN_CONTRIBUTION_PERCENT}%`;
  const figure = formatContributionPercent(f.percent);
  const subject = f.overridden
    ? `Contribution lock for ${f.accountName}: ${figure}, below the ${min} minimum (search stays open under an override)`
    : `Search is locked for ${f.accountName}: contribution ${figure} is below the ${min} minimum`;
  const expired = f.warning
    ? ` The contribution warning issued on ${mailDate(f.warning.issuedAt)} expired on ${mailDate(f.warning.expiresAt)} with the figure still below the minimum.`
    : '';
  const what = f.overridden
    ? `A platform administrator has overridden the contribution requirement for ${f.accountName}, so search stays open while the override stands; without it, every member would be locked out of merchant search.`
    : `Every member of ${f.accountName} is now locked out of merchant search in ${f.productName}, on the web and through the API.`;
  const unlock =
    f.recordsNeeded > 0
      ? `How to unlock: add ${moreRecords(f.recordsNeeded)} (merchants or notes on merchants, by any member or through the API) to bring the figure back to ${min} as of now; each further merchant searched raises the number. The lock is lifted by itself as soon as the figure is back, without anyone asking.`
      : `The figure is back at ${min} now: the lock is lifted at the next assessment.`;
  return {
    to: f.to.email,
    subject,
    text: [
      `Hello${f.to.firstName ? ` ${f.to.firstName}` : ''},`,
      '',
      `The 90-day contribution of ${f.accountName} is ${figure}, below the ${min} minimum needed to search ${f.productName}.${expired}`,
      '',
      what,
      '',
      unlock,
      '',
      `Over the last 90 days: ${contributionMadeOf(f.added, f.searched)}. ${CONTRIBUTION_TEXTS.formula}`,
      '',
      `Your funder's contribution: ${f.link}`,
      '',
      f.productName,
    ].join('\n'),
  };
}

/** The e-mail when a lock is lifted (AccountContributionRestored after AccountContributionLocked). */
export function contributionUnlockMail(f: {
  to: { email: string; firstName: string | null };
  accountName: string;
  percent: number;
  link: string;
  productName: string;
}): Mail {
  const min = `${MIN_CONTRIBUTION_PERCENT}%`;
  const figure = formatContributionPercent(f.percent);
  return {
    to: f.to.email,
    subject: `Search is open again for ${f.accountName}: contribution is back at ${min}`,
    text: [
      `Hello${f.to.firstName ? ` ${f.to.firstName}` : ''},`,
      '',
      `The 90-day contribution of ${f.accountName} is back at ${figure}, at or above the ${min} minimum, so the contribution lock is lifted: every member can search ${f.productName} again.`,
      '',
      `${CONTRIBUTION_TEXTS.minimum} ${CONTRIBUTION_TEXTS.formula}`,
      '',
      `Your funder's contribution: ${f.link}`,
      '',
      f.productName,
    ].join('\n'),
  };
}
