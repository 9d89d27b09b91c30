import { type EventData, recordsNeeded } from '@mrn/contracts';
import type { Clock, EventStore, Pool } from '@mrn/platform';
import { accounts } from '../aggregates.ts';
import type { MailSource, OutboxMail } from '../mail/mail-outbox.ts';
import { mailRecipientsOf } from '../mail/mail-recipients.ts';
import { contributionNow } from './contribution.ts';
import { contributionMail } from './contribution-mail.ts';

/**
 * Contribution e-mails through the mail outbox: each of the funder's admins hears when a warning is
 * issued and again when it expires within 3 days (AccountContributionWarningReminded, decided by the
 * account decider), once per warning and address (the key). A warning already lifted, replaced or expired
 * when the mail is made (a reader catching up on old history) is not mailed: its news is no longer true.
 */
export function contributionMails(deps: {
  pool: Pool;
  store: EventStore;
  clock: Clock;
  productName: string;
  /** Where the web app is (PUBLIC_URL, or the address the server listens on). */
  publicUrl: () => string;
}): MailSource {
  return {
    name: 'contribution',
    types: ['AccountContributionWarningIssued', 'AccountContributionWarningReminded'],
    async mailsFor(event, data): Promise<OutboxMail[]> {
      const d = data as EventData<'AccountContributionWarningIssued' | 'AccountContributionWarningReminded'>;
      const kind = event.type === 'AccountContributionWarningIssued' ? 'warning' : 'reminder';
      const now = deps.clock.now();
      if (Date.parse(d.expiresAt) <= now.getTime()) return [];
      const { state } = await accounts.load(deps.store, d.accountId);
      if (state.status !== 'open' || state.contributionWarning?.issuedAt !== d.issuedAt) return [];
      const made = await contributionNow(deps.pool, d.accountId, now);
      const admins = await mailRecipientsOf(deps.pool, d.accountId);
      return admins.map((to) => ({
        key: `contribution-${kind}:${d.accountId}:${d.issuedAt}:${to.email.toLowerCase()}`,
        kind: `contribution-${kind}`,
        mail: contributionMail({
          kind,
          to,
          accountName: state.name,
          percent: made.percent,
          added: made.added,
          searched: made.searched,
          recordsNeeded: recordsNeeded(made.added, made.searched),
          issuedAt: d.issuedAt,
          expiresAt: d.expiresAt,
          overridden: state.contributionOverride,
          link: `${deps.publicUrl()}/contribution`,
          productName: deps.productName,
        }),
      }));
    },
  };
}
