import type { EventData } from '@mrn/contracts';
import type { EventStore, Pool } from '@mrn/platform';
import { accounts } from '../accounts/aggregate.ts';
import type { MailSource, OutboxMail } from '../mail/mail-outbox.ts';
import { mailRecipientsOf } from '../mail/mail-recipients.ts';

/**
 * The account's admins hear of a failed renewal at once (accounts spec §4: a bar and an e-mail); a
 * funder without admins yet hears through its primary contact. Through the mail outbox, once per failure
 * and address (the key): a Stripe webhook answered before its e-mail is made loses nothing if the process
 * stops, and two processes reading the log write it once. A failure no longer standing when the mail is
 * made (paid since, or the funder archived: a reader catching up on old history) is not mailed.
 */
export function renewalFailedMails(deps: {
  pool: Pool;
  store: EventStore;
  productName: string;
  /** Where the web app is (PUBLIC_URL, or the address the server listens on). */
  publicUrl: () => string;
}): MailSource {
  return {
    name: 'renewal-failed',
    types: ['AccountRenewalFailed'],
    async mailsFor(event, data): Promise<OutboxMail[]> {
      const { accountId } = data as EventData<'AccountRenewalFailed'>;
      const { state } = await accounts.load(deps.store, accountId);
      if (state.status !== 'open' || !state.billing.paymentFailed) return [];
      const recipients = await mailRecipientsOf(deps.pool, accountId);
      return recipients.map((admin) => ({
        key: `renewal-failed:${event.id}:${admin.email}`,
        kind: 'renewal-failed',
        mail: {
          to: admin.email,
          subject: `${deps.productName}: your membership payment failed`,
          text:
            `Hello${admin.firstName ? ` ${admin.firstName}` : ''},\n\nThe renewal payment for ${admin.accountName}'s ` +
            `${deps.productName} membership was declined. We will try again; to keep your access, update ` +
            `the card on file:\n\n${deps.publicUrl()}/account?tab=billing\n\nIf every retry fails, the membership lapses until the open invoice is paid.\n`,
        },
      }));
    },
  };
}
