import { describe, expect, it } from 'vitest';
import { contributionLockMail, contributionMail, contributionUnlockMail } from './contribution-mail.ts';

// What a funder's admin reads: the figure, the deadline as a date, what happens then, how many records
// avoid it and where to see the figures.

const facts = {
  kind: 'warning' as const,
  to: { email: 'priya@harbor.example', firstName: 'Priya' },
  accountName: 'Harbor Advance',
  percent: 0.49,
  added: 40,
  searched: 8_120,
  recordsNeeded: 1,
  issuedAt: '2026-11-01T15:04:00.000Z',
  expiresAt: '2026-11-15T15:04:00.000Z',
  overridden: false,
  link: 'https://mrn.example/contribution',
  productName: 'Merchant Risk Network',
};

describe('contribution e-mails', () => {
  it('tell the admin the figure, the deadline, what happens then, what avoids it and the link', () => {
    const mail = contributionMail(facts);
    expect(mail.to).toBe('priya@harbor.example');
    expect(mail.subject).toBe(
      'Contribution warning for Harbor Advance: search locks on November 15, 2026 unless it is back at 0.5%',
    );
    expect(mail.text).toContain('Hello Priya,');
    expect(mail.text).toContain('The 90-day contribution of Harbor Advance is 0.49%, below the 0.5% minimum');
    expect(mail.text).toContain('The warning expires on Sunday, November 15, 2026 at 15:04 UTC.');
    expect(mail.text).toContain(
      'every member of Harbor Advance is locked out of merchant search until the contribution is back at 0.5% or a platform administrator overrides the requirement',
    );
    expect(mail.text).toContain('adding 1 more merchant or note brings it back to 0.5%');
    expect(mail.text).toContain('40 merchants and notes added for 8,120 distinct merchants searched');
    expect(mail.text).toContain('https://mrn.example/contribution');
  });

  it('remind in the same words, and say when an override keeps search open', () => {
    const reminder = contributionMail({ ...facts, kind: 'reminder', recordsNeeded: 3 });
    expect(reminder.subject).toBe(
      "Reminder: Harbor Advance's search locks on November 15, 2026 unless contribution is back at 0.5%",
    );
    expect(reminder.text).toContain('expires in less than 3 days');
    expect(reminder.text).toContain('The warning expires on Sunday, November 15, 2026 at 15:04 UTC.');
    expect(reminder.text).toContain('adding 3 more merchants or notes');
    const overridden = contributionMail({ ...facts, overridden: true });
    expect(overridden.subject).toBe('Contribution warning for Harbor Advance: below the 0.5% minimum');
    expect(overridden.text).toContain('search stays open while the override stands');
    expect(overridden.text).not.toContain('locked out');
  });

  it('say at the lock that search is locked, why (the figure against the minimum, the warning that expired) and how to unlock it', () => {
    const lock = contributionLockMail({
      to: facts.to,
      accountName: facts.accountName,
      percent: 0.49,
      added: 40,
      searched: 8_120,
      recordsNeeded: 1,
      warning: { issuedAt: facts.issuedAt, expiresAt: facts.expiresAt },
      overridden: false,
      link: facts.link,
      productName: facts.productName,
    });
    expect(lock.to).toBe('priya@harbor.example');
    expect(lock.subject).toBe(
      'Search is locked for Harbor Advance: contribution 0.49% is below the 0.5% minimum',
    );
    expect(lock.text).toContain('Hello Priya,');
    expect(lock.text).toContain(
      'The 90-day contribution of Harbor Advance is 0.49%, below the 0.5% minimum needed to search Merchant Risk Network.',
    );
    expect(lock.text).toContain(
      'The contribution warning issued on Sunday, November 1, 2026 at 15:04 UTC expired on Sunday, November 15, 2026 at 15:04 UTC',
    );
    expect(lock.text).toContain('Every member of Harbor Advance is now locked out of merchant search');
    expect(lock.text).toContain('How to unlock: add 1 more merchant or note');
    expect(lock.text).toContain('The lock is lifted by itself as soon as the figure is back');
    expect(lock.text).toContain('40 merchants and notes added for 8,120 distinct merchants searched');
    expect(lock.text).toContain('https://mrn.example/contribution');

    const overridden = contributionLockMail({
      to: facts.to,
      accountName: facts.accountName,
      percent: 0.49,
      added: 40,
      searched: 8_120,
      recordsNeeded: 1,
      warning: null,
      overridden: true,
      link: facts.link,
      productName: facts.productName,
    });
    expect(overridden.subject).toBe(
      'Contribution lock for Harbor Advance: 0.49%, below the 0.5% minimum (search stays open under an override)',
    );
    expect(overridden.text).toContain('search stays open while the override stands');
    expect(overridden.text).not.toContain('is now locked out');
    expect(overridden.text).not.toContain('warning issued');
  });

  it('say when the lock is lifted that search is open again', () => {
    const open = contributionUnlockMail({
      to: { email: 'priya@harbor.example', firstName: null },
      accountName: 'Harbor Advance',
      percent: 0.52,
      link: facts.link,
      productName: facts.productName,
    });
    expect(open.subject).toBe('Search is open again for Harbor Advance: contribution is back at 0.5%');
    expect(open.text).toMatch(/^Hello,\n/);
    expect(open.text).toContain(
      'The 90-day contribution of Harbor Advance is back at 0.52%, at or above the 0.5% minimum, so the contribution lock is lifted: every member can search Merchant Risk Network again.',
    );
    expect(open.text).toContain('https://mrn.example/contribution');
  });
});
