import { type EventData, parseEvent, recordsNeeded, streams } from '@mrn/contracts';
import type { Clock, EventStore, Pool, RecordedEvent } from '@mrn/platform';
import type { MailSource, OutboxMail } from '../mail/mail-outbox.ts';
import { mailRecipientsOf } from '../mail/mail-recipients.ts';
import { type AccountEvent, type AccountState, accountDecider } from './account.ts';
import { accounts } from './aggregate.ts';
import { contributionNow } from './contribution.ts';
import { contributionLockMail, contributionMail, contributionUnlockMail } from './contribution-mail.ts';

type MailedType =
  | 'AccountContributionWarningIssued'
  | 'AccountContributionWarningReminded'
  | 'AccountContributionLocked'
  | 'AccountContributionRestored';

/**
 * The account's stream as it stands around `event` (one of its own): the state just before it, the
 * state now, and the types of the events after it.
 */
async function around(
  store: EventStore,
  accountId: string,
  event: RecordedEvent,
): Promise<{ before: AccountState; now: AccountState; after: string[] }> {
  let before = accountDecider.initialState();
  let now = before;
  const after: string[] = [];
  for await (const e of store.readStream(streams.account(accountId))) {
    const parsed = parseEvent({
      type: e.type,
      data: e.data,
      metadata: e.metadata,
    }) as unknown as AccountEvent;
    now = accountDecider.evolve(now, parsed);
    if (e.revision < event.revision) before = now;
    else if (e.revision > event.revision) after.push(e.type);
  }
  return { before, now, after };
}

/**
 * Contribution e-mails through the mail outbox, to each of the funder's admins (its primary contact
 * while it has none): when a warning is issued, again when it expires within 3 days
 * (AccountContributionWarningReminded, decided by the account decider), when search locks at its expiry
 * (AccountContributionLocked), and when a lock is lifted (AccountContributionRestored after a lock; a
 * warning lifted before any lock is shown on every page and not mailed). Once per warning and address:
 * the key names the warning (its issue date; a lock and its lifting belong to the warning that led to
 * them), so reading the log again, or by two processes, writes nothing new. News no longer true when
 * the mail is made (a reader catching up on old history) is not mailed: a warning lifted, replaced or
 * expired, a lock already lifted, a lifting followed by a new warning.
 */
export function contributionMails(deps: {
  pool: Pool;
  store: EventStore;
  clock: Clock;
  productName: string;
  /** Where the web app is (PUBLIC_URL, or the address the server listens on). */
  publicUrl: () => string;
}): MailSource {
  const link = () => `${deps.publicUrl()}/contribution`;
  return {
    name: 'contribution',
    types: [
      'AccountContributionWarningIssued',
      'AccountContributionWarningReminded',
      'AccountContributionLocked',
      'AccountContributionRestored',
    ],
    async mailsFor(event, data): Promise<OutboxMail[]> {
      const type = event.type as MailedType;
      if (type === 'AccountContributionLocked') {
        return lockMails(event, data as EventData<'AccountContributionLocked'>);
      }
      if (type === 'AccountContributionRestored') {
        return unlockMails(event, data as EventData<'AccountContributionRestored'>);
      }
      const d = data as EventData<'AccountContributionWarningIssued' | 'AccountContributionWarningReminded'>;
      const kind = type === 'AccountContributionWarningIssued' ? 'warning' : 'reminder';
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
          link: link(),
          productName: deps.productName,
        }),
      }));
    },
  };

  /** Search locked: mailed while this lock still stands (no lifting after it). */
  async function lockMails(
    event: RecordedEvent,
    d: EventData<'AccountContributionLocked'>,
  ): Promise<OutboxMail[]> {
    const { before, now: state, after } = await around(deps.store, d.accountId, event);
    if (state.status !== 'open' || !state.contributionLocked) return [];
    if (after.includes('AccountContributionRestored')) return [];
    const warning = before.status === 'open' ? before.contributionWarning : null;
    const made = await contributionNow(deps.pool, d.accountId, deps.clock.now());
    const admins = await mailRecipientsOf(deps.pool, d.accountId);
    return admins.map((to) => ({
      key: `contribution-locked:${d.accountId}:${warning?.issuedAt ?? event.id}:${to.email.toLowerCase()}`,
      kind: 'contribution-locked',
      mail: contributionLockMail({
        to,
        accountName: state.name,
        percent: made.percent,
        added: made.added,
        searched: made.searched,
        recordsNeeded: recordsNeeded(made.added, made.searched),
        warning: warning ? { issuedAt: warning.issuedAt, expiresAt: warning.expiresAt } : null,
        overridden: state.contributionOverride,
        link: link(),
        productName: deps.productName,
      }),
    }));
  }

  /** A lock lifted: mailed unless a new warning or lock has followed it. */
  async function unlockMails(
    event: RecordedEvent,
    d: EventData<'AccountContributionRestored'>,
  ): Promise<OutboxMail[]> {
    const { before, now: state, after } = await around(deps.store, d.accountId, event);
    if (before.status !== 'open' || !before.contributionLocked || state.status !== 'open') return [];
    if (after.some((t) => t === 'AccountContributionWarningIssued' || t === 'AccountContributionLocked'))
      return [];
    const admins = await mailRecipientsOf(deps.pool, d.accountId);
    const lifted = before.contributionWarning?.issuedAt ?? event.id;
    return admins.map((to) => ({
      key: `contribution-unlocked:${d.accountId}:${lifted}:${to.email.toLowerCase()}`,
      kind: 'contribution-unlocked',
      mail: contributionUnlockMail({
        to,
        accountName: state.name,
        percent: d.percent,
        link: link(),
        productName: deps.productName,
      }),
    }));
  }
}
